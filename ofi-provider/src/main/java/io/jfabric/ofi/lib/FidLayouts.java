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
 * The fabric objects ({@code struct fid} and the {@code fid_*} structs that start with it) and their ops tables, from
 * libfabric 1.17's headers. Every ops table starts with its {@code size}, which {@link Ops} compares with a
 * function's offset as {@code FI_CHECK_OP} does, so a provider built against an older, shorter table answers
 * FI_ENOSYS instead of a call through whatever follows it.
 * <pre>
 * fid         fclass | context | ops                        (24 bytes)
 * fid_fabric  fid | ops | api_version, pad 4                (40)
 * fid_domain  fid | ops | mr                                (40)
 * fid_ep      fid | ops | cm | msg | rma | tagged | atomic | collective   (80)
 * fid_av, fid_eq, fid_cq, fid_cntr, fid_stx   fid | ops     (32)
 * fid_mr      fid | mem_desc | key                          (40)
 * fi_ops_*    size | function pointers in header order
 * </pre>
 * Stateless.
 */
public final class FidLayouts
{
    /** {@code struct fid}. */
    public static final StructLayout FID = struct("fid", size("fclass"), ptr("context"), ptr("ops"));
    /** {@code struct fi_ops}. */
    public static final StructLayout FI_OPS = ops("fi_ops", "close", "bind", "control", "ops_open", "tostr", "ops_set");
    /** {@code struct fi_ops_fabric}. */
    public static final StructLayout FI_OPS_FABRIC = ops("fi_ops_fabric",
        "domain", "passive_ep", "eq_open", "wait_open", "trywait", "domain2");
    /** {@code struct fid_fabric}. */
    public static final StructLayout FID_FABRIC = struct("fid_fabric",
        FID.withName("fid"), ptr("ops"), i32("api_version"), pad(4));
    /** {@code struct fi_ops_domain}. */
    public static final StructLayout FI_OPS_DOMAIN = ops("fi_ops_domain", "av_open", "cq_open", "endpoint",
        "scalable_ep", "cntr_open", "poll_open", "stx_ctx", "srx_ctx", "query_atomic", "query_collective",
        "endpoint2");
    /** {@code struct fi_ops_mr}. */
    public static final StructLayout FI_OPS_MR = ops("fi_ops_mr", "reg", "regv", "regattr");
    /** {@code struct fid_domain}. */
    public static final StructLayout FID_DOMAIN = struct("fid_domain", FID.withName("fid"), ptr("ops"), ptr("mr"));
    /** {@code struct fi_ops_av}. */
    public static final StructLayout FI_OPS_AV = ops("fi_ops_av",
        "insert", "insertsvc", "insertsym", "remove", "lookup", "straddr", "av_set");
    /** {@code struct fid_av}. */
    public static final StructLayout FID_AV = struct("fid_av", FID.withName("fid"), ptr("ops"));
    /** {@code struct fid_mr}. */
    public static final StructLayout FID_MR = struct("fid_mr", FID.withName("fid"), ptr("mem_desc"), u64("key"));
    /** {@code struct fi_ops_eq}. */
    public static final StructLayout FI_OPS_EQ = ops("fi_ops_eq", "read", "readerr", "write", "sread", "strerror");
    /** {@code struct fid_eq}. */
    public static final StructLayout FID_EQ = struct("fid_eq", FID.withName("fid"), ptr("ops"));
    /** {@code struct fi_ops_cq}. */
    public static final StructLayout FI_OPS_CQ = ops("fi_ops_cq",
        "read", "readfrom", "readerr", "sread", "sreadfrom", "signal", "strerror");
    /** {@code struct fid_cq}. */
    public static final StructLayout FID_CQ = struct("fid_cq", FID.withName("fid"), ptr("ops"));
    /** {@code struct fi_ops_cntr}. */
    public static final StructLayout FI_OPS_CNTR = ops("fi_ops_cntr",
        "read", "readerr", "add", "set", "wait", "adderr", "seterr");
    /** {@code struct fid_cntr}. */
    public static final StructLayout FID_CNTR = struct("fid_cntr", FID.withName("fid"), ptr("ops"));
    /** {@code struct fi_ops_ep}. */
    public static final StructLayout FI_OPS_EP = ops("fi_ops_ep",
        "cancel", "getopt", "setopt", "tx_ctx", "rx_ctx", "rx_size_left", "tx_size_left");
    /** {@code struct fi_ops_cm}. */
    public static final StructLayout FI_OPS_CM = ops("fi_ops_cm",
        "setname", "getname", "getpeer", "connect", "listen", "accept", "reject", "shutdown", "join");
    /** {@code struct fi_ops_msg}. */
    public static final StructLayout FI_OPS_MSG = ops("fi_ops_msg",
        "recv", "recvv", "recvmsg", "send", "sendv", "sendmsg", "inject", "senddata", "injectdata");
    /** {@code struct fi_ops_rma}. */
    public static final StructLayout FI_OPS_RMA = ops("fi_ops_rma",
        "read", "readv", "readmsg", "write", "writev", "writemsg", "inject", "writedata", "injectdata");
    /** {@code struct fi_ops_tagged}. */
    public static final StructLayout FI_OPS_TAGGED = ops("fi_ops_tagged",
        "recv", "recvv", "recvmsg", "send", "sendv", "sendmsg", "inject", "senddata", "injectdata");
    /** {@code struct fi_ops_atomic}. */
    public static final StructLayout FI_OPS_ATOMIC = ops("fi_ops_atomic", "write", "writev", "writemsg", "inject",
        "readwrite", "readwritev", "readwritemsg", "compwrite", "compwritev", "compwritemsg", "writevalid",
        "readwritevalid", "compwritevalid");
    /** {@code struct fid_ep}. */
    public static final StructLayout FID_EP = struct("fid_ep", FID.withName("fid"), ptr("ops"), ptr("cm"),
        ptr("msg"), ptr("rma"), ptr("tagged"), ptr("atomic"), ptr("collective"));
    /** {@code struct fid_stx}. */
    public static final StructLayout FID_STX = struct("fid_stx", FID.withName("fid"), ptr("ops"));

