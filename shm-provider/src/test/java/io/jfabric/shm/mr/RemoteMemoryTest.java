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

import io.jfabric.Counter;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.MrMode;
import io.jfabric.ShareableMemory;
import io.jfabric.shm.domain.ShmDomain;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.jfabric.Errno.*;
import static io.jfabric.Flags.*;
import static io.jfabric.shm.mr.MrTestDomains.assertErrno;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One-sided access through {@link RemoteMemory} between two domain objects of one process (the two-JVM case is in
 * {@link MrTwoJvmTest}): addressing, every refusal, and that nothing outside the region changes.
 */
class RemoteMemoryTest
{
    private static final byte GUARD = 0x5A;

    private final MrTestDomains domains = new MrTestDomains();

    @AfterEach
    void tearDown()
    {
        domains.close();
    }

    @Test
    void shouldReadAndWriteByOffsetAndRefuseEverythingOutsideTheRules()
    {
        final ShmDomain owner = domains.open("rm", 0);
        final ShmDomain peer = domains.open("rm", 0);
        try (ShareableMemory memory = owner.allocShareable(16384);
            RemoteMemory remote = peer.remoteMemory())
        {
            final UnsafeBuffer all = new UnsafeBuffer(memory.buffer());
            all.setMemory(0, 16384, GUARD);
            final MemoryRegion rw = owner.mrRegv(new MrIov[]{MrIov.of(memory, 4096, 1024)},
                FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 10, 0, 0);
            final MemoryRegion ro = owner.mrRegv(new MrIov[]{MrIov.of(memory, 8192, 512)}, FI_REMOTE_READ, 0, 11, 0, 0);
            final MemoryRegion wo = owner.mrRegv(new MrIov[]{MrIov.of(memory, 9000, 512)}, FI_REMOTE_WRITE, 0, 12, 0, 0);
            final MemoryRegion local = owner.mrReg(ByteBuffer.allocateDirect(64), FI_SEND, 0, 13, 0, 0);
            for (int i = 0; i < 1024; i++)
            {
                all.putByte(4096 + i, (byte)i);
            }

            final UnsafeBuffer dst = new UnsafeBuffer(new byte[2048]);
            assertEquals(0, remote.read(10, 0, dst, 0, 1024));
            for (int i = 0; i < 1024; i++)
            {
                assertEquals((byte)i, dst.getByte(i));
            }
            final UnsafeBuffer src = new UnsafeBuffer(new byte[1024]);
            src.setMemory(0, 1024, (byte)0xC3);
            assertEquals(0, remote.write(10, 0, src, 0, 1024));
            assertEquals(0, remote.write(10, 1020, src, 0, 4), "the last bytes");
            assertEquals(0, remote.read(10, 1024, dst, 0, 0), "an empty range at the end");

            assertEquals(-FI_EINVAL, remote.write(10, 1000, src, 0, 100), "past the end");
            assertEquals(-FI_EINVAL, remote.read(10, -1, dst, 0, 1), "before the start");
            assertEquals(-FI_EINVAL, remote.write(10, Long.MAX_VALUE, src, 0, 2), "overflowing");
            assertEquals(-FI_EINVAL, remote.read(10, 0, dst, 2000, 100), "past the local buffer");
            assertEquals(-FI_EACCES, remote.write(11, 0, src, 0, 8), "read-only region");
            assertEquals(-FI_EACCES, remote.read(12, 0, dst, 0, 8), "write-only region");
            assertEquals(0, remote.read(11, 0, dst, 0, 8));
            assertEquals(-FI_EACCES, remote.read(13, 0, dst, 0, 8), "local-only region");
            assertEquals(-FI_EKEYREJECTED, remote.read(999, 0, dst, 0, 8), "no such key");
            rw.close();
            assertEquals(-FI_EKEYREJECTED, remote.write(10, 0, src, 0, 8), "closed region");
            assertEquals(-FI_EKEYREJECTED, remote.read(10, 0, dst, 0, 8), "closed region");

            for (int i = 0; i < 16384; i++)
            {
                final byte expected = i >= 4096 && i < 5120 ? (byte)0xC3 : GUARD;
                assertEquals(expected, all.getByte(i), "byte " + i);
            }
            assertEquals(1, remote.mappedSegments());
            ro.close();
            wo.close();
            local.close();
        }
    }

