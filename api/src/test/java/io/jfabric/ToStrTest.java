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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static io.jfabric.Flags.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Pins {@link ToStr} to libfabric 1.17's {@code fi_tostr}, byte for byte, with the fixtures in
 * {@code golden/tostr/} that {@code api/src/test/c/tostr_golden.c} captured from the real library. Each record
 * names its input; this test builds the same value in Java and compares the UTF-8 bytes.
 */
class ToStrTest
{
    private static final String SHM_SRC = "fi_shm://4227";
    private static final String SHM_DEST = "fi_shm://4228";

    static Stream<Golden> flags()
    {
        return Golden.read("flags.txt").stream();
    }

    static Stream<Golden> enums()
    {
        return Golden.read("enums.txt").stream();
    }

    static Stream<Golden> attrs()
    {
        return Golden.read("attrs.txt").stream();
    }

    static Stream<Golden> infos()
    {
        return Golden.read("info.txt").stream();
    }

    static Stream<Golden> addresses()
    {
        return Golden.read("addresses.txt").stream();
    }

    @ParameterizedTest
    @MethodSource("flags")
    void shouldPrintFlagMasksLikeFiTostr(final Golden golden)
    {
        final FiType type = FiType.valueOf(golden.type);
        final long bits = Long.parseUnsignedLong(golden.arg(0).substring(2), 16);
        if (type == FiType.MR_MODE)
        {
            golden.assertPrints(ToStr.toStr((int)bits, type));
            golden.assertPrints(ToStr.mrMode((int)bits));
            return;
        }
        golden.assertPrints(ToStr.toStr(bits, type));
        switch (type)
        {
            case CAPS:
                golden.assertPrints(ToStr.caps(bits));
                break;
            case OP_FLAGS:
                golden.assertPrints(ToStr.opFlags(bits));
                break;
            case MODE:
                golden.assertPrints(ToStr.mode(bits));
                break;
            case MSG_ORDER:
                golden.assertPrints(ToStr.msgOrder(bits));
                break;
            default:
                break;
        }
    }

    @ParameterizedTest
    @MethodSource("enums")
    void shouldPrintEnumValuesLikeFiTostr(final Golden golden)
    {
        if ("TYPE".equals(golden.type))
        {
            golden.assertPrints(ToStr.toStr(0L, Integer.parseInt(golden.arg(0))));
            return;
        }
        final FiType type = FiType.valueOf(golden.type);
        if ("null".equals(golden.arg(0)))
        {
            golden.assertPrints(ToStr.toStr(null, type));
            return;
        }
        if (type == FiType.VERSION)
        {
            golden.assertPrints(ToStr.toStr(0L, type));
            golden.assertPrints(ToStr.version());
            return;
        }
        final int value = Integer.parseInt(golden.arg(0));
        golden.assertPrints(ToStr.toStr(value, type));
        final Enum<?> javaEnum = javaEnum(type, value);
        if (javaEnum != null)
        {
            golden.assertPrints(ToStr.toStr(javaEnum, type));
            golden.assertPrints(ToStr.toStr(javaEnum));
        }
    }

    @ParameterizedTest
    @MethodSource("attrs")
    void shouldPrintAttributeStructuresLikeFiTostr(final Golden golden)
    {
        final FiType type = FiType.valueOf(golden.type);
        final Object attr = attribute(type, golden);
        golden.assertPrints(ToStr.toStr(attr, type));
        if (attr != null)
        {
            golden.assertPrints(ToStr.toStr(attr));
            golden.assertPrints(attr.toString());
        }
    }

    @ParameterizedTest
    @MethodSource("infos")
    void shouldPrintInfoLikeFiTostr(final Golden golden)
    {
        final Info info = namedInfo(golden.arg(0));
        golden.assertPrints(ToStr.toStr(info, FiType.INFO));
        golden.assertPrints(ToStr.toStr(info));
        golden.assertPrints(info.toString());
    }

