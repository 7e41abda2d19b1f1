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
package io.jfabric.ofi.lib;

import java.lang.foreign.StructLayout;

import static io.jfabric.ofi.lib.CTypes.i32;
import static io.jfabric.ofi.lib.CTypes.offset;
import static io.jfabric.ofi.lib.CTypes.pad;
import static io.jfabric.ofi.lib.CTypes.ptr;
import static io.jfabric.ofi.lib.CTypes.size;
import static io.jfabric.ofi.lib.CTypes.struct;
import static io.jfabric.ofi.lib.CTypes.u64;

/**
 * {@code struct fi_info} and its attribute structs, from libfabric 1.17's {@code rdma/fabric.h}, as the
 * FABRIC_1.3 symbols of {@code fi_getinfo}/{@code fi_dupinfo}/{@code fi_freeinfo} lay them out ({@link Libfabric}).
 * <pre>
 * fi_info         next | caps | mode | addr_format, pad 4 | src_addrlen | dest_addrlen | src_addr | dest_addr |
 *                 handle | tx_attr | rx_attr | ep_attr | domain_attr | fabric_attr | nic           (128 bytes)
 * fi_tx_attr      caps | mode | op_flags | msg_order | comp_order | inject_size | size | iov_limit |
 *                 rma_iov_limit | tclass, pad 4                                                      (80)
 * fi_rx_attr      caps | mode | op_flags | msg_order | comp_order | total_buffered_recv | size | iov_limit (64)
 * fi_ep_attr      type, protocol | protocol_version, pad 4 | max_msg_size | msg_prefix_size | max_order_raw_size |
 *                 max_order_war_size | max_order_waw_size | mem_tag_format | tx_ctx_cnt | rx_ctx_cnt |
 *                 auth_key_size | auth_key                                                           (96)
 * fi_domain_attr  domain | name | threading, control_progress | data_progress, resource_mgmt | av_type, mr_mode |
 *                 mr_key_size ... mr_iov_limit (12 size_t) | caps | mode | auth_key | auth_key_size |
 *                 max_err_data | mr_cnt | tclass, pad 4                                              (200)
 * fi_fabric_attr  fabric | name | prov_name | prov_version, api_version                               (32)
 * </pre>
 * Stateless.
 */
public final class InfoLayouts
{
    /** {@code struct fi_tx_attr}. */
    public static final StructLayout FI_TX_ATTR = struct("fi_tx_attr",
        u64("caps"), u64("mode"), u64("op_flags"), u64("msg_order"), u64("comp_order"), size("inject_size"),
        size("size"), size("iov_limit"), size("rma_iov_limit"), i32("tclass"), pad(4));
    /** {@code struct fi_rx_attr}. */
    public static final StructLayout FI_RX_ATTR = struct("fi_rx_attr",
        u64("caps"), u64("mode"), u64("op_flags"), u64("msg_order"), u64("comp_order"), size("total_buffered_recv"),
        size("size"), size("iov_limit"));
    /** {@code struct fi_ep_attr}. */
    public static final StructLayout FI_EP_ATTR = struct("fi_ep_attr",
        i32("type"), i32("protocol"), i32("protocol_version"), pad(4), size("max_msg_size"),
        size("msg_prefix_size"), size("max_order_raw_size"), size("max_order_war_size"), size("max_order_waw_size"),
        u64("mem_tag_format"), size("tx_ctx_cnt"), size("rx_ctx_cnt"), size("auth_key_size"), ptr("auth_key"));
    /** {@code struct fi_domain_attr}. */
    public static final StructLayout FI_DOMAIN_ATTR = struct("fi_domain_attr",
        ptr("domain"), ptr("name"), i32("threading"), i32("control_progress"), i32("data_progress"),
        i32("resource_mgmt"), i32("av_type"), i32("mr_mode"), size("mr_key_size"), size("cq_data_size"),
        size("cq_cnt"), size("ep_cnt"), size("tx_ctx_cnt"), size("rx_ctx_cnt"), size("max_ep_tx_ctx"),
        size("max_ep_rx_ctx"), size("max_ep_stx_ctx"), size("max_ep_srx_ctx"), size("cntr_cnt"),
        size("mr_iov_limit"), u64("caps"), u64("mode"), ptr("auth_key"), size("auth_key_size"),
        size("max_err_data"), size("mr_cnt"), i32("tclass"), pad(4));
    /** {@code struct fi_fabric_attr}. */
    public static final StructLayout FI_FABRIC_ATTR = struct("fi_fabric_attr",
        ptr("fabric"), ptr("name"), ptr("prov_name"), i32("prov_version"), i32("api_version"));
    /** {@code struct fi_info}. */
    public static final StructLayout FI_INFO = struct("fi_info",
        ptr("next"), u64("caps"), u64("mode"), i32("addr_format"), pad(4), size("src_addrlen"),
        size("dest_addrlen"), ptr("src_addr"), ptr("dest_addr"), ptr("handle"), ptr("tx_attr"), ptr("rx_attr"),
        ptr("ep_attr"), ptr("domain_attr"), ptr("fabric_attr"), ptr("nic"));

