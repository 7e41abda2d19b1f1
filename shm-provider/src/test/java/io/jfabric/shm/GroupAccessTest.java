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
package io.jfabric.shm;

import io.jfabric.Errno;
import io.jfabric.testsupport.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Group access for real: two child JVMs run as two different users (setpriv, numeric ids that need no account)
 * who share one group, in a root that group shares ({@code install -d -m 2770 -g GROUP} made by hand). Needs root
 * (to start the children as other users) and setpriv; skipped otherwise. The children run from a world-readable
 * copy of the class path, since the build's own (under root's home) is not theirs to read.
 */
class GroupAccessTest
{
    private static final int FIRST_USER = 46_001;
    private static final int SECOND_USER = 46_002;
    private static final int GROUP = 46_042;
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    private final ShmTestRoot root = new ShmTestRoot();
    private Path classPathCopy;
    private String classPath;

    @AfterEach
    void after() throws IOException
    {
        root.close();
        if (classPathCopy != null)
        {
            try (Stream<Path> paths = Files.walk(classPathCopy))
            {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void shouldLetTwoUsersOfTheGroupShareADomainInTheRootTheGroupShares() throws Exception
    {
        makeSharedRoot(0770); // Without set-group-ID: each process gives its files the root's group itself.
        final ChildJvm first = startAs(FIRST_USER, true, "first", "shared", "101", "202");
        try
        {
            assertEquals(Map.of("ready", "true"), first.awaitResult(60), first.output());
            final ChildJvm second = startAs(SECOND_USER, true, "second", "shared", "202", "101");
            assertEquals("0", second.awaitResult(60).get("write"), second.output());
            assertEquals("0", first.awaitResult(60).get("write"), first.output());
            second.awaitSuccess(60);
            first.awaitSuccess(60);
        }
        finally
        {
            first.kill();
        }
        final Path region = root.dir().resolve("shared.domain");
        assertEquals(FIRST_USER, Files.getAttribute(region, "unix:uid", LinkOption.NOFOLLOW_LINKS));
        assertEquals(GROUP, Files.getAttribute(region, "unix:gid", LinkOption.NOFOLLOW_LINKS));
        assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(region)));
    }

    @Test
    void shouldRefuseTheRootTheGroupSharesWithoutGroupAccessSayingHowToShareIt() throws Exception
    {
        makeSharedRoot(02770);
        final ChildJvm second = startAs(SECOND_USER, false, "second", "shared", "202", "101");
        final Map<String, String> result = second.awaitResult(60);

        assertEquals(Integer.toString(Errno.FI_EACCES), result.get("error"), second.output());
        assertTrue(result.get("message").contains("writable_by_its_group_but_group_access_is_off_(jfabric.shm." +
            "group.access)") && result.get("message").contains("if_its_group_shares_it,_turn_group_access_on_in_" +
            "every_process_that_uses_it"), result.get("message"));
        second.awaitSuccess(60);
    }

    /** The root as an administrator makes it for a group: owned by the first user, the group's, {@code mode}. */
    private void makeSharedRoot(final int mode) throws Exception
    {
        assumeTrue(Files.isExecutable(SETPRIV), "needs " + SETPRIV + " to run the children as other users");
        final Path probe = Files.createTempFile("jfabric-uid", ".tmp");
        try
        {
            assumeTrue(0 == (Integer)Files.getAttribute(probe, "unix:uid"), "needs root to start other users");
        }
        finally
        {
            Files.delete(probe);
        }
        Files.createDirectory(root.dir());
        Files.setAttribute(root.dir(), "unix:uid", FIRST_USER);
        Files.setAttribute(root.dir(), "unix:gid", GROUP);
        Files.setAttribute(root.dir(), "unix:mode", mode);
    }

    private ChildJvm startAs(final int user, final boolean groupAccess, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(SETPRIV.toString(), "--reuid=" + user,
            "--regid=" + user, "--groups=" + GROUP, "--"));
        final List<String> java = ChildJvm.command(GroupPeerMain.class, List.of("jfabric.shm.dir=" + root.dir(),
            "jfabric.shm.group.access=" + groupAccess, "jfabric.shm.ep.count=2", "jfabric.shm.rx.ring.bytes=4096",
            "jfabric.shm.tx.ring.bytes=4096", "jfabric.shm.cq.ring.bytes=4096"), args);
        java.set(java.indexOf("-cp") + 1, readableClassPath());
        java.add(1, "-XX:-UsePerfData");
        command.addAll(java);
        return ChildJvm.start(command);
    }

    /** @return a copy of what the children need of the class path (jfabric's classes and Agrona), readable by all. */
    private String readableClassPath() throws IOException
    {
        if (classPath != null)
        {
            return classPath;
        }
        classPathCopy = Files.createTempDirectory("jfabric-group-cp");
        Files.setPosixFilePermissions(classPathCopy, PosixFilePermissions.fromString("rwxr-xr-x"));
        final List<String> entries = new ArrayList<>();
        int i = 0;
        for (final String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        {
            final Path source = Path.of(entry);
            if (Files.isDirectory(source) || entry.contains("agrona") || entry.contains("jfabric"))
            {
                final Path target = classPathCopy.resolve(i++ + (Files.isDirectory(source) ? "" : ".jar"));
                copy(source, target);
                entries.add(target.toString());
            }
        }
        classPath = String.join(java.io.File.pathSeparator, entries);
        return classPath;
    }

    private static void copy(final Path source, final Path target) throws IOException
    {
        try (Stream<Path> paths = Files.walk(source))
        {
            for (final Path path : (Iterable<Path>)paths::iterator)
            {
                final Path to = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path))
                {
                    Files.createDirectories(to);
                    Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
                else
                {
                    Files.copy(path, to);
                    Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rw-r--r--"));
                }
            }
        }
    }
}
