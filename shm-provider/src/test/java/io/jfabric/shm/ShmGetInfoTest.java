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
package io.jfabric.shm;

import io.jfabric.AddrFormat;
import io.jfabric.AvType;
import io.jfabric.DomainAttr;
import io.jfabric.EpAttr;
import io.jfabric.EpType;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.Info;
import io.jfabric.MrMode;
import io.jfabric.MsgOrder;
import io.jfabric.Progress;
import io.jfabric.Protocol;
import io.jfabric.ResourceMgmt;
import io.jfabric.RxAttr;
import io.jfabric.Threading;
import io.jfabric.ToStr;
import io.jfabric.TxAttr;
import io.jfabric.Versions;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.core.LocalHost;
import io.jfabric.shm.core.ShmCapabilities;
import io.jfabric.shm.core.ShmNames;
import io.jfabric.spi.FabricProvider;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

import static io.jfabric.Flags.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pins every rule of the shm provider's {@code fi_getinfo} ({@code domain.ShmInfoMatcher}) against fi_getinfo(3) and
 * fi_domain(3): locality, refusals with FI_ENODATA, capability exactness, mr_mode, threading/progress/RM/AV
 * resolution, the configured limits, msg_order and op_flags, getinfo flags, and that hints are read only and
 * output is a private copy. Mostly calls the provider directly; {@link ThroughFabrics} goes through
 * {@link Fabrics} and the ServiceLoader registration.
 */
class ShmGetInfoTest
{
    private static final int VERSION = Versions.FI_CURRENT_VERSION;

    /** Every setting at its default: getinfo touches no file, so the default root directory is never used. */
    private static final ShmProvider DEFAULTS = new ShmProvider(ShmConfig.of(key -> null));

    /**
     * Limits all different from the defaults and from each other, so a field reporting the wrong setting (tx size
     * for rx size, say) cannot pass.
     */
    private static final Map<String, String> LIMITS = Map.ofEntries(
        Map.entry("ep.count", "7"),
        Map.entry("cq.count", "5"),
        Map.entry("cntr.count", "9"),
        Map.entry("mr.count", "33"),
        Map.entry("mr.iov.limit", "3"),
        Map.entry("rx.size", "17"),
        Map.entry("tx.size", "19"),
        Map.entry("inject.size", "100"),
        Map.entry("rx.ring.bytes", "8192"),
        Map.entry("max.msg.size", "12345"),
        Map.entry("max.err.data", "11"));

    private static final ShmProvider LIMITED = new ShmProvider(ShmConfig.of(LIMITS::get));

    private static List<Info> getInfo(final Info hints)
    {
        return DEFAULTS.getInfo(VERSION, null, null, 0, hints);
    }

    private static List<Info> getInfo(final String node, final Info hints)
    {
        return DEFAULTS.getInfo(VERSION, node, null, 0, hints);
    }

    private static FabricException assertNoData(final Executable call, final String... fragments)
    {
        final FabricException ex = assertThrows(FabricException.class, call);
        assertEquals(Errno.FI_ENODATA, ex.errno(), ex::getMessage);
        for (final String fragment : fragments)
        {
            assertTrue(ex.getMessage().contains(fragment),
                () -> "message should name '" + fragment + "': " + ex.getMessage());
        }
        return ex;
    }

    private static FabricException assertRefused(final Info hints, final String... fragments)
    {
        return assertNoData(() -> getInfo(hints), fragments);
    }

    private static void assertLocalOnly(final Info info)
    {
        assertEquals(FI_LOCAL_COMM, info.caps() & FI_LOCAL_COMM, () -> "info.caps: " + ToStr.caps(info.caps()));
        assertEquals(0, info.caps() & FI_REMOTE_COMM, () -> "info.caps: " + ToStr.caps(info.caps()));
        final long domainCaps = info.domainAttr().caps();
        assertEquals(FI_LOCAL_COMM, domainCaps & FI_LOCAL_COMM, () -> "domain_attr.caps: " + ToStr.caps(domainCaps));
        assertEquals(0, domainCaps & FI_REMOTE_COMM, () -> "domain_attr.caps: " + ToStr.caps(domainCaps));
        assertEquals(0, info.txAttr().caps() & FI_REMOTE_COMM);
        assertEquals(0, info.rxAttr().caps() & FI_REMOTE_COMM);
    }

    @Nested
    class Locality
    {
        @Test
        void shouldOfferEveryCapabilityWithLocalCommAndNeverRemoteCommForNullHints()
        {
            final List<Info> infos = getInfo(null);
            assertEquals(2, infos.size());
            for (final Info info : infos)
            {
                assertLocalOnly(info);
                assertEquals(ShmCapabilities.INFO_CAPS & ~FI_SOURCE_ERR, info.caps(), "all but FI_SOURCE_ERR");
                assertEquals(ShmCapabilities.DOMAIN_CAPS, info.domainAttr().caps());
                assertEquals(ShmCapabilities.DEFAULT_CAPS & ShmCapabilities.TX_CAPS, info.txAttr().caps());
                assertEquals(ShmCapabilities.DEFAULT_CAPS & ShmCapabilities.RX_CAPS, info.rxAttr().caps());
                assertEquals(FI_LOCAL_COMM, info.txAttr().caps() & FI_LOCAL_COMM);
                assertEquals(FI_LOCAL_COMM, info.rxAttr().caps() & FI_LOCAL_COMM);
            }
        }

        @Test
        void shouldDescribeTheShmFabricWithNullHints()
        {
            for (final Info info : getInfo(null))
            {
                assertEquals(AddrFormat.ADDR_STR, info.addrFormat());
                assertEquals(0, info.mode());
                assertEquals(EpType.RDM, info.epAttr().type());
                assertEquals(Protocol.SHM, info.epAttr().protocol());
                assertEquals(1, info.epAttr().protocolVersion());
                assertEquals(ShmNames.DEFAULT_DOMAIN, info.domainAttr().name());
                assertEquals("shm", info.fabricAttr().name());
                assertEquals("shm", info.fabricAttr().provName());
                assertEquals(Versions.version(0, 1), info.fabricAttr().provVersion());
                assertEquals(DEFAULTS.version(), info.fabricAttr().provVersion());
                assertEquals(VERSION, info.fabricAttr().apiVersion());
                assertEquals(ShmCapabilities.MEM_TAG_FORMAT, info.epAttr().memTagFormat());
            }
        }

        static Stream<Info> hintShapes()
        {
            return Stream.of(
                new Info(),
                new Info().txAttr(null).rxAttr(null).epAttr(null).domainAttr(null).fabricAttr(null),
                new Info().epAttr(new EpAttr().type(EpType.RDM)),
                new Info().addrFormat(AddrFormat.ADDR_STR),
                new Info().caps(FI_MSG | FI_LOCAL_COMM),
                new Info().caps(FI_TAGGED | FI_DIRECTED_RECV | FI_LOCAL_COMM | FI_SHARED_AV),
                new Info().domainAttr(new DomainAttr().caps(FI_LOCAL_COMM)),
                new Info().domainAttr(new DomainAttr().caps(FI_LOCAL_COMM | FI_SHARED_AV).name("dom1")),
                new Info().domainAttr(new DomainAttr().threading(Threading.DOMAIN).dataProgress(Progress.AUTO)),
                new Info().mode(~0L));
        }

        @ParameterizedTest
        @MethodSource("hintShapes")
        void shouldOfferLocalCommAndNeverRemoteCommForEveryHintShape(final Info hints)
        {
            final List<Info> infos = getInfo(hints);
            assertFalse(infos.isEmpty());
            infos.forEach(ShmGetInfoTest::assertLocalOnly);
        }