    @ParameterizedTest
    @MethodSource("addresses")
    void shouldPrintAddressesLikeFiTostr(final Golden golden)
    {
        final AddrFormat format = AddrFormat.of(Integer.parseInt(golden.value("fmt")));
        assertNotNull(format, golden::toString);
        final Info info = new Info().txAttr(null).rxAttr(null).epAttr(null).domainAttr(null).fabricAttr(null)
            .addrFormat(format)
            .srcAddr(hex(golden.value("src")))
            .destAddr(hex(golden.value("dest")));
        golden.assertPrints(ToStr.toStr(info));
    }

    @Test
    void shouldHaveGoldenCasesForEveryTypeExceptPointers()
    {
        final Set<FiType> covered = EnumSet.noneOf(FiType.class);
        for (final String file : List.of("flags.txt", "enums.txt", "attrs.txt", "info.txt", "addresses.txt"))
        {
            for (final Golden golden : Golden.read(file))
            {
                if (!"TYPE".equals(golden.type))
                {
                    covered.add(FiType.valueOf(golden.type));
                }
            }
        }
        assertEquals(EnumSet.complementOf(EnumSet.of(FiType.FID)), covered);
    }

    @Test
    void shouldNumberFiTypeLikeRdmaFabricH()
    {
        for (final FiType type : FiType.values())
        {
            assertEquals(type, FiType.of(type.value()));
        }
        assertEquals(0, FiType.INFO.value());
        assertEquals(18, FiType.VERSION.value());
        assertEquals(21, FiType.MR_MODE.value());
        assertEquals(28, FiType.LOG_SUBSYS.value());
        assertEquals("FI_TYPE_DOMAIN_ATTR", FiType.DOMAIN_ATTR.cName());
        assertNull(FiType.of(29));
        assertNull(FiType.of(-1));
    }

    @Test
    void shouldPrintEveryJavaEnumConstantAsItsLibfabricNumber()
    {
        for (final EpType v : EpType.values())
        {
            assertEquals(ToStr.toStr(v.value(), FiType.EP_TYPE), ToStr.toStr(v));
            assertEquals(v.cName(), ToStr.toStr(v));
        }
        for (final AddrFormat v : AddrFormat.values())
        {
            assertEquals(v.cName(), ToStr.toStr(v));
        }
        for (final Threading v : Threading.values())
        {
            assertEquals(v.cName(), ToStr.toStr(v));
        }
        for (final Progress v : Progress.values())
        {
            assertEquals(v.cName(), ToStr.toStr(v));
        }
        for (final AvType v : AvType.values())
        {
            assertEquals(v.cName(), ToStr.toStr(v));
        }
        for (final CqFormat v : CqFormat.values())
        {
            assertEquals(v.cName(), ToStr.toStr(v));
        }
        for (final EqEvent v : EqEvent.values())
        {
            assertEquals(v.cName(), ToStr.toStr(v));
        }
        for (final Protocol v : Protocol.values())
        {
            final boolean unnamed = v == Protocol.MXM || v == Protocol.MRAIL;
            assertEquals(unnamed ? "Unknown" : v.cName(), ToStr.toStr(v));
        }
    }

    @Test
    void shouldPrintPointersAsOpaqueHexWhereCPrintsAnAddress()
    {
        final Fid fid = new TestFid();
        final Info info = new Info().handle(fid);
        info.domainAttr().domain(anyDomain());
        final String text = ToStr.toStr(info);
        assertTrue(text.contains("\n    handle: 0x" + Integer.toHexString(System.identityHashCode(fid)) + "\n"), text);
        assertTrue(text.matches("(?s).*\n        domain: 0x[0-9a-f]+\n.*"), text);
        assertEquals("fid: 0x" + Integer.toHexString(System.identityHashCode(fid)) + "\n", ToStr.toStr(fid));
        final Info bgq = new Info().addrFormat(AddrFormat.ADDR_BGQ).srcAddr(new byte[8]);
        assertTrue(ToStr.toStr(bgq).matches("(?s).*\n    src_addr: fi_addr_bgq://0x[0-9a-f]+\n.*"));
    }

    @Test
    void shouldReturnNullForNullDataAsFiTostrDoes()
    {
        assertNull(ToStr.toStr(null, FiType.VERSION));
        assertNull(ToStr.toStr(null, FiType.INFO));
        assertNull(ToStr.toStr(null, 99));
        assertNull(ToStr.toStr((Object)null));
        assertThrows(NullPointerException.class, () -> ToStr.toStr(1L, (FiType)null));
    }

