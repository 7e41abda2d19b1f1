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
 * What fi_tostr prints for an enumeration value: libfabric's name for each number, in tables indexed by the number
 * ({@code null} where libfabric has none), {@code Unknown} for a number without a name and
 * {@code Provider specific} for an address format or protocol with bit 31 set; and the number of a Java
 * enumeration value, libfabric's 0 for an unset (null) one.
 * <p>
 * Stateless; any thread.
 */
final class EnumNames
{
    private static final String UNKNOWN = "Unknown";
    private static final String PROVIDER_SPECIFIC = "Provider specific";

    static final String[] EP_TYPES =
    {
        "FI_EP_UNSPEC", "FI_EP_MSG", "FI_EP_DGRAM", "FI_EP_RDM", "FI_EP_SOCK_STREAM", "FI_EP_SOCK_DGRAM",
    };
    static final String[] ADDR_FORMATS =
    {
        "FI_FORMAT_UNSPEC", "FI_SOCKADDR", "FI_SOCKADDR_IN", "FI_SOCKADDR_IN6", "FI_SOCKADDR_IB", "FI_ADDR_PSMX",
        "FI_ADDR_GNI", "FI_ADDR_BGQ", "FI_ADDR_MLX", "FI_ADDR_STR", "FI_ADDR_PSMX2", "FI_ADDR_IB_UD", "FI_ADDR_EFA",
        "FI_ADDR_PSMX3", "FI_ADDR_OPX", "FI_ADDR_CXI",
    };
    static final String[] THREADINGS =
    {
        "FI_THREAD_UNSPEC", "FI_THREAD_SAFE", "FI_THREAD_FID", "FI_THREAD_DOMAIN", "FI_THREAD_COMPLETION",
        "FI_THREAD_ENDPOINT",
    };
    static final String[] PROGRESSES = { "FI_PROGRESS_UNSPEC", "FI_PROGRESS_AUTO", "FI_PROGRESS_MANUAL" };
    static final String[] PROTOCOLS =
    {
        "FI_PROTO_UNSPEC", "FI_PROTO_RDMA_CM_IB_RC", "FI_PROTO_IWARP", "FI_PROTO_IB_UD", "FI_PROTO_PSMX",
        "FI_PROTO_UDP", "FI_PROTO_SOCK_TCP", null, "FI_PROTO_IWARP_RDM", "FI_PROTO_IB_RDM", "FI_PROTO_GNI",
        "FI_PROTO_RXM", "FI_PROTO_RXD", "FI_PROTO_MLX", "FI_PROTO_NETWORKDIRECT", "FI_PROTO_PSMX2", "FI_PROTO_SHM",
        null, "FI_PROTO_RSTREAM", "FI_PROTO_RDMA_CM_IB_XRC", "FI_PROTO_EFA", "FI_PROTO_PSMX3", "FI_PROTO_RXM_TCP",
        "FI_PROTO_OPX", "FI_PROTO_CXI", "FI_PROTO_XNET",
    };
    static final String[] AV_TYPES = { "FI_AV_UNSPEC", "FI_AV_MAP", "FI_AV_TABLE" };
    static final String[] RESOURCE_MGMTS = { "FI_RM_UNSPEC", "FI_RM_DISABLED", "FI_RM_ENABLED" };
    static final String[] CQ_FORMATS =
    {
        "FI_CQ_FORMAT_UNSPEC", "FI_CQ_FORMAT_CONTEXT", "FI_CQ_FORMAT_MSG", "FI_CQ_FORMAT_DATA",
        "FI_CQ_FORMAT_TAGGED",
    };
    static final String[] EQ_EVENTS =
    {
        "FI_NOTIFY", "FI_CONNREQ", "FI_CONNECTED", "FI_SHUTDOWN", "FI_MR_COMPLETE", "FI_AV_COMPLETE",
        "FI_JOIN_COMPLETE",
    };
    static final String[] ATOMIC_TYPES =
    {
        "FI_INT8", "FI_UINT8", "FI_INT16", "FI_UINT16", "FI_INT32", "FI_UINT32", "FI_INT64", "FI_UINT64",
        "FI_FLOAT", "FI_DOUBLE", "FI_FLOAT_COMPLEX", "FI_DOUBLE_COMPLEX", "FI_LONG_DOUBLE",
        "FI_LONG_DOUBLE_COMPLEX", "FI_INT128", "FI_UINT128",
    };
    static final String[] ATOMIC_OPS =
    {
        "FI_MIN", "FI_MAX", "FI_SUM", "FI_PROD", "FI_LOR", "FI_LAND", "FI_BOR", "FI_BAND", "FI_LXOR", "FI_BXOR",
        "FI_ATOMIC_READ", "FI_ATOMIC_WRITE", "FI_CSWAP", "FI_CSWAP_NE", "FI_CSWAP_LE", "FI_CSWAP_LT",
        "FI_CSWAP_GE", "FI_CSWAP_GT", "FI_MSWAP",
    };
    static final String[] OP_TYPES =
    {
        "FI_OP_RECV", "FI_OP_SEND", "FI_OP_TRECV", "FI_OP_TSEND", "FI_OP_READ", "FI_OP_WRITE", "FI_OP_ATOMIC",
        "FI_OP_FETCH_ATOMIC", "FI_OP_COMPARE_ATOMIC", "FI_OP_CNTR_SET", "FI_OP_CNTR_ADD",
    };
    static final String[] COLLECTIVE_OPS =
    {
        "FI_BARRIER", "FI_BROADCAST", "FI_ALLTOALL", "FI_ALLREDUCE", "FI_ALLGATHER", "FI_REDUCE_SCATTER",
        "FI_REDUCE", "FI_SCATTER", "FI_GATHER",
    };
    static final String[] HMEM_IFACES =
    {
        "FI_HMEM_SYSTEM", "FI_HMEM_CUDA", "FI_HMEM_ROCR", "FI_HMEM_ZE", "FI_HMEM_NEURON", "FI_HMEM_SYNAPSEAI",
    };
    static final String[] LOG_LEVELS = { "warn", "trace", "info", "debug" };
    static final String[] LOG_SUBSYSTEMS =
    {
        "core", "fabric", "domain", "ep_ctrl", "ep_data", "av", "cq", "eq", "mr", "cntr",
    };

