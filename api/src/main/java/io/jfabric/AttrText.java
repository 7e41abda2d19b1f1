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

import static io.jfabric.CText.*;
import static io.jfabric.EnumNames.*;
import static io.jfabric.FlagNames.*;

/**
 * What fi_tostr prints for an info and its attribute structures ({@code fi_info}, {@code fi_tx_attr},
 * {@code fi_rx_attr}, {@code fi_ep_attr}, {@code fi_domain_attr}, {@code fi_fabric_attr}): one field a line, nested
 * structures indented four spaces a level, an absent nested structure as {@code (null)}; flags by
 * {@link FlagNames}, enumerations by {@link EnumNames}, addresses by {@link AddressText}.
 * <p>
 * Stateless; any thread.
 */
final class AttrText
{
    private AttrText()
    {
    }

    static void appendInfo(final StringBuilder sb, final Info info)
    {
        sb.append("fi_info:\n");
        flagsField(sb, 1, "caps", CAPS, info.caps());
        flagsField(sb, 1, "mode", MODES, info.mode());
        final int addrFormat = valueOf(info.addrFormat());
        field(sb, 1, "addr_format").append(name(ADDR_FORMATS, addrFormat)).append('\n');
        field(sb, 1, "src_addrlen").append(info.srcAddrLen()).append('\n');
        field(sb, 1, "dest_addrlen").append(info.destAddrLen()).append('\n');
        AddressText.append(field(sb, 1, "src_addr"), addrFormat, info.srcAddr()).append('\n');
        AddressText.append(field(sb, 1, "dest_addr"), addrFormat, info.destAddr()).append('\n');
        field(sb, 1, "handle");
        appendPointer(sb, info.handle());
        sb.append('\n');
        appendTxAttr(sb, info.txAttr(), 1);
        appendRxAttr(sb, info.rxAttr(), 1);
        appendEpAttr(sb, info.epAttr(), 1);
        appendDomainAttr(sb, info.domainAttr(), 1);
        appendFabricAttr(sb, info.fabricAttr(), 1);
        field(sb, 1, "nic").append(NULL_POINTER).append('\n');
    }

    static void appendTxAttr(final StringBuilder sb, final TxAttr attr, final int level)
    {
        if (header(sb, level, "fi_tx_attr", attr))
        {
            final int l = level + 1;
            contextFields(sb, l, attr.caps(), attr.mode(), attr.opFlags(), attr.msgOrder(), attr.compOrder());
            sizeField(sb, l, "inject_size", attr.injectSize());
            sizeField(sb, l, "size", attr.size());
            sizeField(sb, l, "iov_limit", attr.iovLimit());
            sizeField(sb, l, "rma_iov_limit", attr.rmaIovLimit());
            field(sb, l, "tclass").append("0x").append(Integer.toHexString(attr.tclass())).append('\n');
        }
    }

    static void appendRxAttr(final StringBuilder sb, final RxAttr attr, final int level)
    {
        if (header(sb, level, "fi_rx_attr", attr))
        {
            final int l = level + 1;
            contextFields(sb, l, attr.caps(), attr.mode(), attr.opFlags(), attr.msgOrder(), attr.compOrder());
            sizeField(sb, l, "total_buffered_recv", attr.totalBufferedRecv());
            sizeField(sb, l, "size", attr.size());
            sizeField(sb, l, "iov_limit", attr.iovLimit());
        }
    }

    static void appendEpAttr(final StringBuilder sb, final EpAttr attr, final int level)
    {
        if (header(sb, level, "fi_ep_attr", attr))
        {
            final int l = level + 1;
            field(sb, l, "type").append(name(EP_TYPES, valueOf(attr.type()))).append('\n');
            field(sb, l, "protocol").append(name(PROTOCOLS, valueOf(attr.protocol()))).append('\n');
            field(sb, l, "protocol_version").append(attr.protocolVersion()).append('\n');
            sizeField(sb, l, "max_msg_size", attr.maxMsgSize());
            sizeField(sb, l, "msg_prefix_size", attr.msgPrefixSize());
            sizeField(sb, l, "max_order_raw_size", attr.maxOrderRawSize());
            sizeField(sb, l, "max_order_war_size", attr.maxOrderWarSize());
            sizeField(sb, l, "max_order_waw_size", attr.maxOrderWawSize());
            appendPaddedHex(field(sb, l, "mem_tag_format").append("0x"), attr.memTagFormat(), 16).append('\n');
            contextCountField(sb, l, "tx_ctx_cnt", attr.txCtxCnt());
            contextCountField(sb, l, "rx_ctx_cnt", attr.rxCtxCnt());
            sizeField(sb, l, "auth_key_size", attr.authKeySize());
        }
    }

