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
 * A fabric interface description ({@code struct fi_info}, fi_getinfo(3)): hints on input, one matching
 * provider configuration on output. {@code new Info()} is {@code fi_allocinfo}: every nested attribute is
 * allocated and unset.
 * <p>
 * A plain mutable holder: fields are set fluently on hints and read on output. Output from getinfo is
 * always a fresh copy ({@link #copy()}, like {@code fi_dupinfo}), so changing it affects nothing else.
 * Not thread safe.
 */
public final class Info
{
    private long caps;
    private long mode;
    private AddrFormat addrFormat = AddrFormat.UNSPEC;
    private byte[] srcAddr;
    private byte[] destAddr;
    private Fid handle;
    private TxAttr txAttr = new TxAttr();
    private RxAttr rxAttr = new RxAttr();
    private EpAttr epAttr = new EpAttr();
    private DomainAttr domainAttr = new DomainAttr();
    private FabricAttr fabricAttr = new FabricAttr();

    /**
     * An attribute set with every field unset (zero, null or UNSPEC).
     */
    public Info()
    {
    }

    /**
     * @return capability bits, see Flags ({@code caps}).
     */
    public long caps()
    {
        return caps;
    }

    /**
     * @param caps capability bits, see Flags ({@code caps}).
     * @return this.
     */
    public Info caps(final long caps)
    {
        this.caps = caps;
        return this;
    }

    /**
     * @return mode bits, see Mode ({@code mode}).
     */
    public long mode()
    {
        return mode;
    }

    /**
     * @param mode mode bits, see Mode ({@code mode}).
     * @return this.
     */
    public Info mode(final long mode)
    {
        this.mode = mode;
        return this;
    }

    /**
     * @return the address format ({@code addr_format}).
     */
    public AddrFormat addrFormat()
    {
        return addrFormat;
    }

    /**
     * @param addrFormat the address format ({@code addr_format}).
     * @return this.
     */
    public Info addrFormat(final AddrFormat addrFormat)
    {
        this.addrFormat = addrFormat;
        return this;
    }

    /**
     * @return the source address; its length is src_addrlen ({@code src_addr}).
     */
    public byte[] srcAddr()
    {
        return srcAddr;
    }

    /**
     * @param srcAddr the source address; its length is src_addrlen ({@code src_addr}).
     * @return this.
     */
    public Info srcAddr(final byte[] srcAddr)
    {
        this.srcAddr = srcAddr;
        return this;
    }

    /**
     * @return the destination address; its length is dest_addrlen ({@code dest_addr}).
     */
    public byte[] destAddr()
    {
        return destAddr;
    }

    /**
     * @param destAddr the destination address; its length is dest_addrlen ({@code dest_addr}).
     * @return this.
     */
    public Info destAddr(final byte[] destAddr)
    {
        this.destAddr = destAddr;
        return this;
    }

    /**
     * @return a passive endpoint or endpoint the info refers to ({@code handle}).
     */
    public Fid handle()
    {
        return handle;
    }

    /**
     * @param handle a passive endpoint or endpoint the info refers to ({@code handle}).
     * @return this.
     */
    public Info handle(final Fid handle)
    {
        this.handle = handle;
        return this;
    }

    /**
     * @return transmit attributes ({@code tx_attr}).
     */
    public TxAttr txAttr()
    {
        return txAttr;
    }

    /**
     * @param txAttr transmit attributes ({@code tx_attr}).
     * @return this.
     */
    public Info txAttr(final TxAttr txAttr)
    {
        this.txAttr = txAttr;
        return this;
    }

    /**
     * @return receive attributes ({@code rx_attr}).
     */
    public RxAttr rxAttr()
    {
        return rxAttr;
    }

    /**
     * @param rxAttr receive attributes ({@code rx_attr}).
     * @return this.
     */
    public Info rxAttr(final RxAttr rxAttr)
    {
        this.rxAttr = rxAttr;
        return this;
    }

    /**
     * @return endpoint attributes ({@code ep_attr}).
     */
    public EpAttr epAttr()
    {
        return epAttr;
    }

    /**
     * @param epAttr endpoint attributes ({@code ep_attr}).
     * @return this.
     */
    public Info epAttr(final EpAttr epAttr)
    {
        this.epAttr = epAttr;
        return this;
    }

    /**
     * @return domain attributes ({@code domain_attr}).
     */
    public DomainAttr domainAttr()
    {
        return domainAttr;
    }

    /**
     * @param domainAttr domain attributes ({@code domain_attr}).
     * @return this.
     */
    public Info domainAttr(final DomainAttr domainAttr)
    {
        this.domainAttr = domainAttr;
        return this;
    }

    /**
     * @return fabric attributes ({@code fabric_attr}).
     */
    public FabricAttr fabricAttr()
    {
        return fabricAttr;
    }

    /**
     * @param fabricAttr fabric attributes ({@code fabric_attr}).
     * @return this.
     */
    public Info fabricAttr(final FabricAttr fabricAttr)
    {
        this.fabricAttr = fabricAttr;
        return this;
    }

    /**
     * A deep copy: byte arrays and nested attributes are copied; object references (open fabric, domain)
     * are shared, as in {@code fi_dupinfo}.
     *
     * @return the copy.
     */
    public Info copy()
    {
        final Info c = new Info();
        c.caps = caps;
        c.mode = mode;
        c.addrFormat = addrFormat;
        c.srcAddr = srcAddr == null ? null : srcAddr.clone();
        c.destAddr = destAddr == null ? null : destAddr.clone();
        c.handle = handle;
        c.txAttr = txAttr == null ? null : txAttr.copy();
        c.rxAttr = rxAttr == null ? null : rxAttr.copy();
        c.epAttr = epAttr == null ? null : epAttr.copy();
        c.domainAttr = domainAttr == null ? null : domainAttr.copy();
        c.fabricAttr = fabricAttr == null ? null : fabricAttr.copy();
        return c;
    }

    /**
     * @return the source address length in bytes ({@code src_addrlen}).
     */
    public long srcAddrLen()
    {
        return srcAddr == null ? 0 : srcAddr.length;
    }

    /**
     * @return the destination address length in bytes ({@code dest_addrlen}).
     */
    public long destAddrLen()
    {
        return destAddr == null ? 0 : destAddr.length;
    }


    /**
     * @return the attributes as {@code fi_tostr} prints them.
     */
    public String toString()
    {
        return ToStr.toStr(this);
    }
}
