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

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

import static io.jfabric.ofi.lib.CTypes.i32;
import static io.jfabric.ofi.lib.CTypes.offset;
import static io.jfabric.ofi.lib.CTypes.pad;
import static io.jfabric.ofi.lib.CTypes.ptr;
import static io.jfabric.ofi.lib.CTypes.size;
import static io.jfabric.ofi.lib.CTypes.struct;
import static io.jfabric.ofi.lib.CTypes.u64;

/**
 * The data structs of libfabric 1.17's headers: message descriptors ({@code fi_msg}, {@code fi_msg_tagged},
 * {@code fi_msg_rma}, {@code fi_msg_atomic} with {@code iovec}, {@code fi_rma_iov}, {@code fi_ioc},
 * {@code fi_rma_ioc}), completion and event entries, the open attributes of AV, CQ, EQ, counter and MR, and the
 * context blocks FI_CONTEXT/FI_CONTEXT2 providers write into.
 * <pre>
 * fi_cq_tagged_entry  op_context | flags | len | buf | data | tag                                   (48 bytes)
 * fi_cq_err_entry     op_context | flags | len | buf | data | tag | olen | err, prov_errno | err_data |
 *                     err_data_size                                                                 (80)
 * fi_msg              msg_iov | desc | iov_count | addr | context | data                             (48)
 * fi_msg_tagged       msg_iov | desc | iov_count | addr | tag | ignore | context | data              (64)
 * fi_msg_rma          msg_iov | desc | iov_count | addr | rma_iov | rma_iov_count | context | data   (64)
 * fi_msg_atomic       msg_iov | desc | iov_count | addr | rma_iov | rma_iov_count | datatype, op |
 *                     context | data                                                                (72)
 * fi_context2         internal[8]                                                                   (64)
 * </pre>
 * Stateless.
 */
public final class DataLayouts
{
    /** {@code struct iovec}. */
    public static final StructLayout IOVEC = struct("iovec", ptr("iov_base"), size("iov_len"));
    /** {@code struct fi_msg}. */
    public static final StructLayout FI_MSG = struct("fi_msg", ptr("msg_iov"), ptr("desc"), size("iov_count"),
        u64("addr"), ptr("context"), u64("data"));
    /** {@code struct fi_msg_tagged}. */
    public static final StructLayout FI_MSG_TAGGED = struct("fi_msg_tagged", ptr("msg_iov"), ptr("desc"),
        size("iov_count"), u64("addr"), u64("tag"), u64("ignore"), ptr("context"), u64("data"));
    /** {@code struct fi_rma_iov}. */
    public static final StructLayout FI_RMA_IOV = struct("fi_rma_iov", u64("addr"), size("len"), u64("key"));
    /** {@code struct fi_rma_ioc}. */
    public static final StructLayout FI_RMA_IOC = struct("fi_rma_ioc", u64("addr"), size("count"), u64("key"));
    /** {@code struct fi_ioc}. */
    public static final StructLayout FI_IOC = struct("fi_ioc", ptr("addr"), size("count"));
    /** {@code struct fi_msg_rma}. */
    public static final StructLayout FI_MSG_RMA = struct("fi_msg_rma", ptr("msg_iov"), ptr("desc"),
        size("iov_count"), u64("addr"), ptr("rma_iov"), size("rma_iov_count"), ptr("context"), u64("data"));
    /** {@code struct fi_msg_atomic}. */
    public static final StructLayout FI_MSG_ATOMIC = struct("fi_msg_atomic", ptr("msg_iov"), ptr("desc"),
        size("iov_count"), u64("addr"), ptr("rma_iov"), size("rma_iov_count"), i32("datatype"), i32("op"),
        ptr("context"), u64("data"));
    /** {@code struct fi_atomic_attr}. */
    public static final StructLayout FI_ATOMIC_ATTR = struct("fi_atomic_attr", size("count"), size("size"));

