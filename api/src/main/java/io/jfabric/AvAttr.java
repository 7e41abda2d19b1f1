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
 * Address vector attributes ({@code struct fi_av_attr}, fi_av(3)): a plain mutable holder, passed to
 * {@link Domain#avOpen} and copied on output by {@link AddressVector#attr()} with the values in force (the type
 * resolved from {@link AvType#UNSPEC}, the count used, the map_addr of a named AV).
 * <p>
 * Not thread safe; a holder belongs to the thread filling it.
 */
public final class AvAttr
{
    private AvType type = AvType.UNSPEC;
    private int rxCtxBits;
    private long count;
    private long epPerNode;
    private String name;
    private long mapAddr;
    private long flags;

    /**
     * Attributes with every field at its default, as a zeroed {@code struct fi_av_attr}.
     */
    public AvAttr()
    {
    }

    /** @return the AV type ({@code type}); UNSPEC lets the provider choose. */
    public AvType type()
    {
        return type;
    }

    /**
     * @param type the AV type.
     * @return this.
     */
    public AvAttr type(final AvType type)
    {
        this.type = type;
        return this;
    }

    /** @return bits of an fi_addr_t reserved for the receive context index ({@code rx_ctx_bits}). */
    public int rxCtxBits()
    {
        return rxCtxBits;
    }

    /**
     * @param rxCtxBits bits reserved for the receive context index.
     * @return this.
     */
    public AvAttr rxCtxBits(final int rxCtxBits)
    {
        this.rxCtxBits = rxCtxBits;
        return this;
    }

    /** @return the number of addresses expected ({@code count}); 0 lets the provider choose. */
    public long count()
    {
        return count;
    }

    /**
     * @param count the number of addresses expected.
     * @return this.
     */
    public AvAttr count(final long count)
    {
        this.count = count;
        return this;
    }

    /** @return endpoints per node ({@code ep_per_node}), 0 when unknown. */
    public long epPerNode()
    {
        return epPerNode;
    }

    /**
     * @param epPerNode endpoints per node, 0 when unknown.
     * @return this.
     */
    public AvAttr epPerNode(final long epPerNode)
    {
        this.epPerNode = epPerNode;
        return this;
    }

    /** @return the system name of a shared AV ({@code name}), or null for a process-private one. */
    public String name()
    {
        return name;
    }

    /**
     * @param name the system name of a shared AV, or null.
     * @return this.
     */
    public AvAttr name(final String name)
    {
        this.name = name;
        return this;
    }

    /**
     * @return where a named AV is mapped ({@code map_addr}); 0 asks for the one in use. It is the base of the
     * fi_addr_t values of a named FI_AV_MAP; an FI_AV_TABLE's values are indices from 0 whatever it is (fi_av(3)).
     */
    public long mapAddr()
    {
        return mapAddr;
    }

    /**
     * @param mapAddr the base of the fi_addr_t values, 0 for the one in use.
     * @return this.
     */
    public AvAttr mapAddr(final long mapAddr)
    {
        this.mapAddr = mapAddr;
        return this;
    }

    /** @return open flags ({@code flags}): FI_EVENT, FI_READ, FI_SYMMETRIC, FI_AV_USER_ID. */
    public long flags()
    {
        return flags;
    }

    /**
     * @param flags open flags.
     * @return this.
     */
    public AvAttr flags(final long flags)
    {
        this.flags = flags;
        return this;
    }

    /** @return a copy. */
    public AvAttr copy()
    {
        return new AvAttr().type(type).rxCtxBits(rxCtxBits).count(count).epPerNode(epPerNode).name(name)
            .mapAddr(mapAddr).flags(flags);
    }

    @Override
    public String toString()
    {
        return "AvAttr{type=" + type.cName() + ", rxCtxBits=" + rxCtxBits + ", count=" + count + ", epPerNode=" +
            epPerNode + ", name=" + name + ", mapAddr=0x" + Long.toHexString(mapAddr) + ", flags=0x" +
            Long.toHexString(flags) + '}';
    }
}
