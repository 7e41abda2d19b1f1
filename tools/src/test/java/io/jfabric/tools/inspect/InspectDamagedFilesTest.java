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
package io.jfabric.tools.inspect;

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.Domain;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Info;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.av.AvDescriptor;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.mr.SegmentDescriptor;
import io.jfabric.shm.region.HeaderChecks;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.testsupport.PrivateRoot;
import io.jfabric.tools.CommandRun;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric stat} and {@code jfabric dump} over damaged copies of real files (a region, a named AV and a
 * segment this class makes once): each says which field is wrong, with its value and what was expected, exits with
 * FI_EINVAL (22, a bad checksum too) and never prints a stack trace; dump lists the header fields it could read first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InspectDamagedFilesTest
{
    private static final long REGION_LENGTH =
        RegionDescriptor.regionLength(new RegionGeometry(2, 4096, 4096, 4096, 16, 4));

    private final PrivateRoot ownBase = new PrivateRoot("jfabric-damaged-");
    private final Path base = ownBase.dir();
    private final Path pristine = base.resolve("pristine");
    private final Path scratch = base.resolve("scratch");
    private Path region;
    private Path av;
    private Path segment;

    /** A way to damage a file, and what the commands must say about it. */
    private interface Damage
    {
        void apply(Path file) throws IOException;
    }

    @BeforeAll
    void makeRealFiles() throws Exception
    {
        final Path root = base.resolve("root");
        final Map<String, String> settings = Map.of("dir", root.toString(), "ep.count", "2",
            "rx.ring.bytes", "4096", "tx.ring.bytes", "4096", "cq.ring.bytes", "4096", "mr.count", "16",
            "cntr.count", "4");
        final ShmProvider provider = new ShmProvider(ShmConfig.of(settings::get));
        final Info hints = new Info();
        hints.domainAttr().name("orders");
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        Files.createDirectories(pristine);
        Files.createDirectories(scratch);
        try (Fabric fabric = provider.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector vector = domain.avOpen(new AvAttr().name("peers"), 0);
            ShareableMemory memory = domain.allocShareable(4096);
            Stream<Path> files = Files.list(root))
        {
            for (final Path file : (Iterable<Path>)files::iterator)
            {
                final String name = file.getFileName().toString();
                final Path copy = Files.copy(file, pristine.resolve(name));
                if (name.endsWith(".domain"))
                {
                    region = copy;
                }
                else if (AvDescriptor.regionNonceOf(name) != 0)
                {
                    av = copy;
                }
                else if (SegmentDescriptor.ownerPidOf(name) >= 0)
                {
                    segment = copy;
                }
            }
        }
    }

    @AfterEach
    void emptyScratch() throws IOException
    {
        PrivateRoot.removeTree(scratch);
        Files.createDirectories(scratch);
    }

    @AfterAll
    void removeFiles()
    {
        ownBase.close();
    }

    static Stream<Arguments> regionDamages()
    {
        return Stream.of(
            Arguments.of("truncated inside its header", (Damage)file -> truncate(file, 100),
                "is truncated: 100 bytes, shorter than its 4096 byte header"),
            Arguments.of("truncated after its header", (Damage)file -> truncate(file, 8192),
                "is truncated: 8192 bytes but its header says " + REGION_LENGTH),
            Arguments.of("a flipped magic", (Damage)file -> putLong(file, 0, RegionDescriptor.MAGIC ^ 0x100),
                "is not a jfabric domain region: magic 0x14349524241474a, expected 0x14349524241464a"),
            Arguments.of("another layout version", (Damage)file -> putInt(file, 8, 3),
                "has domain region layout version 3 but this jfabric reads layout version " + RegionDescriptor.LAYOUT_VERSION),
            Arguments.of("a bad checksum", (Damage)file -> putLong(file, RegionDescriptor.CREATION_TIME_OFFSET, 42),
                "is damaged: header checksum 0x"),
            Arguments.of("no ready mark", (Damage)file -> putInt(file, RegionDescriptor.READY_OFFSET, 0),
                "is not marked ready: its ready field (offset 512) holds 0x0, expected 0x1"));
    }

    @ParameterizedTest(name = "stat of a region with {0}")
    @MethodSource("regionDamages")
    void statShouldSayWhatIsWrongWithADamagedRegion(final String what, final Damage damage, final String message)
        throws IOException
    {
        final Path file = damaged(region, damage);

        final CommandRun run = CommandRun.run("stat", file.toString());

        assertRefused(run, "jfabric stat: domain region " + file.toRealPath() + " ", message);
        assertEquals("", run.out);
    }

    @ParameterizedTest(name = "dump of a region with {0}")
    @MethodSource("regionDamages")
    void dumpShouldListTheFieldsThenSayWhatIsWrongWithADamagedRegion(
        final String what, final Damage damage, final String message) throws IOException
    {
        final Path file = damaged(region, damage);

        final CommandRun run = CommandRun.run("dump", file.toString());

        assertRefused(run, "jfabric dump: domain region " + file.toRealPath() + " ", message);
        assertEquals(Files.size(file) >= RegionDescriptor.HEADER_LENGTH,
            run.out.contains("\n      16  region length          " + REGION_LENGTH + "\n"), run::toString);
    }

    @Test
    void dumpShouldNameTheFieldItsValueAndTheRangeOfADamagedAvEntryCount() throws IOException
    {
        final Path file = damaged(av, f ->
        {
            putInt(f, AvDescriptor.ENTRY_COUNT_OFFSET, 0);
            resum(f, AvDescriptor.HEADER_LENGTH, AvDescriptor.CHECKSUM_OFFSET);
        });

        final CommandRun run = CommandRun.run("dump", file.toString());

        assertRefused(run, "jfabric dump: address vector " + file.toRealPath() + " ",
            "is damaged: its entry count is 0, expected one in [1, 1048576]");
        assertTrue(run.out.contains("\n      64  entry count            0\n"), run::toString);
    }

    @Test
    void dumpShouldRefuseAnAvOfAnotherLayoutVersion() throws IOException
    {
        final Path file = damaged(av, f -> putInt(f, AvDescriptor.LAYOUT_VERSION_OFFSET, 2));

        assertRefused(CommandRun.run("dump", file.toString()), "jfabric dump: address vector ",
            "has address vector layout version 2 but this jfabric reads layout version 3");
    }

    @Test
    void dumpShouldRefuseATruncatedSegment() throws IOException
    {
        final Path file = damaged(segment, f -> truncate(f, SegmentDescriptor.HEADER_LENGTH));

        assertRefused(CommandRun.run("dump", file.toString()), "jfabric dump: shareable memory segment ",
            "is truncated: 4096 bytes but its header says 8192");
    }

    @Test
    void dumpShouldRefuseASegmentWithAFlippedMagic() throws IOException
    {
        final Path file = damaged(segment, f -> putLong(f, 0, SegmentDescriptor.MAGIC ^ 1));

        assertRefused(CommandRun.run("dump", file.toString()), "jfabric dump: shareable memory segment ",
            "is not a jfabric shareable memory segment: magic 0x14745534241464b, expected 0x14745534241464a");
    }

    @Test
    void dumpShouldSayAFileIsNoJfabricFileAtAll() throws IOException
    {
        final Path file = Files.writeString(scratch.resolve("notes.txt"), "not shared memory");

        final CommandRun run = CommandRun.run("dump", file.toString());

        assertRefused(run, "jfabric dump: " + file + " is not a jfabric file: magic 0x7261687320746f6e at offset 0, " +
            "expected one of 0x014349524241464a (domain region)", "");
        assertEquals("", run.out);
    }

    @Test
    void dumpShouldExitWithEnoentForAMissingFileAndEinvalForADirectory()
    {
        final CommandRun missing = CommandRun.run("dump", scratch.resolve("gone.domain").toString());
        assertEquals(Errno.FI_ENOENT, missing.status, missing::toString);
        assertEquals("jfabric dump: " + scratch.resolve("gone.domain") + " does not exist [FI_ENOENT: No such file " +
            "or directory]\n", missing.err);

        final CommandRun directory = CommandRun.run("dump", scratch.toString());
        assertRefused(directory, "jfabric dump: " + scratch + " is not a regular file", "");
    }

    private static void assertRefused(final CommandRun run, final String start, final String message)
    {
        assertEquals(Errno.FI_EINVAL, run.status, run::toString);
        assertTrue(run.err.startsWith(start) && run.err.contains(message) && run.err.endsWith("\n"), run::toString);
        assertFalse(run.err.contains("Exception") || run.err.contains("\tat "), run::toString);
        assertEquals(1, run.err.lines().count(), run::toString);
    }

    private Path damaged(final Path file, final Damage damage) throws IOException
    {
        final Path copy = scratch.resolve(file.getFileName());
        Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
        damage.apply(copy);
        return copy;
    }

    private static void truncate(final Path file, final long length) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(length);
        }
    }

    private static void putLong(final Path file, final int offset, final long value) throws IOException
    {
        write(file, offset, ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, value));
    }

    private static void putInt(final Path file, final int offset, final int value) throws IOException
    {
        write(file, offset, ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, value));
    }

    /** Store the checksum its header's bytes sum to now, as a creator would have. */
    private static void resum(final Path file, final int headerLength, final int checksumOffset) throws IOException
    {
        final UnsafeBuffer header = new UnsafeBuffer(Files.readAllBytes(file), 0, headerLength);
        putInt(file, checksumOffset, HeaderChecks.checksum(header, checksumOffset));
    }

    private static void write(final Path file, final int offset, final ByteBuffer bytes) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.write(bytes, offset);
        }
    }
}