    /** {@code struct fi_cq_entry}. */
    public static final StructLayout FI_CQ_ENTRY = struct("fi_cq_entry", ptr("op_context"));
    /** {@code struct fi_cq_msg_entry}. */
    public static final StructLayout FI_CQ_MSG_ENTRY = struct("fi_cq_msg_entry",
        ptr("op_context"), u64("flags"), size("len"));
    /** {@code struct fi_cq_data_entry}. */
    public static final StructLayout FI_CQ_DATA_ENTRY = struct("fi_cq_data_entry",
        ptr("op_context"), u64("flags"), size("len"), ptr("buf"), u64("data"));
    /** {@code struct fi_cq_tagged_entry}. */
    public static final StructLayout FI_CQ_TAGGED_ENTRY = struct("fi_cq_tagged_entry",
        ptr("op_context"), u64("flags"), size("len"), ptr("buf"), u64("data"), u64("tag"));
    /** {@code struct fi_cq_err_entry}. */
    public static final StructLayout FI_CQ_ERR_ENTRY = struct("fi_cq_err_entry", ptr("op_context"), u64("flags"),
        size("len"), ptr("buf"), u64("data"), u64("tag"), size("olen"), i32("err"), i32("prov_errno"),
        ptr("err_data"), size("err_data_size"));
    /** {@code struct fi_cq_attr}. */
    public static final StructLayout FI_CQ_ATTR = struct("fi_cq_attr", size("size"), u64("flags"), i32("format"),
        i32("wait_obj"), i32("signaling_vector"), i32("wait_cond"), ptr("wait_set"));

    /** {@code struct fi_eq_attr}. */
    public static final StructLayout FI_EQ_ATTR = struct("fi_eq_attr", size("size"), u64("flags"),
        i32("wait_obj"), i32("signaling_vector"), ptr("wait_set"));
    /** {@code struct fi_eq_entry}. */
    public static final StructLayout FI_EQ_ENTRY = struct("fi_eq_entry", ptr("fid"), ptr("context"), u64("data"));
    /** {@code struct fi_eq_err_entry}. */
    public static final StructLayout FI_EQ_ERR_ENTRY = struct("fi_eq_err_entry", ptr("fid"), ptr("context"),
        u64("data"), i32("err"), i32("prov_errno"), ptr("err_data"), size("err_data_size"));

    /** {@code struct fi_av_attr}. */
    public static final StructLayout FI_AV_ATTR = struct("fi_av_attr", i32("type"), i32("rx_ctx_bits"),
        size("count"), size("ep_per_node"), ptr("name"), ptr("map_addr"), u64("flags"));
    /** {@code struct fi_cntr_attr}. */
    public static final StructLayout FI_CNTR_ATTR = struct("fi_cntr_attr", i32("events"), i32("wait_obj"),
        ptr("wait_set"), u64("flags"));
    /** {@code struct fi_mr_attr}; the {@code device} union is one {@code uint64_t}, its largest member. */
    public static final StructLayout FI_MR_ATTR = struct("fi_mr_attr", ptr("mr_iov"), size("iov_count"),
        u64("access"), u64("offset"), u64("requested_key"), ptr("context"), size("auth_key_size"), ptr("auth_key"),
        i32("iface"), pad(4), u64("device"));
    /** {@code struct fi_mr_raw_attr}. */
    public static final StructLayout FI_MR_RAW_ATTR = struct("fi_mr_raw_attr", u64("flags"), ptr("base_addr"),
        ptr("raw_key"), ptr("key_size"));
    /** {@code struct fi_mr_map_raw}. */
    public static final StructLayout FI_MR_MAP_RAW = struct("fi_mr_map_raw", u64("flags"), u64("base_addr"),
        ptr("raw_key"), size("key_size"), ptr("key"));
    /** {@code struct fi_mr_modify}. */
    public static final StructLayout FI_MR_MODIFY = struct("fi_mr_modify", u64("flags"), FI_MR_ATTR.withName("attr"));

    /** {@code struct fi_context}. */
    public static final StructLayout FI_CONTEXT = struct("fi_context",
        MemoryLayout.sequenceLayout(4, CTypes.PTR).withName("internal"));
    /** {@code struct fi_context2}. */
    public static final StructLayout FI_CONTEXT2 = struct("fi_context2",
        MemoryLayout.sequenceLayout(8, CTypes.PTR).withName("internal"));