        @Test
        void shouldOfferLocalCommInDomainCapsWhenInfoCapsAreGiven()
        {
            for (final Info info : getInfo(new Info().caps(FI_MSG)))
            {
                assertEquals(ShmCapabilities.DOMAIN_CAPS, info.domainAttr().caps());
                assertEquals(0, info.caps() & FI_REMOTE_COMM);
            }
        }

        @Test
        void shouldIndicateLocalCommWhenHintCapsNameNeitherLocalNorRemoteComm()
        {
            for (final Info info : getInfo(new Info().caps(FI_MSG)))
            {
                assertEquals(FI_MSG | FI_LOCAL_COMM, info.caps(), () -> ToStr.caps(info.caps()));
                assertEquals(FI_LOCAL_COMM, info.txAttr().caps() & FI_LOCAL_COMM);
                assertEquals(FI_LOCAL_COMM, info.rxAttr().caps() & FI_LOCAL_COMM);
            }
        }

        @Test
        void shouldKeepLocalCommInDomainCapsWhenHintDomainCapsOmitIt()
        {
            for (final Info info : getInfo(new Info().domainAttr(new DomainAttr().caps(FI_SHARED_AV))))
            {
                assertEquals(FI_SHARED_AV | FI_LOCAL_COMM, info.domainAttr().caps(),
                    () -> ToStr.caps(info.domainAttr().caps()));
            }
        }

        @ParameterizedTest
        @ValueSource(longs = {FI_REMOTE_COMM, FI_MSG | FI_REMOTE_COMM, FI_MSG | FI_LOCAL_COMM | FI_REMOTE_COMM})
        void shouldRefuseRemoteCommInInfoCapsWithEnodata(final long caps)
        {
            assertRefused(new Info().caps(caps), "caps ask for FI_REMOTE_COMM", "FI_LOCAL_COMM only");
        }

        @ParameterizedTest
        @ValueSource(longs = {FI_REMOTE_COMM, FI_LOCAL_COMM | FI_REMOTE_COMM})
        void shouldRefuseRemoteCommInDomainCapsWithEnodata(final long caps)
        {
            assertRefused(new Info().domainAttr(new DomainAttr().caps(caps)),
                "domain_attr.caps ask for FI_REMOTE_COMM", "FI_LOCAL_COMM only");
        }

        @Test
        void shouldRefuseRemoteCommInTxOrRxCapsWithEnodata()
        {
            final Info tx = new Info();
            tx.txAttr().caps(FI_MSG | FI_REMOTE_COMM);
            assertRefused(tx, "tx_attr.caps", "FI_REMOTE_COMM");

            final Info rx = new Info();
            rx.rxAttr().caps(FI_MSG | FI_REMOTE_COMM);
            assertRefused(rx, "rx_attr.caps", "FI_REMOTE_COMM");
        }

        @ParameterizedTest
        @ValueSource(longs = {FI_MULTICAST, FI_COLLECTIVE, FI_HMEM, FI_VARIABLE_MSG})
        void shouldRefuseCapabilitiesShmDoesNotOfferWithEnodata(final long cap)
        {
            assertRefused(new Info().caps(FI_MSG | cap), "caps ask for " + ToStr.caps(cap));
        }

        @ParameterizedTest
        @ValueSource(strings = {"192.0.2.1", "otherhost.example", "10.0.0.1", "127.0.0.256", "127.1", ""})
        void shouldRefuseNodeThatIsNotThisHostWithEnodata(final String node)
        {
            assertNoData(() -> getInfo(node, null), "node '" + node + "'", "is not this host", "FI_LOCAL_COMM only");
        }

        @ParameterizedTest
        @ValueSource(strings = {"localhost", "LOCALHOST", "localhost.localdomain", "127.0.0.1", "127.255.0.9", "::1"})
        void shouldMatchLoopbackNodes(final String node)
        {
            assertEquals(2, getInfo(node, null).size());
        }

        @Test
        void shouldMatchThisHostsNameAsNode()
        {
            assertEquals(2, getInfo(LocalHost.name(), null).size());
            assertEquals(2, getInfo(LocalHost.name().toUpperCase(java.util.Locale.ROOT), null).size());
        }

        @Test
        void shouldMatchLocalFiAddrStrNodeAndRefuseRemoteOne()
        {
            assertEquals(2, getInfo("fi_shm://" + LocalHost.name() + "/dom", null).size());
            assertEquals(2, getInfo("fi_shm://localhost:7", null).size());
            assertNoData(() -> getInfo("fi_shm://192.0.2.1/dom", null), "node 'fi_shm://192.0.2.1/dom'",
                "is not this host");
        }

        @Test
        void shouldRefuseServiceWithFiAddrStrNode()
        {
            assertNoData(() -> DEFAULTS.getInfo(VERSION, "fi_shm://localhost", "1234", 0, null),
                "service must be null", "'1234'");
        }

        @Test
        void shouldMatchServiceWithoutNode()
        {
            assertEquals(2, DEFAULTS.getInfo(VERSION, null, "1234", 0, null).size());
        }
    }

    @Nested
    class Refusals
    {
        @ParameterizedTest
        @ValueSource(strings = {"verbs", "SHM", "shm2", ""})
        void shouldRefuseUnknownFabricNameWithEnodata(final String name)
        {
            final Info hints = new Info();
            hints.fabricAttr().name(name);
            assertRefused(hints, "fabric name '" + name + "' is unknown");
        }

        @Test
        void shouldMatchTheShmFabricName()
        {
            final Info hints = new Info();
            hints.fabricAttr().name("shm");
            assertEquals(2, getInfo(hints).size());
        }

        @Test
        void shouldRefuseNewerProviderVersionAndMatchItsOwn()
        {
            final Info newer = new Info();
            newer.fabricAttr().provVersion(Versions.version(0, 2));
            assertRefused(newer, "prov_version 0.2 is newer than shm's 0.1");

            final Info same = new Info();
            same.fabricAttr().provVersion(Versions.version(0, 1));
            assertEquals(2, getInfo(same).size());
        }

        static Stream<String> invalidDomainNames()
        {
            return Stream.of("a/b", "", ".hidden", "x".repeat(300), "-dash", "a b", "dom\u00e9", "../up", "a\0b",
                "x".repeat(201));
        }

        @ParameterizedTest
        @MethodSource("invalidDomainNames")
        void shouldRefuseInvalidDomainNameWithEnodata(final String name)
        {
            assertRefused(new Info().domainAttr(new DomainAttr().name(name)), "domain name");
        }

        @Test
        void shouldNameTheOffendingCharacterOfAnInvalidDomainName()
        {
            assertRefused(new Info().domainAttr(new DomainAttr().name("a/b")), "'/' at index 1");
            assertRefused(new Info().domainAttr(new DomainAttr().name("")), "must not be empty");
            assertRefused(new Info().domainAttr(new DomainAttr().name("x".repeat(300))), "300 characters");
        }

        @ParameterizedTest
        @ValueSource(strings = {"dom1", "a", "A.b-c_d", "0", "trading_gw-01.v2"})
        void shouldHonourValidDomainName(final String name)
        {
            for (final Info info : getInfo(new Info().domainAttr(new DomainAttr().name(name))))
            {
                assertEquals(name, info.domainAttr().name());
            }
        }

