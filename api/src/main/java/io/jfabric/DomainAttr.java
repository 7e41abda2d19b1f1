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
 * Domain attributes ({@code struct fi_domain_attr}, fi_domain(3)): every field of the C structure.
 * <p>
 * A plain mutable holder: fields are set fluently on hints and read on output. Output from getinfo is
 * always a fresh copy ({@link #copy()}, like {@code fi_dupinfo}), so changing it affects nothing else.
 * Not thread safe.
 */
public final class DomainAttr
{
    /**
     * {@code FI_AV_AUTH_KEY} (SIZE_MAX): the auth_key_size of a domain whose authorization keys are inserted into
     * its address vectors (fi_av_insert_auth_key) instead of given here.
     */
    public static final long FI_AV_AUTH_KEY = -1L;

    private Domain domain;
    private String name;
    private Threading threading = Threading.UNSPEC;
    private Progress controlProgress = Progress.UNSPEC;
    private Progress dataProgress = Progress.UNSPEC;
    private ResourceMgmt resourceMgmt = ResourceMgmt.UNSPEC;
    private AvType avType = AvType.UNSPEC;
    private int mrMode;
    private long mrKeySize;
    private long cqDataSize;
    private long cqCnt;
    private long epCnt;
    private long txCtxCnt;
    private long rxCtxCnt;
    private long maxEpTxCtx;
    private long maxEpRxCtx;
    private long maxEpStxCtx;
    private long maxEpSrxCtx;
    private long cntrCnt;
    private long mrIovLimit;
    private long caps;
    private long mode;
    private byte[] authKey;
    private boolean avAuthKey;
    private long maxErrData;
    private long mrCnt;
    private int tclass;

    /**
     * An attribute set with every field unset (zero, null or UNSPEC).
     */
    public DomainAttr()
    {
    }

    /**
     * @return an open domain to restrict getinfo to, or the open instance on output ({@code domain}).
     */
    public Domain domain()
    {
        return domain;
    }

    /**
     * @param domain an open domain to restrict getinfo to, or the open instance on output ({@code domain}).
     * @return this.
     */
    public DomainAttr domain(final Domain domain)
    {
        this.domain = domain;
        return this;
    }

    /**
     * @return the domain name ({@code name}).
     */
    public String name()
    {
        return name;
    }

    /**
     * @param name the domain name ({@code name}).
     * @return this.
     */
    public DomainAttr name(final String name)
    {
        this.name = name;
        return this;
    }

    /**
     * @return the threading model ({@code threading}).
     */
    public Threading threading()
    {
        return threading;
    }

    /**
     * @param threading the threading model ({@code threading}).
     * @return this.
     */
    public DomainAttr threading(final Threading threading)
    {
        this.threading = threading;
        return this;
    }

    /**
     * @return the control progress model ({@code control_progress}).
     */
    public Progress controlProgress()
    {
        return controlProgress;
    }

    /**
     * @param controlProgress the control progress model ({@code control_progress}).
     * @return this.
     */
    public DomainAttr controlProgress(final Progress controlProgress)
    {
        this.controlProgress = controlProgress;
        return this;
    }

    /**
     * @return the data progress model ({@code data_progress}).
     */
    public Progress dataProgress()
    {
        return dataProgress;
    }

    /**
     * @param dataProgress the data progress model ({@code data_progress}).
     * @return this.
     */
    public DomainAttr dataProgress(final Progress dataProgress)
    {
        this.dataProgress = dataProgress;
        return this;
    }

    /**
     * @return resource management ({@code resource_mgmt}).
     */
    public ResourceMgmt resourceMgmt()
    {
        return resourceMgmt;
    }

    /**
     * @param resourceMgmt resource management ({@code resource_mgmt}).
     * @return this.
     */
    public DomainAttr resourceMgmt(final ResourceMgmt resourceMgmt)
    {
        this.resourceMgmt = resourceMgmt;
        return this;
    }

    /**
     * @return the address vector type ({@code av_type}).
     */
    public AvType avType()
    {
        return avType;
    }

    /**
     * @param avType the address vector type ({@code av_type}).
     * @return this.
     */
    public DomainAttr avType(final AvType avType)
    {
        this.avType = avType;
        return this;
    }

    /**
     * @return memory registration mode bits, see MrMode ({@code mr_mode}).
     */
    public int mrMode()
    {
        return mrMode;
    }

    /**
     * @param mrMode memory registration mode bits, see MrMode ({@code mr_mode}).
     * @return this.
     */
    public DomainAttr mrMode(final int mrMode)
    {
        this.mrMode = mrMode;
        return this;
    }

    /**
     * @return size of a memory registration key in bytes ({@code mr_key_size}).
     */
    public long mrKeySize()
    {
        return mrKeySize;
    }

    /**
     * @param mrKeySize size of a memory registration key in bytes ({@code mr_key_size}).
     * @return this.
     */
    public DomainAttr mrKeySize(final long mrKeySize)
    {
        this.mrKeySize = mrKeySize;
        return this;
    }

    /**
     * @return bytes of remote CQ data a transfer can carry ({@code cq_data_size}).
     */
    public long cqDataSize()
    {
        return cqDataSize;
    }

    /**
     * @param cqDataSize bytes of remote CQ data a transfer can carry ({@code cq_data_size}).
     * @return this.
     */
    public DomainAttr cqDataSize(final long cqDataSize)
    {
        this.cqDataSize = cqDataSize;
        return this;
    }

    /**
     * @return the number of completion queues the domain supports ({@code cq_cnt}).
     */
    public long cqCnt()
    {
        return cqCnt;
    }

    /**
     * @param cqCnt the number of completion queues the domain supports ({@code cq_cnt}).
     * @return this.
     */
    public DomainAttr cqCnt(final long cqCnt)
    {
        this.cqCnt = cqCnt;
        return this;
    }

    /**
     * @return the number of endpoints the domain supports ({@code ep_cnt}).
     */
    public long epCnt()
    {
        return epCnt;
    }

    /**
     * @param epCnt the number of endpoints the domain supports ({@code ep_cnt}).
     * @return this.
     */
    public DomainAttr epCnt(final long epCnt)
    {
        this.epCnt = epCnt;
        return this;
    }

    /**
     * @return the number of transmit contexts the domain supports ({@code tx_ctx_cnt}).
     */
    public long txCtxCnt()
    {
        return txCtxCnt;
    }

    /**
     * @param txCtxCnt the number of transmit contexts the domain supports ({@code tx_ctx_cnt}).
     * @return this.
     */
    public DomainAttr txCtxCnt(final long txCtxCnt)
    {
        this.txCtxCnt = txCtxCnt;
        return this;
    }

    /**
     * @return the number of receive contexts the domain supports ({@code rx_ctx_cnt}).
     */
    public long rxCtxCnt()
    {
        return rxCtxCnt;
    }

    /**
     * @param rxCtxCnt the number of receive contexts the domain supports ({@code rx_ctx_cnt}).
     * @return this.
     */
    public DomainAttr rxCtxCnt(final long rxCtxCnt)
    {
        this.rxCtxCnt = rxCtxCnt;
        return this;
    }

    /**
     * @return the most transmit contexts one endpoint may have ({@code max_ep_tx_ctx}).
     */
    public long maxEpTxCtx()
    {
        return maxEpTxCtx;
    }

    /**
     * @param maxEpTxCtx the most transmit contexts one endpoint may have ({@code max_ep_tx_ctx}).
     * @return this.
     */
    public DomainAttr maxEpTxCtx(final long maxEpTxCtx)
    {
        this.maxEpTxCtx = maxEpTxCtx;
        return this;
    }

    /**
     * @return the most receive contexts one endpoint may have ({@code max_ep_rx_ctx}).
     */
    public long maxEpRxCtx()
    {
        return maxEpRxCtx;
    }

    /**
     * @param maxEpRxCtx the most receive contexts one endpoint may have ({@code max_ep_rx_ctx}).
     * @return this.
     */
    public DomainAttr maxEpRxCtx(final long maxEpRxCtx)
    {
        this.maxEpRxCtx = maxEpRxCtx;
        return this;
    }

    /**
     * @return the most endpoints that may share a transmit context ({@code max_ep_stx_ctx}).
     */
    public long maxEpStxCtx()
    {
        return maxEpStxCtx;
    }

    /**
     * @param maxEpStxCtx the most endpoints that may share a transmit context ({@code max_ep_stx_ctx}).
     * @return this.
     */
    public DomainAttr maxEpStxCtx(final long maxEpStxCtx)
    {
        this.maxEpStxCtx = maxEpStxCtx;
        return this;
    }

    /**
     * @return the most endpoints that may share a receive context ({@code max_ep_srx_ctx}).
     */
    public long maxEpSrxCtx()
    {
        return maxEpSrxCtx;
    }

    /**
     * @param maxEpSrxCtx the most endpoints that may share a receive context ({@code max_ep_srx_ctx}).
     * @return this.
     */
    public DomainAttr maxEpSrxCtx(final long maxEpSrxCtx)
    {
        this.maxEpSrxCtx = maxEpSrxCtx;
        return this;
    }

    /**
     * @return the number of counters the domain supports ({@code cntr_cnt}).
     */
    public long cntrCnt()
    {
        return cntrCnt;
    }

    /**
     * @param cntrCnt the number of counters the domain supports ({@code cntr_cnt}).
     * @return this.
     */
    public DomainAttr cntrCnt(final long cntrCnt)
    {
        this.cntrCnt = cntrCnt;
        return this;
    }

    /**
     * @return the most iov entries one registration may have ({@code mr_iov_limit}).
     */
    public long mrIovLimit()
    {
        return mrIovLimit;
    }

    /**
     * @param mrIovLimit the most iov entries one registration may have ({@code mr_iov_limit}).
     * @return this.
     */
    public DomainAttr mrIovLimit(final long mrIovLimit)
    {
        this.mrIovLimit = mrIovLimit;
        return this;
    }

    /**
     * @return domain capability bits, see Flags ({@code caps}).
     */
    public long caps()
    {
        return caps;
    }

    /**
     * @param caps domain capability bits, see Flags ({@code caps}).
     * @return this.
     */
    public DomainAttr caps(final long caps)
    {
        this.caps = caps;
        return this;
    }

    /**
     * @return domain mode bits ({@code mode}).
     */
    public long mode()
    {
        return mode;
    }

    /**
     * @param mode domain mode bits ({@code mode}).
     * @return this.
     */
    public DomainAttr mode(final long mode)
    {
        this.mode = mode;
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
    public DomainAttr authKey(final byte[] authKey)
    {
        this.authKey = authKey;
        if (authKey != null)
        {
            avAuthKey = false;
        }
        return this;
    }

    /**
     * Set auth_key_size without a key: {@link #FI_AV_AUTH_KEY} asks for a domain whose authorization keys come from
     * its address vectors (fi_av_insert_auth_key) and clears {@link #authKey()}; any other value leaves
     * FI_AV_AUTH_KEY mode, the size then being the key's length.
     *
     * @param authKeySize {@link #FI_AV_AUTH_KEY}, or anything else to leave that mode.
     * @return this.
     */
    public DomainAttr authKeySize(final long authKeySize)
    {
        avAuthKey = authKeySize == FI_AV_AUTH_KEY;
        if (avAuthKey)
        {
            authKey = null;
        }
        return this;
    }

    /**
     * @return the most bytes of provider error data a completion can carry ({@code max_err_data}).
     */
    public long maxErrData()
    {
        return maxErrData;
    }

    /**
     * @param maxErrData the most bytes of provider error data a completion can carry ({@code max_err_data}).
     * @return this.
     */
    public DomainAttr maxErrData(final long maxErrData)
    {
        this.maxErrData = maxErrData;
        return this;
    }

    /**
     * @return the number of memory regions the domain supports ({@code mr_cnt}).
     */
    public long mrCnt()
    {
        return mrCnt;
    }

    /**
     * @param mrCnt the number of memory regions the domain supports ({@code mr_cnt}).
     * @return this.
     */
    public DomainAttr mrCnt(final long mrCnt)
    {
        this.mrCnt = mrCnt;
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
    public DomainAttr tclass(final int tclass)
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
    public DomainAttr copy()
    {
        final DomainAttr c = new DomainAttr();
        c.domain = domain;
        c.name = name;
        c.threading = threading;
        c.controlProgress = controlProgress;
        c.dataProgress = dataProgress;
        c.resourceMgmt = resourceMgmt;
        c.avType = avType;
        c.mrMode = mrMode;
        c.mrKeySize = mrKeySize;
        c.cqDataSize = cqDataSize;
        c.cqCnt = cqCnt;
        c.epCnt = epCnt;
        c.txCtxCnt = txCtxCnt;
        c.rxCtxCnt = rxCtxCnt;
        c.maxEpTxCtx = maxEpTxCtx;
        c.maxEpRxCtx = maxEpRxCtx;
        c.maxEpStxCtx = maxEpStxCtx;
        c.maxEpSrxCtx = maxEpSrxCtx;
        c.cntrCnt = cntrCnt;
        c.mrIovLimit = mrIovLimit;
        c.caps = caps;
        c.mode = mode;
        c.authKey = authKey == null ? null : authKey.clone();
        c.avAuthKey = avAuthKey;
        c.maxErrData = maxErrData;
        c.mrCnt = mrCnt;
        c.tclass = tclass;
        return c;
    }

    /**
     * @return the authorization key's length in bytes, 0 without a key, or {@link #FI_AV_AUTH_KEY}
     *     ({@code auth_key_size}).
     */
    public long authKeySize()
    {
        return avAuthKey ? FI_AV_AUTH_KEY : authKey == null ? 0 : authKey.length;
    }


    /**
     * @return the attributes as {@code fi_tostr} prints them.
     */
    public String toString()
    {
        return ToStr.toStr(this);
    }
}