    /** iovec.iov_base. */
    public static final long IOV_BASE = offset(IOVEC, "iov_base");
    /** iovec.iov_len. */
    public static final long IOV_LEN = offset(IOVEC, "iov_len");

    /** fi_msg_*.msg_iov (the same in every message struct). */
    public static final long MSG_IOV = offset(FI_MSG, "msg_iov");
    /** fi_msg_*.desc. */
    public static final long MSG_DESC = offset(FI_MSG, "desc");
    /** fi_msg_*.iov_count. */
    public static final long MSG_IOV_COUNT = offset(FI_MSG, "iov_count");
    /** fi_msg_*.addr. */
    public static final long MSG_ADDR = offset(FI_MSG, "addr");
    /** fi_msg.context. */
    public static final long MSG_CONTEXT = offset(FI_MSG, "context");
    /** fi_msg.data. */
    public static final long MSG_DATA = offset(FI_MSG, "data");
    /** fi_msg_tagged.tag. */
    public static final long TMSG_TAG = offset(FI_MSG_TAGGED, "tag");
    /** fi_msg_tagged.ignore. */
    public static final long TMSG_IGNORE = offset(FI_MSG_TAGGED, "ignore");
    /** fi_msg_tagged.context. */
    public static final long TMSG_CONTEXT = offset(FI_MSG_TAGGED, "context");
    /** fi_msg_tagged.data. */
    public static final long TMSG_DATA = offset(FI_MSG_TAGGED, "data");
    /** fi_msg_rma.rma_iov. */
    public static final long RMSG_RMA_IOV = offset(FI_MSG_RMA, "rma_iov");
    /** fi_msg_rma.rma_iov_count. */
    public static final long RMSG_RMA_IOV_COUNT = offset(FI_MSG_RMA, "rma_iov_count");
    /** fi_msg_rma.context. */
    public static final long RMSG_CONTEXT = offset(FI_MSG_RMA, "context");
    /** fi_msg_rma.data. */
    public static final long RMSG_DATA = offset(FI_MSG_RMA, "data");
    /** fi_rma_iov.addr. */
    public static final long RMA_IOV_ADDR = offset(FI_RMA_IOV, "addr");
    /** fi_rma_iov.len. */
    public static final long RMA_IOV_LEN = offset(FI_RMA_IOV, "len");
    /** fi_rma_iov.key. */
    public static final long RMA_IOV_KEY = offset(FI_RMA_IOV, "key");
    /** fi_ioc.addr. */
    public static final long IOC_ADDR = offset(FI_IOC, "addr");
    /** fi_ioc.count. */
    public static final long IOC_COUNT = offset(FI_IOC, "count");
    /** fi_msg_atomic.rma_iov. */
    public static final long AMSG_RMA_IOV = offset(FI_MSG_ATOMIC, "rma_iov");
    /** fi_msg_atomic.rma_iov_count. */
    public static final long AMSG_RMA_IOV_COUNT = offset(FI_MSG_ATOMIC, "rma_iov_count");
    /** fi_msg_atomic.datatype. */
    public static final long AMSG_DATATYPE = offset(FI_MSG_ATOMIC, "datatype");
    /** fi_msg_atomic.op. */
    public static final long AMSG_OP = offset(FI_MSG_ATOMIC, "op");
    /** fi_msg_atomic.context. */
    public static final long AMSG_CONTEXT = offset(FI_MSG_ATOMIC, "context");
    /** fi_msg_atomic.data. */
    public static final long AMSG_DATA = offset(FI_MSG_ATOMIC, "data");
    /** fi_atomic_attr.count. */
    public static final long ATOMIC_ATTR_COUNT = offset(FI_ATOMIC_ATTR, "count");

