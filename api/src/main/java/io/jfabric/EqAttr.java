/*
 * Copyright 2026 the jfabric authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 * https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.jfabric;

/**
 * Event queue attributes ({@code struct fi_eq_attr}, fi_eq(3)), given to {@link Fabric#eqOpen(EqAttr, long)}.
 * <p>
 * A plain mutable holder, set fluently. {@link EventQueue#attr()} returns a fresh {@link #copy()} holding the
 * values the provider resolved (a {@code size} of 0 becomes the provider's default), so changing it affects
 * nothing else. Not thread safe.
 * <p>
 * Fields of the C structure:
 * <ul>
 *   <li>{@code size}: the minimum number of entries the queue holds; 0 asks for the provider's default.</li>
 *   <li>{@code flags}: {@link Flags#FI_WRITE} (the application will insert events with
 *       {@link EventQueue#write(int, EqEntry, long)}) and {@link Flags#FI_AFFINITY} (the
 *       {@code signaling_vector} is meaningful); nothing else.</li>
 *   <li>{@code wait_obj}: how {@link EventQueue#sread(EqEntry, int, long)} waits; {@link WaitObj#NONE} by
 *       default, as the page says, which forbids sread.</li>
 *   <li>{@code signaling_vector}: with FI_AFFINITY, the CPU interrupts should target; a hint a provider may
 *       ignore.</li>
 *   <li>{@code wait_set}: omitted. jfabric has no wait sets ({@code fi_wait_open}), so there is nothing to
 *       reference; a {@link WaitObj#SET} request is refused when the queue is opened.</li>
 * </ul>
 */
public final class EqAttr
{
    private long size;
    private long flags;
    private WaitObj waitObj = WaitObj.NONE;
    private int signalingVector;

    /**
     * Attributes with every field at its C default: size 0 (provider default), no flags, FI_WAIT_NONE,
     * signaling vector 0.
     */
    public EqAttr()
    {
    }

    /**
     * @return the minimum number of entries ({@code size}); 0 asks for the provider's default.
     */
    public long size()
    {
        return size;
    }

    /**
     * @param size the minimum number of entries ({@code size}); 0 asks for the provider's default.
     * @return this.
     */
    public EqAttr size(final long size)
    {
        this.size = size;
        return this;
    }

    /**
     * @return the operation flags ({@code flags}): {@link Flags#FI_WRITE}, {@link Flags#FI_AFFINITY}.
     */
    public long flags()
    {
        return flags;
    }

    /**
     * @param flags the operation flags ({@code flags}): {@link Flags#FI_WRITE}, {@link Flags#FI_AFFINITY}.
     * @return this.
     */
    public EqAttr flags(final long flags)
    {
        this.flags = flags;
        return this;
    }

    /**
     * @return the requested wait object ({@code wait_obj}).
     */
    public WaitObj waitObj()
    {
        return waitObj;
    }

    /**
     * @param waitObj the requested wait object ({@code wait_obj}).
     * @return this.
     */
    public EqAttr waitObj(final WaitObj waitObj)
    {
        this.waitObj = waitObj;
        return this;
    }

    /**
     * @return the CPU interrupts should target when {@link Flags#FI_AFFINITY} is set ({@code signaling_vector}).
     */
    public int signalingVector()
    {
        return signalingVector;
    }

    /**
     * @param signalingVector the CPU interrupts should target when {@link Flags#FI_AFFINITY} is set
     *                        ({@code signaling_vector}).
     * @return this.
     */
    public EqAttr signalingVector(final int signalingVector)
    {
        this.signalingVector = signalingVector;
        return this;
    }

    /**
     * @return an independent copy.
     */
    public EqAttr copy()
    {
        final EqAttr c = new EqAttr();
        c.size = size;
        c.flags = flags;
        c.waitObj = waitObj;
        c.signalingVector = signalingVector;
        return c;
    }

    /**
     * @return the attributes in the shape of the C structure, for logs and messages.
     */
    public String toString()
    {
        final StringBuilder sb = new StringBuilder("fi_eq_attr: { size: ").append(size).append(", flags: [ ");
        if ((flags & Flags.FI_WRITE) != 0)
        {
            sb.append("FI_WRITE ");
        }
        if ((flags & Flags.FI_AFFINITY) != 0)
        {
            sb.append("FI_AFFINITY ");
        }
        final long other = flags & ~(Flags.FI_WRITE | Flags.FI_AFFINITY);
        if (other != 0)
        {
            sb.append("0x").append(Long.toHexString(other)).append(' ');
        }
        return sb.append("], wait_obj: ").append(waitObj == null ? "(null)" : waitObj.cName())
            .append(", signaling_vector: ").append(signalingVector)
            .append(", wait_set: (nil) }")
            .toString();
    }
}