        @Test
        void shouldHonourDomainNameOfTheLongestAllowedLength()
        {
            final String name = "n".repeat(200);
            assertEquals(name, getInfo(new Info().domainAttr(new DomainAttr().name(name))).get(0).domainAttr().name());
        }

        @ParameterizedTest
        @EnumSource(value = EpType.class, names = {"MSG", "DGRAM", "SOCK_STREAM", "SOCK_DGRAM"})
        void shouldRefuseEndpointTypesOtherThanRdmWithEnodata(final EpType type)
        {
            assertRefused(new Info().epAttr(new EpAttr().type(type)),
                "endpoint type " + type.cName() + " is not supported", "FI_EP_RDM");
        }

        @ParameterizedTest
        @EnumSource(value = EpType.class, names = {"UNSPEC", "RDM"})
        void shouldMatchRdmOrUnspecifiedEndpointType(final EpType type)
        {
            for (final Info info : getInfo(new Info().epAttr(new EpAttr().type(type))))
            {
                assertEquals(EpType.RDM, info.epAttr().type());
            }
        }

        @ParameterizedTest
        @EnumSource(value = AddrFormat.class, names = {"UNSPEC", "ADDR_STR"}, mode = EnumSource.Mode.EXCLUDE)
        void shouldRefuseAddressFormatsOtherThanAddrStrWithEnodata(final AddrFormat format)
        {
            assertRefused(new Info().addrFormat(format),
                "addr_format " + format.cName() + " is not supported", "FI_ADDR_STR");
        }

        @ParameterizedTest
        @EnumSource(value = AddrFormat.class, names = {"UNSPEC", "ADDR_STR"})
        void shouldReturnAddrStrForUnspecifiedOrAddrStrFormat(final AddrFormat format)
        {
            for (final Info info : getInfo(new Info().addrFormat(format)))
            {
                assertEquals(AddrFormat.ADDR_STR, info.addrFormat());
            }
        }

        @ParameterizedTest
        @EnumSource(value = Protocol.class, names = {"UNSPEC", "SHM"}, mode = EnumSource.Mode.EXCLUDE)
        void shouldRefuseProtocolsOtherThanShmWithEnodata(final Protocol protocol)
        {
            assertRefused(new Info().epAttr(new EpAttr().protocol(protocol)),
                "protocol " + protocol.cName() + " is not supported", "FI_PROTO_SHM");
        }

        @ParameterizedTest
        @EnumSource(value = Protocol.class, names = {"UNSPEC", "SHM"})
        void shouldReturnShmProtocolForUnspecifiedOrShm(final Protocol protocol)
        {
            for (final Info info : getInfo(new Info().epAttr(new EpAttr().protocol(protocol))))
            {
                assertEquals(Protocol.SHM, info.epAttr().protocol());
            }
        }

        @Test
        void shouldMatchProtocolVersionOneOrUnspecified()
        {
            for (final int version : new int[] {0, 1})
            {
                for (final Info info : getInfo(new Info().epAttr(new EpAttr().protocolVersion(version))))
                {
                    assertEquals(1, info.epAttr().protocolVersion());
                }
            }
        }

        @Test
        void shouldRefuseNewerProtocolVersionWithEnodata()
        {
            assertRefused(new Info().epAttr(new EpAttr().protocol(Protocol.SHM).protocolVersion(2)),
                "protocol_version");
        }

        @Test
        void shouldMatchAnyModeBecauseShmNeedsNone()
        {
            for (final long mode : new long[] {0, 1L << 59, ~0L})
            {
                for (final Info info : getInfo(new Info().mode(mode)))
                {
                    assertEquals(0, info.mode());
                    assertEquals(0, info.txAttr().mode());
                    assertEquals(0, info.rxAttr().mode());
                    assertEquals(0, info.domainAttr().mode());
                }
            }
        }
    }

    @Nested
    class Capabilities
    {
        @ParameterizedTest
        @ValueSource(longs = {
            FI_MSG | FI_LOCAL_COMM,
            FI_TAGGED | FI_RECV | FI_LOCAL_COMM,
            FI_MSG | FI_SEND | FI_LOCAL_COMM | FI_SHARED_AV,
            FI_MSG | FI_TAGGED | FI_DIRECTED_RECV | FI_LOCAL_COMM,
            FI_MSG | FI_SEND | FI_MULTI_RECV | FI_SOURCE | FI_LOCAL_COMM,
            FI_TAGGED | FI_AV_USER_ID | FI_LOCAL_COMM,
            ShmCapabilities.INFO_CAPS})
        void shouldReturnExactlyTheRequestedCaps(final long caps)
        {
            final List<Info> infos = getInfo(new Info().caps(caps));
            assertEquals(2, infos.size());
            for (final Info info : infos)
            {
                assertEquals(caps, info.caps(), () -> ToStr.caps(info.caps()));
                assertEquals(caps & ShmCapabilities.TX_CAPS, info.txAttr().caps());
                assertEquals(caps & ShmCapabilities.RX_CAPS, info.rxAttr().caps());
                assertEquals(0, info.txAttr().caps() & ~info.caps());
                assertEquals(0, info.rxAttr().caps() & ~info.caps());
            }
        }

        @Test
        void shouldNotAddPrimaryCapsThatWereNotRequested()
        {
            for (final Info info : getInfo(new Info().caps(FI_MSG)))
            {
                assertEquals(FI_MSG, info.caps() & ShmCapabilities.PRIMARY);
                assertEquals(0, info.caps() & (FI_TAGGED | FI_RMA | FI_DIRECTED_RECV | FI_READ | FI_WRITE));
            }
        }

        @Test
        void shouldReturnRequestedTxAndRxCapsWhenTheyAreSubsetsOfInfoCaps()
        {
            final Info hints = new Info().caps(ShmCapabilities.INFO_CAPS);
            hints.txAttr().caps(FI_MSG | FI_SEND | FI_LOCAL_COMM);
            hints.rxAttr().caps(FI_TAGGED | FI_RECV | FI_DIRECTED_RECV);
            for (final Info info : getInfo(hints))
            {
                assertEquals(ShmCapabilities.INFO_CAPS, info.caps());
                assertEquals(FI_MSG | FI_SEND | FI_LOCAL_COMM, info.txAttr().caps());
                assertEquals(FI_TAGGED | FI_RECV | FI_DIRECTED_RECV, info.rxAttr().caps());
            }
        }

        @Test
        void shouldReturnRequestedTxCapsWhenInfoCapsAreUnspecified()
        {
            final Info hints = new Info();
            hints.txAttr().caps(FI_TAGGED | FI_SEND);
            for (final Info info : getInfo(hints))
            {
                assertEquals(ShmCapabilities.DEFAULT_CAPS, info.caps());
                assertEquals(FI_TAGGED | FI_SEND, info.txAttr().caps());
                assertEquals(ShmCapabilities.DEFAULT_CAPS & ShmCapabilities.RX_CAPS, info.rxAttr().caps());
            }
        }

        @Test
        void shouldRefuseTxCapsThatContradictInfoCapsWithEnodata()
        {
            final Info hints = new Info().caps(FI_MSG | FI_LOCAL_COMM);
            hints.txAttr().caps(FI_TAGGED | FI_SEND);
            assertRefused(hints, "tx_attr.caps", "FI_TAGGED", "contradict");
        }

        @Test
        void shouldRefuseRxCapsThatContradictInfoCapsWithEnodata()
        {
            final Info hints = new Info().caps(FI_MSG | FI_LOCAL_COMM);
            hints.rxAttr().caps(FI_TAGGED);
            assertRefused(hints, "rx_attr.caps", "FI_TAGGED", "contradict");
        }

