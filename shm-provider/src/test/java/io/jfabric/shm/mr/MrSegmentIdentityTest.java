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

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.ShareableMemory;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.region.RegionDirectory;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.jfabric.Flags.FI_REMOTE_READ;
import static io.jfabric.Flags.FI_REMOTE_WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Segment identity across domain objects of one process: ids are unique per process, and a peer's cached mapping is
 * trusted only while the segment's nonce matches the key table entry's (second review, item 1 and 5).
 */
class MrSegmentIdentityTest
{
    private final MrTestDomains domains = new MrTestDomains();

    @AfterEach
    void tearDown()
    {
        domains.close();
    }

    @Test
    void shouldAllocShareableInTwoDomainObjectsOfOneProcess()
    {
        final ShmDomain d1 = domains.open("seg", 0);
        final ShmDomain d2 = domains.open("seg", 0);
        try (ShmShareableMemory a = (ShmShareableMemory)d1.allocShareable(4096);
            ShmShareableMemory b = (ShmShareableMemory)d2.allocShareable(4096))
        {
            assertNotEquals(a.segment().segmentId(), b.segment().segmentId());
            assertNotEquals(a.segment().path(), b.segment().path());
        }
    }

    @Test
    void shouldAllocShareableAfterTheDomainIsClosedAndReopened()
    {
        final ShmDomain first = domains.open("reopen", 0);
        final ShareableMemory kept = first.allocShareable(4096); // its file outlives nothing: closed below
        kept.close();
        final ShmDomain second = domains.open("reopen", 0);
        try (ShareableMemory held = second.allocShareable(4096))
        {
            first.close();
            final ShmDomain third = domains.open("reopen", 0);
            try (ShareableMemory again = third.allocShareable(4096))
            {
                assertEquals(4096, again.length());
            }
        }
    }

    @Test
    void shouldLandAWriteInTheNewSegmentWhenAnotherDomainObjectRegistersAfterADelete()
    {
        final ShmDomain d1 = domains.open("seg2", 0);
        final ShmDomain d2 = domains.open("seg2", 0);
        final ShmDomain peer = domains.open("seg2", 0);
        try (RemoteMemory remote = peer.remoteMemory())
        {
            mapThenFree(d1, remote, 60);
            try (ShareableMemory m2 = d2.allocShareable(4096))
            {
                assertWriteLands(d2, m2, remote, 61, (byte)0x77);
            }
        }
    }

    @Test
    void shouldRemapWhenACachedSegmentIdNowNamesASegmentWithAnotherNonce()
    {
        final ShmDomain owner = domains.open("nonce", 0);
        final ShmDomain peer = domains.open("nonce", 0);
        try (RemoteMemory remote = peer.remoteMemory())
        {
            final long reusedId = mapThenFree(owner, remote, 80);
            // A new segment under the same owner and id, as a restarted sequence would make it.
            final SegmentFile file = SegmentFile.create(RegionDirectory.open(domains.root.dir(), false), "nonce",
                ProcessHandle.current().pid(), reusedId, 4096, false);
            owner.retain("test");
            try (ShmShareableMemory m2 = new ShmShareableMemory(owner, file))
            {
                assertWriteLands(owner, m2, remote, 81, (byte)0x5A);
                assertEquals(1, remote.mappedSegments(), "the stale mapping was dropped");
            }
        }
    }

    /** Register a new segment, let the peer's view map and cache it by a read, then free it (file deleted). */
    private static long mapThenFree(final ShmDomain owner, final RemoteMemory remote, final long key)
    {
        final ShmShareableMemory memory = (ShmShareableMemory)owner.allocShareable(4096);
        final long segmentId = memory.segment().segmentId();
        try (memory; MemoryRegion mr = owner.mrRegv(new MrIov[]{MrIov.of(memory, 0, 4096)},
            FI_REMOTE_READ | FI_REMOTE_WRITE, 0, key, 0, 0))
        {
            assertEquals(0, remote.read(key, 0, new UnsafeBuffer(new byte[64]), 0, 64));
        }
        return segmentId;
    }