    @Test
    void shouldRejectDataOfTheWrongType()
    {
        assertThrows(IllegalArgumentException.class, () -> ToStr.toStr(new TxAttr(), FiType.RX_ATTR));
        assertThrows(IllegalArgumentException.class, () -> ToStr.toStr("FI_MSG", FiType.CAPS));
        assertThrows(IllegalArgumentException.class, () -> ToStr.toStr(EpType.RDM, FiType.THREADING));
        assertThrows(IllegalArgumentException.class, () -> ToStr.toStr(42L));
        assertThrows(IllegalArgumentException.class, () -> ToStr.toStr(new Info(), FiType.FID));
    }

    @Test
    void shouldPrintNullEnumFieldsAsUnset()
    {
        final EpAttr ep = new EpAttr().type(null).protocol(null);
        assertEquals(ToStr.toStr(new EpAttr()), ToStr.toStr(ep));
        final DomainAttr domain = new DomainAttr().threading(null).avType(null).resourceMgmt(null);
        assertEquals(ToStr.toStr(new DomainAttr()), ToStr.toStr(domain));
    }

    @Test
    void shouldReadAddressBytesBeyondTheArrayAsZero()
    {
        final Info shortPsmx3 = new Info().addrFormat(AddrFormat.ADDR_PSMX3).srcAddr(new byte[] {1, 2});
        assertTrue(ToStr.toStr(shortPsmx3).contains("\n    src_addr: fi_addr_psmx3://201:0:0:0\n"));
        final Info unterminated = new Info().addrFormat(AddrFormat.ADDR_STR)
            .srcAddr("fi_shm://7".getBytes(StandardCharsets.US_ASCII));
        assertTrue(ToStr.toStr(unterminated).contains("\n    src_addr: fi_shm://7\n"));
    }

    @Test
    void shouldNeverCutInsideACharacterWhenTextPassesTheBufferSize()
    {
        final Info info = shmLike();
        info.domainAttr().name("\u00e9".repeat(5000));
        final byte[] utf8 = ToStr.toStr(info).getBytes(StandardCharsets.UTF_8);
        assertTrue(utf8.length == ToStr.BUFFER_SIZE - 2 || utf8.length == ToStr.BUFFER_SIZE - 3, "" + utf8.length);
        assertEquals(ToStr.toStr(info).length(), new String(utf8, StandardCharsets.UTF_8).length());
    }

    @Test
    void shouldBeStatelessAcrossCallsUnlikeTheCBuffer()
    {
        final String caps = ToStr.caps(FI_MSG);
        final String info = ToStr.toStr(shmLike());
        assertEquals("FI_MSG", caps);
        assertTrue(info.startsWith("fi_info:\n"));
    }

    /**
     * Any open domain will do: only its identity is printed. A proxy keeps the test independent of the
     * interface's other methods.
     */
    private static Domain anyDomain()
    {
        return (Domain)Proxy.newProxyInstance(
            ToStrTest.class.getClassLoader(), new Class<?>[] {Domain.class}, (proxy, method, args) -> null);
    }

    private static Enum<?> javaEnum(final FiType type, final int value)
    {
        switch (type)
        {
            case EP_TYPE:
                return EpType.of(value);
            case ADDR_FORMAT:
                return AddrFormat.of(value);
            case THREADING:
                return Threading.of(value);
            case PROGRESS:
                return Progress.of(value);
            case PROTOCOL:
                return Protocol.of(value);
            case AV_TYPE:
                return AvType.of(value);
            case CQ_FORMAT:
                return CqFormat.of(value);
            case EQ_EVENT:
                return EqEvent.of(value);
            default:
                return null;
        }
    }

