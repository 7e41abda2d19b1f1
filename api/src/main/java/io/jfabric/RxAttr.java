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
 * Receive context attributes ({@code struct fi_rx_attr}, fi_endpoint(3)).
 * <p>
 * A plain mutable holder: fields are set fluently on hints and read on output. Output from getinfo is
 * always a fresh copy ({@link #copy()}, like {@code fi_dupinfo}), so changing it affects nothing else.
 * Not thread safe.
 */
public final class RxAttr
{
    private long caps;
    private long mode;
    private long opFlags;
    private long msgOrder;
    private long compOrder;
    private long totalBufferedRecv;
    private long size;
    private long iovLimit;

    /**
     * An attribute set with every field unset (zero, null or UNSPEC).
     */
    public RxAttr()
    {
    }

    /**
     * @return receive capabilities ({@code caps}).
     */
    public long caps()
    {
        return caps;
    }

    /**
     * @param caps receive capabilities ({@code caps}).
     * @return this.
     */
    public RxAttr caps(final long caps)
    {
        this.caps = caps;
        return this;
    }

    /**
     * @return receive mode bits ({@code mode}).
     */
    public long mode()
    {
        return mode;
    }

    /**
     * @param mode receive mode bits ({@code mode}).
     * @return this.
     */
    public RxAttr mode(final long mode)
    {
        this.mode = mode;
        return this;
    }

    /**
     * @return default operation flags ({@code op_flags}).
     */
    public long opFlags()
    {
        return opFlags;
    }

    /**
     * @param opFlags default operation flags ({@code op_flags}).
     * @return this.
     */
    public RxAttr opFlags(final long opFlags)
    {
        this.opFlags = opFlags;
        return this;
    }

    /**
     * @return message ordering bits, see MsgOrder ({@code msg_order}).
     */
    public long msgOrder()
    {
        return msgOrder;
    }

    /**
     * @param msgOrder message ordering bits, see MsgOrder ({@code msg_order}).
     * @return this.
     */
    public RxAttr msgOrder(final long msgOrder)
    {
        this.msgOrder = msgOrder;
        return this;
    }

    /**
     * @return completion ordering bits ({@code comp_order}).
     */
    public long compOrder()
    {
        return compOrder;
    }

    /**
     * @param compOrder completion ordering bits ({@code comp_order}).
     * @return this.
     */
    public RxAttr compOrder(final long compOrder)
    {
        this.compOrder = compOrder;
        return this;
    }

    /**
     * @return bytes the provider buffers for unexpected messages ({@code total_buffered_recv}).
     */
    public long totalBufferedRecv()
    {
        return totalBufferedRecv;
    }

    /**
     * @param totalBufferedRecv bytes the provider buffers for unexpected messages ({@code total_buffered_recv}).
     * @return this.
     */
    public RxAttr totalBufferedRecv(final long totalBufferedRecv)
    {
        this.totalBufferedRecv = totalBufferedRecv;
        return this;
    }

    /**
     * @return the receive context depth ({@code size}).
     */
    public long size()
    {
        return size;
    }

    /**
     * @param size the receive context depth ({@code size}).
     * @return this.
     */
    public RxAttr size(final long size)
    {
        this.size = size;
        return this;
    }

    /**
     * @return the most iov entries of one receive ({@code iov_limit}).
     */
    public long iovLimit()
    {
        return iovLimit;
    }

    /**
     * @param iovLimit the most iov entries of one receive ({@code iov_limit}).
     * @return this.
     */
    public RxAttr iovLimit(final long iovLimit)
    {
        this.iovLimit = iovLimit;
        return this;
    }

    /**
     * A deep copy: byte arrays and nested attributes are copied; object references (open fabric, domain)
     * are shared, as in {@code fi_dupinfo}.
     *
     * @return the copy.
     */
    public RxAttr copy()
    {
        final RxAttr c = new RxAttr();
        c.caps = caps;
        c.mode = mode;
        c.opFlags = opFlags;
        c.msgOrder = msgOrder;
        c.compOrder = compOrder;
        c.totalBufferedRecv = totalBufferedRecv;
        c.size = size;
        c.iovLimit = iovLimit;
        return c;
    }


    /**
     * @return the attributes as {@code fi_tostr} prints them.
     */
    public String toString()
    {
        return ToStr.toStr(this);
    }
}
