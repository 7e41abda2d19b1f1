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
 * Transmit context attributes ({@code struct fi_tx_attr}, fi_endpoint(3)).
 * <p>
 * A plain mutable holder: fields are set fluently on hints and read on output. Output from getinfo is
 * always a fresh copy ({@link #copy()}, like {@code fi_dupinfo}), so changing it affects nothing else.
 * Not thread safe.
 */
public final class TxAttr
{
    private long caps;
    private long mode;
    private long opFlags;
    private long msgOrder;
    private long compOrder;
    private long injectSize;
    private long size;
    private long iovLimit;
    private long rmaIovLimit;
    private int tclass;

    /**
     * An attribute set with every field unset (zero, null or UNSPEC).
     */
    public TxAttr()
    {
    }

    /**
     * @return transmit capabilities ({@code caps}).
     */
    public long caps()
    {
        return caps;
    }

    /**
     * @param caps transmit capabilities ({@code caps}).
     * @return this.
     */
    public TxAttr caps(final long caps)
    {
        this.caps = caps;
        return this;
    }

    /**
     * @return transmit mode bits ({@code mode}).
     */
    public long mode()
    {
        return mode;
    }

    /**
     * @param mode transmit mode bits ({@code mode}).
     * @return this.
     */
    public TxAttr mode(final long mode)
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
    public TxAttr opFlags(final long opFlags)
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
    public TxAttr msgOrder(final long msgOrder)
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
    public TxAttr compOrder(final long compOrder)
    {
        this.compOrder = compOrder;
        return this;
    }

    /**
     * @return the largest inject transfer ({@code inject_size}).
     */
    public long injectSize()
    {
        return injectSize;
    }

    /**
     * @param injectSize the largest inject transfer ({@code inject_size}).
     * @return this.
     */
    public TxAttr injectSize(final long injectSize)
    {
        this.injectSize = injectSize;
        return this;
    }

    /**
     * @return the transmit context depth ({@code size}).
     */
    public long size()
    {
        return size;
    }

    /**
     * @param size the transmit context depth ({@code size}).
     * @return this.
     */
    public TxAttr size(final long size)
    {
        this.size = size;
        return this;
    }

    /**
     * @return the most iov entries of one transfer ({@code iov_limit}).
     */
    public long iovLimit()
    {
        return iovLimit;
    }

    /**
     * @param iovLimit the most iov entries of one transfer ({@code iov_limit}).
     * @return this.
     */
    public TxAttr iovLimit(final long iovLimit)
    {
        this.iovLimit = iovLimit;
        return this;
    }

    /**
     * @return the most remote iov entries of one RMA transfer ({@code rma_iov_limit}).
     */
    public long rmaIovLimit()
    {
        return rmaIovLimit;
    }

    /**
     * @param rmaIovLimit the most remote iov entries of one RMA transfer ({@code rma_iov_limit}).
     * @return this.
     */
    public TxAttr rmaIovLimit(final long rmaIovLimit)
    {
        this.rmaIovLimit = rmaIovLimit;
        return this;
    }

    /**
     * @return the traffic class ({@code tclass}).
     */
    public int tclass()
    {
        return tclass;
    }

    /**
     * @param tclass the traffic class ({@code tclass}).
     * @return this.
     */
    public TxAttr tclass(final int tclass)
    {
        this.tclass = tclass;
        return this;
    }

    /**
     * A deep copy: byte arrays and nested attributes are copied; object references (open fabric, domain)
     * are shared, as in {@code fi_dupinfo}.
     *
     * @return the copy.
     */
    public TxAttr copy()
    {
        final TxAttr c = new TxAttr();
        c.caps = caps;
        c.mode = mode;
        c.opFlags = opFlags;
        c.msgOrder = msgOrder;
        c.compOrder = compOrder;
        c.injectSize = injectSize;
        c.size = size;
        c.iovLimit = iovLimit;
        c.rmaIovLimit = rmaIovLimit;
        c.tclass = tclass;
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