    /** fi_info.next. */
    public static final long INFO_NEXT = offset(FI_INFO, "next");
    /** fi_info.caps. */
    public static final long INFO_CAPS = offset(FI_INFO, "caps");
    /** fi_info.mode. */
    public static final long INFO_MODE = offset(FI_INFO, "mode");
    /** fi_info.addr_format. */
    public static final long INFO_ADDR_FORMAT = offset(FI_INFO, "addr_format");
    /** fi_info.src_addrlen. */
    public static final long INFO_SRC_ADDRLEN = offset(FI_INFO, "src_addrlen");
    /** fi_info.dest_addrlen. */
    public static final long INFO_DEST_ADDRLEN = offset(FI_INFO, "dest_addrlen");
    /** fi_info.src_addr. */
    public static final long INFO_SRC_ADDR = offset(FI_INFO, "src_addr");
    /** fi_info.dest_addr. */
    public static final long INFO_DEST_ADDR = offset(FI_INFO, "dest_addr");
    /** fi_info.handle. */
    public static final long INFO_HANDLE = offset(FI_INFO, "handle");
    /** fi_info.tx_attr. */
    public static final long INFO_TX_ATTR = offset(FI_INFO, "tx_attr");
    /** fi_info.rx_attr. */
    public static final long INFO_RX_ATTR = offset(FI_INFO, "rx_attr");
    /** fi_info.ep_attr. */
    public static final long INFO_EP_ATTR = offset(FI_INFO, "ep_attr");
    /** fi_info.domain_attr. */
    public static final long INFO_DOMAIN_ATTR = offset(FI_INFO, "domain_attr");
    /** fi_info.fabric_attr. */
    public static final long INFO_FABRIC_ATTR = offset(FI_INFO, "fabric_attr");
    /** fi_info.nic. */
    public static final long INFO_NIC = offset(FI_INFO, "nic");

    /** fi_tx_attr.caps. */
    public static final long TX_CAPS = offset(FI_TX_ATTR, "caps");
    /** fi_tx_attr.mode. */
    public static final long TX_MODE = offset(FI_TX_ATTR, "mode");
    /** fi_tx_attr.op_flags. */
    public static final long TX_OP_FLAGS = offset(FI_TX_ATTR, "op_flags");
    /** fi_tx_attr.msg_order. */
    public static final long TX_MSG_ORDER = offset(FI_TX_ATTR, "msg_order");
    /** fi_tx_attr.comp_order. */
    public static final long TX_COMP_ORDER = offset(FI_TX_ATTR, "comp_order");
    /** fi_tx_attr.inject_size. */
    public static final long TX_INJECT_SIZE = offset(FI_TX_ATTR, "inject_size");
    /** fi_tx_attr.size. */
    public static final long TX_SIZE = offset(FI_TX_ATTR, "size");
    /** fi_tx_attr.iov_limit. */
    public static final long TX_IOV_LIMIT = offset(FI_TX_ATTR, "iov_limit");
    /** fi_tx_attr.rma_iov_limit. */
    public static final long TX_RMA_IOV_LIMIT = offset(FI_TX_ATTR, "rma_iov_limit");
    /** fi_tx_attr.tclass. */
    public static final long TX_TCLASS = offset(FI_TX_ATTR, "tclass");