    @Test
    void shouldAddressByTheOwnersNativeAddressWithVirtAddr()
    {
        final ShmDomain owner = domains.open("virt", MrMode.FI_MR_VIRT_ADDR);
        try (ShareableMemory memory = owner.allocShareable(4096);
            RemoteMemory remote = owner.remoteMemory();
            MemoryRegion mr = owner.mrRegv(new MrIov[]{MrIov.of(memory, 256, 256)}, FI_REMOTE_READ, 0, 5, 0, 0))
        {
            memory.buffer().put(256 + 7, (byte)99);
            final UnsafeBuffer dst = new UnsafeBuffer(new byte[1]);
            assertEquals(0, remote.read(5, mr.baseAddress() + 7, dst, 0, 1));
            assertEquals(99, dst.getByte(0));
            assertEquals(-FI_EINVAL, remote.read(5, 7, dst, 0, 1), "a 0-based offset is not an address");
        }
    }

    @Test
    void shouldCountRemoteWritesOnTheBoundCounterOnly()
    {
        final ShmDomain owner = domains.open("count", 0);
        try (ShareableMemory memory = owner.allocShareable(4096);
            Counter counter = owner.cntrOpen(null, 0);
            RemoteMemory remote = owner.remoteMemory();
            MemoryRegion mr = owner.mrRegv(new MrIov[]{MrIov.of(memory, 0, 4096)},
                FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 6, 0, 0))
        {
            mr.bind(counter, FI_REMOTE_WRITE);
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
            for (int i = 0; i < 10; i++)
            {
                assertEquals(0, remote.write(6, i * 64L, buffer, 0, 64));
                assertEquals(0, remote.read(6, 0, buffer, 0, 64));
            }
            assertEquals(-FI_EINVAL, remote.write(6, 4090, buffer, 0, 64));
            assertEquals(10, counter.read(), "ten writes; reads and refused writes count nothing");
            assertErrno(FI_EBUSY, counter::close);
        }
    }

    @Test
    void shouldKeepTheDomainOpenUntilTheViewIsClosedAndFailWithEbadfAfter()
    {
        final ShmDomain domain = domains.open("view", 0);
        final RemoteMemory remote = domain.remoteMemory();
        assertErrno(FI_EBUSY, domain::close);
        remote.close();
        assertEquals(-FI_EBADF, remote.read(1, 0, new UnsafeBuffer(new byte[1]), 0, 1));
        domain.close();
    }