        @Test
        void shouldRefuseCapsThatDoNotBelongToTheContextWithEnodata()
        {
            final Info tx = new Info();
            tx.txAttr().caps(FI_MSG | FI_RECV);
            assertRefused(tx, "tx_attr.caps ask for FI_RECV", "does not offer there");

            final Info rx = new Info();
            rx.rxAttr().caps(FI_MSG | FI_SEND);
            assertRefused(rx, "rx_attr.caps ask for FI_SEND", "does not offer there");
        }

        @Test
        void shouldAcceptTxModifierImpliedByAnUnmodifiedPrimaryInfoCap()
        {
            final Info hints = new Info().caps(FI_MSG | FI_LOCAL_COMM);
            hints.txAttr().caps(FI_MSG | FI_SEND);
            hints.rxAttr().caps(FI_MSG | FI_RECV);
            for (final Info info : getInfo(hints))
            {
                assertEquals(FI_MSG | FI_SEND, info.txAttr().caps());
                assertEquals(FI_MSG | FI_RECV, info.rxAttr().caps());
            }
        }
    }

    /**
     * Issue 16: endpoints read and write peers' registered memory (fi_rma(3)), so getinfo offers FI_RMA with its
     * modifiers and an rma_iov_limit, and FI_RMA_EVENT (target endpoints count remote reads and writes).
     */
    @Nested
    class EndpointRma
    {
        private static final long RMA_CAPS = FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;

        @Test
        void shouldOfferRmaWithItsModifiersAndAnRmaIovWithNullHints()
        {
            final List<Info> infos = getInfo(null);
            assertEquals(2, infos.size());
            for (final Info info : infos)
            {
                assertEquals(RMA_CAPS, info.caps() & RMA_CAPS, () -> "caps: " + ToStr.caps(info.caps()));
                assertEquals(FI_RMA | FI_READ | FI_WRITE, info.txAttr().caps() & RMA_CAPS,
                    () -> "tx caps: " + ToStr.caps(info.txAttr().caps()));
                assertEquals(FI_RMA | FI_REMOTE_READ | FI_REMOTE_WRITE, info.rxAttr().caps() & RMA_CAPS,
                    () -> "rx caps: " + ToStr.caps(info.rxAttr().caps()));
                assertEquals(FI_RMA_EVENT, info.caps() & FI_RMA_EVENT, "FI_RMA_EVENT, a secondary capability");
                assertEquals(FI_RMA_EVENT, info.rxAttr().caps() & FI_RMA_EVENT, "rx_attr FI_RMA_EVENT");
                assertEquals(ShmCapabilities.RMA_IOV_LIMIT, info.txAttr().rmaIovLimit(), "tx_attr.rma_iov_limit");
            }
        }

        @ParameterizedTest
        @ValueSource(longs = {FI_RMA, FI_MSG | FI_RMA, FI_RMA | FI_READ | FI_LOCAL_COMM, FI_MSG | FI_REMOTE_WRITE})
        void shouldMatchHintCapsAskingForRma(final long caps)
        {
            final Info info = getInfo(new Info().caps(caps)).get(0);
            assertEquals(caps & RMA_CAPS, info.caps() & RMA_CAPS);
        }

        @Test
        void shouldMatchHintsAskingForRmaEvents()
        {
            final Info info = getInfo(new Info().caps(FI_RMA | FI_RMA_EVENT)).get(0);
            assertEquals(FI_RMA_EVENT, info.caps() & FI_RMA_EVENT);
        }

        @Test
        void shouldRefuseAnRmaIovLimitAboveShmsWithEnodata()
        {
            final Info hints = new Info();
            hints.txAttr().rmaIovLimit(ShmCapabilities.RMA_IOV_LIMIT + 1);
            assertRefused(hints, "tx_attr.rma_iov_limit " + (ShmCapabilities.RMA_IOV_LIMIT + 1) +
                " is above shm's limit " + ShmCapabilities.RMA_IOV_LIMIT);
        }
    }

    @Nested
    class MemoryRegistrationMode
    {
        @Test
        void shouldReturnSubsetOfRequestedMrModeForEveryCombinationOfModeBits()
        {
            for (int combination = 0; combination < 1 << 10; combination++)
            {
                final int requested = combination << 2;
                final List<Info> infos = getInfo(new Info().domainAttr(new DomainAttr().mrMode(requested)));
                assertEquals(2, infos.size());
                for (final Info info : infos)
                {
                    final int returned = info.domainAttr().mrMode();
                    final String what = "requested " + ToStr.mrMode(requested) + ", returned " + ToStr.mrMode(returned);
                    assertEquals(0, returned & ~requested, what);
                    assertEquals(requested & ShmCapabilities.MR_MODE_KEPT, returned, what);
                }
            }
        }

        @Test
        void shouldKeepOnlyProvKeyAndVirtAddr()
        {
            assertEquals(MrMode.FI_MR_PROV_KEY | MrMode.FI_MR_VIRT_ADDR, ShmCapabilities.MR_MODE_KEPT);
            final int all = ((1 << 10) - 1) << 2;
            assertEquals(MrMode.FI_MR_PROV_KEY | MrMode.FI_MR_VIRT_ADDR,
                getInfo(new Info().domainAttr(new DomainAttr().mrMode(all))).get(0).domainAttr().mrMode());
        }

        @ParameterizedTest
        @ValueSource(ints = {MrMode.FI_MR_UNSPEC, MrMode.FI_MR_BASIC, MrMode.FI_MR_SCALABLE})
        void shouldReturnLegacyMrModeValuesAsGiven(final int legacy)
        {
            for (final Info info : getInfo(new Info().domainAttr(new DomainAttr().mrMode(legacy))))
            {
                assertEquals(legacy, info.domainAttr().mrMode());
            }
        }

        @ParameterizedTest
        @ValueSource(ints = {
            MrMode.FI_MR_BASIC | MrMode.FI_MR_SCALABLE,
            MrMode.FI_MR_BASIC | MrMode.FI_MR_LOCAL,
            MrMode.FI_MR_SCALABLE | MrMode.FI_MR_PROV_KEY,
            MrMode.FI_MR_BASIC | MrMode.FI_MR_VIRT_ADDR | MrMode.FI_MR_ALLOCATED})
        void shouldRefuseLegacyMrModeMixedWithModeBitsWithEnodata(final int mixed)
        {
            assertRefused(new Info().domainAttr(new DomainAttr().mrMode(mixed)),
                "mr_mode 0x" + Integer.toHexString(mixed), "mixes the legacy");
        }
    }

    @Nested
    class DomainModels
    {
        @Test
        void shouldResolveUnspecifiedThreadingToThreadSafe()
        {
            for (final Info info : getInfo(null))
            {
                assertEquals(Threading.SAFE, info.domainAttr().threading());
            }
        }

        @ParameterizedTest
        @EnumSource(value = Threading.class, names = "UNSPEC", mode = EnumSource.Mode.EXCLUDE)
        void shouldHonourEveryConcreteThreadingModel(final Threading threading)
        {
            final List<Info> infos = getInfo(new Info().domainAttr(new DomainAttr().threading(threading)));
            assertEquals(2, infos.size());
            for (final Info info : infos)
            {
                assertEquals(threading, info.domainAttr().threading());
            }
        }

