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

import static io.jfabric.AttrText.*;
import static io.jfabric.CText.appendPointer;
import static io.jfabric.EnumNames.*;
import static io.jfabric.FlagNames.*;

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
    private static final String UNKNOWN_TYPE = "Unknown type";

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
}
