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
package io.jfabric.shm.region;

import io.jfabric.shm.ShmTestRoot;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegionFileTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(2, 4096, 4096, 8192, 16, 8);
    private static final String NAME = "test-domain";

    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void after()
    {
        root.close();
    }

    @Test
    void shouldCreateThenReopenWithSameGeometry()
    {
        final long selfPid = ProcessHandle.current().pid();
        try (RegionFile first = open(GEOMETRY))
        {
            assertTrue(first.created());
            assertEquals(root.dir().resolve("test-domain.domain"), first.path());
            assertEquals(GEOMETRY, first.geometry());
            assertEquals(selfPid, first.creatorPid());
            assertEquals(RegionDescriptor.regionLength(GEOMETRY), first.buffer().capacity());
            assertEquals(1, first.attachCount());

            try (RegionFile second = open(new RegionGeometry(2, 4096, 4096, 8192, 16, 8)))
            {
                assertFalse(second.created());
                assertEquals(GEOMETRY, second.geometry());
                assertEquals(selfPid, second.creatorPid());
                assertEquals(first.creatorStartTime(), second.creatorStartTime());
                assertEquals(first.creationTime(), second.creationTime());
                assertEquals(2, first.attachCount());
                assertEquals(2, second.attachCount());

                first.buffer().putLongVolatile(RegionDescriptor.counterEntryOffset(GEOMETRY, 7), 42);
                assertEquals(42, second.buffer().getLongVolatile(RegionDescriptor.counterEntryOffset(GEOMETRY, 7)));
            }
        }
        try (RegionFile third = open(GEOMETRY))
        {
            assertFalse(third.created());
            assertEquals(3, third.attachCount());
        }
    }

    @Test
    void shouldRecordCreatorStartTimeFromProcessHandle()
    {
        final long expected = ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();
        try (RegionFile region = open(GEOMETRY))
        {
            assertEquals(expected, region.creatorStartTime());
            assertTrue(region.creationTime() >= expected);
        }
    }

    @Test
    void shouldLeaveOnlyTheRegionFileWithOwnerOnlyPermissions() throws IOException
    {
        open(GEOMETRY).close();

        assertEquals(List.of("test-domain.domain"), listNames());
        assertEquals("rw-------", permissions(root.dir().resolve("test-domain.domain")));
        assertEquals("rwx------", permissions(root.dir()));
    }

    @Test
    void shouldCreateGroupAccessibleFilesWhenAsked() throws IOException
    {
        RegionFile.openOrCreate(root.dir(), NAME, GEOMETRY, true).close();

        assertEquals("rw-rw----", permissions(root.dir().resolve("test-domain.domain")));
        assertEquals("rwxrwx---", permissions(root.dir()));
    }

    @Test
    void shouldRefuseIncompatibleGeometryNamingBoth()
    {
        open(GEOMETRY).close();
        final RegionGeometry other = new RegionGeometry(4, 4096, 4096, 4096, 16, 8);

        final FabricException ex = assertThrows(FabricException.class, () -> open(other));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertMessageContains(ex, "test-domain.domain", "another geometry", "slotCount 2 vs 4",
            "cqRingBytes 8192 vs 4096", GEOMETRY.toString(), other.toString());
    }

    @Test
    void shouldRefuseWrongMagic() throws IOException
    {
        open(GEOMETRY).close();
        patchLong(RegionDescriptor.MAGIC_OFFSET, 0x1234_5678L);

        final FabricException ex = assertThrows(FabricException.class, () -> open(GEOMETRY));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertMessageContains(ex, "test-domain.domain", "is not a jfabric domain region", "magic 0x12345678");
    }

    @Test
    void shouldRefuseOtherLayoutVersionNamingBoth() throws IOException
    {
        open(GEOMETRY).close();
        final int other = RegionDescriptor.LAYOUT_VERSION + 1;
        patchInt(RegionDescriptor.LAYOUT_VERSION_OFFSET, other);

        final FabricException ex = assertThrows(FabricException.class, () -> open(GEOMETRY));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertMessageContains(ex, "test-domain.domain", "layout version " + other,
            "reads layout version " + RegionDescriptor.LAYOUT_VERSION);
    }

    @Test
    void shouldRefuseDamagedGeometryByChecksum() throws IOException
    {
        open(GEOMETRY).close();
        patchInt(RegionDescriptor.SLOT_COUNT_OFFSET, 3);

        final FabricException ex = assertThrows(FabricException.class, () -> open(GEOMETRY));

        assertEquals(Errno.FI_ECRC, ex.errno());
        assertMessageContains(ex, "test-domain.domain", "is damaged", "checksum");
    }

    @Test
    void shouldRefuseDamagedNameByChecksum() throws IOException
    {
        open(GEOMETRY).close();
        patchInt(RegionDescriptor.NAME_OFFSET, 0x41414141);

        assertEquals(Errno.FI_ECRC, assertThrows(FabricException.class, () -> open(GEOMETRY)).errno());
    }

    @Test
    void shouldRefuseTruncatedRegionFile() throws IOException
    {
        open(GEOMETRY).close();
        final long full = RegionDescriptor.regionLength(GEOMETRY);
        truncate(full - RegionDescriptor.PAGE_LENGTH);

        final FabricException ex = assertThrows(FabricException.class, () -> open(GEOMETRY));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertMessageContains(ex, "test-domain.domain", "truncated",
            (full - RegionDescriptor.PAGE_LENGTH) + " bytes but its header says " + full);
    }

    @Test
    void shouldRefuseRegionFileTruncatedInsideItsHeader() throws IOException
    {
        open(GEOMETRY).close();
        truncate(100);

        final FabricException ex = assertThrows(FabricException.class, () -> open(GEOMETRY));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertMessageContains(ex, "test-domain.domain", "truncated: 100 bytes", "4096 byte header");
    }

    @Test
    void shouldRefuseRegionFileLongerThanItsHeaderSays() throws IOException
    {
        open(GEOMETRY).close();
        truncate(0);
        try (RandomAccessFile file = new RandomAccessFile(regionPath().toFile(), "rw"))
        {
            file.setLength(RegionDescriptor.regionLength(GEOMETRY) + RegionDescriptor.PAGE_LENGTH);
        }
        writeHeader(true);

        final FabricException ex = assertThrows(FabricException.class, () -> open(GEOMETRY));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertMessageContains(ex, "is damaged", "but its header says " + RegionDescriptor.regionLength(GEOMETRY));
    }

    @Test
    void shouldRefuseZeroLengthFile() throws IOException
    {
        Files.createDirectories(root.dir());
        Files.createFile(regionPath());

        final FabricException ex = assertThrows(FabricException.class, () -> open(GEOMETRY));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertMessageContains(ex, "test-domain.domain", "is empty: 0 bytes");
    }

    @Test
    void shouldRefuseFileThatIsNotARegion() throws IOException
    {
        Files.createDirectories(root.dir());
        final byte[] text = "this is a text file that happens to carry a domain name\n".repeat(200)
            .getBytes(StandardCharsets.US_ASCII);
        Files.write(regionPath(), text);

        final long start = System.nanoTime();
        final FabricException ex = assertThrows(FabricException.class, () -> open(GEOMETRY));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertMessageContains(ex, "test-domain.domain", "is not a jfabric domain region");
        assertTrue(System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(RegionFile.DEFAULT_READY_TIMEOUT_MS),
            "a foreign file is refused at once, without waiting for ready");
    }

    @Test
    void shouldRefuseDirectoryInPlaceOfTheRegion() throws IOException
    {
        Files.createDirectories(regionPath());

        final FabricException ex = assertThrows(FabricException.class, () -> open(GEOMETRY));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertMessageContains(ex, "test-domain.domain", "not a regular file");
    }

    @Test
    void shouldTimeOutWhenReadyFlagIsNeverSet() throws IOException
    {
        createUnpublishedRegion();

        final long start = System.nanoTime();
        final FabricException ex = assertThrows(
            FabricException.class, () -> RegionFile.openOrCreate(root.dir(), NAME, GEOMETRY, false, 50));
        final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertEquals(Errno.FI_ETIMEDOUT, ex.errno());
        assertMessageContains(ex, "test-domain.domain", "was not marked ready within 50 ms");
        assertTrue(elapsedMs >= 50, "waited " + elapsedMs + " ms");
    }

    @Test
    void shouldOpenOnceReadyFlagIsSetWhileWaiting() throws Exception
    {
        createUnpublishedRegion();
        final ExecutorService executor = Executors.newSingleThreadExecutor();
        try
        {
            final Future<?> publisher = executor.submit(() ->
            {
                TimeUnit.MILLISECONDS.sleep(30);
                writeHeader(true);
                return null;
            });

            try (RegionFile region = RegionFile.openOrCreate(root.dir(), NAME, GEOMETRY, false, 5_000))
            {
                assertFalse(region.created());
                assertEquals(GEOMETRY, region.geometry());
            }
            publisher.get();
        }
        finally
        {
            executor.shutdownNow();
        }
    }

    @Test
    void shouldNotMapTheRegionUntilItsHeaderIsValidated() throws Exception
    {
        createUnpublishedRegion();
        final ExecutorService executor = Executors.newSingleThreadExecutor();
        try
        {
            final Future<RegionFile> opener = executor.submit(
                () -> RegionFile.openOrCreate(root.dir(), NAME, GEOMETRY, false, 10_000));
            TimeUnit.MILLISECONDS.sleep(100);

            assertFalse(opener.isDone(), "the opener waits for the ready flag");
            assertFalse(isMapped(regionPath()), "nothing of the file is mapped while its header is being validated");

            writeHeader(true);
            try (RegionFile region = opener.get(10, TimeUnit.SECONDS))
            {
                assertEquals(GEOMETRY, region.geometry());
                assertTrue(isMapped(regionPath()), "mapped once valid");
            }
        }
        finally
        {
            executor.shutdownNow();
        }
    }

    @Test
    void shouldRefuseRegionTruncatedWhileWaitingForItsReadyFlag() throws Exception
    {
        createUnpublishedRegion();
        final ExecutorService executor = Executors.newSingleThreadExecutor();
        try
        {
            final long start = System.nanoTime();
            final Future<RegionFile> opener = executor.submit(
                () -> RegionFile.openOrCreate(root.dir(), NAME, GEOMETRY, false, 10_000));
            TimeUnit.MILLISECONDS.sleep(100);
            assertFalse(opener.isDone(), "the opener waits for the ready flag");

            truncate(0); // Through a mapping, the header page would now raise SIGBUS.

            final ExecutionException failure = assertThrows(
                ExecutionException.class, () -> opener.get(10, TimeUnit.SECONDS));
            final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            final FabricException ex = assertInstanceOf(FabricException.class, failure.getCause(),
                "a truncation during validation is an error, not a fault in a mapping");
            assertEquals(Errno.FI_EINVAL, ex.errno());
            assertMessageContains(ex, "test-domain.domain", "is empty: 0 bytes");
            assertTrue(elapsedMs < 5_000, "refused when seen, not at the timeout: " + elapsedMs + " ms");
        }
        finally
        {
            executor.shutdownNow();
        }
    }

    @Test
    void shouldRefuseRegionRecordedForAnotherDomainName() throws IOException
    {
        RegionFile.openOrCreate(root.dir(), "other", GEOMETRY, false).close();
        Files.move(root.dir().resolve("other.domain"), regionPath());

        final FabricException ex = assertThrows(FabricException.class, () -> open(GEOMETRY));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertMessageContains(ex, "belongs to domain \"other\", not \"test-domain\"");
    }

    @Test
    void shouldRefuseBadDomainNames()
    {
        assertBadName(null, "must not be null");
        assertBadName("", "must not be empty");
        assertBadName("a/b", "'/' at index 1");
        assertBadName("..", "'.' at index 0");
        assertBadName(".hidden", "'.' at index 0");
        assertBadName("-flag", "'-' at index 0");
        assertBadName("a b", "' ' at index 1");
        assertBadName("nul\0", "character U+0000 at index 3");
        assertBadName("caf\u00e9", "character U+00E9 at index 3");
        assertBadName("x".repeat(RegionFile.MAX_NAME_LENGTH + 1), "longer than " + RegionFile.MAX_NAME_LENGTH);
        assertFalse(Files.exists(root.dir()), "nothing is created for a bad name");
    }

    @Test
    void shouldAcceptLongestAllowedName()
    {
        final String name = "d".repeat(RegionFile.MAX_NAME_LENGTH - 2) + ".1";
        try (RegionFile region = RegionFile.openOrCreate(root.dir(), name, GEOMETRY, false))
        {
            assertTrue(region.created());
        }
        try (RegionFile region = RegionFile.openOrCreate(root.dir(), name, GEOMETRY, false))
        {
            assertFalse(region.created());
        }
    }

    @Test
    void shouldLetExactlyOneOfRacingThreadsCreate() throws Exception
    {
        final int threads = 8;
        final CyclicBarrier start = new CyclicBarrier(threads);
        final ExecutorService executor = Executors.newFixedThreadPool(threads);
        final List<Future<RegionFile>> futures = new ArrayList<>();
        final List<RegionFile> regions = new ArrayList<>();
        try
        {
            for (int i = 0; i < threads; i++)
            {
                futures.add(executor.submit(() ->
                {
                    start.await();
                    return open(GEOMETRY);
                }));
            }
            for (final Future<RegionFile> future : futures)
            {
                regions.add(future.get(30, TimeUnit.SECONDS));
            }

            assertEquals(1, regions.stream().filter(RegionFile::created).count());
            for (final RegionFile region : regions)
            {
                assertEquals(GEOMETRY, region.geometry());
                assertEquals(regions.get(0).creationTime(), region.creationTime());
                assertEquals(threads, region.attachCount());
            }
            assertEquals(List.of("test-domain.domain"), listNames());
        }
        finally
        {
            regions.forEach(RegionFile::close);
            executor.shutdownNow();
        }
    }

    @Test
    void shouldBeIdempotentOnClose()
    {
        final RegionFile region = open(GEOMETRY);
        region.close();
        region.close();

        assertEquals(0, region.buffer().capacity(), "a closed region's buffer no longer points at the mapping");
        assertThrows(IllegalStateException.class, region::attachCount);
    }

    @Test
    void shouldRefuseRootThatIsAFile() throws IOException
    {
        Files.createDirectories(root.dir());
        final Path file = root.dir().resolve("plain");
        Files.createFile(file);

        final FabricException ex = assertThrows(
            FabricException.class, () -> RegionFile.openOrCreate(file, NAME, GEOMETRY, false));

        assertEquals(Errno.FI_EINVAL, ex.errno());
        assertMessageContains(ex, "is not a directory");
    }

    private RegionFile open(final RegionGeometry geometry)
    {
        return RegionFile.openOrCreate(root.dir(), NAME, geometry, false);
    }

    private Path regionPath()
    {
        return RegionFile.regionPath(root.dir(), NAME);
    }

    private List<String> listNames() throws IOException
    {
        try (Stream<Path> files = Files.list(root.dir()))
        {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String permissions(final Path path) throws IOException
    {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    private void createUnpublishedRegion() throws IOException
    {
        Files.createDirectories(root.dir());
        try (RandomAccessFile file = new RandomAccessFile(regionPath().toFile(), "rw"))
        {
            file.setLength(RegionDescriptor.regionLength(GEOMETRY));
        }
        writeHeader(false);
    }

    private void writeHeader(final boolean publish) throws IOException
    {
        try (FileChannel channel = FileChannel.open(regionPath(), StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, RegionDescriptor.HEADER_LENGTH);
            try
            {
                final RegionHeader header = new RegionHeader(new UnsafeBuffer(mapped));
                if (header.magic() != RegionDescriptor.MAGIC)
                {
                    header.write(GEOMETRY, NAME, ProcessHandle.current().pid(), 0, System.currentTimeMillis());
                }
                if (publish)
                {
                    header.publishReady();
                }
            }
            finally
            {
                IoUtil.unmap(mapped);
            }
        }
    }

    private static boolean isMapped(final Path file) throws IOException
    {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps")))
        {
            return lines.anyMatch(line -> line.endsWith(" " + file));
        }
    }

    private void patchInt(final int offset, final int value) throws IOException
    {
        patch(offset, ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, value));
    }

    private void patchLong(final int offset, final long value) throws IOException
    {
        patch(offset, ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, value));
    }

    private void patch(final int offset, final ByteBuffer bytes) throws IOException
    {
        try (FileChannel channel = FileChannel.open(regionPath(), StandardOpenOption.WRITE))
        {
            assertEquals(bytes.remaining(), channel.write(bytes, offset));
        }
    }

    private void truncate(final long length) throws IOException
    {
        try (FileChannel channel = FileChannel.open(regionPath(), StandardOpenOption.WRITE))
        {
            channel.truncate(length);
        }
    }

    private void assertBadName(final String name, final String expected)
    {
        final FabricException ex = assertThrows(FabricException.class, () -> RegionFile.openOrCreate(
            root.dir(), name, GEOMETRY, false));
        assertEquals(Errno.FI_EINVAL, ex.errno(), ex.getMessage());
        assertMessageContains(ex, expected);
    }

    private static void assertMessageContains(final FabricException ex, final String... parts)
    {
        for (final String part : parts)
        {
            assertTrue(ex.getMessage().contains(part), "expected \"" + part + "\" in: " + ex.getMessage());
        }
    }
}
