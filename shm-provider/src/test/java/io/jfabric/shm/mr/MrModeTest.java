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
package io.jfabric.shm.mr;

import io.jfabric.CntrAttr;
import io.jfabric.Counter;
import io.jfabric.EqAttr;
import io.jfabric.EqEntry;
import io.jfabric.EqErrEntry;
import io.jfabric.EqEvent;
import io.jfabric.EventQueue;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.MrMode;
import io.jfabric.MrRawAttr;
import io.jfabric.ShareableMemory;
import io.jfabric.WaitObj;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.region.RegionDescriptor;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static io.jfabric.Errno.*;
import static io.jfabric.Flags.*;
import static io.jfabric.shm.mr.MrTestDomains.assertErrno;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mr_mode rules of fi_mr(3) and fi_domain(3) (raw keys, RMA events and enable, endpoint binding, MMU notify and
 * refresh, local descriptors), counter binding, and asynchronous registration through an event queue.
 */
class MrModeTest
{
    private final MrTestDomains domains = new MrTestDomains();

    @AfterEach
    void tearDown()
    {
        domains.close();
    }

    @Test
    void shouldHideTheKeyAndGiveTheRawKeyWithEtoosmallAndTheNeededSizeWithMrRaw()
    {
        final ShmDomain domain = domains.open("raw", MrMode.FI_MR_RAW | MrMode.FI_MR_VIRT_ADDR);
        assertEquals(MrMode.FI_MR_RAW | MrMode.FI_MR_VIRT_ADDR, domain.attr().mrMode());
        try (ShareableMemory memory = domain.allocShareable(4096);
            MemoryRegion mr = domain.mrRegv(new MrIov[]{MrIov.of(memory, 64, 128)}, FI_REMOTE_READ, 0, 0x1234, 0, 0))
        {
            assertEquals(MemoryRegion.FI_KEY_NOTAVAIL, mr.key());
            final MrRawAttr small = new MrRawAttr(new byte[4], 4);
            assertErrno(FI_ETOOSMALL, () -> mr.rawAttr(small, 0));
            assertEquals(8, small.keySize(), "key_size says what is needed");
            assertEquals(8, domain.attr().mrKeySize());

            final MrRawAttr attr = new MrRawAttr(new byte[8], 8);
            mr.rawAttr(attr, 0);
            assertEquals(8, attr.keySize());
            assertEquals(memory.address() + 64, attr.baseAddr());
            assertArrayEquals(new byte[]{0x34, 0x12, 0, 0, 0, 0, 0, 0}, attr.rawKey());
            assertErrno(FI_EBADFLAGS, () -> mr.rawAttr(attr, 1));

            final long mapped = domain.mrMapRaw(attr.baseAddr(), attr.rawKey(), 0);
            assertEquals(0x1234, mapped);
            assertErrno(FI_EBUSY, domain::close);
            domain.mrUnmapKey(mapped);
            assertErrno(FI_EINVAL, () -> domain.mrUnmapKey(mapped));
            assertErrno(FI_EINVAL, () -> domain.mrMapRaw(0, new byte[3], 0));
            assertErrno(FI_EBADFLAGS, () -> domain.mrMapRaw(0, attr.rawKey(), 2));
        }
    }

