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

import io.jfabric.Errno;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.stat.DomainStat;
import io.jfabric.testsupport.PrivateRoot;
import io.jfabric.tools.CommandRun;
import io.jfabric.tools.JfabricMain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric stat} over regions this JVM makes: a domain without a region, a root without domains, usage
 * errors, a region file named for another domain, and a region removed and created anew while a process still maps
 * the earlier file, or while the command is watching it. (The live two-JVM cases are in
 * {@link InspectLiveDomainTest}, the damaged files in {@link InspectDamagedFilesTest}.)
 */
class StatCommandTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(2, 4096, 4096, 4096, 4, 4);

    private final PrivateRoot ownRoot = new PrivateRoot("jfabric-stat-");
    private final Path root = ownRoot.dir();

    @AfterEach
    void removeRoot()
    {
        ownRoot.close();
    }

    @Test
    void shouldExitWithEnoentForADomainWithoutARegion() throws IOException
    {
        Files.createDirectories(root);

        final CommandRun run = CommandRun.run("stat", "nosuch", "--dir", root.toString());

        assertEquals(Errno.FI_ENOENT, run.status, run::toString);
        assertEquals("jfabric stat: domain 'nosuch' has no region " + root.resolve("nosuch.domain") + ": no " +
            "process has opened it under " + root + " [FI_ENOENT: No such file or directory]\n", run.err);
    }

    /** Issue 14 item 8: a live region file removed; this process still maps it, a new open would make another. */
    @Test
    void shouldNameTheProcessesThatStillMapARemovedRegion() throws IOException
    {
        try (RegionFile region = RegionFile.openOrCreate(root, "orders", GEOMETRY, false))
        {
            final CommandRun before = CommandRun.run("stat", "orders", "--dir", root.toString());
            assertEquals(0, before.status, before::toString);
            assertFalse(before.out.contains("WARNING"), before::toString);

            Files.delete(region.path());
            final CommandRun gone = CommandRun.run("stat", "orders", "--dir", root.toString());
            assertEquals(Errno.FI_ENOENT, gone.status, gone::toString);
            assertTrue(gone.err.contains(", but process(es) [" + ProcessHandle.current().pid() + "] still map a " +
                "removed file of it"), gone::toString);

            try (RegionFile second = RegionFile.openOrCreate(root, "orders", GEOMETRY, false))
            {
                final CommandRun twice = CommandRun.run("stat", "orders", "--dir", root.toString());
                assertEquals(0, twice.status, twice::toString);
                assertTrue(twice.out.contains("WARNING    process " + ProcessHandle.current().pid() + " maps an " +
                    "earlier file of this region"), twice::toString);
            }
        }
    }

    @Test
    void shouldSayARootHasNoDomains()
    {
        final CommandRun run = CommandRun.run("stat", "--dir", root.toString());

        assertEquals(0, run.status, run::toString);
        assertEquals("jfabric stat: " + root + ": no domain regions\n", run.out);
    }

    @Test
    void shouldRefuseAWatchIntervalOrSampleCountOutOfRangeAsAUsageError()
    {
        final CommandRun zero = CommandRun.run("stat", "--watch", "0");
        assertEquals(1, zero.status, zero::toString);
        assertTrue(zero.err.startsWith("--watch 0.0 is not a number of seconds in (0, 86400]"), zero::toString);

        final CommandRun none = CommandRun.run("stat", "--samples", "0");
        assertEquals(1, none.status, none::toString);
        assertTrue(none.err.startsWith("--samples 0 must be at least 1"), none::toString);
    }

    @Test
    void shouldRefuseARegionFileNamedForAnotherDomain() throws IOException
    {
        RegionFile.openOrCreate(root, "orders", GEOMETRY, false).close();
        Files.copy(RegionFile.regionPath(root, "orders"), RegionFile.regionPath(root, "trades"));

        final CommandRun run = CommandRun.run("stat", "trades", "--dir", root.toString());

        assertEquals(Errno.FI_EINVAL, run.status, run::toString);
        assertTrue(run.err.startsWith("jfabric stat: domain region " + root.resolve("trades.domain") + " belongs " +
            "to domain 'orders', not 'trades': it was renamed or copied"), run::toString);
    }

    @Test
    void shouldWarnWhenAProcessStillMapsAnEarlierFileOfTheRegion() throws IOException
    {
        try (RegionFile earlier = RegionFile.openOrCreate(root, "split", GEOMETRY, false))
        {
            final long earlierInode = DomainStat.read(earlier.path()).inode();
            Files.delete(earlier.path());
            try (RegionFile later = RegionFile.openOrCreate(root, "split", GEOMETRY, false))
            {
                final CommandRun run = CommandRun.run("stat", "split", "--dir", root.toString());

                assertEquals(0, run.status, run::toString);
                assertTrue(run.out.contains("  WARNING    process " + ProcessHandle.current().pid() + " maps an " +
                    "earlier file of this region (inode " + earlierInode + "), removed and created anew since: it " +
                    "does not share the domain with the processes above\n"), run::toString);
            }
        }
    }

    @Test
    void shouldReadTheNewFileWhenTheRegionIsReplacedWhileWatching() throws Exception
    {
        try (RegionFile earlier = RegionFile.openOrCreate(root, "moved", GEOMETRY, false))
        {
            final StringWriter out = new StringWriter();
            final CompletableFuture<Integer> watch = CompletableFuture.supplyAsync(() -> JfabricMain.execute(
                new PrintWriter(out), new PrintWriter(new StringWriter()), "stat", "moved", "--dir", root.toString(),
                "--watch", "1", "--samples", "2"));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!out.toString().contains("  slots      none in use\n") && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            Files.delete(earlier.path());
            try (RegionFile later = RegionFile.openOrCreate(root, "moved", GEOMETRY, false))
            {
                assertEquals(0, watch.get(30, TimeUnit.SECONDS), out::toString);

                final String second = out.toString().substring(out.toString().indexOf("--- sample 2 at "));
                assertTrue(second.contains("domain moved: WARNING the region file mapped (inode ") &&
                    second.contains(", nonce " + Text.hex(earlier.regionNonce()) + ") was removed or created anew " +
                    "since; reading " + root.resolve("moved.domain") + " again\n"), out::toString);
                assertTrue(second.contains("  region     layout " + RegionDescriptor.LAYOUT_VERSION + ", nonce " + Text.hex(later.regionNonce())),
                    out::toString);
            }
        }
    }
}
