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

import io.jfabric.Domain;
import io.jfabric.EqAttr;
import io.jfabric.Errno;
import io.jfabric.EventQueue;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.HmemOverrideOps;
import io.jfabric.Info;
import io.jfabric.Progress;
import io.jfabric.Threading;
import io.jfabric.Versions;
import io.jfabric.shm.core.DomainResources;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.domain.ShmFabric;
import io.jfabric.testsupport.ChildJvm;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShmDomainTest
{
    private ShmTestRoot root;
    private ShmProvider provider;
    private Fabric fabric;

    @BeforeEach
    void setUp()
    {
        root = new ShmTestRoot();
        provider = root.provider(key -> "ep.count".equals(key) ? "8" : null);
        fabric = provider.fabric(info("orders").fabricAttr(), 7);
    }

    @AfterEach
    void tearDown()
    {
        root.close();
    }

    private Info info(final String domainName)
    {
        final Info hints = new Info();
        hints.domainAttr().name(domainName);
        return provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
    }

    private static void assertErrno(final int errno, final Executable call)
    {
        final FabricException ex = assertThrows(FabricException.class, call);
        assertEquals(errno, ex.errno(), ex.getMessage());
    }

    @Test
    void shouldCreateTheNamedRegionFileAndReportItsAttributes()
    {
        try (Domain domain = fabric.domain(info("orders"), 42))
        {
            assertEquals(FidClass.DOMAIN, domain.fidClass());
            assertEquals(42, domain.context());
            assertSame(fabric, domain.fabric());
            assertEquals("orders", domain.attr().name());
            assertSame(domain, domain.attr().domain());
            assertEquals(Threading.SAFE, domain.attr().threading());
            assertEquals(Progress.MANUAL, domain.attr().dataProgress());
            assertEquals(8, domain.attr().epCnt());
            assertTrue(Files.isRegularFile(root.dir().resolve("orders.domain")));
            final ShmDomain shm = (ShmDomain)domain;
            assertTrue(shm.region().created());
            assertEquals(ProcessHandle.current().pid(), shm.region().creatorPid());
            assertEquals(8, shm.region().geometry().slotCount());
        }
    }

    @Test
    void shouldShareOneRegionBetweenTwoOpensOfTheSameName()
    {
        try (Domain first = fabric.domain(info("orders"), 0);
            Domain second = fabric.domain(info("orders"), 0))
        {
            final ShmDomain a = (ShmDomain)first;
            final ShmDomain b = (ShmDomain)second;
            assertTrue(a.region().created());
            assertFalse(b.region().created());
            assertEquals(2, a.region().attachCount());
            assertEquals(a.region().path(), b.region().path());
        }
    }

    @Test
    void shouldRefuseFabricCloseWithEbusyWhileADomainIsOpen()
    {
        final Domain domain = fabric.domain(info("orders"), 0);
        assertErrno(Errno.FI_EBUSY, fabric::close);
        domain.close();
        domain.close();
        fabric.close();
        fabric.close();
        assertErrno(Errno.FI_EBADF, () -> fabric.domain(info("orders"), 0));
    }

    @Test
    void shouldRefuseFabricCloseWithEbusyWhileAnEventQueueIsOpen()
    {
        final EventQueue eq = fabric.eqOpen(new EqAttr(), 0);
        assertErrno(Errno.FI_EBUSY, fabric::close);
        eq.close();
        fabric.close();
    }

    @Test
    void shouldKeepTheBoundEventQueueOpenUntilTheDomainCloses()
    {
        final EventQueue eq = fabric.eqOpen(new EqAttr(), 0);
        final Domain domain = fabric.domain(info("orders"), 0);
        domain.bind(eq, Flags.FI_REG_MR);
        assertTrue(((ShmDomain)domain).asyncMrRegistration());
        assertSame(eq, ((ShmDomain)domain).eventQueue());
        assertErrno(Errno.FI_EBUSY, eq::close);
        domain.close();
        eq.close();
        fabric.close();
    }

    @Test
    void shouldRefuseBadBinds()
    {
        try (EventQueue eq = fabric.eqOpen(new EqAttr(), 0);
            Domain domain = fabric.domain(info("orders"), 0);
            Fabric other = provider.fabric(info("orders").fabricAttr(), 0);
            EventQueue foreign = other.eqOpen(new EqAttr(), 0))
        {
            assertErrno(Errno.FI_EINVAL, () -> domain.bind(null, 0));
            assertErrno(Errno.FI_EINVAL, () -> domain.bind(domain, 0));
            assertErrno(Errno.FI_EBADFLAGS, () -> domain.bind(eq, Flags.FI_SEND));
            assertErrno(Errno.FI_EINVAL, () -> domain.bind(foreign, 0));
            domain.bind(eq, 0);
            assertFalse(((ShmDomain)domain).asyncMrRegistration());
            assertErrno(Errno.FI_EINVAL, () -> domain.bind(eq, 0));
            foreign.close();
            other.close();
            domain.close();
        }
    }

    @Test
    void shouldAnswerOpenOpsWithEnosys()
    {
        try (Domain domain = fabric.domain(info("orders"), 0))
        {
            assertErrno(Errno.FI_ENOSYS, () -> domain.openOps("mr_cache_ops", 0, 0));
        }
    }

    @Test
    void shouldRefuseTheHmemOverrideItWouldNeverCall()
    {
        final HmemOverrideOps ops = new HmemOverrideOps()
        {
            public long copyFromHmemIov(
                final ByteBuffer dest, final long size, final int iface, final long device, final ByteBuffer[] iov,
                final long offset)
            {
                return size;
            }

            public long copyToHmemIov(
                final int iface, final long device, final ByteBuffer[] iov, final long offset, final ByteBuffer src,
                final long size)
            {
                return size;
            }
        };
        try (Domain domain = fabric.domain(info("orders"), 0))
        {
            assertErrno(Errno.FI_ENOSYS, () -> domain.setOps("something_else", 0, ops, 0));
            assertErrno(Errno.FI_EINVAL, () -> domain.setOps(HmemOverrideOps.FI_SET_OPS_HMEM_OVERRIDE, 0, "x", 0));
            assertErrno(Errno.FI_EBADFLAGS, () -> domain.setOps(HmemOverrideOps.FI_SET_OPS_HMEM_OVERRIDE, 1, ops, 0));
            // shm has no FI_HMEM: the override would never be called, so it is refused (it used to be stored).
            assertErrno(Errno.FI_ENOSYS, () -> domain.setOps(HmemOverrideOps.FI_SET_OPS_HMEM_OVERRIDE, 0, ops, 0));
        }
    }

    @Test
    void shouldRefuseBadDomainOpens()
    {
        assertErrno(Errno.FI_EINVAL, () -> fabric.domain(null, 0));
        assertErrno(Errno.FI_EINVAL, () -> fabric.domain(info("orders").domainAttr(null), 0));
        assertErrno(Errno.FI_EBADFLAGS, () -> fabric.domain(info("orders"), 1, 0));
        final Info remote = info("orders");
        remote.domainAttr().caps(Flags.FI_REMOTE_COMM);
        assertErrno(Errno.FI_ENODATA, () -> fabric.domain(remote, 0));
        final Info badName = info("orders");
        badName.domainAttr().name("../escape");
        assertErrno(Errno.FI_ENODATA, () -> fabric.domain(badName, 0));
        final Info tooMany = info("orders");
        tooMany.domainAttr().epCnt(9);
        assertErrno(Errno.FI_ENODATA, () -> fabric.domain(tooMany, 0));
        tooMany.domainAttr().epCnt(8).cqCnt(65);
        assertErrno(Errno.FI_ENODATA, () -> fabric.domain(tooMany, 0));
        assertEquals(0, fabric instanceof ShmFabric ? ((ShmFabric)fabric).references() : -1,
            "a failed open must not keep a reference on the fabric");
        assertFalse(Files.exists(root.dir().resolve("orders.domain")), "a refused open must not create the region");
    }

    @Test
    void shouldRefuseAProcessWithOtherRegionSettingsWithEinvalNamingTheDifference()
    {
        final ShmProvider bigger = root.provider(key -> "ep.count".equals(key) ? "16" : null);
        try (Domain ignored = fabric.domain(info("orders"), 0);
            Fabric other = bigger.fabric(info("orders").fabricAttr(), 0))
        {
            final Info theirs = bigger.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, null).get(0);
            theirs.domainAttr().name("orders");
            final FabricException ex = assertThrows(FabricException.class, () -> other.domain(theirs, 0));
            assertEquals(Errno.FI_EINVAL, ex.errno());
            assertTrue(ex.getMessage().contains("orders") && ex.getMessage().contains("slotCount"), ex.getMessage());
            assertEquals(0, ((ShmFabric)other).references(), "a failed open must not keep a reference");
        }
    }

    @Test
    void shouldJoinTheSameRegionWithLoweredCountsThatLimitOnlyThisDomain()
    {
        final Info lowered = info("orders");
        lowered.domainAttr().epCnt(2).cqCnt(1);
        try (Domain full = fabric.domain(info("orders"), 0);
            Domain small = fabric.domain(lowered, 0))
        {
            final ShmDomain shm = (ShmDomain)small;
            assertEquals(((ShmDomain)full).region().geometry(), shm.region().geometry());
            assertEquals(2, small.attr().epCnt());
            assertEquals(2, shm.resources().limit(DomainResources.Kind.ENDPOINT));
            shm.resources().acquire(DomainResources.Kind.CQ, "fi_cq_open");
            assertErrno(Errno.FI_ENOSPC, () -> shm.resources().acquire(DomainResources.Kind.CQ, "fi_cq_open"));
            assertEquals(1, shm.resources().inUse(DomainResources.Kind.CQ));
        }
    }

    @Test
    void shouldKeepOnlyTheMrModeBitsShmHonours()
    {
        final Info asked = info("orders");
        asked.domainAttr().mrMode(io.jfabric.MrMode.FI_MR_HMEM | io.jfabric.MrMode.FI_MR_PROV_KEY);
        try (Domain domain = fabric.domain(asked, 0))
        {
            assertEquals(io.jfabric.MrMode.FI_MR_PROV_KEY, domain.attr().mrMode());
        }
    }

    @Test
    void shouldRefuseADamagedRegionFileWithAClearError() throws Exception
    {
        Files.createDirectories(root.dir());
        final Path file = root.dir().resolve("orders.domain");
        Files.write(file, new byte[8192]);
        final FabricException ex = assertThrows(FabricException.class, () -> fabric.domain(info("orders"), 0));
        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains(file.toString()), ex.getMessage());
        assertEquals(0, ((ShmFabric)fabric).references());
    }

    @Test
    void shouldLetASecondJvmOpenTheSameNamedDomainAndSeeTheRegion() throws Exception
    {
        try (Domain domain = fabric.domain(info("orders"), 0))
        {
            final ShmDomain shm = (ShmDomain)domain;
            assertEquals(1, shm.region().attachCount());
            final String out = ChildJvm.start(DomainPeerMain.class,
                List.of("jfabric.shm.dir=" + root.dir(), "jfabric.shm.ep.count=8"), "orders").awaitSuccess(60);
            assertTrue(out.contains("creatorPid=" + ProcessHandle.current().pid()), out);
            assertTrue(out.contains("attachCount=2"), out);
            assertTrue(out.contains("created=false"), out);
            assertTrue(out.contains("slots=8"), out);
            assertEquals(2, shm.region().attachCount(), "the child's attach must be visible here");
        }
    }
}