    @Test
    void shouldKeepThePeersMappingValidAfterTheOwnerFreesTheMemory() throws Exception
    {
        final ShmDomain owner = domains.open("free", 0);
        final ShmDomain peer = domains.open("free", 0);
        final ShareableMemory memory = owner.allocShareable(8192);
        final java.nio.file.Path file;
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(domains.root.dir()))
        {
            file = files.filter(p -> p.getFileName().toString().startsWith("free.seg." +
                ProcessHandle.current().pid() + ".")).findFirst().orElseThrow();
        }
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
            java.nio.file.Files.getPosixFilePermissions(file)));
        final MemoryRegion mr = owner.mrRegv(new MrIov[]{MrIov.of(memory, 0, 8192)}, FI_REMOTE_READ, 0, 21, 0, 0);
        try (RemoteMemory remote = peer.remoteMemory())
        {
            final UnsafeBuffer dst = new UnsafeBuffer(new byte[8192]);
            assertEquals(0, remote.read(21, 0, dst, 0, 8192));
            mr.close();
            memory.close();
            assertEquals(false, java.nio.file.Files.exists(file), "freeing deletes the segment file");
            assertEquals(-FI_EKEYREJECTED, remote.read(21, 0, dst, 0, 8192));
            assertEquals(0, remote.mappedSegments(), "a rejected key's segment is unmapped, not pinned");
        }
        assertErrno(FI_EINVAL, () -> owner.allocShareable(0));
        assertErrno(FI_EINVAL, () -> owner.allocShareable(-5));
    }

    @Test
    void shouldRefuseASegmentFileThatFailsValidationWithoutMappingIt() throws Exception
    {
        final ShmDomain owner = domains.open("bad", 0);
        final ShmDomain peer = domains.open("bad", 0);
        try (ShareableMemory memory = owner.allocShareable(4096);
            MemoryRegion mr = owner.mrRegv(new MrIov[]{MrIov.of(memory, 0, 4096)}, FI_REMOTE_READ, 0, 8, 0, 0);
            RemoteMemory remote = peer.remoteMemory())
        {
            final java.nio.file.Path file;
            try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(domains.root.dir()))
            {
                file = files.filter(p -> p.getFileName().toString().startsWith("bad.seg.")).findFirst().orElseThrow();
            }
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.WRITE))
            {
                channel.write(ByteBuffer.wrap(new byte[]{1, 2, 3, 4, 5, 6, 7, 8}), SegmentDescriptor.MAGIC_OFFSET);
            }
            final UnsafeBuffer dst = new UnsafeBuffer(new byte[16]);
            assertEquals(-FI_EINVAL, remote.read(8, 0, dst, 0, 16), "foreign magic");
            assertEquals(0, remote.mappedSegments(), "nothing mapped");
        }
    }

    @Test
    void shouldNotPinTheSegmentsOfClosedRegionsAndKeepAtMostTheCacheCapacityMapped() throws Exception
    {
        final ShmDomain owner = domains.open("pin", 0);
        final ShmDomain peer = domains.open("pin", 0);
        final UnsafeBuffer dst = new UnsafeBuffer(new byte[64]);
        try (RemoteMemory remote = peer.remoteMemory())
        {
            for (int i = 0; i < 50; i++)
            {
                try (ShareableMemory memory = owner.allocShareable(4096);
                    MemoryRegion mr = owner.mrRegv(new MrIov[]{MrIov.of(memory, 0, 4096)}, FI_REMOTE_READ, 0, 30, 0, 0))
                {
                    assertEquals(0, remote.read(30, 0, dst, 0, 64));
                    assertEquals(1, remote.mappedSegments(), "cycle " + i + ": the same key's old segment is dropped");
                }
            }
            assertEquals(-FI_EKEYREJECTED, remote.read(30, 0, dst, 0, 64));
            assertEquals(0, remote.mappedSegments());

            for (int i = 0; i < 50; i++)
            {
                try (ShareableMemory memory = owner.allocShareable(4096);
                    MemoryRegion mr = owner.mrRegv(new MrIov[]{MrIov.of(memory, 0, 4096)}, FI_REMOTE_READ, 0, 100 + i,
                        0, 0))
                {
                    assertEquals(0, remote.read(100 + i, 0, dst, 0, 64));
                    assertEquals(1, remote.mappedSegments(), "cycle " + i + ": segments of withdrawn keys are dropped");
                }
            }

            final List<ShareableMemory> live = new ArrayList<>();
            final List<MemoryRegion> regions = new ArrayList<>();
            for (int i = 0; i < SegmentCache.CAPACITY + 8; i++)
            {
                final ShareableMemory memory = owner.allocShareable(4096);
                live.add(memory);
                regions.add(owner.mrRegv(new MrIov[]{MrIov.of(memory, 0, 4096)}, FI_REMOTE_READ, 0, 1000 + i, 0, 0));
                assertEquals(0, remote.read(1000 + i, 0, dst, 0, 64));
                assertTrue(remote.mappedSegments() <= SegmentCache.CAPACITY, "bounded: " + remote.mappedSegments());
            }
            assertEquals(SegmentCache.CAPACITY, remote.mappedSegments());
            assertEquals(0, remote.read(1000, 0, dst, 0, 64), "an evicted segment is mapped again on demand");
            for (final MemoryRegion mr : regions)
            {
                mr.close();
            }
            for (final ShareableMemory memory : live)
            {
                memory.close();
            }
        }
    }

    @Test
    void shouldCountEverySuccessfulWriteExactlyOnceWhileTheOwnerReRegistersTheKey() throws Exception
    {
        final ShmDomain owner = domains.open("race", MrMode.FI_MR_RMA_EVENT);
        final ShmDomain peer = domains.open("race", MrMode.FI_MR_RMA_EVENT);
        final int cycles = 150_000;
        try (ShareableMemory memory = owner.allocShareable(4096);
            Counter c1 = owner.cntrOpen(null, 0);
            Counter c2 = owner.cntrOpen(null, 0);
            RemoteMemory remote = peer.remoteMemory())
        {
            final AtomicBoolean done = new AtomicBoolean();
            final AtomicLong succeeded = new AtomicLong();
            final AtomicLong rejected = new AtomicLong();
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread writer = new Thread(() ->
            {
                final UnsafeBuffer src = new UnsafeBuffer(new byte[8]);
                long ok = 0;
                long refused = 0;
                try
                {
                    while (!done.get())
                    {
                        final int result = remote.write(40, 0, src, 0, 8);
                        if (result == 0)
                        {
                            succeeded.lazySet(++ok);
                        }
                        else if (result == -FI_EKEYREJECTED)
                        {
                            rejected.lazySet(++refused);
                        }
                        else
                        {
                            throw new AssertionError("write returned " + result);
                        }
                    }
                }
                catch (final Throwable t)
                {
                    failure.set(t);
                }
            });
            writer.start();
            try
            {
                // At least `cycles` cycles, and on until the writer has seen both outcomes (bounded), so the race
                // is exercised however the two threads are scheduled; the enabled window varies in length.
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                for (int i = 0; i < cycles || (succeeded.get() == 0 || rejected.get() == 0) &&
                    System.nanoTime() - deadline < 0; i++)
                {
                    final MemoryRegion mr = owner.mrRegv(new MrIov[]{MrIov.of(memory, 0, 4096)}, FI_REMOTE_WRITE, 0,
                        40, FI_RMA_EVENT, 0);
                    mr.bind((i & 1) == 0 ? c1 : c2, FI_REMOTE_WRITE);
                    mr.enable();
                    for (int spin = (i & 7) * 64; spin > 0; spin--)
                    {
                        Thread.onSpinWait();
                    }
                    mr.close();
                }
            }
            finally
            {
                done.set(true);
                writer.join();
            }
            assertEquals(null, failure.get());
            assertTrue(succeeded.get() > 0 && rejected.get() > 0,
                "the race happened: " + succeeded.get() + " succeeded, " + rejected.get() + " refused");
            assertEquals(succeeded.get(), c1.read() + c2.read(), "every successful write counted exactly once");
        }
    }

    @Test
    void shouldRefuseAnEntryNamingNoSegmentWithEaccesWhateverItsAccessBitsAndRange()
    {
        final ShmDomain owner = domains.open("nosegment", 0);
        final MrTable table = new MrTable(owner.region().buffer(), owner.region().geometry());
        final AtomicBuffer region = owner.region().buffer();
        try (RemoteMemory remote = owner.remoteMemory();
            MemoryRegion mr = owner.mrReg(ByteBuffer.allocateDirect(64), FI_READ | FI_WRITE, 0, 14, 0, 0))
        {
            final int entry = MrTableDescriptor.entryOffset(owner.region().geometry(), table.find(14));
            region.putInt(entry + MrTableDescriptor.ACCESS_OFFSET, (int)(FI_REMOTE_READ | FI_REMOTE_WRITE));
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
            assertEquals(-FI_EACCES, remote.read(14, 0, buffer, 0, 8));
            assertEquals(-FI_EACCES, remote.write(14, 0, buffer, 0, 8));
            assertEquals(-FI_EACCES, remote.read(14, 1 << 20, buffer, 0, 8), "before the range is looked at");
        }
    }

    @Test
    void shouldRefuseADamagedEntryWithEioWithoutThrowingOrTouchingMemoryOutsideTheSegment()
    {
        final ShmDomain owner = domains.open("damaged", 0);
        final MrTable table = new MrTable(owner.region().buffer(), owner.region().geometry());
        final AtomicBuffer region = owner.region().buffer();
        try (ShareableMemory memory = owner.allocShareable(8192);
            RemoteMemory remote = owner.remoteMemory();
            MemoryRegion mr = owner.mrRegv(new MrIov[]{MrIov.of(memory, 4096, 1024)},
                FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 50, 0, 0))
        {
            final UnsafeBuffer all = new UnsafeBuffer(memory.buffer());
            all.setMemory(0, 8192, GUARD);
            final UnsafeBuffer src = new UnsafeBuffer(new byte[16]);
            src.setMemory(0, 16, (byte)0xC3);
            final UnsafeBuffer dst = new UnsafeBuffer(new byte[16]);
            final int entry = MrTableDescriptor.entryOffset(owner.region().geometry(), table.find(50));
            assertEquals(0, remote.write(50, 0, src, 0, 16));
            all.setMemory(4096, 16, GUARD);

            final int[][] damage = {
                {MrTableDescriptor.SEGMENT_OFFSET_OFFSET, -4096},
                {MrTableDescriptor.SEGMENT_OFFSET_OFFSET, 8192},
                {MrTableDescriptor.SEGMENT_OFFSET_OFFSET, Integer.MAX_VALUE - 100},
                {MrTableDescriptor.SEGMENT_OFFSET_OFFSET, Integer.MIN_VALUE},
                {MrTableDescriptor.LENGTH_OFFSET, Integer.MAX_VALUE},
                {MrTableDescriptor.LENGTH_OFFSET, -1},
                {MrTableDescriptor.LENGTH_OFFSET, 1 << 20},
            };
            for (final int[] d : damage)
            {
                final int field = entry + d[0];
                final int saved = region.getInt(field);
                region.putInt(field, d[1]);
                final String what = "field " + d[0] + " = " + d[1];
                assertEquals(-FI_EIO, remote.write(50, 0, src, 0, 16), what);
                assertEquals(-FI_EIO, remote.read(50, 0, dst, 0, 16), what);
                region.putInt(field, saved);
            }
            for (final int counter : new int[]{-1, Integer.MAX_VALUE, owner.counterTable().entries() + 1})
            {
                region.putInt(entry + MrTableDescriptor.COUNTER_OFFSET, counter);
                assertEquals(-FI_EIO, remote.write(50, 0, src, 0, 16), "counter " + counter);
            }
            region.putInt(entry + MrTableDescriptor.COUNTER_OFFSET, 0);
            for (int i = 0; i < 8192; i++)
            {
                assertEquals(GUARD, all.getByte(i), "byte " + i);
            }
            assertEquals(0, remote.read(50, 0, dst, 0, 16), "repaired");
        }
    }
}
