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
package io.jfabric.tools;

import io.jfabric.Errno;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.JvmCommand;
import io.jfabric.testsupport.PrivateRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric clean} over a root where real child JVMs ({@link CleanPeerMain}) made a domain each: one is
 * SIGKILLed, the other lives on.
 */
class CleanCommandTest
{
    private final PrivateRoot ownRoot = new PrivateRoot("jfabric-clean-");
    private final Path root = ownRoot.dir();

    @AfterEach
    void removeRoot()
    {
        ownRoot.close();
    }

    @Test
    void shouldListThenRemoveWhatAKilledProcessLeftAndKeepWhatALiveOneUses() throws Exception
    {
        final ChildJvm dead = startPeer("dead");
        final ChildJvm live = startPeer("live");
        try
        {
            dead.kill();
            final List<String> before = names();
            assertEquals(6, before.size(), before.toString());

            final CommandRun dry = CommandRun.run("clean", "--dry-run", "--dir", root.toString());
            assertEquals(0, dry.status, dry::toString);
            assertEquals(before, names(), "a dry run removes nothing");
            assertLine(dry, "would remove", "dead.domain", "domain region: no process that opened it is alive");
            assertLine(dry, "would remove", "dead.seg." + dead.pid() + ".", "shareable memory segment: its owner, " +
                "process " + dead.pid());
            assertLine(dry, "would remove", "dead.peers.", "address vector: goes with its region");
            assertLine(dry, "kept", "live.domain", "domain region: open in live process " + live.pid());
            assertLine(dry, "kept", "live.seg." + live.pid() + ".", "owned by live process " + live.pid());
            assertLine(dry, "kept", "live.peers.", "address vector: goes with its region: open in live process");
            assertTrue(dry.out.endsWith("would remove 3 files (" + String.format(java.util.Locale.ROOT, "%.1f", mib("dead")) + " MiB); " +
                "kept 3 in use, skipped 0\n"), dry::toString);

            final CommandRun run = CommandRun.run("clean", "--dir", root.toString());
            assertEquals(0, run.status, run::toString);
            assertLine(run, "removed", "dead.domain", "domain region");
            assertLine(run, "removed", "dead.peers.", "address vector: it belongs to an earlier region of domain " +
                "dead");
            assertTrue(run.out.contains(": removed 3 files ("), run::toString);
            assertEquals(before.stream().filter(n -> n.startsWith("live.")).collect(Collectors.toList()), names());
        }
        finally
        {
            live.kill();
        }
    }

    @Test
    void shouldSayThereIsNothingToCleanInAMissingRoot()
    {
        final CommandRun run = CommandRun.run("clean", "--dir", root.toString());
        assertEquals(0, run.status, run::toString);
        assertEquals("jfabric clean: " + root + ": nothing to clean\n", run.out);
        assertTrue(Files.notExists(root));
    }

    @Test
    void shouldRefuseARootEveryUserMayWriteAndRemoveNothing() throws IOException
    {
        Files.createDirectory(root);
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.writeString(root.resolve(".x.domain.0000000000000001.1.tmp"), "left by pid 1?");

        final CommandRun run = CommandRun.run("clean", "--dir", root.toString());

        assertEquals(Errno.FI_EACCES, run.status, run::toString);
        assertTrue(run.err.startsWith("jfabric clean: shm root directory " + root), run::toString);
        assertTrue(run.err.contains("writable by every user"), run::toString);
        assertEquals(List.of(".x.domain.0000000000000001.1.tmp"), names());
    }

    @Test
    void shouldDescribeItsOptions()
    {
        final CommandRun run = CommandRun.run("help", "clean");
        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.contains("--dry-run") && run.out.contains("--dir"), run.out);
    }

    private ChildJvm startPeer(final String domain) throws IOException, InterruptedException
    {
        final List<String> command = JvmCommand.quickStart();
        command.addAll(JvmCommand.classPath());
        command.addAll(List.of("-Djfabric.shm.dir=" + root, "-Djfabric.shm.ep.count=2",
            "-Djfabric.shm.rx.ring.bytes=4096", CleanPeerMain.class.getName(), domain));
        final ChildJvm peer = ChildJvm.start(command);
        final String line = peer.pollLine(60, TimeUnit.SECONDS); // its first line of standard output
        if (!"ready".equals(line))
        {
            peer.kill();
            throw new AssertionError("peer of " + domain + " printed " + line + ":\n" + peer.output());
        }
        return peer;
    }

    private List<String> names() throws IOException
    {
        try (Stream<Path> files = Files.list(root))
        {
            return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    private double mib(final String domain) throws IOException
    {
        long bytes = 0;
        for (final String name : names())
        {
            if (name.startsWith(domain + "."))
            {
                bytes += Files.size(root.resolve(name));
            }
        }
        return bytes / (1024.0 * 1024.0);
    }

    private static void assertLine(final CommandRun run, final String action, final String name, final String detail)
    {
        assertTrue(run.out.lines().anyMatch(line -> line.startsWith(String.format("%-12s %s", action, name)) &&
            line.contains(detail)), () -> "no '" + action + " " + name + "... " + detail + "' line in\n" + run);
    }
}