    /** fi_cq_*_entry.op_context. */
    public static final long CQE_OP_CONTEXT = offset(FI_CQ_TAGGED_ENTRY, "op_context");
    /** fi_cq_*_entry.flags. */
    public static final long CQE_FLAGS = offset(FI_CQ_TAGGED_ENTRY, "flags");
    /** fi_cq_*_entry.len. */
    public static final long CQE_LEN = offset(FI_CQ_TAGGED_ENTRY, "len");
    /** fi_cq_*_entry.buf. */
    public static final long CQE_BUF = offset(FI_CQ_TAGGED_ENTRY, "buf");
    /** fi_cq_*_entry.data. */
    public static final long CQE_DATA = offset(FI_CQ_TAGGED_ENTRY, "data");
    /** fi_cq_tagged_entry.tag. */
    public static final long CQE_TAG = offset(FI_CQ_TAGGED_ENTRY, "tag");
    /** fi_cq_err_entry.olen. */
    public static final long CQERR_OLEN = offset(FI_CQ_ERR_ENTRY, "olen");
    /** fi_cq_err_entry.err. */
    public static final long CQERR_ERR = offset(FI_CQ_ERR_ENTRY, "err");
    /** fi_cq_err_entry.prov_errno. */
    public static final long CQERR_PROV_ERRNO = offset(FI_CQ_ERR_ENTRY, "prov_errno");
    /** fi_cq_err_entry.err_data. */
    public static final long CQERR_ERR_DATA = offset(FI_CQ_ERR_ENTRY, "err_data");
    /** fi_cq_err_entry.err_data_size. */
    public static final long CQERR_ERR_DATA_SIZE = offset(FI_CQ_ERR_ENTRY, "err_data_size");

    /** fi_cq_attr.size. */
    public static final long CQA_SIZE = offset(FI_CQ_ATTR, "size");
    /** fi_cq_attr.flags. */
    public static final long CQA_FLAGS = offset(FI_CQ_ATTR, "flags");
    /** fi_cq_attr.format. */
    public static final long CQA_FORMAT = offset(FI_CQ_ATTR, "format");
    /** fi_cq_attr.wait_obj. */
    public static final long CQA_WAIT_OBJ = offset(FI_CQ_ATTR, "wait_obj");
    /** fi_cq_attr.signaling_vector. */
    public static final long CQA_SIGNALING_VECTOR = offset(FI_CQ_ATTR, "signaling_vector");
    /** fi_cq_attr.wait_cond. */
    public static final long CQA_WAIT_COND = offset(FI_CQ_ATTR, "wait_cond");

    /** fi_eq_attr.size. */
    public static final long EQA_SIZE = offset(FI_EQ_ATTR, "size");
    /** fi_eq_attr.flags. */
    public static final long EQA_FLAGS = offset(FI_EQ_ATTR, "flags");
    /** fi_eq_attr.wait_obj. */
    public static final long EQA_WAIT_OBJ = offset(FI_EQ_ATTR, "wait_obj");
    /** fi_eq_attr.signaling_vector. */
    public static final long EQA_SIGNALING_VECTOR = offset(FI_EQ_ATTR, "signaling_vector");
    /** fi_eq_entry.fid (and fi_eq_err_entry.fid). */
    public static final long EQE_FID = offset(FI_EQ_ENTRY, "fid");
    /** fi_eq_entry.context. */
    public static final long EQE_CONTEXT = offset(FI_EQ_ENTRY, "context");
    /** fi_eq_entry.data. */
    public static final long EQE_DATA = offset(FI_EQ_ENTRY, "data");
    /** fi_eq_err_entry.err. */
    public static final long EQERR_ERR = offset(FI_EQ_ERR_ENTRY, "err");
    /** fi_eq_err_entry.prov_errno. */
    public static final long EQERR_PROV_ERRNO = offset(FI_EQ_ERR_ENTRY, "prov_errno");
    /** fi_eq_err_entry.err_data. */
    public static final long EQERR_ERR_DATA = offset(FI_EQ_ERR_ENTRY, "err_data");
    /** fi_eq_err_entry.err_data_size. */
    public static final long EQERR_ERR_DATA_SIZE = offset(FI_EQ_ERR_ENTRY, "err_data_size");

