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
 * Endpoint attributes ({@code struct fi_ep_attr}, fi_endpoint(3)).
 * <p>
 * A plain mutable holder: fields are set fluently on hints and read on output. Output from getinfo is
 * always a fresh copy ({@link #copy()}, like {@code fi_dupinfo}), so changing it affects nothing else.
 * Not thread safe.
 */
public final class EpAttr
{
    private EpType type = EpType.UNSPEC;
    private Protocol protocol = Protocol.UNSPEC;
    private int protocolVersion;
    private long maxMsgSize;
    private long msgPrefixSize;
    private long maxOrderRawSize;
    private long maxOrderWarSize;
    private long maxOrderWawSize;
    private long memTagFormat;
    private long txCtxCnt;
    private long rxCtxCnt;
    private byte[] authKey;

    /**
     * An attribute set with every field unset (zero, null or UNSPEC).
     */
    public EpAttr()
    {
    }

    /**
     * @return the endpoint type ({@code type}).
     */
    public EpType type()
    {
        return type;
    }

    /**
     * @param type the endpoint type ({@code type}).
     * @return this.
     */
    public EpAttr type(final EpType type)
    {
        this.type = type;
        return this;
    }

    /**
     * @return the wire protocol ({@code protocol}).
     */
    public Protocol protocol()
    {
        return protocol;
    }

    /**
     * @param protocol the wire protocol ({@code protocol}).
     * @return this.
     */
    public EpAttr protocol(final Protocol protocol)
    {
        this.protocol = protocol;
        return this;
    }

    /**
     * @return the protocol version ({@code protocol_version}).
     */
    public int protocolVersion()
    {
        return protocolVersion;
    }

    /**
     * @param protocolVersion the protocol version ({@code protocol_version}).
     * @return this.
     */
    public EpAttr protocolVersion(final int protocolVersion)
    {
        this.protocolVersion = protocolVersion;
        return this;
    }

    /**
     * @return the largest message a transfer may carry ({@code max_msg_size}).
     */
    public long maxMsgSize()
    {
        return maxMsgSize;
    }

    /**
     * @param maxMsgSize the largest message a transfer may carry ({@code max_msg_size}).
     * @return this.
     */
    public EpAttr maxMsgSize(final long maxMsgSize)
    {
        this.maxMsgSize = maxMsgSize;
        return this;
    }

    /**
     * @return the prefix required with FI_MSG_PREFIX ({@code msg_prefix_size}).
     */
    public long msgPrefixSize()
    {
        return msgPrefixSize;
    }

    /**
     * @param msgPrefixSize the prefix required with FI_MSG_PREFIX ({@code msg_prefix_size}).
     * @return this.
     */
    public EpAttr msgPrefixSize(final long msgPrefixSize)
    {
        this.msgPrefixSize = msgPrefixSize;
        return this;
    }

    /**
     * @return the largest read-after-write ordered transfer ({@code max_order_raw_size}).
     */
    public long maxOrderRawSize()
    {
        return maxOrderRawSize;
    }

    /**
     * @param maxOrderRawSize the largest read-after-write ordered transfer ({@code max_order_raw_size}).
     * @return this.
     */
    public EpAttr maxOrderRawSize(final long maxOrderRawSize)
    {
        this.maxOrderRawSize = maxOrderRawSize;
        return this;
    }

    /**
     * @return the largest write-after-read ordered transfer ({@code max_order_war_size}).
     */
    public long maxOrderWarSize()
    {
        return maxOrderWarSize;
    }

    /**
     * @param maxOrderWarSize the largest write-after-read ordered transfer ({@code max_order_war_size}).
     * @return this.
     */
    public EpAttr maxOrderWarSize(final long maxOrderWarSize)
    {
        this.maxOrderWarSize = maxOrderWarSize;
        return this;
    }

    /**
     * @return the largest write-after-write ordered transfer ({@code max_order_waw_size}).
     */
    public long maxOrderWawSize()
    {
        return maxOrderWawSize;
    }

    /**
     * @param maxOrderWawSize the largest write-after-write ordered transfer ({@code max_order_waw_size}).
     * @return this.
     */
    public EpAttr maxOrderWawSize(final long maxOrderWawSize)
    {
        this.maxOrderWawSize = maxOrderWawSize;
        return this;
    }

    /**
     * @return the tag format of tagged messages ({@code mem_tag_format}).
     */
    public long memTagFormat()
    {
        return memTagFormat;
    }

    /**
     * @param memTagFormat the tag format of tagged messages ({@code mem_tag_format}).
     * @return this.
     */
    public EpAttr memTagFormat(final long memTagFormat)
    {
        this.memTagFormat = memTagFormat;
        return this;
    }

    /**
     * @return the number of transmit contexts of the endpoint ({@code tx_ctx_cnt}).
     */
    public long txCtxCnt()
    {
        return txCtxCnt;
    }

    /**
     * @param txCtxCnt the number of transmit contexts of the endpoint ({@code tx_ctx_cnt}).
     * @return this.
     */
    public EpAttr txCtxCnt(final long txCtxCnt)
    {
        this.txCtxCnt = txCtxCnt;
        return this;
    }

    /**
     * @return the number of receive contexts of the endpoint ({@code rx_ctx_cnt}).
     */
    public long rxCtxCnt()
    {
        return rxCtxCnt;
    }

    /**
     * @param rxCtxCnt the number of receive contexts of the endpoint ({@code rx_ctx_cnt}).
     * @return this.
     */
    public EpAttr rxCtxCnt(final long rxCtxCnt)
    {
        this.rxCtxCnt = rxCtxCnt;
        return this;
    }

    /**
     * @return the authorization key; its length is auth_key_size ({@code auth_key}).
     */
    public byte[] authKey()
    {
        return authKey;
    }

    /**
     * @param authKey the authorization key; its length is auth_key_size ({@code auth_key}).
     * @return this.
     */
    public EpAttr authKey(final byte[] authKey)
    {
        this.authKey = authKey;
        return this;
    }

    /**
     * A deep copy: byte arrays and nested attributes are copied; object references (open fabric, domain)
     * are shared, as in {@code fi_dupinfo}.
     *
     * @return the copy.
     */
    public EpAttr copy()
    {
        final EpAttr c = new EpAttr();
        c.type = type;
        c.protocol = protocol;
        c.protocolVersion = protocolVersion;
        c.maxMsgSize = maxMsgSize;
        c.msgPrefixSize = msgPrefixSize;
        c.maxOrderRawSize = maxOrderRawSize;
        c.maxOrderWarSize = maxOrderWarSize;
        c.maxOrderWawSize = maxOrderWawSize;
        c.memTagFormat = memTagFormat;
        c.txCtxCnt = txCtxCnt;
        c.rxCtxCnt = rxCtxCnt;
        c.authKey = authKey == null ? null : authKey.clone();
        return c;
    }

    /**
     * @return the authorization key's length in bytes, 0 without a key ({@code auth_key_size}).
     */
    public long authKeySize()
    {
        return authKey == null ? 0 : authKey.length;
    }


    /**
     * @return the attributes as {@code fi_tostr} prints them.
     */
    public String toString()
    {
        return ToStr.toStr(this);
    }
}
