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

import java.nio.ByteBuffer;

/**
 * The message descriptor of {@code fi_sendmsg}/{@code fi_recvmsg} ({@code struct fi_msg}) and, with
 * {@link #tag} and {@link #ignore}, of {@code fi_tsendmsg}/{@code fi_trecvmsg} ({@code struct fi_msg_tagged}).
 * <p>
 * A plain mutable holder that an application allocates once and refills for every call, so the data path stays
 * allocation free. The i-th data buffer is {@code iov[i]} from absolute index {@code iovOffset[i]} for
 * {@code iovLength[i]} bytes (a buffer's position and limit are ignored), with local descriptor {@code desc[i]}
 * ({@link MemoryRegion#desc()}, or 0); only the first {@link #iovCount} entries count. The provider reads it during
 * the call and keeps no reference to the holder itself, only to the buffers of a posted receive.
 */
public final class Msg
{
    /** Data buffers. */
    public final ByteBuffer[] iov;
    /** Absolute start index in each buffer. */
    public final int[] iovOffset;
    /** Bytes of each buffer. */
    public final int[] iovLength;
    /** Local memory descriptor of each buffer, 0 when none. */
    public final long[] desc;
    /** Entries of the arrays in use. */
    public int iovCount;
    /** Destination (send) or source (receive) fi_addr; {@link Addresses#FI_ADDR_UNSPEC} for any source. */
    public long addr = Addresses.FI_ADDR_UNSPEC;
    /** The operation's context, returned in its completion. */
    public long context;
    /** Remote CQ data sent with FI_REMOTE_CQ_DATA. */
    public long data;
    /** Tag of a tagged message. */
    public long tag;
    /** Ignore mask of a tagged receive: bits set here are not compared. */
    public long ignore;

    /**
     * @param maxIov largest number of buffers this holder will carry.
     */
    public Msg(final int maxIov)
    {
        if (maxIov < 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "Msg: maxIov must be at least 1, was " + maxIov);
        }
        iov = new ByteBuffer[maxIov];
        iovOffset = new int[maxIov];
        iovLength = new int[maxIov];
        desc = new long[maxIov];
    }

    /**
     * Makes this a single-buffer message.
     *
     * @param buffer data buffer.
     * @param offset absolute start index.
     * @param length bytes.
     * @param bufferDesc local descriptor or 0.
     * @return this.
     */
    public Msg set(final ByteBuffer buffer, final int offset, final int length, final long bufferDesc)
    {
        iov[0] = buffer;
        iovOffset[0] = offset;
        iovLength[0] = length;
        desc[0] = bufferDesc;
        iovCount = 1;
        return this;
    }

    /** @return total bytes over the buffers in use. */
    public long totalLength()
    {
        long total = 0;
        for (int i = 0; i < iovCount; i++)
        {
            total += iovLength[i];
        }
        return total;
    }
}
