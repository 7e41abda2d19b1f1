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

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * {@code fi_tostr}: the text libfabric 1.17's {@code fi_tostr} prints for an info, an attribute structure, a
 * flag mask or an enumeration value, byte for byte, so that jfabric's output reads (and diffs) like libfabric's
 * {@code fi_info -v}. The golden tests compare against fixtures captured from the real libfabric.
 * <p>
 * Flag masks are {@code long} (or {@code int} for {@link FiType#MR_MODE}), enumerations are the Java enum or
 * libfabric's number. What libfabric prints is reproduced, quirks included:
 * <ul>
 *     <li>bits libfabric has no name for are left out, and names come in libfabric's order, not bit order
 *     ({@code FI_HMEM} is the last capability printed);</li>
 *     <li>enumeration values libfabric has no name for print as {@code Unknown}, even where the header defines
 *     one ({@code FI_PROTO_MXM}, {@code FI_PROTO_MRAIL}); address formats and protocols with bit 31
 *     ({@code FI_PROV_SPECIFIC}) set print as {@code Provider specific};</li>
 *     <li>{@code comp_order} prints {@code FI_ORDER_NONE} or {@code FI_ORDER_STRICT} only when its low nine bits
 *     are all clear or all set, then {@code FI_ORDER_DATA}; {@code msg_order} prints the bit names;</li>
 *     <li>an endpoint's {@code tx_ctx_cnt}/{@code rx_ctx_cnt} of {@code FI_SHARED_CONTEXT} print by name, a
 *     domain's do not; sizes print unsigned, {@code protocol_version} signed;</li>
 *     <li>the text is cut at 8190 bytes, as libfabric's 8192-byte buffer cuts it;</li>
 *     <li>a null {@code data} gives null, for {@link FiType#VERSION} too.</li>
 * </ul>
 * Where C prints a pointer (a non-null {@code handle}, {@code domain} or {@link FiType#FID}, and addresses in
 * {@code FI_ADDR_BGQ}/{@code FI_ADDR_MLX} format) no Java value can match it: jfabric prints {@code 0x} and the
 * object's identity hash instead. Addresses are read from the byte array only; bytes a format needs beyond its
 * end count as zero, where C would read past the buffer. {@code nic} always prints {@code (nil)}: jfabric's info
 * carries no NIC.
 * <p>
 * Stateless and allocation-light; unlike the C function, safe to call from any thread.
 */
public final class ToStr
{
    /** The libfabric version {@link FiType#VERSION} prints: the API this library follows. */
    public static final String LIBFABRIC_VERSION =
        Versions.FI_MAJOR_VERSION + "." + Versions.FI_MINOR_VERSION + "." + Versions.FI_REVISION_VERSION;

    /** Size of fi_tostr's buffer; the text is cut at two bytes less. */
    public static final int BUFFER_SIZE = 8192;

    private static final int MAX_TEXT_BYTES = BUFFER_SIZE - 2;
    private static final String UNKNOWN = "Unknown";
    private static final String UNKNOWN_TYPE = "Unknown type";
    private static final String PROVIDER_SPECIFIC = "Provider specific";
    private static final String NULL_STRING = "(null)";
    private static final String NULL_POINTER = "(nil)";

    private static final FlagNames CAPS = new FlagNames(
        Flags.FI_MSG, "FI_MSG",
        Flags.FI_RMA, "FI_RMA",
        Flags.FI_TAGGED, "FI_TAGGED",
        Flags.FI_ATOMIC, "FI_ATOMIC",
        Flags.FI_MULTICAST, "FI_MULTICAST",
        Flags.FI_COLLECTIVE, "FI_COLLECTIVE",
        Flags.FI_READ, "FI_READ",
        Flags.FI_WRITE, "FI_WRITE",
        Flags.FI_RECV, "FI_RECV",
        Flags.FI_SEND, "FI_SEND",
        Flags.FI_REMOTE_READ, "FI_REMOTE_READ",
        Flags.FI_REMOTE_WRITE, "FI_REMOTE_WRITE",
        Flags.FI_MULTI_RECV, "FI_MULTI_RECV",
        Flags.FI_REMOTE_CQ_DATA, "FI_REMOTE_CQ_DATA",
        Flags.FI_TRIGGER, "FI_TRIGGER",
        Flags.FI_FENCE, "FI_FENCE",
        Flags.FI_VARIABLE_MSG, "FI_VARIABLE_MSG",
        Flags.FI_RMA_PMEM, "FI_RMA_PMEM",
        Flags.FI_SOURCE_ERR, "FI_SOURCE_ERR",
        Flags.FI_LOCAL_COMM, "FI_LOCAL_COMM",
        Flags.FI_REMOTE_COMM, "FI_REMOTE_COMM",
        Flags.FI_SHARED_AV, "FI_SHARED_AV",
        Flags.FI_RMA_EVENT, "FI_RMA_EVENT",
        Flags.FI_SOURCE, "FI_SOURCE",
        Flags.FI_NAMED_RX_CTX, "FI_NAMED_RX_CTX",
        Flags.FI_DIRECTED_RECV, "FI_DIRECTED_RECV",
        Flags.FI_HMEM, "FI_HMEM");

    private static final FlagNames OP_FLAGS = new FlagNames(
        Flags.FI_MULTICAST, "FI_MULTICAST",
        Flags.FI_MULTI_RECV, "FI_MULTI_RECV",
        Flags.FI_REMOTE_CQ_DATA, "FI_REMOTE_CQ_DATA",
        Flags.FI_MORE, "FI_MORE",
        Flags.FI_PEEK, "FI_PEEK",
        Flags.FI_TRIGGER, "FI_TRIGGER",
        Flags.FI_FENCE, "FI_FENCE",
        Flags.FI_COMPLETION, "FI_COMPLETION",
        Flags.FI_INJECT, "FI_INJECT",
        Flags.FI_INJECT_COMPLETE, "FI_INJECT_COMPLETE",
        Flags.FI_TRANSMIT_COMPLETE, "FI_TRANSMIT_COMPLETE",
        Flags.FI_DELIVERY_COMPLETE, "FI_DELIVERY_COMPLETE",
        Flags.FI_MATCH_COMPLETE, "FI_MATCH_COMPLETE",
        Flags.FI_AFFINITY, "FI_AFFINITY",
        Flags.FI_CLAIM, "FI_CLAIM",
        Flags.FI_DISCARD, "FI_DISCARD");

    private static final FlagNames MODES = new FlagNames(
        Mode.FI_CONTEXT, "FI_CONTEXT",
        Mode.FI_MSG_PREFIX, "FI_MSG_PREFIX",
        Mode.FI_ASYNC_IOV, "FI_ASYNC_IOV",
        Mode.FI_RX_CQ_DATA, "FI_RX_CQ_DATA",
        Mode.FI_LOCAL_MR, "FI_LOCAL_MR",
        Mode.FI_NOTIFY_FLAGS_ONLY, "FI_NOTIFY_FLAGS_ONLY",
        Mode.FI_RESTRICTED_COMP, "FI_RESTRICTED_COMP",
        Mode.FI_CONTEXT2, "FI_CONTEXT2",
        Mode.FI_BUFFERED_RECV, "FI_BUFFERED_RECV");

    private static final FlagNames MSG_ORDERS = new FlagNames(
        MsgOrder.FI_ORDER_RAR, "FI_ORDER_RAR",
        MsgOrder.FI_ORDER_RAW, "FI_ORDER_RAW",
        MsgOrder.FI_ORDER_RAS, "FI_ORDER_RAS",
        MsgOrder.FI_ORDER_WAR, "FI_ORDER_WAR",
        MsgOrder.FI_ORDER_WAW, "FI_ORDER_WAW",
        MsgOrder.FI_ORDER_WAS, "FI_ORDER_WAS",
        MsgOrder.FI_ORDER_SAR, "FI_ORDER_SAR",
        MsgOrder.FI_ORDER_SAW, "FI_ORDER_SAW",
        MsgOrder.FI_ORDER_SAS, "FI_ORDER_SAS",
        MsgOrder.FI_ORDER_RMA_RAR, "FI_ORDER_RMA_RAR",
        MsgOrder.FI_ORDER_RMA_RAW, "FI_ORDER_RMA_RAW",
        MsgOrder.FI_ORDER_RMA_WAR, "FI_ORDER_RMA_WAR",
        MsgOrder.FI_ORDER_RMA_WAW, "FI_ORDER_RMA_WAW",
        MsgOrder.FI_ORDER_ATOMIC_RAR, "FI_ORDER_ATOMIC_RAR",
        MsgOrder.FI_ORDER_ATOMIC_RAW, "FI_ORDER_ATOMIC_RAW",
        MsgOrder.FI_ORDER_ATOMIC_WAR, "FI_ORDER_ATOMIC_WAR",
        MsgOrder.FI_ORDER_ATOMIC_WAW, "FI_ORDER_ATOMIC_WAW");

    private static final FlagNames MR_MODES = new FlagNames(
        MrMode.FI_MR_BASIC, "FI_MR_BASIC",
        MrMode.FI_MR_SCALABLE, "FI_MR_SCALABLE",
        MrMode.FI_MR_LOCAL, "FI_MR_LOCAL",
        MrMode.FI_MR_RAW, "FI_MR_RAW",
        MrMode.FI_MR_VIRT_ADDR, "FI_MR_VIRT_ADDR",
        MrMode.FI_MR_ALLOCATED, "FI_MR_ALLOCATED",
        MrMode.FI_MR_PROV_KEY, "FI_MR_PROV_KEY",
        MrMode.FI_MR_MMU_NOTIFY, "FI_MR_MMU_NOTIFY",
        MrMode.FI_MR_RMA_EVENT, "FI_MR_RMA_EVENT",
        MrMode.FI_MR_ENDPOINT, "FI_MR_ENDPOINT",
        MrMode.FI_MR_HMEM, "FI_MR_HMEM",
        MrMode.FI_MR_COLLECTIVE, "FI_MR_COLLECTIVE");

    private static final FlagNames CQ_EVENT_FLAGS = new FlagNames(
        Flags.FI_SEND, "FI_SEND",
        Flags.FI_RECV, "FI_RECV",
        Flags.FI_RMA, "FI_RMA",
        Flags.FI_ATOMIC, "FI_ATOMIC",
        Flags.FI_MSG, "FI_MSG",
        Flags.FI_TAGGED, "FI_TAGGED",
        Flags.FI_READ, "FI_READ",
        Flags.FI_WRITE, "FI_WRITE",
        Flags.FI_REMOTE_READ, "FI_REMOTE_READ",
        Flags.FI_REMOTE_WRITE, "FI_REMOTE_WRITE",
        Flags.FI_REMOTE_CQ_DATA, "FI_REMOTE_CQ_DATA",
        Flags.FI_MULTI_RECV, "FI_MULTI_RECV",
        Flags.FI_MORE, "FI_MORE",
        Flags.FI_CLAIM, "FI_CLAIM");

    private static final String[] EP_TYPES =
    {
        "FI_EP_UNSPEC", "FI_EP_MSG", "FI_EP_DGRAM", "FI_EP_RDM", "FI_EP_SOCK_STREAM", "FI_EP_SOCK_DGRAM",
    };
    private static final String[] ADDR_FORMATS =
    {
        "FI_FORMAT_UNSPEC", "FI_SOCKADDR", "FI_SOCKADDR_IN", "FI_SOCKADDR_IN6", "FI_SOCKADDR_IB", "FI_ADDR_PSMX",
        "FI_ADDR_GNI", "FI_ADDR_BGQ", "FI_ADDR_MLX", "FI_ADDR_STR", "FI_ADDR_PSMX2", "FI_ADDR_IB_UD", "FI_ADDR_EFA",
        "FI_ADDR_PSMX3", "FI_ADDR_OPX", "FI_ADDR_CXI",
    };
    private static final String[] THREADINGS =
    {
        "FI_THREAD_UNSPEC", "FI_THREAD_SAFE", "FI_THREAD_FID", "FI_THREAD_DOMAIN", "FI_THREAD_COMPLETION",
        "FI_THREAD_ENDPOINT",
    };
    private static final String[] PROGRESSES = { "FI_PROGRESS_UNSPEC", "FI_PROGRESS_AUTO", "FI_PROGRESS_MANUAL" };
    private static final String[] PROTOCOLS =
    {
        "FI_PROTO_UNSPEC", "FI_PROTO_RDMA_CM_IB_RC", "FI_PROTO_IWARP", "FI_PROTO_IB_UD", "FI_PROTO_PSMX",
        "FI_PROTO_UDP", "FI_PROTO_SOCK_TCP", null, "FI_PROTO_IWARP_RDM", "FI_PROTO_IB_RDM", "FI_PROTO_GNI",
        "FI_PROTO_RXM", "FI_PROTO_RXD", "FI_PROTO_MLX", "FI_PROTO_NETWORKDIRECT", "FI_PROTO_PSMX2", "FI_PROTO_SHM",
        null, "FI_PROTO_RSTREAM", "FI_PROTO_RDMA_CM_IB_XRC", "FI_PROTO_EFA", "FI_PROTO_PSMX3", "FI_PROTO_RXM_TCP",
        "FI_PROTO_OPX", "FI_PROTO_CXI", "FI_PROTO_XNET",
    };
    private static final String[] AV_TYPES = { "FI_AV_UNSPEC", "FI_AV_MAP", "FI_AV_TABLE" };
    private static final String[] RESOURCE_MGMTS = { "FI_RM_UNSPEC", "FI_RM_DISABLED", "FI_RM_ENABLED" };
    private static final String[] CQ_FORMATS =
    {
        "FI_CQ_FORMAT_UNSPEC", "FI_CQ_FORMAT_CONTEXT", "FI_CQ_FORMAT_MSG", "FI_CQ_FORMAT_DATA",
        "FI_CQ_FORMAT_TAGGED",
    };
    private static final String[] EQ_EVENTS =
    {
        "FI_NOTIFY", "FI_CONNREQ", "FI_CONNECTED", "FI_SHUTDOWN", "FI_MR_COMPLETE", "FI_AV_COMPLETE",
        "FI_JOIN_COMPLETE",
    };
    private static final String[] ATOMIC_TYPES =
    {
        "FI_INT8", "FI_UINT8", "FI_INT16", "FI_UINT16", "FI_INT32", "FI_UINT32", "FI_INT64", "FI_UINT64",
        "FI_FLOAT", "FI_DOUBLE", "FI_FLOAT_COMPLEX", "FI_DOUBLE_COMPLEX", "FI_LONG_DOUBLE",
        "FI_LONG_DOUBLE_COMPLEX", "FI_INT128", "FI_UINT128",
    };
    private static final String[] ATOMIC_OPS =
    {
        "FI_MIN", "FI_MAX", "FI_SUM", "FI_PROD", "FI_LOR", "FI_LAND", "FI_BOR", "FI_BAND", "FI_LXOR", "FI_BXOR",
        "FI_ATOMIC_READ", "FI_ATOMIC_WRITE", "FI_CSWAP", "FI_CSWAP_NE", "FI_CSWAP_LE", "FI_CSWAP_LT",
        "FI_CSWAP_GE", "FI_CSWAP_GT", "FI_MSWAP",
    };
    private static final String[] OP_TYPES =
    {
        "FI_OP_RECV", "FI_OP_SEND", "FI_OP_TRECV", "FI_OP_TSEND", "FI_OP_READ", "FI_OP_WRITE", "FI_OP_ATOMIC",
        "FI_OP_FETCH_ATOMIC", "FI_OP_COMPARE_ATOMIC", "FI_OP_CNTR_SET", "FI_OP_CNTR_ADD",
    };
    private static final String[] COLLECTIVE_OPS =
    {
        "FI_BARRIER", "FI_BROADCAST", "FI_ALLTOALL", "FI_ALLREDUCE", "FI_ALLGATHER", "FI_REDUCE_SCATTER",
        "FI_REDUCE", "FI_SCATTER", "FI_GATHER",
    };
    private static final String[] HMEM_IFACES =
    {
        "FI_HMEM_SYSTEM", "FI_HMEM_CUDA", "FI_HMEM_ROCR", "FI_HMEM_ZE", "FI_HMEM_NEURON", "FI_HMEM_SYNAPSEAI",
    };
    private static final String[] LOG_LEVELS = { "warn", "trace", "info", "debug" };
    private static final String[] LOG_SUBSYSTEMS =
    {
        "core", "fabric", "domain", "ep_ctrl", "ep_data", "av", "cq", "eq", "mr", "cntr",
    };

    private ToStr()
    {
    }

    /**
     * {@code fi_tostr(data, type)}.
     *
     * @param data the value to print: see each {@link FiType} constant for what it takes.
     * @param type what the data is.
     * @return libfabric's text, or null when data is null.
     * @throws IllegalArgumentException when data is not what the type takes.
     * @throws NullPointerException     when type is null.
     */
    public static String toStr(final Object data, final FiType type)
    {
        Objects.requireNonNull(type, "type");
        if (data == null)
        {
            return null;
        }
        final StringBuilder sb = new StringBuilder(64);
        append(sb, data, type);
        return cut(sb);
    }

    /**
     * {@code fi_tostr} with libfabric's number for the type, for types read from elsewhere.
     *
     * @param data the value to print.
     * @param type libfabric's {@code enum fi_type} number.
     * @return libfabric's text, {@code "Unknown type"} for a number libfabric does not define, or null when data
     *         is null.
     */
    public static String toStr(final Object data, final int type)
    {
        if (data == null)
        {
            return null;
        }
        final FiType fiType = FiType.of(type);
        return fiType == null ? UNKNOWN_TYPE : toStr(data, fiType);
    }

    /**
     * {@code fi_tostr} with the type taken from the data's class: {@link Info}, an attribute structure, a
     * {@link Fid}, or one of the enumerations {@link FiType} names. Flag masks need {@link #toStr(Object, FiType)}.
     *
     * @param data the value to print.
     * @return libfabric's text, or null when data is null.
     * @throws IllegalArgumentException when the data's class says nothing about its type (a bare number).
     */
    public static String toStr(final Object data)
    {
        return data == null ? null : toStr(data, typeOf(data));
    }

    /**
     * @param info the info to print.
     * @return {@code fi_tostr(info, FI_TYPE_INFO)}.
     */
    public static String toStr(final Info info)
    {
        return toStr(info, FiType.INFO);
    }

    /**
     * @param attr the attributes to print.
     * @return {@code fi_tostr(attr, FI_TYPE_TX_ATTR)}.
     */
    public static String toStr(final TxAttr attr)
    {
        return toStr(attr, FiType.TX_ATTR);
    }

    /**
     * @param attr the attributes to print.
     * @return {@code fi_tostr(attr, FI_TYPE_RX_ATTR)}.
     */
    public static String toStr(final RxAttr attr)
    {
        return toStr(attr, FiType.RX_ATTR);
    }

    /**
     * @param attr the attributes to print.
     * @return {@code fi_tostr(attr, FI_TYPE_EP_ATTR)}.
     */
    public static String toStr(final EpAttr attr)
    {
        return toStr(attr, FiType.EP_ATTR);
    }

    /**
     * @param attr the attributes to print.
     * @return {@code fi_tostr(attr, FI_TYPE_DOMAIN_ATTR)}.
     */
    public static String toStr(final DomainAttr attr)
    {
        return toStr(attr, FiType.DOMAIN_ATTR);
    }

    /**
     * @param attr the attributes to print.
     * @return {@code fi_tostr(attr, FI_TYPE_FABRIC_ATTR)}.
     */
    public static String toStr(final FabricAttr attr)
    {
        return toStr(attr, FiType.FABRIC_ATTR);
    }

    /**
     * @param caps capability bits.
     * @return {@code fi_tostr(&caps, FI_TYPE_CAPS)}: the names, comma separated, no brackets.
     */
    public static String caps(final long caps)
    {
        return CAPS.append(new StringBuilder(), caps).toString();
    }

    /**
     * @param flags operation flag bits.
     * @return {@code fi_tostr(&flags, FI_TYPE_OP_FLAGS)}.
     */
    public static String opFlags(final long flags)
    {
        return OP_FLAGS.append(new StringBuilder(), flags).toString();
    }

    /**
     * @param mode mode bits.
     * @return {@code fi_tostr(&mode, FI_TYPE_MODE)}.
     */
    public static String mode(final long mode)
    {
        return MODES.append(new StringBuilder(), mode).toString();
    }

    /**
     * @param order ordering bits.
     * @return {@code fi_tostr(&order, FI_TYPE_MSG_ORDER)}.
     */
    public static String msgOrder(final long order)
    {
        return MSG_ORDERS.append(new StringBuilder(), order).toString();
    }

    /**
     * @param mrMode memory registration mode bits.
     * @return {@code fi_tostr(&mr_mode, FI_TYPE_MR_MODE)}.
     */
    public static String mrMode(final int mrMode)
    {
        return MR_MODES.append(new StringBuilder(), mrMode & 0xFFFF_FFFFL).toString();
    }

    /**
     * @return {@code fi_tostr(any, FI_TYPE_VERSION)}: {@value #LIBFABRIC_VERSION}-style text.
     */
    public static String version()
    {
        return LIBFABRIC_VERSION;
    }

    private static FiType typeOf(final Object data)
    {
        if (data instanceof Info)
        {
            return FiType.INFO;
        }
        if (data instanceof TxAttr)
        {
            return FiType.TX_ATTR;
        }
        if (data instanceof RxAttr)
        {
            return FiType.RX_ATTR;
        }
        if (data instanceof EpAttr)
        {
            return FiType.EP_ATTR;
        }
        if (data instanceof DomainAttr)
        {
            return FiType.DOMAIN_ATTR;
        }
        if (data instanceof FabricAttr)
        {
            return FiType.FABRIC_ATTR;
        }
        if (data instanceof EpType)
        {
            return FiType.EP_TYPE;
        }
        if (data instanceof AddrFormat)
        {
            return FiType.ADDR_FORMAT;
        }
        if (data instanceof Threading)
        {
            return FiType.THREADING;
        }
        if (data instanceof Progress)
        {
            return FiType.PROGRESS;
        }
        if (data instanceof Protocol)
        {
            return FiType.PROTOCOL;
        }
        if (data instanceof AvType)
        {
            return FiType.AV_TYPE;
        }
        if (data instanceof EqEvent)
        {
            return FiType.EQ_EVENT;
        }
        if (data instanceof CqFormat)
        {
            return FiType.CQ_FORMAT;
        }
        if (data instanceof Fid)
        {
            return FiType.FID;
        }
        throw new IllegalArgumentException("tostr: the type of a " + data.getClass().getName() +
            " is ambiguous; name it with toStr(data, FiType)");
    }

    private static void append(final StringBuilder sb, final Object data, final FiType type)
    {
        switch (type)
        {
            case INFO:
                appendInfo(sb, as(data, Info.class, type));
                break;
            case TX_ATTR:
                appendTxAttr(sb, as(data, TxAttr.class, type), 0);
                break;
            case RX_ATTR:
                appendRxAttr(sb, as(data, RxAttr.class, type), 0);
                break;
            case EP_ATTR:
                appendEpAttr(sb, as(data, EpAttr.class, type), 0);
                break;
            case DOMAIN_ATTR:
                appendDomainAttr(sb, as(data, DomainAttr.class, type), 0);
                break;
            case FABRIC_ATTR:
                appendFabricAttr(sb, as(data, FabricAttr.class, type), 0);
                break;
            case CAPS:
                CAPS.append(sb, bits(data, type));
                break;
            case OP_FLAGS:
                OP_FLAGS.append(sb, bits(data, type));
                break;
            case MODE:
                MODES.append(sb, bits(data, type));
                break;
            case MSG_ORDER:
                MSG_ORDERS.append(sb, bits(data, type));
                break;
            case CQ_EVENT_FLAGS:
                CQ_EVENT_FLAGS.append(sb, bits(data, type));
                break;
            case MR_MODE:
                MR_MODES.append(sb, bits(data, type) & 0xFFFF_FFFFL);
                break;
            case EP_TYPE:
                sb.append(name(EP_TYPES, number(data, type)));
                break;
            case ADDR_FORMAT:
                sb.append(providerSpecificOrName(ADDR_FORMATS, number(data, type)));
                break;
            case THREADING:
                sb.append(name(THREADINGS, number(data, type)));
                break;
            case PROGRESS:
                sb.append(name(PROGRESSES, number(data, type)));
                break;
            case PROTOCOL:
                sb.append(providerSpecificOrName(PROTOCOLS, number(data, type)));
                break;
            case AV_TYPE:
                sb.append(name(AV_TYPES, number(data, type)));
                break;
            case EQ_EVENT:
                sb.append(name(EQ_EVENTS, number(data, type)));
                break;
            case CQ_FORMAT:
                sb.append(name(CQ_FORMATS, number(data, type)));
                break;
            case ATOMIC_TYPE:
                sb.append(name(ATOMIC_TYPES, number(data, type)));
                break;
            case ATOMIC_OP:
                sb.append(name(ATOMIC_OPS, number(data, type)));
                break;
            case OP_TYPE:
                sb.append(name(OP_TYPES, number(data, type)));
                break;
            case COLLECTIVE_OP:
                sb.append(name(COLLECTIVE_OPS, number(data, type)));
                break;
            case HMEM_IFACE:
                sb.append(name(HMEM_IFACES, number(data, type)));
                break;
            case LOG_LEVEL:
                sb.append(name(LOG_LEVELS, number(data, type)));
                break;
            case LOG_SUBSYS:
                sb.append(name(LOG_SUBSYSTEMS, number(data, type)));
                break;
            case VERSION:
                sb.append(LIBFABRIC_VERSION);
                break;
            case FID:
                sb.append("fid: ");
                appendPointer(sb, as(data, Fid.class, type));
                sb.append('\n');
                break;
            default:
                sb.append(UNKNOWN_TYPE);
                break;
        }
    }

    private static void appendInfo(final StringBuilder sb, final Info info)
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

    private static void appendTxAttr(final StringBuilder sb, final TxAttr attr, final int level)
    {
        if (header(sb, level, "fi_tx_attr", attr))
        {
            final int l = level + 1;
            flagsField(sb, l, "caps", CAPS, attr.caps());
            flagsField(sb, l, "mode", MODES, attr.mode());
            flagsField(sb, l, "op_flags", OP_FLAGS, attr.opFlags());
            flagsField(sb, l, "msg_order", MSG_ORDERS, attr.msgOrder());
            compOrderField(sb, l, attr.compOrder());
            sizeField(sb, l, "inject_size", attr.injectSize());
            sizeField(sb, l, "size", attr.size());
            sizeField(sb, l, "iov_limit", attr.iovLimit());
            sizeField(sb, l, "rma_iov_limit", attr.rmaIovLimit());
            field(sb, l, "tclass").append("0x").append(Integer.toHexString(attr.tclass())).append('\n');
        }
    }

    private static void appendRxAttr(final StringBuilder sb, final RxAttr attr, final int level)
    {
        if (header(sb, level, "fi_rx_attr", attr))
        {
            final int l = level + 1;
            flagsField(sb, l, "caps", CAPS, attr.caps());
            flagsField(sb, l, "mode", MODES, attr.mode());
            flagsField(sb, l, "op_flags", OP_FLAGS, attr.opFlags());
            flagsField(sb, l, "msg_order", MSG_ORDERS, attr.msgOrder());
            compOrderField(sb, l, attr.compOrder());
            sizeField(sb, l, "total_buffered_recv", attr.totalBufferedRecv());
            sizeField(sb, l, "size", attr.size());
            sizeField(sb, l, "iov_limit", attr.iovLimit());
        }
    }

    private static void appendEpAttr(final StringBuilder sb, final EpAttr attr, final int level)
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

    private static void appendDomainAttr(final StringBuilder sb, final DomainAttr attr, final int level)
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

    private static void appendFabricAttr(final StringBuilder sb, final FabricAttr attr, final int level)
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

    private static void appendPointer(final StringBuilder sb, final Object object)
    {
        if (object == null)
        {
            sb.append(NULL_POINTER);
        }
        else
        {
            sb.append("0x").append(Integer.toHexString(System.identityHashCode(object)));
        }
    }

    static StringBuilder appendPaddedHex(final StringBuilder sb, final long value, final int digits)
    {
        final String hex = Long.toHexString(value);
        for (int i = hex.length(); i < digits; i++)
        {
            sb.append('0');
        }
        return sb.append(hex);
    }

    private static String orNull(final String s)
    {
        return s == null ? NULL_STRING : s;
    }

    /**
     * Address formats and protocols with bit 31 ({@code FI_PROV_SPECIFIC}) set belong to a provider.
     */
    private static String providerSpecificOrName(final String[] names, final int value)
    {
        return (value & Flags.FI_PROV_SPECIFIC) != 0 ? PROVIDER_SPECIFIC : name(names, value);
    }

    private static String name(final String[] names, final int value)
    {
        final String name = value >= 0 && value < names.length ? names[value] : null;
        return name == null ? UNKNOWN : name;
    }

    /**
     * A null enumeration in a holder is an unset field: it prints as libfabric's 0 value does.
     */
    private static int valueOf(final Enum<?> e)
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

    private static int number(final Object data, final FiType type)
    {
        if (data instanceof Number)
        {
            return ((Number)data).intValue();
        }
        if (data instanceof Enum && type == typeOfEnum((Enum<?>)data))
        {
            return valueOf((Enum<?>)data);
        }
        throw wrongData(data, type);
    }

    private static FiType typeOfEnum(final Enum<?> e)
    {
        try
        {
            return typeOf(e);
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }

    private static long bits(final Object data, final FiType type)
    {
        if (data instanceof Number)
        {
            return ((Number)data).longValue();
        }
        throw wrongData(data, type);
    }

    private static <T> T as(final Object data, final Class<T> expected, final FiType type)
    {
        if (expected.isInstance(data))
        {
            return expected.cast(data);
        }
        throw wrongData(data, type);
    }

    private static IllegalArgumentException wrongData(final Object data, final FiType type)
    {
        return new IllegalArgumentException(
            "tostr: " + type.cName() + " cannot print a " + data.getClass().getName() + " (" + data + ")");
    }

    /**
     * fi_tostr's 8192-byte buffer keeps at most 8190 bytes of text; cut there, never inside a character.
     */
    private static String cut(final StringBuilder sb)
    {
        if (sb.length() <= MAX_TEXT_BYTES / 3)
        {
            return sb.toString();
        }
        final String text = sb.toString();
        final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= MAX_TEXT_BYTES)
        {
            return text;
        }
        int end = MAX_TEXT_BYTES;
        while (end > 0 && (utf8[end] & 0xC0) == 0x80)
        {
            end--;
        }
        return new String(utf8, 0, end, StandardCharsets.UTF_8);
    }

    /**
     * Names of the bits of one flag type, in the order libfabric prints them.
     */
    private static final class FlagNames
    {
        private final long[] bits;
        private final String[] names;

        FlagNames(final Object... bitsAndNames)
        {
            final int n = bitsAndNames.length / 2;
            bits = new long[n];
            names = new String[n];
            for (int i = 0; i < n; i++)
            {
                bits[i] = ((Number)bitsAndNames[2 * i]).longValue();
                names[i] = (String)bitsAndNames[2 * i + 1];
            }
        }

        StringBuilder append(final StringBuilder sb, final long value)
        {
            boolean first = true;
            for (int i = 0; i < bits.length; i++)
            {
                if ((value & bits[i]) != 0)
                {
                    if (!first)
                    {
                        sb.append(", ");
                    }
                    sb.append(names[i]);
                    first = false;
                }
            }
            return sb;
        }
    }

    /**
     * How fi_tostr prints {@code src_addr}/{@code dest_addr}: by {@code addr_format}, reading the bytes as they lie
     * in memory on a little-endian host (socket families in host order, ports and InfiniBand fields in network
     * order), with IPv6 text as glibc's {@code inet_ntop} writes it.
     */
    static final class AddressText
    {
        private static final int AF_INET = 2;
        private static final int AF_INET6 = 10;

        private AddressText()
        {
        }

        static StringBuilder append(final StringBuilder sb, final int format, final byte[] a)
        {
            if (a == null)
            {
                return sb.append(NULL_STRING);
            }
            switch (format)
            {
                case 1: // FI_SOCKADDR
                    final int family = le16(a, 0);
                    if (family == AF_INET)
                    {
                        return socket(sb, "fi_sockaddr_in://", "", a, AF_INET, 4);
                    }
                    return family == AF_INET6 ? socket(sb, "fi_sockaddr_in6://[", "]", a, AF_INET6, 8) : sb;
                case 2: // FI_SOCKADDR_IN
                    return socket(sb, "fi_sockaddr_in://", "", a, le16(a, 0), 4);
                case 3: // FI_SOCKADDR_IN6
                    return socket(sb, "fi_sockaddr_in6://[", "]", a, le16(a, 0), 8);
                case 4: // FI_SOCKADDR_IB
                    sb.append("fi_sockaddr_ib://[");
                    inet6(sb, a, 8).append("]:0x").append(Integer.toHexString(be16(a, 2)));
                    sb.append(":0x").append(Integer.toHexString(be16(a, 28) & 0xFFF));
                    return sb.append(":0x").append(Integer.toHexString(u8(a, 47)));
                case 5: // FI_ADDR_PSMX
                    return sb.append("fi_addr_psmx://").append(Long.toHexString(le64(a, 0)));
                case 6: // FI_ADDR_GNI
                    return sb.append("fi_addr_gni://").append(Long.toHexString(le64(a, 0)));
                case 7: // FI_ADDR_BGQ: C prints the pointer
                    sb.append("fi_addr_bgq://");
                    appendPointer(sb, a);
                    return sb;
                case 8: // FI_ADDR_MLX: C prints the pointer
                    sb.append("fi_addr_mlx://");
                    appendPointer(sb, a);
                    return sb;
                case 9: // FI_ADDR_STR: up to the first NUL, whatever the length says
                    int end = 0;
                    while (end < a.length && a[end] != 0)
                    {
                        end++;
                    }
                    return sb.append(new String(a, 0, end, StandardCharsets.UTF_8));
                case 10: // FI_ADDR_PSMX2
                    sb.append("fi_addr_psmx2://").append(Long.toHexString(le64(a, 0)));
                    return sb.append(':').append(Long.toHexString(le64(a, 8)));
                case 11: // FI_ADDR_IB_UD
                    inet6(sb.append("fi_addr_ib_ud://"), a, 0);
                    sb.append(':').append(Integer.toHexString(le32(a, 16)));
                    sb.append('/').append(Integer.toHexString(le16(a, 20)));
                    sb.append('/').append(Integer.toHexString(le16(a, 22)));
                    return sb.append('/').append(Integer.toHexString(u8(a, 26)));
                case 12: // FI_ADDR_EFA
                    inet6(sb.append("fi_addr_efa://["), a, 0).append("]:").append(le16(a, 16));
                    return sb.append(':').append(Integer.toUnsignedString(le32(a, 20)));
                case 13: // FI_ADDR_PSMX3
                    sb.append("fi_addr_psmx3://").append(Long.toHexString(le64(a, 0)));
                    sb.append(':').append(Long.toHexString(le64(a, 8)));
                    sb.append(':').append(Long.toHexString(le64(a, 16)));
                    return sb.append(':').append(Long.toHexString(le64(a, 24)));
                case 14: // FI_ADDR_OPX
                    return appendPaddedHex(sb.append("fi_addr_opx://"), le64(a, 0), 16);
                case 15: // FI_ADDR_CXI
                    return appendPaddedHex(sb.append("fi_addr_cxi://0x"), le32(a, 0) & 0xFFFF_FFFFL, 8);
                default: // FI_FORMAT_UNSPEC and unknown formats print nothing
                    return sb;
            }
        }

        /**
         * The family picks the address text; the format picks the frame and where the address bytes are read.
         */
        private static StringBuilder socket(
            final StringBuilder sb,
            final String prefix,
            final String close,
            final byte[] a,
            final int family,
            final int offset)
        {
            if (family != AF_INET && family != AF_INET6)
            {
                return sb;
            }
            sb.append(prefix);
            if (family == AF_INET)
            {
                inet4(sb, a, offset);
            }
            else
            {
                inet6(sb, a, offset);
            }
            return sb.append(close).append(':').append(be16(a, 2));
        }

        static StringBuilder inet4(final StringBuilder sb, final byte[] a, final int offset)
        {
            return sb.append(u8(a, offset)).append('.').append(u8(a, offset + 1)).append('.')
                .append(u8(a, offset + 2)).append('.').append(u8(a, offset + 3));
        }

        /**
         * IPv6 text as glibc's inet_ntop writes it: the longest run of two or more zero words (the first of equal
         * runs) becomes "::", and an address whose first 96 bits are zero, or that is v4-mapped, ends in dotted
         * IPv4 unless the zero run reaches word 7.
         */
        static StringBuilder inet6(final StringBuilder sb, final byte[] a, final int offset)
        {
            final int[] words = new int[8];
            for (int i = 0; i < 8; i++)
            {
                words[i] = be16(a, offset + 2 * i);
            }
            int bestBase = -1;
            int bestLen = 0;
            int curBase = -1;
            int curLen = 0;
            for (int i = 0; i < 8; i++)
            {
                if (words[i] == 0)
                {
                    if (curBase == -1)
                    {
                        curBase = i;
                        curLen = 1;
                    }
                    else
                    {
                        curLen++;
                    }
                }
                else if (curBase != -1)
                {
                    if (bestBase == -1 || curLen > bestLen)
                    {
                        bestBase = curBase;
                        bestLen = curLen;
                    }
                    curBase = -1;
                }
            }
            if (curBase != -1 && (bestBase == -1 || curLen > bestLen))
            {
                bestBase = curBase;
                bestLen = curLen;
            }
            if (bestBase != -1 && bestLen < 2)
            {
                bestBase = -1;
            }
            for (int i = 0; i < 8; i++)
            {
                if (bestBase != -1 && i >= bestBase && i < bestBase + bestLen)
                {
                    if (i == bestBase)
                    {
                        sb.append(':');
                    }
                    continue;
                }
                if (i != 0)
                {
                    sb.append(':');
                }
                if (i == 6 && bestBase == 0 && (bestLen == 6 || (bestLen == 5 && words[5] == 0xFFFF)))
                {
                    return inet4(sb, a, offset + 12);
                }
                sb.append(Integer.toHexString(words[i]));
            }
            if (bestBase != -1 && bestBase + bestLen == 8)
            {
                sb.append(':');
            }
            return sb;
        }

        private static int u8(final byte[] a, final int i)
        {
            return i < a.length ? a[i] & 0xFF : 0;
        }

        private static int le16(final byte[] a, final int i)
        {
            return u8(a, i) | (u8(a, i + 1) << 8);
        }

        private static int be16(final byte[] a, final int i)
        {
            return (u8(a, i) << 8) | u8(a, i + 1);
        }

        private static int le32(final byte[] a, final int i)
        {
            return le16(a, i) | (le16(a, i + 2) << 16);
        }

        private static long le64(final byte[] a, final int i)
        {
            return (le32(a, i) & 0xFFFF_FFFFL) | ((long)le32(a, i + 4) << 32);
        }
    }
}