        @Test
        void shouldReturnManualThenAutoDataProgressWhenUnspecified()
        {
            final List<Info> infos = getInfo(null);
            assertEquals(2, infos.size());
            assertEquals(Progress.MANUAL, infos.get(0).domainAttr().dataProgress());
            assertEquals(Progress.AUTO, infos.get(1).domainAttr().dataProgress());

            // the two differ in data progress only
            final Info second = infos.get(1).copy();
            second.domainAttr().dataProgress(Progress.MANUAL);
            assertEquals(ToStr.toStr(infos.get(0)), ToStr.toStr(second));
        }

        @ParameterizedTest
        @EnumSource(value = Progress.class, names = "UNSPEC", mode = EnumSource.Mode.EXCLUDE)
        void shouldHonourConcreteDataProgressWithOneInfo(final Progress progress)
        {
            final List<Info> infos = getInfo(new Info().domainAttr(new DomainAttr().dataProgress(progress)));
            assertEquals(1, infos.size());
            assertEquals(progress, infos.get(0).domainAttr().dataProgress());
        }

        @Test
        void shouldResolveUnspecifiedControlProgressToAuto()
        {
            for (final Info info : getInfo(null))
            {
                assertEquals(Progress.AUTO, info.domainAttr().controlProgress());
            }
        }

        @ParameterizedTest
        @EnumSource(value = Progress.class, names = "UNSPEC", mode = EnumSource.Mode.EXCLUDE)
        void shouldHonourConcreteControlProgress(final Progress progress)
        {
            final List<Info> infos = getInfo(new Info().domainAttr(new DomainAttr().controlProgress(progress)));
            assertEquals(2, infos.size());
            for (final Info info : infos)
            {
                assertEquals(progress, info.domainAttr().controlProgress());
            }
        }

        @Test
        void shouldHonourControlAndDataProgressTogether()
        {
            final List<Info> infos = getInfo(new Info().domainAttr(
                new DomainAttr().controlProgress(Progress.MANUAL).dataProgress(Progress.AUTO)));
            assertEquals(1, infos.size());
            assertEquals(Progress.MANUAL, infos.get(0).domainAttr().controlProgress());
            assertEquals(Progress.AUTO, infos.get(0).domainAttr().dataProgress());
        }

        @Test
        void shouldResolveUnspecifiedResourceManagementToEnabled()
        {
            for (final Info info : getInfo(null))
            {
                assertEquals(ResourceMgmt.ENABLED, info.domainAttr().resourceMgmt());
            }
        }

        @ParameterizedTest
        @EnumSource(value = ResourceMgmt.class, names = "UNSPEC", mode = EnumSource.Mode.EXCLUDE)
        void shouldHonourConcreteResourceManagement(final ResourceMgmt rm)
        {
            for (final Info info : getInfo(new Info().domainAttr(new DomainAttr().resourceMgmt(rm))))
            {
                assertEquals(rm, info.domainAttr().resourceMgmt());
            }
        }

        @Test
        void shouldResolveUnspecifiedAvTypeToTable()
        {
            for (final Info info : getInfo(null))
            {
                assertEquals(AvType.TABLE, info.domainAttr().avType());
            }
        }

        @ParameterizedTest
        @EnumSource(value = AvType.class, names = "UNSPEC", mode = EnumSource.Mode.EXCLUDE)
        void shouldHonourConcreteAvType(final AvType type)
        {
            for (final Info info : getInfo(new Info().domainAttr(new DomainAttr().avType(type))))
            {
                assertEquals(type, info.domainAttr().avType());
            }
        }
    }

    /** One count or size: its name as the matcher reports it, the configured limit, how to set and read it. */
    static final class Limit
    {
        final String field;
        final long limit;
        final BiConsumer<Info, Long> set;
        final ToLongFunction<Info> get;

        Limit(final String field, final long limit, final BiConsumer<Info, Long> set, final ToLongFunction<Info> get)
        {
            this.field = field;
            this.limit = limit;
            this.set = set;
            this.get = get;
        }

        Info hints(final long value)
        {
            final Info hints = new Info();
            set.accept(hints, value);
            return hints;
        }

        @Override
        public String toString()
        {
            return field + " <= " + limit;
        }
    }

    static Stream<Limit> limits()
    {
        return Stream.of(
            new Limit("domain_attr.ep_cnt", 7, (i, v) -> i.domainAttr().epCnt(v), i -> i.domainAttr().epCnt()),
            new Limit("domain_attr.cq_cnt", 5, (i, v) -> i.domainAttr().cqCnt(v), i -> i.domainAttr().cqCnt()),
            new Limit("domain_attr.tx_ctx_cnt", 7, (i, v) -> i.domainAttr().txCtxCnt(v),
                i -> i.domainAttr().txCtxCnt()),
            new Limit("domain_attr.rx_ctx_cnt", 7, (i, v) -> i.domainAttr().rxCtxCnt(v),
                i -> i.domainAttr().rxCtxCnt()),
            new Limit("domain_attr.max_ep_srx_ctx", 6, (i, v) -> i.domainAttr().maxEpSrxCtx(v),
                i -> i.domainAttr().maxEpSrxCtx()),
            new Limit("domain_attr.max_ep_stx_ctx", 7, (i, v) -> i.domainAttr().maxEpStxCtx(v),
                i -> i.domainAttr().maxEpStxCtx()),
            new Limit("domain_attr.max_ep_tx_ctx", 3, (i, v) -> i.domainAttr().maxEpTxCtx(v),
                i -> i.domainAttr().maxEpTxCtx()),
            new Limit("domain_attr.max_ep_rx_ctx", 3, (i, v) -> i.domainAttr().maxEpRxCtx(v),
                i -> i.domainAttr().maxEpRxCtx()),
            new Limit("domain_attr.cntr_cnt", 9, (i, v) -> i.domainAttr().cntrCnt(v), i -> i.domainAttr().cntrCnt()),
            // what one lane record of 8192 / 8 bytes carries of an emulated RMA (RmaOrdering)
            new Limit("ep_attr.max_order_raw_size", 848, (i, v) -> i.epAttr().maxOrderRawSize(v),
                i -> i.epAttr().maxOrderRawSize()),
            new Limit("ep_attr.max_order_war_size", 848, (i, v) -> i.epAttr().maxOrderWarSize(v),
                i -> i.epAttr().maxOrderWarSize()),
            new Limit("ep_attr.max_order_waw_size", 848, (i, v) -> i.epAttr().maxOrderWawSize(v),
                i -> i.epAttr().maxOrderWawSize()),
            new Limit("domain_attr.mr_cnt", 33, (i, v) -> i.domainAttr().mrCnt(v), i -> i.domainAttr().mrCnt()),
            new Limit("domain_attr.mr_iov_limit", 3, (i, v) -> i.domainAttr().mrIovLimit(v),
                i -> i.domainAttr().mrIovLimit()),
            new Limit("domain_attr.mr_key_size", 8, (i, v) -> i.domainAttr().mrKeySize(v),
                i -> i.domainAttr().mrKeySize()),
            new Limit("domain_attr.cq_data_size", 8, (i, v) -> i.domainAttr().cqDataSize(v),
                i -> i.domainAttr().cqDataSize()),
            new Limit("domain_attr.max_err_data", 11, (i, v) -> i.domainAttr().maxErrData(v),
                i -> i.domainAttr().maxErrData()),
            new Limit("tx_attr.size", 19, (i, v) -> i.txAttr().size(v), i -> i.txAttr().size()),
            new Limit("tx_attr.inject_size", 100, (i, v) -> i.txAttr().injectSize(v), i -> i.txAttr().injectSize()),
            new Limit("tx_attr.iov_limit", 4, (i, v) -> i.txAttr().iovLimit(v), i -> i.txAttr().iovLimit()),
            new Limit("rx_attr.size", 17, (i, v) -> i.rxAttr().size(v), i -> i.rxAttr().size()),
            new Limit("rx_attr.total_buffered_recv", 8192, (i, v) -> i.rxAttr().totalBufferedRecv(v),
                i -> i.rxAttr().totalBufferedRecv()),
            new Limit("rx_attr.iov_limit", 4, (i, v) -> i.rxAttr().iovLimit(v), i -> i.rxAttr().iovLimit()),
            new Limit("ep_attr.max_msg_size", 12345, (i, v) -> i.epAttr().maxMsgSize(v),
                i -> i.epAttr().maxMsgSize()));
    }

