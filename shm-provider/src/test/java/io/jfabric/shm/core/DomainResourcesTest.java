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
package io.jfabric.shm.core;

import io.jfabric.DomainAttr;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.core.DomainResources.Kind;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.domain.ShmFabric;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionGeometry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pins the count limits of a domain (fi_domain(3) ep_cnt, cq_cnt, cntr_cnt, mr_cnt, tx_ctx_cnt, rx_ctx_cnt): the
 * {@link DomainResources} bookkeeping itself, and that a real {@link ShmDomain}, opened over a region file in a
 * private root directory, enforces the counts of the info it was opened with and refuses, as getinfo does, an info
 * whose counts exceed the provider's limits.
 */
class DomainResourcesTest
{
    private static DomainAttr counts(final long ep, final long tx, final long rx, final long cq, final long cntr,
        final long mr)
    {
        return new DomainAttr().epCnt(ep).txCtxCnt(tx).rxCtxCnt(rx).cqCnt(cq).cntrCnt(cntr).mrCnt(mr);
    }

    private static FabricException assertNoSpace(final DomainResources resources, final Kind kind, final long limit)
    {
        final FabricException ex = assertThrows(FabricException.class, () -> resources.acquire(kind, "fi_test_open"));
        assertEquals(Errno.FI_ENOSPC, ex.errno(), ex::getMessage);
        assertTrue(ex.getMessage().contains("fi_test_open"), ex::getMessage);
        assertTrue(ex.getMessage().contains(limit + " of " + limit + " allowed by " + kind.attrName()),
            ex::getMessage);
        assertEquals(limit, resources.inUse(kind), "a refused acquire takes nothing");
        return ex;
    }

    @Nested
    class Bookkeeping
    {
        @Test
        void shouldTakeEachLimitFromItsDomainAttribute()
        {
            final DomainResources resources = new DomainResources(counts(5, 6, 7, 3, 2, 9));
            assertEquals(5, resources.limit(Kind.ENDPOINT));
            assertEquals(3, resources.limit(Kind.CQ));
            assertEquals(2, resources.limit(Kind.COUNTER));
            assertEquals(9, resources.limit(Kind.MR));
            for (final Kind kind : Kind.values())
            {
                assertEquals(0, resources.inUse(kind));
            }
        }

        @Test
        void shouldNameTheLimitingAttributeOfEachKind()
        {
            assertEquals("ep_cnt", Kind.ENDPOINT.attrName());
            assertEquals("cq_cnt", Kind.CQ.attrName());
            assertEquals("cntr_cnt", Kind.COUNTER.attrName());
            assertEquals("mr_cnt", Kind.MR.attrName());
        }

        @Test
        void shouldLimitEndpointsByEpCntAloneNotByTheOptimalContextCounts()
        {
            assertEquals(5, new DomainResources(counts(5, 3, 4, 1, 1, 1)).limit(Kind.ENDPOINT));
            assertEquals(5, new DomainResources(counts(5, 6, 2, 1, 1, 1)).limit(Kind.ENDPOINT));
            assertEquals(4, new DomainResources(counts(4, 6, 5, 1, 1, 1)).limit(Kind.ENDPOINT));
        }

        @ParameterizedTest
        @EnumSource(Kind.class)
        void shouldRefuseAcquireBeyondTheLimitWithEnospcAndTakeNothing(final Kind kind)
        {
            final DomainResources resources = new DomainResources(counts(3, 3, 3, 3, 3, 3));
            for (int i = 1; i <= 3; i++)
            {
                resources.acquire(kind, "fi_test_open");
                assertEquals(i, resources.inUse(kind));
            }
            assertNoSpace(resources, kind, 3);
            assertNoSpace(resources, kind, 3);
        }