    @Test
    void shouldStartRmaEventRegionsDisabledAndRefuseBindingsAfterEnable()
    {
        final ShmDomain domain = domains.open("rmaevent", MrMode.FI_MR_RMA_EVENT);
        try (ShareableMemory memory = domain.allocShareable(4096);
            Counter counter = domain.cntrOpen(new CntrAttr(), 0);
            Counter other = domain.cntrOpen(new CntrAttr(), 0);
            RemoteMemory remote = domain.remoteMemory())
        {
            final UnsafeBuffer src = new UnsafeBuffer(new byte[16]);
            try (MemoryRegion plain = domain.mrRegv(new MrIov[]{MrIov.of(memory, 0, 1024)}, FI_REMOTE_WRITE, 0, 1, 0, 0))
            {
                assertErrno(FI_EINVAL, () -> plain.bind(counter, FI_REMOTE_WRITE));
                assertEquals(0, remote.write(1, 0, src, 0, 16), "without FI_RMA_EVENT the region is enabled at once");
            }

            final MemoryRegion mr = domain.mrRegv(new MrIov[]{MrIov.of(memory, 1024, 1024)}, FI_REMOTE_WRITE, 0, 2,
                FI_RMA_EVENT, 0);
            assertEquals(-FI_EKEYREJECTED, remote.write(2, 0, src, 0, 16), "disabled until fi_mr_enable");
            assertErrno(FI_EBADFLAGS, () -> mr.bind(counter, FI_REMOTE_READ));
            assertErrno(FI_EBADFLAGS, () -> mr.bind(counter, FI_REMOTE_WRITE | FI_SEND));
            mr.bind(counter, FI_REMOTE_WRITE);
            assertErrno(FI_EINVAL, () -> mr.bind(other, FI_REMOTE_WRITE));
            mr.enable();
            mr.enable();
            assertErrno(FI_EINVAL, () -> mr.bind(other, FI_REMOTE_WRITE));
            assertEquals(0, remote.write(2, 0, src, 0, 16));
            assertEquals(0, remote.write(2, 16, src, 0, 16));
            assertEquals(2, counter.read(), "each remote write is one FI_REMOTE_WRITE event");
            assertErrno(FI_EBUSY, counter::close);
            mr.close();
            assertEquals(-FI_EKEYREJECTED, remote.write(2, 0, src, 0, 16));
        }
    }

    @Test
    void shouldRequireAnEndpointBindingBeforeEnableWithMrEndpoint()
    {
        final ShmDomain domain = domains.open("endpoint", MrMode.FI_MR_ENDPOINT);
        final ShmDomain otherDomain = domains.open("endpoint2", MrMode.FI_MR_ENDPOINT);
        final TestEndpoint ep = new TestEndpoint(domain);
        try (ShareableMemory memory = domain.allocShareable(4096);
            RemoteMemory remote = domain.remoteMemory())
        {
            final MemoryRegion mr = domain.mrRegv(new MrIov[]{MrIov.of(memory, 0, 4096)}, FI_REMOTE_READ, 0, 3, 0, 0);
            final UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
            assertEquals(-FI_EKEYREJECTED, remote.read(3, 0, dst, 0, 8));
            assertErrno(FI_EINVAL, mr::enable);
            assertErrno(FI_EINVAL, () -> mr.bind(new TestEndpoint(otherDomain), 0));
            assertErrno(FI_EBADFLAGS, () -> mr.bind(ep, FI_REMOTE_WRITE));
            assertErrno(FI_EINVAL, () -> mr.bind(memory instanceof io.jfabric.Fid ? (io.jfabric.Fid)memory : null, 0));
            mr.bind(ep, 0);
            mr.enable();
            assertEquals(0, remote.read(3, 0, dst, 0, 8));
            assertErrno(FI_EBUSY, mr::close);
            ep.close();
            mr.close();
        }
    }

    @Test
    void shouldCountMrCntPerEndpointUnderMrEndpointAndPerDomainOtherwise()
    {
        final io.jfabric.Info perEndpoint = domains.info("mrcnt", MrMode.FI_MR_ENDPOINT);
        perEndpoint.domainAttr().mrCnt(2);
        final ShmDomain domain = domains.open(perEndpoint);
        final io.jfabric.Endpoint ep1 = domain.endpoint(perEndpoint, 0);
        final io.jfabric.Endpoint ep2 = domain.endpoint(perEndpoint, 0);
        final MemoryRegion[] mrs = new MemoryRegion[3];
        for (int i = 0; i < 3; i++)
        {
            mrs[i] = domain.mrReg(ByteBuffer.allocateDirect(64), FI_SEND, 0, 10 + i, 0, 0);
        }
        mrs[0].bind(ep1, 0);
        mrs[1].bind(ep1, 0);
        assertErrno(FI_ENOSPC, () -> mrs[2].bind(ep1, 0));
        mrs[2].bind(ep2, 0);
        ep1.close();
        ep2.close();
        for (final MemoryRegion mr : mrs)
        {
            mr.close();
        }

        final io.jfabric.Info perDomain = domains.info("mrcnt2", 0);
        perDomain.domainAttr().mrCnt(2);
        final ShmDomain counted = domains.open(perDomain);
        try (MemoryRegion a = counted.mrReg(ByteBuffer.allocateDirect(64), FI_SEND, 0, 1, 0, 0);
            MemoryRegion b = counted.mrReg(ByteBuffer.allocateDirect(64), FI_SEND, 0, 2, 0, 0))
        {
            assertErrno(FI_ENOSPC, () -> counted.mrReg(ByteBuffer.allocateDirect(64), FI_SEND, 0, 3, 0, 0));
        }
    }

