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
package io.jfabric.shm.stat;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.SpscLaneDescriptor;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RegionImage} and {@link DomainStat#read} refuse a region file that is truncated, foreign, of another layout,
 * damaged or not ready, naming the field, its value and what was expected, and never fail over slots that change
 * while they are read.
 */
class RegionImageTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(2, 4096, 4096, 4096, 4, 4);

    private final ShmTestRoot root = new ShmTestRoot();
    private Path file;

    @BeforeEach
    void createRegion()
    {
        RegionFile.openOrCreate(root.dir(), "damaged", GEOMETRY, false).close();
        file = RegionFile.regionPath(root.dir(), "damaged");
    }

    @AfterEach
    void removeRoot()
    {
        root.close();
    }

    @Test
    void shouldReadAnIdleRegionWithNoSlotsInUse()
    {
        final DomainStat stat = DomainStat.read(file);

        assertEquals("damaged", stat.domainName());
        assertEquals(RegionSizes.of(GEOMETRY), stat.geometry());
        assertTrue(stat.slots().isEmpty() && stat.users().isEmpty(), stat::toString);
    }

    @Test
    void shouldRefuseAFileTruncatedInsideItsHeader() throws IOException
    {
        truncate(100);

        assertRefused(Errno.FI_EINVAL, "domain region " + file + " is truncated: 100 bytes, shorter than its 4096 " +
            "byte header");
    }

    @Test
    void shouldRefuseAFileTruncatedAfterItsHeader() throws IOException
    {
        truncate(2 * RegionDescriptor.PAGE_LENGTH);

        assertRefused(Errno.FI_EINVAL, "is truncated: 8192 bytes but its header says " +
            RegionDescriptor.regionLength(GEOMETRY));
    }

    @Test
    void shouldRefuseAFlippedMagicAsAForeignFile() throws IOException
    {
        putLong(RegionDescriptor.MAGIC_OFFSET, RegionDescriptor.MAGIC ^ 0x100);

        assertRefused(Errno.FI_EINVAL, "is not a jfabric domain region: magic 0x" +
            Long.toHexString(RegionDescriptor.MAGIC ^ 0x100) + ", expected 0x" + Long.toHexString(RegionDescriptor.MAGIC));
    }

    @Test
    void shouldRefuseAnotherLayoutVersion() throws IOException
    {
        final int previous = RegionDescriptor.LAYOUT_VERSION - 1; // lanes were Agrona rings: read, it would mislead
        putInt(RegionDescriptor.LAYOUT_VERSION_OFFSET, previous);

        assertRefused(Errno.FI_EINVAL, "has domain region layout version " + previous +
            " but this jfabric reads layout version " + RegionDescriptor.LAYOUT_VERSION);
    }

    @Test
    void shouldRefuseAHeaderWhoseChecksumDoesNotMatch() throws IOException
    {
        putLong(RegionDescriptor.CREATION_TIME_OFFSET, 42);

        final FabricException ex = assertRefused(Errno.FI_ECRC, "is damaged: header checksum 0x");
        assertTrue(ex.getMessage().contains("but its fields sum to 0x"), ex.getMessage());
    }

    @Test
    void shouldRefuseARegionNeverMarkedReady() throws IOException
    {
        putInt(RegionDescriptor.READY_OFFSET, 0);

        assertRefused(Errno.FI_EINVAL, "is not marked ready: its ready field (offset 512) holds 0x0, expected 0x1");
    }

    @Test
    void shouldRefuseAMissingFileAndADirectory() throws IOException
    {
        assertEquals(Errno.FI_ENOENT, assertThrows(FabricException.class,
            () -> DomainStat.read(root.dir().resolve("none.domain"))).errno());
        final Path directory = Files.createDirectory(root.dir().resolve("dir.domain"));
        final FabricException ex = assertThrows(FabricException.class, () -> DomainStat.read(directory));
        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains(directory + " is not a regular file"), ex.getMessage());
    }

    @Test
    void shouldNeverFailWhileSlotsChangeUnderIt() throws Exception
    {
        try (RegionFile region = RegionFile.openOrCreate(root.dir(), "damaged", GEOMETRY, false);
            RegionImage image = RegionImage.open(file))
        {
            final AtomicBoolean running = new AtomicBoolean(true);
            final Thread scribbler = new Thread(() -> scribble(region.buffer(), running));
            scribbler.start();
            try
            {
                for (int i = 0; i < 300; i++)
                {
                    final DomainStat stat = DomainStat.sample(image);
                    for (final SlotStat slot : stat.slots())
                    {
                        assertTrue(slot.transmitRing().occupancy() >= 0 && slot.stateName() != null);
                        slot.lanes().forEach(lane -> assertTrue(lane.occupancy() <= lane.capacity()));
                    }
                }
            }
            finally
            {
                running.set(false);
                scribbler.join();
            }
        }
    }

    /** Writes what endpoints write, and garbage, into both slots until stopped. */
    private static void scribble(final AtomicBuffer region, final AtomicBoolean running)
    {
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        final long[] owners = {0, ProcessIdentity.self(), ProcessIdentity.of(ProcessIdentity.PID_MASK, 5)};
        while (running.get())
        {
            final int slot = random.nextInt(GEOMETRY.slotCount());
            region.putLongVolatile(SlotDescriptor.ownerOffset(GEOMETRY, slot), owners[random.nextInt(owners.length)]);
            region.putIntVolatile(SlotDescriptor.stateOffset(GEOMETRY, slot), random.nextInt(-1, 4));
            region.putIntVolatile(SlotDescriptor.incarnationOffset(GEOMETRY, slot), random.nextInt());
            region.putLongVolatile(SlotDescriptor.laneOwnerOffset(GEOMETRY, slot, random.nextInt(2)),
                random.nextLong());
            final int trailer = RegionDescriptor.txRingOffset(GEOMETRY, slot) + GEOMETRY.txRingBytes();
            region.putLongVolatile(trailer + RingBufferDescriptor.TAIL_POSITION_OFFSET, random.nextLong());
            region.putLongVolatile(trailer + RingBufferDescriptor.HEAD_POSITION_OFFSET, random.nextLong());
            final int lane = RegionDescriptor.laneOffset(GEOMETRY, slot, random.nextInt(GEOMETRY.slotCount()));
            region.putLongVolatile(lane + SpscLaneDescriptor.producerPositionOffset(GEOMETRY.rxRingBytes()),
                random.nextLong());
            region.putLongVolatile(lane + SpscLaneDescriptor.consumerPositionOffset(GEOMETRY.rxRingBytes()),
                random.nextLong());
        }
    }

    private FabricException assertRefused(final int errno, final String message)
    {
        final FabricException ex = assertThrows(FabricException.class, () -> DomainStat.read(file));
        assertEquals(errno, ex.errno(), ex::getMessage);
        assertTrue(ex.getMessage().contains(message), () -> "expected \"" + message + "\" in: " + ex.getMessage());
        return ex;
    }

    private void truncate(final long length) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(length);
        }
    }

    private void putLong(final int offset, final long value) throws IOException
    {
        write(offset, ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, value));
    }

    private void putInt(final int offset, final int value) throws IOException
    {
        write(offset, ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, value));
    }

    private void write(final int offset, final ByteBuffer bytes) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.write(bytes, offset);
        }
    }
}