    /** fi_av_attr.type. */
    public static final long AVA_TYPE = offset(FI_AV_ATTR, "type");
    /** fi_av_attr.rx_ctx_bits. */
    public static final long AVA_RX_CTX_BITS = offset(FI_AV_ATTR, "rx_ctx_bits");
    /** fi_av_attr.count. */
    public static final long AVA_COUNT = offset(FI_AV_ATTR, "count");
    /** fi_av_attr.ep_per_node. */
    public static final long AVA_EP_PER_NODE = offset(FI_AV_ATTR, "ep_per_node");
    /** fi_av_attr.name. */
    public static final long AVA_NAME = offset(FI_AV_ATTR, "name");
    /** fi_av_attr.map_addr. */
    public static final long AVA_MAP_ADDR = offset(FI_AV_ATTR, "map_addr");
    /** fi_av_attr.flags. */
    public static final long AVA_FLAGS = offset(FI_AV_ATTR, "flags");

    /** fi_cntr_attr.events. */
    public static final long CNTRA_EVENTS = offset(FI_CNTR_ATTR, "events");
    /** fi_cntr_attr.wait_obj. */
    public static final long CNTRA_WAIT_OBJ = offset(FI_CNTR_ATTR, "wait_obj");
    /** fi_cntr_attr.flags. */
    public static final long CNTRA_FLAGS = offset(FI_CNTR_ATTR, "flags");

    /** fi_mr_attr.mr_iov. */
    public static final long MRA_MR_IOV = offset(FI_MR_ATTR, "mr_iov");
    /** fi_mr_attr.iov_count. */
    public static final long MRA_IOV_COUNT = offset(FI_MR_ATTR, "iov_count");
    /** fi_mr_attr.access. */
    public static final long MRA_ACCESS = offset(FI_MR_ATTR, "access");
    /** fi_mr_attr.offset. */
    public static final long MRA_OFFSET = offset(FI_MR_ATTR, "offset");
    /** fi_mr_attr.requested_key. */
    public static final long MRA_REQUESTED_KEY = offset(FI_MR_ATTR, "requested_key");
    /** fi_mr_attr.context. */
    public static final long MRA_CONTEXT = offset(FI_MR_ATTR, "context");
    /** fi_mr_attr.auth_key_size. */
    public static final long MRA_AUTH_KEY_SIZE = offset(FI_MR_ATTR, "auth_key_size");
    /** fi_mr_attr.auth_key. */
    public static final long MRA_AUTH_KEY = offset(FI_MR_ATTR, "auth_key");
    /** fi_mr_attr.iface. */
    public static final long MRA_IFACE = offset(FI_MR_ATTR, "iface");
    /** fi_mr_raw_attr.flags. */
    public static final long MRRAW_FLAGS = offset(FI_MR_RAW_ATTR, "flags");
    /** fi_mr_raw_attr.base_addr. */
    public static final long MRRAW_BASE_ADDR = offset(FI_MR_RAW_ATTR, "base_addr");
    /** fi_mr_raw_attr.raw_key. */
    public static final long MRRAW_RAW_KEY = offset(FI_MR_RAW_ATTR, "raw_key");
    /** fi_mr_raw_attr.key_size. */
    public static final long MRRAW_KEY_SIZE = offset(FI_MR_RAW_ATTR, "key_size");
    /** fi_mr_map_raw.flags. */
    public static final long MRMAP_FLAGS = offset(FI_MR_MAP_RAW, "flags");
    /** fi_mr_map_raw.base_addr. */
    public static final long MRMAP_BASE_ADDR = offset(FI_MR_MAP_RAW, "base_addr");
    /** fi_mr_map_raw.raw_key. */
    public static final long MRMAP_RAW_KEY = offset(FI_MR_MAP_RAW, "raw_key");
    /** fi_mr_map_raw.key_size. */
    public static final long MRMAP_KEY_SIZE = offset(FI_MR_MAP_RAW, "key_size");
    /** fi_mr_map_raw.key. */
    public static final long MRMAP_KEY = offset(FI_MR_MAP_RAW, "key");
    /** fi_mr_modify.flags. */
    public static final long MRMOD_FLAGS = offset(FI_MR_MODIFY, "flags");
    /** fi_mr_modify.attr. */
    public static final long MRMOD_ATTR = offset(FI_MR_MODIFY, "attr");

    private DataLayouts()
    {
    }
}