    @Nested
    class Limits
    {
        @ParameterizedTest
        @MethodSource("io.jfabric.shm.ShmGetInfoTest#limits")
        void shouldReportTheConfiguredLimit(final Limit limit)
        {
            final List<Info> infos = LIMITED.getInfo(VERSION, null, null, 0, null);
            assertEquals(2, infos.size());
            for (final Info info : infos)
            {
                assertEquals(limit.limit, limit.get.applyAsLong(info), limit.field);
            }
        }

        @ParameterizedTest
        @MethodSource("io.jfabric.shm.ShmGetInfoTest#limits")
        void shouldMatchHintAtTheLimit(final Limit limit)
        {
            final List<Info> infos = LIMITED.getInfo(VERSION, null, null, 0, limit.hints(limit.limit));
            assertEquals(2, infos.size());
            for (final Info info : infos)
            {
                assertEquals(limit.limit, limit.get.applyAsLong(info), limit.field);
            }
        }

        @ParameterizedTest
        @MethodSource("io.jfabric.shm.ShmGetInfoTest#limits")
        void shouldRefuseHintAboveTheLimitWithEnodata(final Limit limit)
        {
            assertNoData(() -> LIMITED.getInfo(VERSION, null, null, 0, limit.hints(limit.limit + 1)),
                limit.field + " " + (limit.limit + 1) + " is above shm's limit " + limit.limit);
        }

        @ParameterizedTest
        @MethodSource("io.jfabric.shm.ShmGetInfoTest#limits")
        void shouldRefuseSizeMaxHintAsUnsignedWithEnodata(final Limit limit)
        {
            assertNoData(() -> LIMITED.getInfo(VERSION, null, null, 0, limit.hints(-1L)),
                limit.field + " 18446744073709551615 is above shm's limit " + limit.limit);
        }

        @Test
        void shouldReportTheDefaultLimitsOfTheDefaultConfiguration()
        {
            final Info info = getInfo(null).get(0);
            assertEquals(24, info.domainAttr().epCnt());
            assertEquals(24, info.domainAttr().cqCnt());
            assertEquals(24, info.domainAttr().txCtxCnt());
            assertEquals(24, info.domainAttr().rxCtxCnt());
            assertEquals(11, info.domainAttr().maxEpTxCtx(), "(24 slots - 1 address slot) / 2");
            assertEquals(11, info.domainAttr().maxEpRxCtx());
            assertEquals(23, info.domainAttr().maxEpSrxCtx(), "24 slots - 1 for the shared receive context");
            assertEquals(24, info.domainAttr().maxEpStxCtx());
            assertEquals(128, info.domainAttr().cntrCnt());
            assertEquals(4096, info.domainAttr().mrCnt());
            assertEquals(8, info.domainAttr().mrIovLimit());
            assertEquals(64, info.domainAttr().maxErrData());
            assertEquals(1024, info.txAttr().size());
            assertEquals(4096, info.txAttr().injectSize());
            assertEquals(1024, info.rxAttr().size());
            assertEquals(1 << 16, info.rxAttr().totalBufferedRecv());
            assertEquals(1L << 30, info.epAttr().maxMsgSize());
            assertEquals(8016, info.epAttr().maxOrderRawSize(), "what one 8 KiB lane record carries of an RMA");
            assertEquals(8016, info.epAttr().maxOrderWarSize());
            assertEquals(8016, info.epAttr().maxOrderWawSize());
        }

        @Test
        void shouldReportFixedSizesOfTheProvider()
        {
            for (final Info info : LIMITED.getInfo(VERSION, null, null, 0, null))
            {
                assertEquals(ShmCapabilities.MR_KEY_SIZE, info.domainAttr().mrKeySize());
                assertEquals(ShmCapabilities.CQ_DATA_SIZE, info.domainAttr().cqDataSize());
                assertEquals(0, info.epAttr().msgPrefixSize());
                assertEquals(1, info.epAttr().txCtxCnt());
                assertEquals(1, info.epAttr().rxCtxCnt());
            }
        }

        @Test
        void shouldRefuseAuthKeysLongerThanSixtyFourBytes()
        {
            assertEquals(2, getInfo(new Info().epAttr(new EpAttr().authKey(new byte[64]))).size());
            assertRefused(new Info().epAttr(new EpAttr().authKey(new byte[65])),
                "ep_attr.auth_key_size 65 is above shm's limit 64");
            assertEquals(2, getInfo(new Info().domainAttr(new DomainAttr().authKey(new byte[64]))).size());
            assertRefused(new Info().domainAttr(new DomainAttr().authKey(new byte[65])),
                "domain_attr.auth_key_size 65 is above shm's limit 64");
        }
    }

    @Nested
    class OrderingAndOperationFlags
    {
        @ParameterizedTest
        @ValueSource(longs = {MsgOrder.FI_ORDER_NONE, MsgOrder.FI_ORDER_SAS, MsgOrder.FI_ORDER_RAW,
            MsgOrder.FI_ORDER_RAR, MsgOrder.FI_ORDER_WAW, MsgOrder.FI_ORDER_SAS | MsgOrder.FI_ORDER_SAW,
            MsgOrder.FI_ORDER_RMA_RAW, MsgOrder.FI_ORDER_ATOMIC_WAW})
        void shouldMatchSendAfterSendAndEveryOrderingAfterRmaAndAtomics(final long order)
        {
            final Info hints = new Info();
            hints.txAttr().msgOrder(order);
            hints.rxAttr().msgOrder(order);
            for (final Info info : getInfo(hints))
            {
                assertEquals(ShmCapabilities.MSG_ORDER, info.txAttr().msgOrder());
                assertEquals(ShmCapabilities.MSG_ORDER, info.rxAttr().msgOrder());
                assertEquals(0, info.txAttr().msgOrder() & (MsgOrder.FI_ORDER_RAS | MsgOrder.FI_ORDER_WAS));
                assertEquals(0, info.txAttr().compOrder());
                assertEquals(0, info.rxAttr().compOrder());
            }
        }

        @ParameterizedTest
        @ValueSource(longs = {MsgOrder.FI_ORDER_RAS, MsgOrder.FI_ORDER_WAS | MsgOrder.FI_ORDER_WAW,
            MsgOrder.FI_ORDER_STRICT, MsgOrder.FI_ORDER_DATA})
        void shouldRefuseRmaAfterSendAndDataOrderingWithEnodata(final long order)
        {
            final long unsupported = order & ~ShmCapabilities.MSG_ORDER;
            final Info tx = new Info();
            tx.txAttr().msgOrder(order);
            assertRefused(tx, "tx_attr.msg_order 0x" + Long.toHexString(unsupported) + " is not supported");

            final Info rx = new Info();
            rx.rxAttr().msgOrder(order);
            assertRefused(rx, "rx_attr.msg_order 0x" + Long.toHexString(unsupported) + " is not supported");
        }