    private static Object attribute(final FiType type, final Golden golden)
    {
        final String name = golden.arg(0);
        switch (name)
        {
            case "null":
                return null;
            case "empty":
                return emptyOf(type);
            case "shm_like":
                return ofInfo(shmLike(), type);
            case "max":
                return ofInfo(maxInfo(), type);
            case "ctx_below_shared":
                return maxInfo().epAttr().txCtxCnt(-2L).rxCtxCnt(-2L);
            case "order":
                final long msg = Long.parseUnsignedLong(golden.value("msg").substring(2), 16);
                final long comp = Long.parseUnsignedLong(golden.value("comp").substring(2), 16);
                return type == FiType.TX_ATTR ?
                    new TxAttr().msgOrder(msg).compOrder(comp) : new RxAttr().msgOrder(msg).compOrder(comp);
            case "enums":
                if (type == FiType.EP_ATTR)
                {
                    return new EpAttr()
                        .type(EpType.of(Integer.parseInt(golden.value("type"))))
                        .protocol(Protocol.of(Integer.parseInt(golden.value("protocol"))));
                }
                return new DomainAttr()
                    .threading(Threading.of(Integer.parseInt(golden.value("threading"))))
                    .controlProgress(Progress.of(Integer.parseInt(golden.value("control"))))
                    .dataProgress(Progress.of(Integer.parseInt(golden.value("data"))))
                    .resourceMgmt(ResourceMgmt.of(Integer.parseInt(golden.value("rm"))))
                    .avType(AvType.of(Integer.parseInt(golden.value("av"))));
            default:
                fail("no Java value for golden case " + golden);
                return null;
        }
    }

    private static Object emptyOf(final FiType type)
    {
        return ofInfo(new Info(), type);
    }

    private static Object ofInfo(final Info info, final FiType type)
    {
        switch (type)
        {
            case TX_ATTR:
                return info.txAttr();
            case RX_ATTR:
                return info.rxAttr();
            case EP_ATTR:
                return info.epAttr();
            case DOMAIN_ATTR:
                return info.domainAttr();
            case FABRIC_ATTR:
                return info.fabricAttr();
            default:
                throw new IllegalArgumentException(type.toString());
        }
    }

    private static Info namedInfo(final String name)
    {
        switch (name)
        {
            case "empty":
                return new Info();
            case "shm_like":
                return shmLike();
            case "null_names":
            {
                final Info info = shmLike().destAddr(null);
                info.domainAttr().name(null);
                info.fabricAttr().name(null).provName(null);
                info.epAttr().protocol(Protocol.MXM);
                return info;
            }
            case "some_null_attrs":
                return shmLike().txAttr(null).domainAttr(null);
            case "null_attrs":
                return new Info().txAttr(null).rxAttr(null).epAttr(null).domainAttr(null).fabricAttr(null);
            case "long_domain_name":
            {
                final Info info = shmLike();
                info.domainAttr().name("a".repeat(9000));
                return info;
            }
            case "near_limit_domain_name":
            {
                final Info info = shmLike();
                info.domainAttr().name("b".repeat(7000));
                return info;
            }
            default:
                fail("no Java info for golden case " + name);
                return null;
        }
    }