    private static void assertWriteLands(
        final ShmDomain owner, final ShareableMemory memory, final RemoteMemory remote, final long key, final byte value)
    {
        final UnsafeBuffer src = new UnsafeBuffer(new byte[64]);
        src.setMemory(0, 64, value);
        try (MemoryRegion mr = owner.mrRegv(new MrIov[]{MrIov.of(memory, 0, 4096)},
            FI_REMOTE_READ | FI_REMOTE_WRITE, 0, key, 0, 0))
        {
            assertEquals(0, remote.write(key, 0, src, 0, 64));
            final UnsafeBuffer mine = new UnsafeBuffer(memory.buffer());
            assertEquals(value, mine.getByte(0), "the write went to a freed segment's mapping");
            assertEquals(value, mine.getByte(63), "the write went to a freed segment's mapping");
        }
    }

    @Test
    void shouldReplaceASegmentFileLeftUnderItsNameByAnEarlierProcess()
    {
        final RegionDirectory directory = RegionDirectory.open(domains.root.dir(), false);
        final long pid = ProcessHandle.current().pid();
        try (SegmentFile stale = SegmentFile.create(directory, "stale", pid, 42, 4096, false);
            SegmentFile fresh = SegmentFile.create(directory, "stale", pid, 42, 4096, false))
        {
            assertEquals(stale.path(), fresh.path());
            assertNotEquals(stale.nonce(), fresh.nonce());
            assertNull(SegmentFile.open(directory, "stale", pid, 42, stale.nonce()), "the stale file is gone");
            try (SegmentFile opened = SegmentFile.open(directory, "stale", pid, 42, fresh.nonce()))
            {
                assertEquals(fresh.nonce(), opened.nonce());
            }
        }
    }

    @Test
    void shouldRecordTheOwnersProcessIdentityInTheSegmentHeader() throws Exception
    {
        final RegionDirectory directory = RegionDirectory.open(domains.root.dir(), false);
        final long pid = ProcessHandle.current().pid();
        try (SegmentFile segment = SegmentFile.create(directory, "owner", pid, 43, 4096, false))
        {
            assertEquals(ProcessIdentity.self(), segment.buffer().getLong(SegmentDescriptor.OWNER_IDENTITY_OFFSET));
            assertEquals(ProcessIdentity.self(), SegmentFile.recordedOwner(segment.path(), pid));
            assertEquals(ProcessIdentity.of(pid + 1, 0), SegmentFile.recordedOwner(segment.path(), pid + 1),
                "a header that does not agree with the name's pid is judged by the name's pid alone");
        }
    }

    @Test
    void shouldRefuseASegmentWhoseOwnerIdentityIsNotItsOwnerPids() throws Exception
    {
        final RegionDirectory directory = RegionDirectory.open(domains.root.dir(), false);
        final long pid = ProcessHandle.current().pid();
        try (SegmentFile segment = SegmentFile.create(directory, "damaged", pid, 44, 4096, false))
        {
            segment.buffer().putLong(SegmentDescriptor.OWNER_IDENTITY_OFFSET, ProcessIdentity.of(pid + 1, 7));

            final FabricException ex = assertThrows(FabricException.class,
                () -> SegmentFile.open(directory, "damaged", pid, 44, segment.nonce()));
            assertEquals(Errno.FI_EINVAL, ex.errno());
            assertTrue(ex.getMessage().contains("owner identity"), ex.getMessage());
            assertEquals(ProcessIdentity.of(pid, 0), SegmentFile.recordedOwner(segment.path(), pid));
        }
    }

    @Test
    void shouldTellTheOwnerPidAndDomainFromASegmentName()
    {
        assertEquals(12, SegmentDescriptor.ownerPidOf("d.seg.12.34"));
        assertEquals("d", SegmentDescriptor.domainOf("d.seg.12.34"));
        assertEquals(99, SegmentDescriptor.ownerPidOf("a.seg.1.2.seg.99.7"));
        assertEquals("a.seg.1.2", SegmentDescriptor.domainOf("a.seg.1.2.seg.99.7"));
        for (final String other : new String[] {"d.domain", "seg.1.2", ".seg.1.2", "d.seg..2", "d.seg.1.", "d.seg.1.2x"})
        {
            assertEquals(-1, SegmentDescriptor.ownerPidOf(other), other);
        }
    }
}
