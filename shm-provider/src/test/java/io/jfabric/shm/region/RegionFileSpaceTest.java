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

import io.jfabric.Errno;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Region creation allocates every page up front, so running out of tmpfs space is an error at creation rather than
 * SIGBUS at a first touch later. Limits the test JVM must not have run in a child JVM ({@link RegionSpaceChildMain}):
 * a file size limit ({@code ulimit -f}), or, as root, a private 1 MiB tmpfs in a mount namespace of its own
 * ({@code unshare -m}), which disappears with the child.
 */
class RegionFileSpaceTest
{
    private static final long CHILD_TIMEOUT_S = 60;
    private static final int SKIP_EXIT = 77;

    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void after()
    {
        root.close();
    }

    @Test
    void shouldAllocateEveryPageOfTheRegionWhenCreatingIt() throws Exception
    {
        final RegionGeometry geometry = new RegionGeometry(4, 1 << 20, 1 << 16, 1 << 16, 64, 32);
        try (RegionFile region = RegionFile.openOrCreate(root.dir(), "dense", geometry, false))
        {
            final long length = RegionDescriptor.regionLength(geometry);
            assertTrue(allocatedBytes(region.path()) >= length,
                "a " + length + " byte region has " + allocatedBytes(region.path()) + " bytes allocated");
        }
    }

    @Test
    void shouldDeleteTheTemporaryFileAndPublishNothingWhenPagesCannotBeAllocated() throws Exception
    {
        Files.createDirectory(root.dir());
        final Map<String, String> result = runChild(
            List.of("bash", "-c", "ulimit -f 1024 && exec \"$@\"", "bash"),
            "create", root.dir().toString(), "4", String.valueOf(1 << 20));

        assertTrue(Long.parseLong(result.get("length")) > 1024 * 1024, result.toString());
        assertEquals(String.valueOf(Errno.FI_EIO), result.get("error"), result.toString());
        assertTrue(result.get("message").contains("cannot_allocate_the_pages_of_domain_region_" + root.dir()),
            result.toString());
        assertTrue(result.get("message").contains("File_too_large"), result.toString());
        assertEquals("", result.get("files"), "no region published and no temporary file left: " + result);
    }

    @Test
    void shouldReportNoSpaceWhenTmpfsRunsOutWhileAllocatingPages() throws Exception
    {
        final Path mount = Files.createDirectories(root.dir().resolve("tmpfs"));
        final Map<String, String> result = runChildOnPrivateTmpfs(
            mount, "preallocate", mount.resolve("file").toString(), String.valueOf(4L << 20));

        assertEquals(String.valueOf(Errno.FI_ENOSPC), result.get("error"), result.toString());
        assertTrue(result.get("message").contains("ran_out_of_space_after"), result.toString());
        assertTrue(result.get("message").contains("SIGBUS"), result.toString());
    }

    @Test
    void shouldRefuseToCreateRegionLargerThanTheFreeSpace() throws Exception
    {
        final Path mount = Files.createDirectories(root.dir().resolve("tmpfs"));
        final Map<String, String> result = runChildOnPrivateTmpfs(
            mount, "create", mount.toString(), "4", String.valueOf(1 << 20));

        assertEquals(String.valueOf(Errno.FI_ENOSPC), result.get("error"), result.toString());
        assertTrue(result.get("message").contains("it_needs_" + result.get("length") + "_bytes"), result.toString());
        assertEquals("", result.get("files"), result.toString());
    }

    private Map<String, String> runChildOnPrivateTmpfs(final Path mount, final String... args) throws Exception
    {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/unshare")), "needs unshare(1)");
        return runChild(List.of("/usr/bin/unshare", "-m", "--propagation", "private", "sh", "-c",
            "mount -t tmpfs -o size=1m,mode=0700 jfabric-test \"$0\" || exit " + SKIP_EXIT + "; exec \"$@\"",
            mount.toString()), args);
    }

    private static Map<String, String> runChild(final List<String> prefix, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(prefix);
        command.addAll(ChildJvm.command(RegionSpaceChildMain.class, List.of(), args));

        try (ChildJvm child = ChildJvm.start(command))
        {
            final int status = child.awaitExit(CHILD_TIMEOUT_S);
            assumeTrue(SKIP_EXIT != status, "cannot mount a private tmpfs here (needs root): " + child.output());
            assertEquals(0, status, child.output());
            return child.awaitResult(0); // from its standard output, which has ended
        }
    }

    /** @return bytes the file system has allocated to the file: st_blocks times 512, from stat(1). */
    private static long allocatedBytes(final Path file) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder("stat", "-c", "%b %B", file.toString())
            .redirectErrorStream(true).start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(process.waitFor(CHILD_TIMEOUT_S, TimeUnit.SECONDS) && 0 == process.exitValue(), out);
        final String[] fields = out.split(" ");
        return Long.parseLong(fields[0]) * Long.parseLong(fields[1]);
    }
}