    static void appendDomainAttr(final StringBuilder sb, final DomainAttr attr, final int level)
    {
        if (header(sb, level, "fi_domain_attr", attr))
        {
            final int l = level + 1;
            field(sb, l, "domain");
            if (attr.domain() == null)
            {
                sb.append("0x0");
            }
            else
            {
                appendPointer(sb, attr.domain());
            }
            sb.append('\n');
            field(sb, l, "name").append(orNull(attr.name())).append('\n');
            field(sb, l, "threading").append(name(THREADINGS, valueOf(attr.threading()))).append('\n');
            field(sb, l, "control_progress").append(name(PROGRESSES, valueOf(attr.controlProgress()))).append('\n');
            field(sb, l, "data_progress").append(name(PROGRESSES, valueOf(attr.dataProgress()))).append('\n');
            field(sb, l, "resource_mgmt").append(name(RESOURCE_MGMTS, valueOf(attr.resourceMgmt()))).append('\n');
            field(sb, l, "av_type").append(name(AV_TYPES, valueOf(attr.avType()))).append('\n');
            flagsField(sb, l, "mr_mode", MR_MODES, attr.mrMode() & 0xFFFF_FFFFL);
            sizeField(sb, l, "mr_key_size", attr.mrKeySize());
            sizeField(sb, l, "cq_data_size", attr.cqDataSize());
            sizeField(sb, l, "cq_cnt", attr.cqCnt());
            sizeField(sb, l, "ep_cnt", attr.epCnt());
            sizeField(sb, l, "tx_ctx_cnt", attr.txCtxCnt());
            sizeField(sb, l, "rx_ctx_cnt", attr.rxCtxCnt());
            sizeField(sb, l, "max_ep_tx_ctx", attr.maxEpTxCtx());
            sizeField(sb, l, "max_ep_rx_ctx", attr.maxEpRxCtx());
            sizeField(sb, l, "max_ep_stx_ctx", attr.maxEpStxCtx());
            sizeField(sb, l, "max_ep_srx_ctx", attr.maxEpSrxCtx());
            sizeField(sb, l, "cntr_cnt", attr.cntrCnt());
            sizeField(sb, l, "mr_iov_limit", attr.mrIovLimit());
            flagsField(sb, l, "caps", CAPS, attr.caps());
            flagsField(sb, l, "mode", MODES, attr.mode());
            sizeField(sb, l, "auth_key_size", attr.authKeySize());
            sizeField(sb, l, "max_err_data", attr.maxErrData());
            sizeField(sb, l, "mr_cnt", attr.mrCnt());
            field(sb, l, "tclass").append("0x").append(Integer.toHexString(attr.tclass())).append('\n');
        }
    }

    static void appendFabricAttr(final StringBuilder sb, final FabricAttr attr, final int level)
    {
        if (header(sb, level, "fi_fabric_attr", attr))
        {
            final int l = level + 1;
            field(sb, l, "name").append(orNull(attr.name())).append('\n');
            field(sb, l, "prov_name").append(orNull(attr.provName())).append('\n');
            versionField(sb, l, "prov_version", attr.provVersion());
            versionField(sb, l, "api_version", attr.apiVersion());
        }
    }

    /**
     * The first line of a structure: "name:" before its fields, or "name: (null)" for an absent nested one.
     */
    private static boolean header(final StringBuilder sb, final int level, final String name, final Object attr)
    {
        indent(sb, level).append(name).append(':');
        if (attr == null)
        {
            sb.append(' ').append(NULL_STRING).append('\n');
            return false;
        }
        sb.append('\n');
        return true;
    }

    private static StringBuilder indent(final StringBuilder sb, final int level)
    {
        for (int i = 0; i < level; i++)
        {
            sb.append("    ");
        }
        return sb;
    }

    private static StringBuilder field(final StringBuilder sb, final int level, final String name)
    {
        return indent(sb, level).append(name).append(": ");
    }

    private static void flagsField(
        final StringBuilder sb, final int level, final String name, final FlagNames names, final long bits)
    {
        names.append(field(sb, level, name).append("[ "), bits).append(" ]\n");
    }

    /** The five fields fi_tx_attr and fi_rx_attr open with, in fi_tostr's order. */
    private static void contextFields(
        final StringBuilder sb, final int level, final long caps, final long mode, final long opFlags,
        final long msgOrder, final long compOrder)
    {
        flagsField(sb, level, "caps", CAPS, caps);
        flagsField(sb, level, "mode", MODES, mode);
        flagsField(sb, level, "op_flags", OP_FLAGS, opFlags);
        flagsField(sb, level, "msg_order", MSG_ORDERS, msgOrder);
        compOrderField(sb, level, compOrder);
    }

    private static void compOrderField(final StringBuilder sb, final int level, final long order)
    {
        field(sb, level, "comp_order").append("[ ");
        final long low = order & MsgOrder.FI_ORDER_STRICT;
        boolean first = true;
        if (low == MsgOrder.FI_ORDER_NONE)
        {
            sb.append("FI_ORDER_NONE");
            first = false;
        }
        else if (low == MsgOrder.FI_ORDER_STRICT)
        {
            sb.append("FI_ORDER_STRICT");
            first = false;
        }
        if ((order & MsgOrder.FI_ORDER_DATA) != 0)
        {
            sb.append(first ? "" : ", ").append("FI_ORDER_DATA");
        }
        sb.append(" ]\n");
    }

    private static void sizeField(final StringBuilder sb, final int level, final String name, final long size)
    {
        field(sb, level, name).append(Long.toUnsignedString(size)).append('\n');
    }

    private static void contextCountField(final StringBuilder sb, final int level, final String name, final long n)
    {
        if (n == Addresses.FI_SHARED_CONTEXT)
        {
            field(sb, level, name).append("FI_SHARED_CONTEXT\n");
        }
        else
        {
            sizeField(sb, level, name, n);
        }
    }

    private static void versionField(final StringBuilder sb, final int level, final String name, final int version)
    {
        field(sb, level, name).append(Versions.major(version)).append('.').append(Versions.minor(version)).append('\n');
    }
}