    private EnumNames()
    {
    }

    /**
     * Address formats and protocols with bit 31 ({@code FI_PROV_SPECIFIC}) set belong to a provider.
     */
    static String providerSpecificOrName(final String[] names, final int value)
    {
        return (value & Flags.FI_PROV_SPECIFIC) != 0 ? PROVIDER_SPECIFIC : name(names, value);
    }

    static String name(final String[] names, final int value)
    {
        final String name = value >= 0 && value < names.length ? names[value] : null;
        return name == null ? UNKNOWN : name;
    }

    /**
     * A null enumeration in a holder is an unset field: it prints as libfabric's 0 value does.
     */
    static int valueOf(final Enum<?> e)
    {
        if (e == null)
        {
            return 0;
        }
        if (e instanceof EpType)
        {
            return ((EpType)e).value();
        }
        if (e instanceof AddrFormat)
        {
            return ((AddrFormat)e).value();
        }
        if (e instanceof Threading)
        {
            return ((Threading)e).value();
        }
        if (e instanceof Progress)
        {
            return ((Progress)e).value();
        }
        if (e instanceof Protocol)
        {
            return ((Protocol)e).value();
        }
        if (e instanceof AvType)
        {
            return ((AvType)e).value();
        }
        if (e instanceof ResourceMgmt)
        {
            return ((ResourceMgmt)e).value();
        }
        if (e instanceof EqEvent)
        {
            return ((EqEvent)e).value();
        }
        if (e instanceof CqFormat)
        {
            return ((CqFormat)e).value();
        }
        throw new IllegalArgumentException("tostr: no libfabric number for " + e.getClass().getName());
    }
}