        @Test
        void shouldRefuseAnyCompletionOrderingWithEnodata()
        {
            final Info tx = new Info();
            tx.txAttr().compOrder(MsgOrder.FI_ORDER_STRICT);
            assertRefused(tx, "tx_attr.comp_order");

            final Info rx = new Info();
            rx.rxAttr().compOrder(MsgOrder.FI_ORDER_DATA);
            assertRefused(rx, "rx_attr.comp_order");
        }

        @Test
        void shouldReturnZeroOperationFlagsWhenUnspecified()
        {
            for (final Info info : getInfo(null))
            {
                assertEquals(0, info.txAttr().opFlags());
                assertEquals(0, info.rxAttr().opFlags());
            }
        }

        @ParameterizedTest
        @ValueSource(longs = {FI_COMPLETION, FI_INJECT, FI_INJECT_COMPLETE, FI_TRANSMIT_COMPLETE,
            FI_DELIVERY_COMPLETE, FI_MORE, FI_COMPLETION | FI_DELIVERY_COMPLETE | FI_MORE})
        void shouldHonourSupportedTxOperationFlags(final long flags)
        {
            final Info hints = new Info();
            hints.txAttr().opFlags(flags);
            for (final Info info : getInfo(hints))
            {
                assertEquals(flags, info.txAttr().opFlags());
                assertEquals(0, info.rxAttr().opFlags());
            }
        }

        @ParameterizedTest
        @ValueSource(longs = {FI_COMPLETION, FI_MULTI_RECV, FI_COMPLETION | FI_MULTI_RECV})
        void shouldHonourSupportedRxOperationFlags(final long flags)
        {
            final Info hints = new Info();
            hints.rxAttr().opFlags(flags);
            for (final Info info : getInfo(hints))
            {
                assertEquals(flags, info.rxAttr().opFlags());
                assertEquals(0, info.txAttr().opFlags());
            }
        }

        @Test
        void shouldRefuseUnsupportedOperationFlagsWithEnodata()
        {
            final Info tx = new Info();
            tx.txAttr().opFlags(FI_COMPLETION | FI_COMMIT_COMPLETE);
            assertRefused(tx, "tx_attr.op_flags 0x" + Long.toHexString(FI_COMMIT_COMPLETE) + " is not supported");

            final Info txMulti = new Info();
            txMulti.txAttr().opFlags(FI_MULTI_RECV);
            assertRefused(txMulti, "tx_attr.op_flags 0x" + Long.toHexString(FI_MULTI_RECV));

            final Info rx = new Info();
            rx.rxAttr().opFlags(FI_INJECT);
            assertRefused(rx, "rx_attr.op_flags 0x" + Long.toHexString(FI_INJECT) + " is not supported");
        }
    }

    @Nested
    class CallContract
    {
        @Test
        void shouldReturnDefaultsAndOnlyProviderNameAndVersionForProvAttrOnly()
        {
            final List<Info> infos = DEFAULTS.getInfo(VERSION, null, null, FI_PROV_ATTR_ONLY, null);
            assertEquals(1, infos.size());
            final Info info = infos.get(0);
            assertEquals(ToStr.toStr(new TxAttr()), ToStr.toStr(info.txAttr()));
            assertEquals(ToStr.toStr(new RxAttr()), ToStr.toStr(info.rxAttr()));
            assertEquals(ToStr.toStr(new EpAttr()), ToStr.toStr(info.epAttr()));
            assertEquals(ToStr.toStr(new DomainAttr()), ToStr.toStr(info.domainAttr()));
            assertNotNull(info.fabricAttr());
            assertEquals(0, info.caps());
            assertEquals(AddrFormat.UNSPEC, info.addrFormat());
            assertEquals("shm", info.fabricAttr().provName());
            assertEquals(DEFAULTS.version(), info.fabricAttr().provVersion());
            assertEquals(VERSION, info.fabricAttr().apiVersion());
        }

        @Test
        void shouldAnswerProvAttrOnlyRegardlessOfHintsAndNode()
        {
            final Info unusable = new Info().caps(FI_REMOTE_COMM);
            final List<Info> infos = DEFAULTS.getInfo(VERSION, "192.0.2.1", null, FI_PROV_ATTR_ONLY, unusable);
            assertEquals(1, infos.size());
            assertEquals("shm", infos.get(0).fabricAttr().provName());
            assertNull(infos.get(0).domainAttr().name());
        }

        @Test
        void shouldReportTheApplicationsApiVersion()
        {
            final int older = Versions.version(1, 5);
            for (final Info info : DEFAULTS.getInfo(older, null, null, 0, null))
            {
                assertEquals(older, info.fabricAttr().apiVersion());
            }
            assertEquals(older, DEFAULTS.getInfo(older, null, null, FI_PROV_ATTR_ONLY, null).get(0).fabricAttr()
                .apiVersion());
        }

        @Test
        void shouldMatchHintsWhoseNestedAttributesAreAllNull()
        {
            final Info hints = new Info().txAttr(null).rxAttr(null).epAttr(null).domainAttr(null).fabricAttr(null);
            final List<Info> infos = getInfo(hints);
            assertEquals(ToStr.toStr(getInfo(null).get(0)), ToStr.toStr(infos.get(0)));
            assertEquals(ToStr.toStr(getInfo(null).get(1)), ToStr.toStr(infos.get(1)));
        }

        @Test
        void shouldLeaveHintsUnchanged()
        {
            final byte[] epKey = {1, 2, 3};
            final byte[] domainKey = {9, 8};
            final Info hints = new Info().caps(FI_MSG | FI_TAGGED | FI_SEND | FI_RECV | FI_LOCAL_COMM).mode(1L << 59)
                .addrFormat(AddrFormat.ADDR_STR);
            hints.txAttr().caps(FI_MSG | FI_SEND).opFlags(FI_COMPLETION).msgOrder(MsgOrder.FI_ORDER_SAS).size(8)
                .injectSize(16);
            hints.rxAttr().caps(FI_TAGGED | FI_RECV).opFlags(FI_MULTI_RECV).size(8);
            hints.epAttr().type(EpType.RDM).protocol(Protocol.SHM).memTagFormat(0xFFL).authKey(epKey);
            hints.domainAttr().name("hints-dom").threading(Threading.COMPLETION).dataProgress(Progress.UNSPEC)
                .mrMode(MrMode.FI_MR_LOCAL | MrMode.FI_MR_PROV_KEY).epCnt(2).authKey(domainKey);
            hints.fabricAttr().name("shm").provName("shm");
            final String before = ToStr.toStr(hints);

            final List<Info> infos = getInfo(hints);

            assertEquals(before, ToStr.toStr(hints));
            assertSame(epKey, hints.epAttr().authKey());
            assertArrayEquals(new byte[] {1, 2, 3}, epKey);
            assertArrayEquals(new byte[] {9, 8}, domainKey);
            for (final Info info : infos)
            {
                assertArrayEquals(epKey, info.epAttr().authKey());
                assertNotSame(epKey, info.epAttr().authKey());
                assertArrayEquals(domainKey, info.domainAttr().authKey());
                assertNotSame(domainKey, info.domainAttr().authKey());
                assertNotSame(hints.txAttr(), info.txAttr());
                assertNotSame(hints.domainAttr(), info.domainAttr());
            }
        }

