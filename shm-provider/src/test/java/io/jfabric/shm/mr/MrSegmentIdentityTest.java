package io.jfabric.shm.mr;

import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.ShareableMemory;
import io.jfabric.shm.ShmDomain;
import io.jfabric.shm.region.RegionDirectory;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.jfabric.Flags.FI_REMOTE_READ;
import static io.jfabric.Flags.FI_REMOTE_WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
            final UnsafeBuffer dst = new UnsafeBuffer(new byte[64]);
            final UnsafeBuffer src = new UnsafeBuffer(new byte[64]);
            src.setMemory(0, 64, (byte)0x77);
            final ShareableMemory m1 = d1.allocShareable(4096);
            final MemoryRegion mr1 = d1.mrRegv(new MrIov[]{MrIov.of(m1, 0, 4096)}, FI_REMOTE_READ | FI_REMOTE_WRITE,
                0, 60, 0, 0);
            assertEquals(0, remote.read(60, 0, dst, 0, 64));
            mr1.close();
            m1.close();
            try (ShareableMemory m2 = d2.allocShareable(4096);
                MemoryRegion mr2 = d2.mrRegv(new MrIov[]{MrIov.of(m2, 0, 4096)}, FI_REMOTE_READ | FI_REMOTE_WRITE,
                    0, 61, 0, 0))
            {
                assertEquals(0, remote.write(61, 0, src, 0, 64));
                assertEquals(0x77, new UnsafeBuffer(m2.buffer()).getByte(0));
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
            final UnsafeBuffer dst = new UnsafeBuffer(new byte[64]);
            final UnsafeBuffer src = new UnsafeBuffer(new byte[64]);
            src.setMemory(0, 64, (byte)0x5A);
            final ShmShareableMemory m1 = (ShmShareableMemory)owner.allocShareable(4096);
            final long reusedId = m1.segment().segmentId();
            final MemoryRegion mr1 = owner.mrRegv(new MrIov[]{MrIov.of(m1, 0, 4096)},
                FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 80, 0, 0);
            assertEquals(0, remote.read(80, 0, dst, 0, 64)); // the peer maps and caches the segment
            mr1.close();
            m1.close();                                       // its file is deleted; the peer's mapping stays

            // A new segment under the same owner and id, as a restarted sequence would make it.
            final SegmentFile file = SegmentFile.create(RegionDirectory.open(domains.root.dir(), false), "nonce",
                ProcessHandle.current().pid(), reusedId, 4096, false);
            owner.retain("test");
            try (ShmShareableMemory m2 = new ShmShareableMemory(owner, file);
                MemoryRegion mr2 = owner.mrRegv(new MrIov[]{MrIov.of(m2, 0, 4096)},
                    FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 81, 0, 0))
            {
                assertEquals(0, remote.write(81, 0, src, 0, 64));
                assertEquals(0x5A, new UnsafeBuffer(m2.buffer()).getByte(63), "the write went to the old mapping");
                assertEquals(1, remote.mappedSegments());
            }
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
}