    @Test
    void shouldDisableAccessOnlyWhileRefreshingWithMmuNotify()
    {
        final ShmDomain domain = domains.open("mmu", MrMode.FI_MR_MMU_NOTIFY | MrMode.FI_MR_ALLOCATED);
        try (ShareableMemory memory = domain.allocShareable(4096);
            RemoteMemory remote = domain.remoteMemory())
        {
            final ByteBuffer other = ByteBuffer.allocateDirect(8);
            try (MemoryRegion mr = domain.mrRegv(new MrIov[]{MrIov.of(memory, 0, 2048)}, FI_REMOTE_READ, 0, 4, 0, 0))
            {
                final long descBefore = mr.desc();
                final UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
                final int[] duringRefresh = new int[]{1};
                ((ShmMemoryRegion)mr).whileRefreshing = () -> duringRefresh[0] = remote.read(4, 0, dst, 0, 8);
                assertEquals(0, remote.read(4, 0, dst, 0, 8), "enabled before the refresh");
                mr.refresh(null, 0);
                assertEquals(-FI_EKEYREJECTED, duringRefresh[0], "a peer access while refreshing is refused");
                ((ShmMemoryRegion)mr).whileRefreshing = () -> { };
                mr.refresh(new MrIov[]{MrIov.of(memory, 100, 100)}, 0);
                assertErrno(FI_EINVAL, () -> mr.refresh(new MrIov[]{MrIov.of(memory, 2000, 100)}, 0));
                assertErrno(FI_EINVAL, () -> mr.refresh(new MrIov[]{MrIov.of(other)}, 0));
                assertErrno(FI_EBADFLAGS, () -> mr.refresh(null, 1));
                assertEquals(0, remote.read(4, 0, new UnsafeBuffer(new byte[8]), 0, 8), "enabled again after refresh");
                assertEquals(descBefore, mr.desc());
            }
        }
    }

    @Test
    void shouldGiveEachRegionItsOwnLocalDescriptorWithMrLocal()
    {
        final ShmDomain domain = domains.open("local", MrMode.FI_MR_LOCAL);
        try (MemoryRegion a = domain.mrReg(ByteBuffer.allocateDirect(64), FI_SEND, 0, 1, 0, 0);
            MemoryRegion b = domain.mrReg(ByteBuffer.allocate(64), FI_RECV, 0, 2, 0, 0))
        {
            assertNotEquals(0, a.desc());
            assertNotEquals(0, b.desc());
            assertNotEquals(a.desc(), b.desc());
        }
    }

    @Test
    void shouldClearModesShmDoesNotImplementWhenTheDomainOpens()
    {
        final ShmDomain domain = domains.open("hmem", MrMode.FI_MR_HMEM | MrMode.FI_MR_COLLECTIVE | MrMode.FI_MR_LOCAL);
        assertEquals(MrMode.FI_MR_LOCAL, domain.attr().mrMode());
        final ShmDomain basic = domains.open("basic", MrMode.FI_MR_BASIC);
        assertEquals(MrMode.FI_MR_VIRT_ADDR | MrMode.FI_MR_ALLOCATED | MrMode.FI_MR_PROV_KEY, basic.attr().mrMode(),
            "fi_mr(3): FI_MR_BASIC behaves as VIRT_ADDR, ALLOCATED and PROV_KEY");
    }

