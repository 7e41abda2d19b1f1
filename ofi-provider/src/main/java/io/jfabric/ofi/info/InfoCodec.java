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
package io.jfabric.ofi.info;

import io.jfabric.AddrFormat;
import io.jfabric.AvType;
import io.jfabric.DomainAttr;
import io.jfabric.EpAttr;
import io.jfabric.EpType;
import io.jfabric.FabricAttr;
import io.jfabric.Info;
import io.jfabric.Progress;
import io.jfabric.Protocol;
import io.jfabric.ResourceMgmt;
import io.jfabric.RxAttr;
import io.jfabric.Threading;
import io.jfabric.TxAttr;
import io.jfabric.ofi.lib.CStrings;
import io.jfabric.ofi.lib.CTypes;

import static io.jfabric.ofi.lib.InfoLayouts.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Copies an {@link Info} to a native {@code struct fi_info} and back, every field of every attribute struct: what
 * C's getinfo hints carry in and what its answers carry out. The native side is always an {@code fi_info} that
 * libfabric allocated ({@code fi_dupinfo(NULL)}, or getinfo's list) and frees ({@code fi_freeinfo}), so every name,
 * address and key written into it is a malloc'd copy ({@link CStrings}).
 * <p>
 * Object references ({@code domain_attr.domain}, {@code fabric_attr.fabric}, {@code handle}) travel as the native
 * pointers of the objects jfabric opened, given by a {@link Handles}; a native info's pointers come back as those
 * objects when the handles know them, else null. Control path. Stateless; any thread.
 */
public final class InfoCodec
{
    /** Maps open jfabric objects to their native pointers and back. */
    public interface Handles
    {
        /**
         * @param object a jfabric object from an info (a domain, fabric or handle), or null.
         * @return its native fid pointer, 0 when it is not an open object of this provider.
         */
        long pointerOf(Object object);

        /**
         * @param pointer a native fid pointer from an info.
         * @return the open jfabric object with that pointer, or null.
         */
        Object objectOf(long pointer);
    }

    /** Handles that know no object: every pointer is 0 and every object null. */
    public static final Handles NO_HANDLES = new Handles()
    {
        @Override
        public long pointerOf(final Object object)
        {
            return 0;
        }

        @Override
        public Object objectOf(final long pointer)
        {
            return null;
        }
    };

    private InfoCodec()
    {
    }

    /**
     * Fill a native info that libfabric allocated with all its attribute structs (as {@code fi_dupinfo(NULL)}
     * returns it): every field from {@code info}; an attribute that is null in Java is freed and left NULL.
     *
     * @param info    the Java info.
     * @param fiInfo  the native info's address.
     * @param provName the native provider name to write in place of the Java one (the two differ for a name jfabric
     *                 reports in its own form), or null to write the Java one.
     * @param handles the object pointers.
     */
    public static void toNative(final Info info, final long fiInfo, final String provName, final Handles handles)
    {
        putLong(fiInfo + INFO_CAPS, info.caps());
        putLong(fiInfo + INFO_MODE, info.mode());
        putInt(fiInfo + INFO_ADDR_FORMAT, info.addrFormat() == null ? 0 : info.addrFormat().value());
        putBytes(fiInfo + INFO_SRC_ADDR, fiInfo + INFO_SRC_ADDRLEN, info.srcAddr());
        putBytes(fiInfo + INFO_DEST_ADDR, fiInfo + INFO_DEST_ADDRLEN, info.destAddr());
        putLong(fiInfo + INFO_HANDLE, handles.pointerOf(info.handle()));
        txToNative(info.txAttr(), attr(fiInfo, INFO_TX_ATTR, info.txAttr() != null));
        rxToNative(info.rxAttr(), attr(fiInfo, INFO_RX_ATTR, info.rxAttr() != null));
        epToNative(info.epAttr(), attr(fiInfo, INFO_EP_ATTR, info.epAttr() != null));
        domainToNative(info.domainAttr(), attr(fiInfo, INFO_DOMAIN_ATTR, info.domainAttr() != null), handles);
        fabricToNative(info.fabricAttr(), attr(fiInfo, INFO_FABRIC_ATTR, info.fabricAttr() != null), provName,
            handles);
    }

    /**
     * @param fiInfo  a native info's address.
     * @param handles the object pointers.
     * @return a Java copy of every field.
     */
    public static Info fromNative(final long fiInfo, final Handles handles)
    {
        final Info info = new Info()
            .caps(getLong(fiInfo + INFO_CAPS))
            .mode(getLong(fiInfo + INFO_MODE))
            .addrFormat(orDefault(AddrFormat.of(getInt(fiInfo + INFO_ADDR_FORMAT)), AddrFormat.UNSPEC))
            .srcAddr(CStrings.bytes(getLong(fiInfo + INFO_SRC_ADDR), getLong(fiInfo + INFO_SRC_ADDRLEN)))
            .destAddr(CStrings.bytes(getLong(fiInfo + INFO_DEST_ADDR), getLong(fiInfo + INFO_DEST_ADDRLEN)));
        info.handle((io.jfabric.Fid)handles.objectOf(getLong(fiInfo + INFO_HANDLE)));
        final long tx = getLong(fiInfo + INFO_TX_ATTR);
        info.txAttr(tx == 0 ? null : txFromNative(tx));
        final long rx = getLong(fiInfo + INFO_RX_ATTR);
        info.rxAttr(rx == 0 ? null : rxFromNative(rx));
        final long ep = getLong(fiInfo + INFO_EP_ATTR);
        info.epAttr(ep == 0 ? null : epFromNative(ep));
        final long domain = getLong(fiInfo + INFO_DOMAIN_ATTR);
        info.domainAttr(domain == 0 ? null : domainFromNative(domain, handles));
        final long fabric = getLong(fiInfo + INFO_FABRIC_ATTR);
        info.fabricAttr(fabric == 0 ? null : fabricFromNative(fabric, handles));
        return info;
    }

    /**
     * @param fabricAttr a native fabric attr's address.
     * @param attr       the Java attributes.
     * @param provName   the native provider name, or null to use the Java one.
     * @param handles    the object pointers.
     */
    public static void fabricToNative(
        final FabricAttr attr, final long fabricAttr, final String provName, final Handles handles)
    {
        if (fabricAttr == 0)
        {
            return;
        }
        putLong(fabricAttr + FAB_FABRIC, handles.pointerOf(attr.fabric()));
        putString(fabricAttr + FAB_NAME, attr.name());
        putString(fabricAttr + FAB_PROV_NAME, provName != null ? provName : attr.provName());
        putInt(fabricAttr + FAB_PROV_VERSION, attr.provVersion());
        putInt(fabricAttr + FAB_API_VERSION, attr.apiVersion());
    }

    /**
     * @param fabricAttr a native fabric attr's address.
     * @param handles    the object pointers.
     * @return its Java copy.
     */
    public static FabricAttr fabricFromNative(final long fabricAttr, final Handles handles)
    {
        return new FabricAttr()
            .fabric((io.jfabric.Fabric)handles.objectOf(getLong(fabricAttr + FAB_FABRIC)))
            .name(CStrings.read(getLong(fabricAttr + FAB_NAME)))
            .provName(CStrings.read(getLong(fabricAttr + FAB_PROV_NAME)))
            .provVersion(getInt(fabricAttr + FAB_PROV_VERSION))
            .apiVersion(getInt(fabricAttr + FAB_API_VERSION));
    }

    /**
     * @param attr the Java attributes.
     * @param tx   a native tx attr's address, or 0 (nothing is written).
     */
    public static void txToNative(final TxAttr attr, final long tx)
    {
        if (tx == 0)
        {
            return;
        }
        putLong(tx + TX_CAPS, attr.caps());
        putLong(tx + TX_MODE, attr.mode());
        putLong(tx + TX_OP_FLAGS, attr.opFlags());
        putLong(tx + TX_MSG_ORDER, attr.msgOrder());
        putLong(tx + TX_COMP_ORDER, attr.compOrder());
        putLong(tx + TX_INJECT_SIZE, attr.injectSize());
        putLong(tx + TX_SIZE, attr.size());
        putLong(tx + TX_IOV_LIMIT, attr.iovLimit());
        putLong(tx + TX_RMA_IOV_LIMIT, attr.rmaIovLimit());
        putInt(tx + TX_TCLASS, attr.tclass());
    }

    /**
     * @param tx a native tx attr's address.
     * @return its Java copy.
     */
    public static TxAttr txFromNative(final long tx)
    {
        return new TxAttr()
            .caps(getLong(tx + TX_CAPS))
            .mode(getLong(tx + TX_MODE))
            .opFlags(getLong(tx + TX_OP_FLAGS))
            .msgOrder(getLong(tx + TX_MSG_ORDER))
            .compOrder(getLong(tx + TX_COMP_ORDER))
            .injectSize(getLong(tx + TX_INJECT_SIZE))
            .size(getLong(tx + TX_SIZE))
            .iovLimit(getLong(tx + TX_IOV_LIMIT))
            .rmaIovLimit(getLong(tx + TX_RMA_IOV_LIMIT))
            .tclass(getInt(tx + TX_TCLASS));
    }

    /**
     * @param attr the Java attributes.
     * @param rx   a native rx attr's address, or 0 (nothing is written).
     */
    public static void rxToNative(final RxAttr attr, final long rx)
    {
        if (rx == 0)
        {
            return;
        }
        putLong(rx + RX_CAPS, attr.caps());
        putLong(rx + RX_MODE, attr.mode());
        putLong(rx + RX_OP_FLAGS, attr.opFlags());
        putLong(rx + RX_MSG_ORDER, attr.msgOrder());
        putLong(rx + RX_COMP_ORDER, attr.compOrder());
        putLong(rx + RX_TOTAL_BUFFERED_RECV, attr.totalBufferedRecv());
        putLong(rx + RX_SIZE, attr.size());
        putLong(rx + RX_IOV_LIMIT, attr.iovLimit());
    }

    /**
     * @param rx a native rx attr's address.
     * @return its Java copy.
     */
    public static RxAttr rxFromNative(final long rx)
    {
        return new RxAttr()
            .caps(getLong(rx + RX_CAPS))
            .mode(getLong(rx + RX_MODE))
            .opFlags(getLong(rx + RX_OP_FLAGS))
            .msgOrder(getLong(rx + RX_MSG_ORDER))
            .compOrder(getLong(rx + RX_COMP_ORDER))
            .totalBufferedRecv(getLong(rx + RX_TOTAL_BUFFERED_RECV))
            .size(getLong(rx + RX_SIZE))
            .iovLimit(getLong(rx + RX_IOV_LIMIT));
    }

    private static void epToNative(final EpAttr attr, final long ep)
    {
        if (ep == 0)
        {
            return;
        }
        putInt(ep + EP_TYPE, attr.type() == null ? 0 : attr.type().value());
        putInt(ep + EP_PROTOCOL, attr.protocol() == null ? 0 : attr.protocol().value());
        putInt(ep + EP_PROTOCOL_VERSION, attr.protocolVersion());
        putLong(ep + EP_MAX_MSG_SIZE, attr.maxMsgSize());
        putLong(ep + EP_MSG_PREFIX_SIZE, attr.msgPrefixSize());
        putLong(ep + EP_MAX_ORDER_RAW_SIZE, attr.maxOrderRawSize());
        putLong(ep + EP_MAX_ORDER_WAR_SIZE, attr.maxOrderWarSize());
        putLong(ep + EP_MAX_ORDER_WAW_SIZE, attr.maxOrderWawSize());
        putLong(ep + EP_MEM_TAG_FORMAT, attr.memTagFormat());
        putLong(ep + EP_TX_CTX_CNT, attr.txCtxCnt());
        putLong(ep + EP_RX_CTX_CNT, attr.rxCtxCnt());
        putBytes(ep + EP_AUTH_KEY, ep + EP_AUTH_KEY_SIZE, attr.authKey());
    }

    private static EpAttr epFromNative(final long ep)
    {
        return new EpAttr()
            .type(orDefault(EpType.of(getInt(ep + EP_TYPE)), EpType.UNSPEC))
            .protocol(orDefault(Protocol.of(getInt(ep + EP_PROTOCOL)), Protocol.UNSPEC))
            .protocolVersion(getInt(ep + EP_PROTOCOL_VERSION))
            .maxMsgSize(getLong(ep + EP_MAX_MSG_SIZE))
            .msgPrefixSize(getLong(ep + EP_MSG_PREFIX_SIZE))
            .maxOrderRawSize(getLong(ep + EP_MAX_ORDER_RAW_SIZE))
            .maxOrderWarSize(getLong(ep + EP_MAX_ORDER_WAR_SIZE))
            .maxOrderWawSize(getLong(ep + EP_MAX_ORDER_WAW_SIZE))
            .memTagFormat(getLong(ep + EP_MEM_TAG_FORMAT))
            .txCtxCnt(getLong(ep + EP_TX_CTX_CNT))
            .rxCtxCnt(getLong(ep + EP_RX_CTX_CNT))
            .authKey(CStrings.bytes(getLong(ep + EP_AUTH_KEY), getLong(ep + EP_AUTH_KEY_SIZE)));
    }

    private static void domainToNative(final DomainAttr attr, final long dom, final Handles handles)
    {
        if (dom == 0)
        {
            return;
        }
        putLong(dom + DOM_DOMAIN, handles.pointerOf(attr.domain()));
        putString(dom + DOM_NAME, attr.name());
        putInt(dom + DOM_THREADING, attr.threading() == null ? 0 : attr.threading().value());
        putInt(dom + DOM_CONTROL_PROGRESS, attr.controlProgress() == null ? 0 : attr.controlProgress().value());
        putInt(dom + DOM_DATA_PROGRESS, attr.dataProgress() == null ? 0 : attr.dataProgress().value());
        putInt(dom + DOM_RESOURCE_MGMT, attr.resourceMgmt() == null ? 0 : attr.resourceMgmt().value());
        putInt(dom + DOM_AV_TYPE, attr.avType() == null ? 0 : attr.avType().value());
        putInt(dom + DOM_MR_MODE, attr.mrMode());
        putLong(dom + DOM_MR_KEY_SIZE, attr.mrKeySize());
        putLong(dom + DOM_CQ_DATA_SIZE, attr.cqDataSize());
        putLong(dom + DOM_CQ_CNT, attr.cqCnt());
        putLong(dom + DOM_EP_CNT, attr.epCnt());
        putLong(dom + DOM_TX_CTX_CNT, attr.txCtxCnt());
        putLong(dom + DOM_RX_CTX_CNT, attr.rxCtxCnt());
        putLong(dom + DOM_MAX_EP_TX_CTX, attr.maxEpTxCtx());
        putLong(dom + DOM_MAX_EP_RX_CTX, attr.maxEpRxCtx());
        putLong(dom + DOM_MAX_EP_STX_CTX, attr.maxEpStxCtx());
        putLong(dom + DOM_MAX_EP_SRX_CTX, attr.maxEpSrxCtx());
        putLong(dom + DOM_CNTR_CNT, attr.cntrCnt());
        putLong(dom + DOM_MR_IOV_LIMIT, attr.mrIovLimit());
        putLong(dom + DOM_CAPS, attr.caps());
        putLong(dom + DOM_MODE, attr.mode());
        if (attr.authKeySize() == DomainAttr.FI_AV_AUTH_KEY)
        {
            putLong(dom + DOM_AUTH_KEY, 0);
            putLong(dom + DOM_AUTH_KEY_SIZE, DomainAttr.FI_AV_AUTH_KEY);
        }
        else
        {
            putBytes(dom + DOM_AUTH_KEY, dom + DOM_AUTH_KEY_SIZE, attr.authKey());
        }
        putLong(dom + DOM_MAX_ERR_DATA, attr.maxErrData());
        putLong(dom + DOM_MR_CNT, attr.mrCnt());
        putInt(dom + DOM_TCLASS, attr.tclass());
    }

    private static DomainAttr domainFromNative(final long dom, final Handles handles)
    {
        final DomainAttr attr = new DomainAttr()
            .domain((io.jfabric.Domain)handles.objectOf(getLong(dom + DOM_DOMAIN)))
            .name(CStrings.read(getLong(dom + DOM_NAME)))
            .threading(orDefault(Threading.of(getInt(dom + DOM_THREADING)), Threading.UNSPEC))
            .controlProgress(orDefault(Progress.of(getInt(dom + DOM_CONTROL_PROGRESS)), Progress.UNSPEC))
            .dataProgress(orDefault(Progress.of(getInt(dom + DOM_DATA_PROGRESS)), Progress.UNSPEC))
            .resourceMgmt(orDefault(ResourceMgmt.of(getInt(dom + DOM_RESOURCE_MGMT)), ResourceMgmt.UNSPEC))
            .avType(orDefault(AvType.of(getInt(dom + DOM_AV_TYPE)), AvType.UNSPEC))
            .mrMode(getInt(dom + DOM_MR_MODE))
            .mrKeySize(getLong(dom + DOM_MR_KEY_SIZE))
            .cqDataSize(getLong(dom + DOM_CQ_DATA_SIZE))
            .cqCnt(getLong(dom + DOM_CQ_CNT))
            .epCnt(getLong(dom + DOM_EP_CNT))
            .txCtxCnt(getLong(dom + DOM_TX_CTX_CNT))
            .rxCtxCnt(getLong(dom + DOM_RX_CTX_CNT))
            .maxEpTxCtx(getLong(dom + DOM_MAX_EP_TX_CTX))
            .maxEpRxCtx(getLong(dom + DOM_MAX_EP_RX_CTX))
            .maxEpStxCtx(getLong(dom + DOM_MAX_EP_STX_CTX))
            .maxEpSrxCtx(getLong(dom + DOM_MAX_EP_SRX_CTX))
            .cntrCnt(getLong(dom + DOM_CNTR_CNT))
            .mrIovLimit(getLong(dom + DOM_MR_IOV_LIMIT))
            .caps(getLong(dom + DOM_CAPS))
            .mode(getLong(dom + DOM_MODE))
            .maxErrData(getLong(dom + DOM_MAX_ERR_DATA))
            .mrCnt(getLong(dom + DOM_MR_CNT))
            .tclass(getInt(dom + DOM_TCLASS));
        final long keySize = getLong(dom + DOM_AUTH_KEY_SIZE);
        if (keySize == DomainAttr.FI_AV_AUTH_KEY)
        {
            attr.authKeySize(DomainAttr.FI_AV_AUTH_KEY);
        }
        else
        {
            attr.authKey(CStrings.bytes(getLong(dom + DOM_AUTH_KEY), keySize));
        }
        return attr;
    }

    private static long attr(final long fiInfo, final long member, final boolean wanted)
    {
        final long attr = getLong(fiInfo + member);
        if (!wanted && attr != 0)
        {
            CStrings.free(attr);
            putLong(fiInfo + member, 0);
            return 0;
        }
        return attr;
    }

    private static <T> T orDefault(final T value, final T otherwise)
    {
        return value != null ? value : otherwise;
    }

    private static void putString(final long field, final String text)
    {
        CStrings.free(getLong(field));
        putLong(field, CStrings.strdup(text));
    }

    private static void putBytes(final long field, final long lengthField, final byte[] bytes)
    {
        CStrings.free(getLong(field));
        putLong(field, CStrings.memdup(bytes));
        putLong(lengthField, bytes == null ? 0 : bytes.length);
    }

    private static long getLong(final long address)
    {
        return CTypes.ALL.get(JAVA_LONG, address);
    }

    private static int getInt(final long address)
    {
        return CTypes.ALL.get(JAVA_INT, address);
    }

    private static void putLong(final long address, final long value)
    {
        CTypes.ALL.set(JAVA_LONG, address, value);
    }

    private static void putInt(final long address, final int value)
    {
        CTypes.ALL.set(JAVA_INT, address, value);
    }
}