    /** fi_rx_attr.caps. */
    public static final long RX_CAPS = offset(FI_RX_ATTR, "caps");
    /** fi_rx_attr.mode. */
    public static final long RX_MODE = offset(FI_RX_ATTR, "mode");
    /** fi_rx_attr.op_flags. */
    public static final long RX_OP_FLAGS = offset(FI_RX_ATTR, "op_flags");
    /** fi_rx_attr.msg_order. */
    public static final long RX_MSG_ORDER = offset(FI_RX_ATTR, "msg_order");
    /** fi_rx_attr.comp_order. */
    public static final long RX_COMP_ORDER = offset(FI_RX_ATTR, "comp_order");
    /** fi_rx_attr.total_buffered_recv. */
    public static final long RX_TOTAL_BUFFERED_RECV = offset(FI_RX_ATTR, "total_buffered_recv");
    /** fi_rx_attr.size. */
    public static final long RX_SIZE = offset(FI_RX_ATTR, "size");
    /** fi_rx_attr.iov_limit. */
    public static final long RX_IOV_LIMIT = offset(FI_RX_ATTR, "iov_limit");

    /** fi_ep_attr.type. */
    public static final long EP_TYPE = offset(FI_EP_ATTR, "type");
    /** fi_ep_attr.protocol. */
    public static final long EP_PROTOCOL = offset(FI_EP_ATTR, "protocol");
    /** fi_ep_attr.protocol_version. */
    public static final long EP_PROTOCOL_VERSION = offset(FI_EP_ATTR, "protocol_version");
    /** fi_ep_attr.max_msg_size. */
    public static final long EP_MAX_MSG_SIZE = offset(FI_EP_ATTR, "max_msg_size");
    /** fi_ep_attr.msg_prefix_size. */
    public static final long EP_MSG_PREFIX_SIZE = offset(FI_EP_ATTR, "msg_prefix_size");
    /** fi_ep_attr.max_order_raw_size. */
    public static final long EP_MAX_ORDER_RAW_SIZE = offset(FI_EP_ATTR, "max_order_raw_size");
    /** fi_ep_attr.max_order_war_size. */
    public static final long EP_MAX_ORDER_WAR_SIZE = offset(FI_EP_ATTR, "max_order_war_size");
    /** fi_ep_attr.max_order_waw_size. */
    public static final long EP_MAX_ORDER_WAW_SIZE = offset(FI_EP_ATTR, "max_order_waw_size");
    /** fi_ep_attr.mem_tag_format. */
    public static final long EP_MEM_TAG_FORMAT = offset(FI_EP_ATTR, "mem_tag_format");
    /** fi_ep_attr.tx_ctx_cnt. */
    public static final long EP_TX_CTX_CNT = offset(FI_EP_ATTR, "tx_ctx_cnt");
    /** fi_ep_attr.rx_ctx_cnt. */
    public static final long EP_RX_CTX_CNT = offset(FI_EP_ATTR, "rx_ctx_cnt");
    /** fi_ep_attr.auth_key_size. */
    public static final long EP_AUTH_KEY_SIZE = offset(FI_EP_ATTR, "auth_key_size");
    /** fi_ep_attr.auth_key. */
    public static final long EP_AUTH_KEY = offset(FI_EP_ATTR, "auth_key");