    @Test
    void shouldCompleteAsynchronouslyWithAnEventCarryingTheContextAfterTheRegionExists() throws Exception
    {
        final ShmDomain domain = domains.open("async", 0);
        final EventQueue eq = domains.fabric.eqOpen(new EqAttr().waitObj(WaitObj.UNSPEC), 0);
        domain.bind(eq, FI_REG_MR);
        final UnsafeBuffer region = (UnsafeBuffer)domain.region().buffer();
        final long self = ProcessIdentity.self();
        final ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        final EqEntry entry = new EqEntry();

        // Hold the key table lock so the registration cannot complete until the test lets it.
        region.putLongVolatile(RegionDescriptor.MR_TABLE_LOCK_OFFSET, self);
        final MemoryRegion mr = domain.mrReg(buffer, FI_SEND, 0, 77, 0, 0xABC);
        assertEquals(MemoryRegion.FI_KEY_NOTAVAIL, mr.key(), "not complete yet");
        assertEquals(-FI_EAGAIN, eq.read(entry, 0), "no event before completion");
        region.putLongVolatile(RegionDescriptor.MR_TABLE_LOCK_OFFSET, 0);

        assertEquals(1, eq.sread(entry, 5000, 0));
        assertEquals(EqEvent.MR_COMPLETE.value(), entry.event());
        assertEquals(0xABC, entry.context());
        assertSame(mr, entry.fid());
        assertEquals(77, mr.key());

        final MemoryRegion dup = domain.mrReg(buffer, FI_SEND, 0, 77, 0, 0xDEF);
        assertEquals(-FI_EAVAIL, eq.sread(entry, 5000, 0));
        final EqErrEntry err = new EqErrEntry();
        assertEquals(1, eq.readErr(err, 0));
        assertEquals(FI_ENOKEY, err.err());
        assertEquals(0xDEF, err.context());
        assertEquals(MemoryRegion.FI_KEY_NOTAVAIL, dup.key());
        dup.close();
        mr.close();
        domain.close();
        eq.close();
    }

    @Test
    void shouldPostAnEioErrorEventWhenAnAsynchronousRegistrationFailsWithAnyOtherException()
    {
        final ShmDomain domain = domains.open("asyncfail", 0);
        final EventQueue eq = domains.fabric.eqOpen(new EqAttr().waitObj(WaitObj.UNSPEC), 0);
        domain.bind(eq, FI_REG_MR);
        final EqEntry entry = new EqEntry();
        final MemoryRegion mr = domain.mrReg(ByteBuffer.allocateDirect(64), FI_SEND, 0, 78, 0, 0x123);
        assertEquals(1, eq.sread(entry, 5000, 0));

        MemoryRegistrar.completeAsync((ShmMemoryRegion)mr, (io.jfabric.shm.eq.ShmEventQueue)eq, 0x456, () ->
        {
            throw new IllegalStateException("not a FabricException");
        });
        assertEquals(-FI_EAVAIL, eq.read(entry, 0), "the application hears about it");
        final EqErrEntry err = new EqErrEntry();
        assertEquals(1, eq.readErr(err, 0));
        assertEquals(FI_EIO, err.err());
        assertEquals(0x456, err.context());
        assertSame(mr, err.fid());
        mr.close();
        domain.close();
        eq.close();
    }

    @Test
    void shouldBindOnlyCountersAndEndpointsOfTheSameDomain()
    {
        final ShmDomain domain = domains.open("bind", 0);
        final ShmDomain other = domains.open("bind-other", 0);
        try (Counter foreign = other.cntrOpen(null, 0);
            MemoryRegion mr = domain.mrReg(ByteBuffer.allocateDirect(8), FI_SEND, 0, 1, 0, 0))
        {
            assertErrno(FI_EINVAL, () -> mr.bind(foreign, FI_REMOTE_WRITE));
            assertErrno(FI_EINVAL, () -> mr.bind(null, FI_REMOTE_WRITE));
            assertErrno(FI_EINVAL, () -> mr.bind(domain, 0));
            assertTrue(foreign.read() == 0);
        }
    }
}