    /** fid.fclass. */
    public static final long FID_FCLASS = offset(FID, "fclass");
    /** fid.context. */
    public static final long FID_CONTEXT = offset(FID, "context");
    /** fid.ops. */
    public static final long FID_OPS = offset(FID, "ops");
    /** The {@code ops} member that follows {@code fid} in every fid_* struct. */
    public static final long OBJ_OPS = offset(FID_EP, "ops");
    /** fid_fabric.api_version. */
    public static final long FABRIC_API_VERSION = offset(FID_FABRIC, "api_version");
    /** fid_domain.mr. */
    public static final long DOMAIN_MR = offset(FID_DOMAIN, "mr");
    /** fid_mr.mem_desc. */
    public static final long MR_MEM_DESC = offset(FID_MR, "mem_desc");
    /** fid_mr.key. */
    public static final long MR_KEY = offset(FID_MR, "key");
    /** fid_ep.cm. */
    public static final long EP_CM = offset(FID_EP, "cm");
    /** fid_ep.msg. */
    public static final long EP_MSG = offset(FID_EP, "msg");
    /** fid_ep.rma. */
    public static final long EP_RMA = offset(FID_EP, "rma");
    /** fid_ep.tagged. */
    public static final long EP_TAGGED = offset(FID_EP, "tagged");
    /** fid_ep.atomic. */
    public static final long EP_ATOMIC = offset(FID_EP, "atomic");

    private FidLayouts()
    {
    }

    private static StructLayout ops(final String name, final String... functions)
    {
        final MemoryLayout[] members = new MemoryLayout[functions.length + 1];
        members[0] = size("size");
        for (int i = 0; i < functions.length; i++)
        {
            members[i + 1] = ptr(functions[i]);
        }
        return struct(name, members);
    }

    /**
     * @param table an ops table layout.
     * @param function a function pointer's name in it.
     * @return its offset.
     */
    public static long fn(final StructLayout table, final String function)
    {
        return offset(table, function);
    }
}