        @Test
        void shouldLeaveRefusedHintsUnchanged()
        {
            final Info hints = new Info().caps(FI_MSG | FI_REMOTE_COMM);
            hints.domainAttr().name("dom").threading(Threading.FID);
            final String before = ToStr.toStr(hints);
            assertRefused(hints);
            assertEquals(before, ToStr.toStr(hints));
        }

        @Test
        void shouldReturnFreshCopiesThatLaterCallsDoNotSee()
        {
            final List<Info> first = getInfo(null);
            final String pristine = ToStr.toStr(first.get(0));
            final Info mutated = first.get(0);
            mutated.caps(FI_MSG).mode(7);
            mutated.txAttr().size(1).caps(0);
            mutated.rxAttr().size(1);
            mutated.epAttr().maxMsgSize(1).type(EpType.MSG);
            mutated.domainAttr().name("mutated").epCnt(1).threading(Threading.ENDPOINT).mrMode(MrMode.FI_MR_RAW);
            mutated.fabricAttr().name("mutated").provName("mutated");

            final List<Info> second = getInfo(null);
            assertEquals(pristine, ToStr.toStr(second.get(0)));
            assertNotSame(first.get(0), second.get(0));
            assertNotSame(first.get(1).domainAttr(), second.get(1).domainAttr());
        }

        @Test
        void shouldReturnInfosThatShareNoAttributesWithEachOther()
        {
            final List<Info> infos = getInfo(null);
            final String secondBefore = ToStr.toStr(infos.get(1));
            infos.get(0).domainAttr().name("changed");
            infos.get(0).txAttr().size(3);
            infos.get(0).fabricAttr().name("changed");
            assertEquals(secondBefore, ToStr.toStr(infos.get(1)));
        }

        @Test
        void shouldMatchItsOwnOutputFedBackAsHints()
        {
            for (final Info info : LIMITED.getInfo(VERSION, null, null, 0, null))
            {
                final String printed = ToStr.toStr(info);
                final List<Info> again = LIMITED.getInfo(VERSION, null, null, 0, info);
                assertEquals(1, again.size(), "a concrete data progress gives one info");
                assertEquals(printed, ToStr.toStr(again.get(0)));
            }
        }
    }

    /** Through {@link Fabrics}: ServiceLoader registration, provider selection and error aggregation. */
    @Nested
    class ThroughFabrics
    {
        private Info provName(final String name)
        {
            final Info hints = new Info();
            hints.fabricAttr().provName(name);
            return hints;
        }

        @Test
        void shouldListTheShmProvider()
        {
            final List<FabricProvider> providers = Fabrics.providers();
            assertEquals(1, providers.stream().filter(p -> p.name().equals("shm")).count(), providers::toString);
            final FabricProvider shm = providers.stream().filter(p -> p.name().equals("shm")).findFirst().get();
            assertTrue(shm instanceof ShmProvider);
            assertEquals(Versions.version(0, 1), shm.version());
            assertSame(providers, Fabrics.providers(), "providers are discovered once");
        }

        @Test
        void shouldMatchWithNullHints()
        {
            final List<Info> infos = Fabrics.getInfo(VERSION, null, null, 0, null);
            assertEquals(2, infos.size());
            infos.forEach(ShmGetInfoTest::assertLocalOnly);
        }

        @ParameterizedTest
        @ValueSource(strings = {"shm", "SHM", "Shm", " shm ", "^foo"})
        void shouldSelectShmByProvName(final String name)
        {
            final List<Info> infos = Fabrics.getInfo(VERSION, null, null, 0, provName(name));
            assertEquals(2, infos.size());
            for (final Info info : infos)
            {
                assertEquals("shm", info.fabricAttr().provName());
            }
        }

        @ParameterizedTest
        @ValueSource(strings = {"^shm", "^SHM", "^foo;shm", "foo", "sh", "shmx", "verbs;tcp", "foo;shm", "shm;ofi_rxm",
            "foo,shm", "^verbs;tcp"})
        void shouldRefuseProvNameThatExcludesOrMissesShmWithEnodata(final String name)
        {
            assertNoData(() -> Fabrics.getInfo(VERSION, null, null, 0, provName(name)),
                "no provider matches", "prov_name=" + name);
        }

        @Test
        void shouldCarryTheProvidersReasonInFabricsEnodata()
        {
            assertNoData(() -> Fabrics.getInfo(VERSION, null, null, 0, new Info().caps(FI_REMOTE_COMM)),
                "no provider matches", "shm: caps ask for FI_REMOTE_COMM");
            assertNoData(() -> Fabrics.getInfo(VERSION, "192.0.2.1", null, 0, null),
                "(node=192.0.2.1)", "shm: node '192.0.2.1' is not this host");
        }

        @Test
        void shouldReturnOnlyFabricAttributesForProvAttrOnly()
        {
            final List<Info> infos = Fabrics.getInfo(VERSION, null, null, FI_PROV_ATTR_ONLY, null);
            assertEquals(1, infos.size());
            assertNull(infos.get(0).domainAttr().name());
            assertEquals(EpType.UNSPEC, infos.get(0).epAttr().type());
            assertEquals("shm", infos.get(0).fabricAttr().provName());
            assertEquals(Versions.version(0, 1), infos.get(0).fabricAttr().provVersion());
        }

        @ParameterizedTest
        @ValueSource(longs = {FI_NUMERICHOST, FI_SOURCE, FI_NUMERICHOST | FI_SOURCE})
        void shouldAcceptKnownFlagsWithALocalNode(final long flags)
        {
            assertEquals(2, Fabrics.getInfo(VERSION, "127.0.0.1", null, flags, null).size());
        }

        @ParameterizedTest
        @ValueSource(longs = {FI_MSG, 1L, 1L << 63, FI_LOCAL_COMM, FI_PROV_ATTR_ONLY | FI_RMA})
        void shouldRefuseUnknownFlagsWithEbadflags(final long flags)
        {
            final FabricException ex = assertThrows(FabricException.class,
                () -> Fabrics.getInfo(VERSION, null, null, flags, null));
            assertEquals(Errno.FI_EBADFLAGS, ex.errno(), ex::getMessage);
        }

        @Test
        void shouldRefuseApiVersionTwoWithEnosys()
        {
            final FabricException ex = assertThrows(FabricException.class,
                () -> Fabrics.getInfo(Versions.version(2, 0), null, null, 0, null));
            assertEquals(Errno.FI_ENOSYS, ex.errno(), ex::getMessage);
            assertTrue(ex.getMessage().contains("2.0"), ex::getMessage);
        }

        @Test
        void shouldServeAnOlderApiVersion()
        {
            final int v10 = Versions.version(1, 0);
            for (final Info info : Fabrics.getInfo(v10, null, null, 0, null))
            {
                assertEquals(v10, info.fabricAttr().apiVersion());
            }
        }

        @Test
        void shouldLeaveHintsUnchangedAndReturnCopies()
        {
            final Info hints = provName("shm").caps(FI_MSG | FI_LOCAL_COMM);
            hints.domainAttr().threading(Threading.DOMAIN);
            final String before = ToStr.toStr(hints);
            final List<Info> first = Fabrics.getInfo(VERSION, null, null, 0, hints);
            assertEquals(before, ToStr.toStr(hints));
            final String printed = ToStr.toStr(first.get(0));
            first.get(0).domainAttr().threading(Threading.SAFE).name("x");
            assertEquals(printed, ToStr.toStr(Fabrics.getInfo(VERSION, null, null, 0, hints).get(0)));
        }
    }
}