        @ParameterizedTest
        @EnumSource(Kind.class)
        void shouldGiveBackAUnitOnRelease(final Kind kind)
        {
            final DomainResources resources = new DomainResources(counts(2, 2, 2, 2, 2, 2));
            resources.acquire(kind, "fi_test_open");
            resources.acquire(kind, "fi_test_open");
            assertNoSpace(resources, kind, 2);

            resources.release(kind);
            assertEquals(1, resources.inUse(kind));
            resources.acquire(kind, "fi_test_open");
            assertEquals(2, resources.inUse(kind));
            assertNoSpace(resources, kind, 2);
        }

        @ParameterizedTest
        @EnumSource(Kind.class)
        void shouldIgnoreAReleaseWithNothingTaken(final Kind kind)
        {
            final DomainResources resources = new DomainResources(counts(2, 2, 2, 2, 2, 2));
            resources.release(kind);
            assertEquals(0, resources.inUse(kind));
            resources.acquire(kind, "fi_test_open");
            resources.acquire(kind, "fi_test_open");
            assertNoSpace(resources, kind, 2);
        }

        @Test
        void shouldCountEachKindIndependently()
        {
            final DomainResources resources = new DomainResources(counts(1, 1, 1, 2, 1, 1));
            resources.acquire(Kind.CQ, "fi_cq_open");
            resources.acquire(Kind.CQ, "fi_cq_open");
            assertNoSpace(resources, Kind.CQ, 2);

            resources.acquire(Kind.MR, "fi_mr_reg");
            resources.acquire(Kind.COUNTER, "fi_cntr_open");
            resources.acquire(Kind.ENDPOINT, "fi_endpoint");
            assertEquals(1, resources.inUse(Kind.MR));
            assertEquals(1, resources.inUse(Kind.COUNTER));
            assertEquals(1, resources.inUse(Kind.ENDPOINT));
            assertEquals(2, resources.inUse(Kind.CQ));
        }

        @ParameterizedTest
        @EnumSource(Kind.class)
        void shouldRefuseEveryAcquireWhenTheLimitIsZero(final Kind kind)
        {
            assertNoSpace(new DomainResources(counts(0, 0, 0, 0, 0, 0)), kind, 0);
        }