    /**
     * The same values as {@code shm_like()} in tostr_golden.c.
     */
    static Info shmLike()
    {
        final Info info = new Info()
            .caps(FI_MSG | FI_RMA | FI_TAGGED | FI_ATOMIC | FI_READ | FI_WRITE | FI_RECV | FI_SEND |
                FI_REMOTE_READ | FI_REMOTE_WRITE | FI_MULTI_RECV | FI_RMA_EVENT | FI_SOURCE | FI_DIRECTED_RECV |
                FI_LOCAL_COMM)
            .mode(Mode.FI_CONTEXT)
            .addrFormat(AddrFormat.ADDR_STR)
            .srcAddr(cString(SHM_SRC))
            .destAddr(cString(SHM_DEST));
        info.txAttr()
            .caps(FI_MSG | FI_RMA | FI_TAGGED | FI_ATOMIC | FI_READ | FI_WRITE | FI_SEND)
            .mode(Mode.FI_CONTEXT)
            .opFlags(FI_COMPLETION | FI_INJECT_COMPLETE)
            .msgOrder(MsgOrder.FI_ORDER_SAS)
            .compOrder(MsgOrder.FI_ORDER_NONE)
            .injectSize(4096)
            .size(1024)
            .iovLimit(4)
            .rmaIovLimit(4)
            .tclass(0x1f);
        info.rxAttr()
            .caps(FI_MSG | FI_RMA | FI_TAGGED | FI_ATOMIC | FI_RECV | FI_REMOTE_READ | FI_REMOTE_WRITE |
                FI_MULTI_RECV | FI_RMA_EVENT | FI_SOURCE | FI_DIRECTED_RECV)
            .mode(Mode.FI_CONTEXT | Mode.FI_RX_CQ_DATA)
            .opFlags(FI_MULTI_RECV | FI_COMPLETION)
            .msgOrder(MsgOrder.FI_ORDER_STRICT | MsgOrder.FI_ORDER_RMA_RAR | MsgOrder.FI_ORDER_RMA_RAW |
                MsgOrder.FI_ORDER_RMA_WAR | MsgOrder.FI_ORDER_RMA_WAW | MsgOrder.FI_ORDER_ATOMIC_RAR |
                MsgOrder.FI_ORDER_ATOMIC_RAW | MsgOrder.FI_ORDER_ATOMIC_WAR | MsgOrder.FI_ORDER_ATOMIC_WAW)
            .compOrder(MsgOrder.FI_ORDER_STRICT | MsgOrder.FI_ORDER_DATA)
            .totalBufferedRecv(65536)
            .size(1024)
            .iovLimit(4);
        info.epAttr()
            .type(EpType.RDM)
            .protocol(Protocol.SHM)
            .protocolVersion(1)
            .maxMsgSize(-1L)
            .msgPrefixSize(0)
            .maxOrderRawSize(4096)
            .maxOrderWarSize(0)
            .maxOrderWawSize(4096)
            .memTagFormat(0xaaaaaaaaaaaaaaaaL)
            .txCtxCnt(1)
            .rxCtxCnt(Addresses.FI_SHARED_CONTEXT)
            .authKey(new byte[] {(byte)0xde, (byte)0xad, (byte)0xbe, (byte)0xef});
        info.domainAttr()
            .name("shm")
            .threading(Threading.SAFE)
            .controlProgress(Progress.AUTO)
            .dataProgress(Progress.MANUAL)
            .resourceMgmt(ResourceMgmt.ENABLED)
            .avType(AvType.TABLE)
            .mrMode(MrMode.FI_MR_VIRT_ADDR | MrMode.FI_MR_ALLOCATED | MrMode.FI_MR_PROV_KEY)
            .mrKeySize(8)
            .cqDataSize(8)
            .cqCnt(1024)
            .epCnt(256)
            .txCtxCnt(1024)
            .rxCtxCnt(1024)
            .maxEpTxCtx(1)
            .maxEpRxCtx(1)
            .maxEpStxCtx(0)
            .maxEpSrxCtx(0)
            .cntrCnt(64)
            .mrIovLimit(4)
            .caps(FI_LOCAL_COMM | FI_SHARED_AV)
            .mode(0)
            .authKey(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
            .maxErrData(64)
            .mrCnt(4096)
            .tclass(0x1f);
        info.fabricAttr()
            .name("shm")
            .provName("shm")
            .provVersion(Versions.version(1, 2))
            .apiVersion(Versions.version(1, 17));
        return info;
    }

    /**
     * The same values as the "max" structures in tostr_golden.c: every size at SIZE_MAX, every mask all ones.
     */
    private static Info maxInfo()
    {
        final long max = -1L;
        final Info info = new Info();
        info.txAttr().injectSize(max).size(max).iovLimit(max).rmaIovLimit(max).tclass(-1)
            .caps(max).mode(max).opFlags(max);
        info.rxAttr().totalBufferedRecv(max).size(max).iovLimit(max).caps(max).mode(max).opFlags(max);
        info.epAttr().protocolVersion(-1).maxMsgSize(max).msgPrefixSize(max).maxOrderRawSize(max)
            .maxOrderWarSize(max).maxOrderWawSize(max).txCtxCnt(max).rxCtxCnt(max).memTagFormat(max);
        info.domainAttr().mrKeySize(max).cqDataSize(max).cqCnt(max).epCnt(max).txCtxCnt(max).rxCtxCnt(max)
            .maxEpTxCtx(max).maxEpRxCtx(max).maxEpStxCtx(max).maxEpSrxCtx(max).cntrCnt(max).mrIovLimit(max)
            .maxErrData(max).mrCnt(max).mrMode(-1).caps(max).mode(max).tclass(-1);
        info.fabricAttr().provVersion(-1).apiVersion(Versions.version(2, 0));
        return info;
    }

    private static byte[] cString(final String s)
    {
        return Arrays.copyOf(s.getBytes(StandardCharsets.US_ASCII), s.length() + 1);
    }

    private static byte[] hex(final String hex)
    {
        if ("null".equals(hex))
        {
            return null;
        }
        if ("-".equals(hex))
        {
            return new byte[0];
        }
        final byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }

    /**
     * One fixture record: {@code @@ TYPE args... length}, then exactly length bytes of fi_tostr's text (-1 for
     * NULL).
     */
    static final class Golden
    {
        final String file;
        final String type;
        final String[] args;
        final byte[] expected;

        Golden(final String file, final String type, final String[] args, final byte[] expected)
        {
            this.file = file;
            this.type = type;
            this.args = args;
            this.expected = expected;
        }

        String arg(final int i)
        {
            return args[i];
        }

        String value(final String key)
        {
            for (final String arg : args)
            {
                if (arg.startsWith(key + "="))
                {
                    return arg.substring(key.length() + 1);
                }
            }
            throw new IllegalArgumentException("no " + key + "= in " + this);
        }

        void assertPrints(final String actual)
        {
            if (expected == null)
            {
                assertNull(actual, this::toString);
                return;
            }
            assertNotNull(actual, this::toString);
            final byte[] bytes = actual.getBytes(StandardCharsets.UTF_8);
            if (!Arrays.equals(expected, bytes))
            {
                assertEquals(new String(expected, StandardCharsets.UTF_8), actual, this::toString);
                assertArrayEquals(expected, bytes, this::toString);
            }
        }

        public String toString()
        {
            final String header = file + ": " + type + " " + String.join(" ", args);
            return header.length() > 160 ? header.substring(0, 160) + "..." : header;
        }

        static List<Golden> read(final String file)
        {
            final byte[] data;
            try (InputStream in = ToStrTest.class.getResourceAsStream("/golden/tostr/" + file))
            {
                assertNotNull(in, "missing fixture golden/tostr/" + file + "; see api/src/test/c/");
                data = in.readAllBytes();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
            final List<Golden> records = new ArrayList<>();
            int pos = 0;
            while (pos < data.length)
            {
                final int eol = indexOf(data, (byte)'\n', pos);
                final String line = new String(data, pos, eol - pos, StandardCharsets.UTF_8);
                pos = eol + 1;
                if (line.startsWith("#") && records.isEmpty())
                {
                    continue;
                }
                if (!line.startsWith("@@ "))
                {
                    throw new IllegalStateException(file + ": expected a record header, got '" + line + "'");
                }
                final String[] tokens = line.substring(3).split(" ");
                final int length = Integer.parseInt(tokens[tokens.length - 1]);
                final String[] args = Arrays.copyOfRange(tokens, 1, tokens.length - 1);
                byte[] expected = null;
                if (length >= 0)
                {
                    expected = Arrays.copyOfRange(data, pos, pos + length);
                    pos += length;
                }
                if (data[pos] != '\n')
                {
                    throw new IllegalStateException(file + ": record " + line + " does not end where its length says");
                }
                pos++;
                records.add(new Golden(file, tokens[0], args, expected));
            }
            return records;
        }

        private static int indexOf(final byte[] data, final byte b, final int from)
        {
            for (int i = from; i < data.length; i++)
            {
                if (data[i] == b)
                {
                    return i;
                }
            }
            throw new IllegalStateException("unterminated line at byte " + from);
        }
    }

    private static final class TestFid implements Fid
    {
        public FidClass fidClass()
        {
            return FidClass.EP;
        }

        public long context()
        {
            return 0;
        }

        public void close()
        {
        }
    }
}