    /** fi_domain_attr.domain. */
    public static final long DOM_DOMAIN = offset(FI_DOMAIN_ATTR, "domain");
    /** fi_domain_attr.name. */
    public static final long DOM_NAME = offset(FI_DOMAIN_ATTR, "name");
    /** fi_domain_attr.threading. */
    public static final long DOM_THREADING = offset(FI_DOMAIN_ATTR, "threading");
    /** fi_domain_attr.control_progress. */
    public static final long DOM_CONTROL_PROGRESS = offset(FI_DOMAIN_ATTR, "control_progress");
    /** fi_domain_attr.data_progress. */
    public static final long DOM_DATA_PROGRESS = offset(FI_DOMAIN_ATTR, "data_progress");
    /** fi_domain_attr.resource_mgmt. */
    public static final long DOM_RESOURCE_MGMT = offset(FI_DOMAIN_ATTR, "resource_mgmt");
    /** fi_domain_attr.av_type. */
    public static final long DOM_AV_TYPE = offset(FI_DOMAIN_ATTR, "av_type");
    /** fi_domain_attr.mr_mode. */
    public static final long DOM_MR_MODE = offset(FI_DOMAIN_ATTR, "mr_mode");
    /** fi_domain_attr.mr_key_size. */
    public static final long DOM_MR_KEY_SIZE = offset(FI_DOMAIN_ATTR, "mr_key_size");
    /** fi_domain_attr.cq_data_size. */
    public static final long DOM_CQ_DATA_SIZE = offset(FI_DOMAIN_ATTR, "cq_data_size");
    /** fi_domain_attr.cq_cnt. */
    public static final long DOM_CQ_CNT = offset(FI_DOMAIN_ATTR, "cq_cnt");
    /** fi_domain_attr.ep_cnt. */
    public static final long DOM_EP_CNT = offset(FI_DOMAIN_ATTR, "ep_cnt");
    /** fi_domain_attr.tx_ctx_cnt. */
    public static final long DOM_TX_CTX_CNT = offset(FI_DOMAIN_ATTR, "tx_ctx_cnt");
    /** fi_domain_attr.rx_ctx_cnt. */
    public static final long DOM_RX_CTX_CNT = offset(FI_DOMAIN_ATTR, "rx_ctx_cnt");
    /** fi_domain_attr.max_ep_tx_ctx. */
    public static final long DOM_MAX_EP_TX_CTX = offset(FI_DOMAIN_ATTR, "max_ep_tx_ctx");
    /** fi_domain_attr.max_ep_rx_ctx. */
    public static final long DOM_MAX_EP_RX_CTX = offset(FI_DOMAIN_ATTR, "max_ep_rx_ctx");
    /** fi_domain_attr.max_ep_stx_ctx. */
    public static final long DOM_MAX_EP_STX_CTX = offset(FI_DOMAIN_ATTR, "max_ep_stx_ctx");
    /** fi_domain_attr.max_ep_srx_ctx. */
    public static final long DOM_MAX_EP_SRX_CTX = offset(FI_DOMAIN_ATTR, "max_ep_srx_ctx");
    /** fi_domain_attr.cntr_cnt. */
    public static final long DOM_CNTR_CNT = offset(FI_DOMAIN_ATTR, "cntr_cnt");
    /** fi_domain_attr.mr_iov_limit. */
    public static final long DOM_MR_IOV_LIMIT = offset(FI_DOMAIN_ATTR, "mr_iov_limit");
    /** fi_domain_attr.caps. */
    public static final long DOM_CAPS = offset(FI_DOMAIN_ATTR, "caps");
    /** fi_domain_attr.mode. */
    public static final long DOM_MODE = offset(FI_DOMAIN_ATTR, "mode");
    /** fi_domain_attr.auth_key. */
    public static final long DOM_AUTH_KEY = offset(FI_DOMAIN_ATTR, "auth_key");
    /** fi_domain_attr.auth_key_size. */
    public static final long DOM_AUTH_KEY_SIZE = offset(FI_DOMAIN_ATTR, "auth_key_size");
    /** fi_domain_attr.max_err_data. */
    public static final long DOM_MAX_ERR_DATA = offset(FI_DOMAIN_ATTR, "max_err_data");
    /** fi_domain_attr.mr_cnt. */
    public static final long DOM_MR_CNT = offset(FI_DOMAIN_ATTR, "mr_cnt");
    /** fi_domain_attr.tclass. */
    public static final long DOM_TCLASS = offset(FI_DOMAIN_ATTR, "tclass");

    /** fi_fabric_attr.fabric. */
    public static final long FAB_FABRIC = offset(FI_FABRIC_ATTR, "fabric");
    /** fi_fabric_attr.name. */
    public static final long FAB_NAME = offset(FI_FABRIC_ATTR, "name");
    /** fi_fabric_attr.prov_name. */
    public static final long FAB_PROV_NAME = offset(FI_FABRIC_ATTR, "prov_name");
    /** fi_fabric_attr.prov_version. */
    public static final long FAB_PROV_VERSION = offset(FI_FABRIC_ATTR, "prov_version");
    /** fi_fabric_attr.api_version. */
    public static final long FAB_API_VERSION = offset(FI_FABRIC_ATTR, "api_version");

    private InfoLayouts()
    {
    }
}