        @Test
        void shouldNeverHandOutMoreThanTheLimitToConcurrentCallers() throws Exception
        {
            final int limit = 100;
            final int threads = 4;
            final int attempts = 1000;
            final DomainResources resources = new DomainResources(counts(limit, limit, limit, limit, limit, limit));
            final ExecutorService pool = Executors.newFixedThreadPool(threads);
            try
            {
                final CountDownLatch start = new CountDownLatch(1);
                final List<Future<Integer>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++)
                {
                    results.add(pool.submit(() ->
                    {
                        start.await();
                        int taken = 0;
                        for (int i = 0; i < attempts; i++)
                        {
                            try
                            {
                                resources.acquire(Kind.MR, "fi_mr_reg");
                                taken++;
                            }
                            catch (final FabricException ex)
                            {
                                assertEquals(Errno.FI_ENOSPC, ex.errno());
                            }
                        }
                        return taken;
                    }));
                }
                start.countDown();
                int total = 0;
                for (final Future<Integer> result : results)
                {
                    total += result.get(30, TimeUnit.SECONDS);
                }
                assertEquals(limit, total);
                assertEquals(limit, resources.inUse(Kind.MR));
            }
            finally
            {
                pool.shutdownNow();
            }
        }
    }

    /** A real domain over a region file under a private root directory in /dev/shm, removed afterwards. */
    @Nested
    class OpenDomain
    {
        private final Path root = uniqueRoot();
        private final ShmProvider provider = new ShmProvider(ShmConfig.of(Map.of(
            "dir", root.toString(),
            "ep.count", "4",
            "cq.count", "4",
            "cntr.count", "6",
            "mr.count", "16",
            "mr.iov.limit", "2",
            "rx.ring.bytes", "4096",
            "tx.ring.bytes", "4096",
            "cq.ring.bytes", "4096")::get));
        private final Fabric fabric = provider.fabric(
            provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, null).get(0).fabricAttr(), 0);

        @AfterEach
        void after()
        {
            try
            {
                fabric.close();
            }
            finally
            {
                deleteTree(root);
            }
        }

        private Info info(final String domainName)
        {
            final Info hints = new Info();
            hints.domainAttr().name(domainName);
            return provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        }

        @Test
        void shouldEnforceTheCountsTheApplicationLowered()
        {
            final Info info = info("lowered");
            info.domainAttr().epCnt(2).cqCnt(3).cntrCnt(1).mrCnt(5);
            try (ShmDomain domain = (ShmDomain)fabric.domain(info, 0))
            {
                final DomainResources resources = domain.resources();
                assertEquals(2, resources.limit(Kind.ENDPOINT));
                assertEquals(3, resources.limit(Kind.CQ));
                assertEquals(1, resources.limit(Kind.COUNTER));
                assertEquals(5, resources.limit(Kind.MR));

                final DomainAttr attr = domain.attr();
                assertEquals(2, attr.epCnt());
                assertEquals(3, attr.cqCnt());
                assertEquals(1, attr.cntrCnt());
                assertEquals(5, attr.mrCnt());

                for (final Kind kind : Kind.values())
                {
                    final long limit = resources.limit(kind);
                    for (long i = 0; i < limit; i++)
                    {
                        resources.acquire(kind, "fi_test_open");
                    }
                    assertNoSpace(resources, kind, limit);
                    resources.release(kind);
                    resources.acquire(kind, "fi_test_open");
                    assertNoSpace(resources, kind, limit);
                }
            }
        }

        @Test
        void shouldSizeTheRegionFromTheSettingsNotTheLoweredCounts()
        {
            final Info info = info("geometry");
            info.domainAttr().epCnt(3).cntrCnt(2).mrCnt(7);
            try (ShmDomain domain = (ShmDomain)fabric.domain(info, 0))
            {
                final RegionGeometry geometry = domain.region().geometry();
                assertEquals(RegionGeometry.from(((ShmFabric)fabric).provider().config()), geometry);
                assertEquals(3, domain.resources().limit(Kind.ENDPOINT));
                assertEquals(2, domain.resources().limit(Kind.COUNTER));
                assertEquals(7, domain.resources().limit(Kind.MR));
                assertEquals(RegionFile.regionPath(root, "geometry"), domain.region().path());
                assertTrue(Files.exists(domain.region().path()));
            }
        }

        @Test
        void shouldNotLimitEndpointsByALoweredContextCount()
        {
            final Info info = info("contexts");
            info.domainAttr().txCtxCnt(1);
            try (ShmDomain domain = (ShmDomain)fabric.domain(info, 0))
            {
                assertEquals(4, domain.attr().epCnt());
                assertEquals(1, domain.attr().txCtxCnt());
                final DomainResources resources = domain.resources();
                assertEquals(4, resources.limit(Kind.ENDPOINT));
                for (int i = 0; i < 4; i++)
                {
                    resources.acquire(Kind.ENDPOINT, "fi_endpoint");
                }
                assertNoSpace(resources, Kind.ENDPOINT, 4);
            }
        }

        @Test
        void shouldEnforceTheProviderLimitsWhenTheInfoLeavesCountsZero()
        {
            final Info hintsOnly = new Info();
            hintsOnly.domainAttr().name("defaults");
            try (ShmDomain domain = (ShmDomain)fabric.domain(hintsOnly, 0))
            {
                final DomainResources resources = domain.resources();
                assertEquals(4, resources.limit(Kind.ENDPOINT));
                assertEquals(4, resources.limit(Kind.CQ));
                assertEquals(6, resources.limit(Kind.COUNTER));
                assertEquals(16, resources.limit(Kind.MR));
                assertEquals(4, domain.attr().epCnt());
                assertEquals(2, domain.attr().mrIovLimit());
            }
        }

        @Test
        void shouldEnforceTheLimitsGetinfoReportedWhenItsOutputIsOpenedUnchanged()
        {
            try (ShmDomain domain = (ShmDomain)fabric.domain(info("as-reported"), 0))
            {
                final DomainResources resources = domain.resources();
                for (int i = 0; i < 16; i++)
                {
                    resources.acquire(Kind.MR, "fi_mr_reg");
                }
                assertNoSpace(resources, Kind.MR, 16);
            }
        }

        static Stream<Object[]> excessiveCounts()
        {
            return Stream.of(
                new Object[] {"domain_attr.ep_cnt", 4L, (BiConsumer<DomainAttr, Long>)DomainAttr::epCnt},
                new Object[] {"domain_attr.tx_ctx_cnt", 4L, (BiConsumer<DomainAttr, Long>)DomainAttr::txCtxCnt},
                new Object[] {"domain_attr.rx_ctx_cnt", 4L, (BiConsumer<DomainAttr, Long>)DomainAttr::rxCtxCnt},
                new Object[] {"domain_attr.cq_cnt", 4L, (BiConsumer<DomainAttr, Long>)DomainAttr::cqCnt},
                new Object[] {"domain_attr.cntr_cnt", 6L, (BiConsumer<DomainAttr, Long>)DomainAttr::cntrCnt},
                new Object[] {"domain_attr.mr_cnt", 16L, (BiConsumer<DomainAttr, Long>)DomainAttr::mrCnt},
                new Object[] {"domain_attr.mr_iov_limit", 2L, (BiConsumer<DomainAttr, Long>)DomainAttr::mrIovLimit});
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("excessiveCounts")
        void shouldRefuseAnInfoWhoseCountExceedsTheLimitWithEnodataAsGetinfoDoes(
            final String field, final long limit, final BiConsumer<DomainAttr, Long> set)
        {
            final Info info = info("too-many");
            set.accept(info.domainAttr(), limit + 1);

            final FabricException getinfo = assertThrows(FabricException.class,
                () -> provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, info));
            final FabricException open = assertThrows(FabricException.class, () -> fabric.domain(info, 0));

            assertEquals(Errno.FI_ENODATA, open.errno(), open::getMessage);
            assertTrue(open.getMessage().contains(field + " " + (limit + 1) + " is above shm's limit " + limit),
                open::getMessage);
            assertEquals(getinfo.reason(), open.reason());
            assertFalse(Files.exists(RegionFile.regionPath(root, "too-many")), "a refused open maps nothing");

            set.accept(info.domainAttr(), limit);
            try (ShmDomain domain = (ShmDomain)fabric.domain(info, 0))
            {
                assertTrue(Files.exists(domain.region().path()), "the same info at the limit opens");
            }
        }

        @Test
        void shouldRefuseAnInfoAskingForRemoteCommWithEnodataAsGetinfoDoes()
        {
            final Info info = info("remote");
            info.domainAttr().caps(Flags.FI_LOCAL_COMM | Flags.FI_REMOTE_COMM);
            final FabricException open = assertThrows(FabricException.class, () -> fabric.domain(info, 0));
            assertEquals(Errno.FI_ENODATA, open.errno(), open::getMessage);
            assertTrue(open.getMessage().contains("FI_REMOTE_COMM"), open::getMessage);
            assertFalse(Files.exists(RegionFile.regionPath(root, "remote")));
        }
    }

    private static Path uniqueRoot()
    {
        final Path shm = Path.of("/dev/shm");
        final Path parent = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return parent.resolve("jfabric-test-" + UUID.randomUUID());
    }

    private static void deleteTree(final Path base)
    {
        if (!Files.exists(base))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(base))
        {
            for (final Path path : (Iterable<Path>)paths.sorted(Comparator.reverseOrder())::iterator)
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
