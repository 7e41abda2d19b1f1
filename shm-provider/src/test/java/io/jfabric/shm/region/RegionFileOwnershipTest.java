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
import io.jfabric.FabricException;
import io.jfabric.shm.ShmTestRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Who may own the shm root directory and the region files in it: this process's user only (with group access, its
 * group too), so another local user cannot plant a region this process maps. Files are given to another user with
 * {@link Files#setOwner} (the tests run as root), and one test makes the attack as that user with runuser.
 */
class RegionFileOwnershipTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(2, 4096, 4096, 4096, 16, 8);
    private static final String NAME = "owned";
    private static final String OTHER_USER = "nobody";

    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void after()
    {
        root.close();
    }

    @Test
    void shouldRefuseRootDirectoryWritableByEveryone() throws IOException
    {
        createRoot("rwxrwxrwx");

        final FabricException ex = assertThrows(FabricException.class, () -> open(false));

        assertEquals(Errno.FI_EACCES, ex.errno());
        assertMessageContains(ex, "shm root directory " + root.dir(), "owner root (uid 0)", "mode 0777",
            "writable by every user", "chmod it 700", "jfabric.shm.dir");
        assertEquals(List.of(), listNames(root.dir()), "nothing is created in an unsafe directory");
        assertEquals("rwxrwxrwx", permissions(root.dir()), "an unsafe directory is left as it is");
    }

    @Test
    void shouldRefuseRootDirectoryWritableByEveryoneEvenWithGroupAccess() throws IOException
    {
        createRoot("rwxrwxrwx");

        final FabricException ex = assertThrows(FabricException.class, () -> open(true));

        assertEquals(Errno.FI_EACCES, ex.errno());
        assertMessageContains(ex, "mode 0777", "writable by every user", "chmod it 770");
    }

    @Test
    void shouldRefuseSymbolicLinkAsRootDirectory() throws IOException
    {
        createRoot("rwx------");
        final Path link = root.dir().resolve("link");
        Files.createSymbolicLink(link, root.dir());

        final FabricException ex = assertThrows(
            FabricException.class, () -> RegionFile.openOrCreate(link, NAME, GEOMETRY, false));

        assertEquals(Errno.FI_EACCES, ex.errno());
        assertMessageContains(ex, "shm root " + link, "is a symbolic link to " + root.dir(), "never a link");
        assertEquals(List.of("link"), listNames(root.dir()), "nothing is created through the link");
    }

    @Test
    void shouldRefuseRootDirectoryOwnedByAnotherUser() throws IOException
    {
        assumeRoot();
        createRoot("rwx------");
        Files.setOwner(root.dir(), otherUser());

        final FabricException ex = assertThrows(FabricException.class, () -> open(false));

        assertEquals(Errno.FI_EACCES, ex.errno());
        assertMessageContains(ex, "shm root directory " + root.dir(), "owner nobody (uid " + otherUid() + ")",
            "mode 0700", "not owned by this process's user (uid 0)", "another user may have created it");
        assertEquals(List.of(), listNames(root.dir()), "the ownership probe is removed and nothing is created");
    }

    @Test
    void shouldRefuseRegionFileOwnedByAnotherUserWithoutMappingIt() throws IOException
    {
        assumeRoot();
        open(false).close();
        final Path file = RegionFile.regionPath(root.dir(), NAME);
        Files.setOwner(file, otherUser());

        final FabricException ex = assertThrows(FabricException.class, () -> open(false));

        assertEquals(Errno.FI_EACCES, ex.errno());
        assertMessageContains(ex, "domain region " + file, "owner nobody (uid " + otherUid() + ")",
            "not owned by this process's user (uid 0)", "planted");
        assertEquals(1, attachCount(file), "a foreign file is refused before it is mapped or written");
    }

    @Test
    void shouldRefuseRegionFileOfAnotherUserInTheRootGroupWithoutGroupAccess() throws IOException
    {
        assumeRoot();
        open(false).close();
        final Path file = RegionFile.regionPath(root.dir(), NAME);
        Files.setOwner(file, otherUser());
        Files.setAttribute(file, "unix:gid", rootGid(), LinkOption.NOFOLLOW_LINKS);

        assertEquals(Errno.FI_EACCES, assertThrows(FabricException.class, () -> open(false)).errno());
    }

    @Test
    void shouldAcceptRegionFileOfAnotherUserInTheRootGroupWithGroupAccess() throws IOException
    {
        assumeRoot();
        open(true).close();
        final Path file = RegionFile.regionPath(root.dir(), NAME);
        Files.setOwner(file, otherUser());
        Files.setAttribute(file, "unix:gid", rootGid(), LinkOption.NOFOLLOW_LINKS);

        try (RegionFile region = open(true))
        {
            assertFalse(region.created());
            assertEquals(2, region.attachCount());
        }
    }

    @Test
    void shouldRefuseRegionFileOfAnotherGroupEvenWithGroupAccess() throws IOException
    {
        assumeRoot();
        open(true).close();
        final Path file = RegionFile.regionPath(root.dir(), NAME);
        Files.setOwner(file, otherUser());
        Files.setAttribute(file, "unix:gid", otherGid(), LinkOption.NOFOLLOW_LINKS);

        final FabricException ex = assertThrows(FabricException.class, () -> open(true));

        assertEquals(Errno.FI_EACCES, ex.errno());
        assertMessageContains(ex, "nor of the shm root's group (gid " + rootGid() + ")");
    }

    @Test
    void shouldRefuseOwnRegionFileWritableByEveryone() throws IOException
    {
        open(false).close();
        final Path file = RegionFile.regionPath(root.dir(), NAME);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));

        final FabricException ex = assertThrows(FabricException.class, () -> open(false));

        assertEquals(Errno.FI_EACCES, ex.errno());
        assertMessageContains(ex, "domain region " + file, "mode 0666", "writable by every user");
    }

    @Test
    void shouldRefuseGroupWritableRootDirectoryWithoutGroupAccess() throws IOException
    {
        createRoot("rwxrwx---");

        final FabricException ex = assertThrows(FabricException.class, () -> open(false));

        assertEquals(Errno.FI_EACCES, ex.errno());
        assertMessageContains(ex, "mode 0770", "writable by its group but group access is off", "chmod it 700");
    }

    @Test
    void shouldAcceptGroupWritableRootDirectoryWithGroupAccess() throws IOException
    {
        createRoot("rwxrwx---");

        try (RegionFile region = open(true))
        {
            assertTrue(region.created());
        }
        assertEquals("rwxrwx---", permissions(root.dir()));
        assertEquals("rw-rw----", permissions(RegionFile.regionPath(root.dir(), NAME)));
    }

    @Test
    void shouldCreateAMissingRootSetGroupIdWithGroupAccessSoItsFilesKeepItsGroup() throws IOException
    {
        open(true).close();

        assertEquals(02770, (Integer)Files.getAttribute(root.dir(), "unix:mode") & 07777);
        assertEquals(rootGid(), (Integer)Files.getAttribute(RegionFile.regionPath(root.dir(), NAME), "unix:gid"));
    }

    @Test
    void shouldTakeReadAndSearchPermissionOfOthersAwayFromOwnRootDirectory() throws IOException
    {
        createRoot("rwxr-xr-x");

        open(false).close();

        assertEquals("rwx------", permissions(root.dir()));
        assertEquals(List.of(NAME + RegionFile.FILE_SUFFIX), listNames(root.dir()));
    }

    @Test
    void shouldKeepSetGroupIdBitWhenTighteningRootDirectoryWithGroupAccess() throws IOException
    {
        createRoot("rwxrwxr-x");
        Files.setAttribute(root.dir(), "unix:mode", 02775);

        open(true).close();

        assertEquals(02770, (Integer)Files.getAttribute(root.dir(), "unix:mode") & 07777);
    }

    @Test
    void shouldRefuseDirectoryAnotherUserPreparedWithAPlantedRegion() throws Exception
    {
        assumeRoot();
        final Path runuser = Path.of("/usr/sbin/runuser");
        assumeTrue(Files.isExecutable(runuser), "needs runuser to act as " + OTHER_USER);

        // A genuine region to plant, readable by the other user; the test root plays /dev/shm: sticky, open to all.
        final Path source = root.dir().resolve("source");
        RegionFile.openOrCreate(source, NAME, GEOMETRY, false).close();
        Files.setAttribute(root.dir(), "unix:mode", 01777);
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(
            RegionFile.regionPath(source, NAME), PosixFilePermissions.fromString("rw-r--r--"));

        final Path target = root.dir().resolve("target");
        final Path planted = RegionFile.regionPath(target, NAME);
        runAs(OTHER_USER, "mkdir -m 777 '" + target + "' && cp '" + RegionFile.regionPath(source, NAME) + "' '" +
            planted + "' && chmod 666 '" + planted + "'");

        final FabricException worldWritable = assertThrows(
            FabricException.class, () -> RegionFile.openOrCreate(target, NAME, GEOMETRY, false));
        assertEquals(Errno.FI_EACCES, worldWritable.errno());
        assertMessageContains(worldWritable, "owner nobody", "mode 0777", "writable by every user");

        runAs(OTHER_USER, "chmod 700 '" + target + "'");
        final FabricException foreign = assertThrows(
            FabricException.class, () -> RegionFile.openOrCreate(target, NAME, GEOMETRY, false));
        assertEquals(Errno.FI_EACCES, foreign.errno());
        assertMessageContains(foreign, "owner nobody", "mode 0700", "not owned by this process's user");

        assertEquals(1, attachCount(planted), "the planted region was never mapped");
    }

    private RegionFile open(final boolean groupAccess)
    {
        return RegionFile.openOrCreate(root.dir(), NAME, GEOMETRY, groupAccess);
    }

    private void createRoot(final String permissions) throws IOException
    {
        Files.createDirectory(root.dir());
        Files.setPosixFilePermissions(root.dir(), PosixFilePermissions.fromString(permissions));
    }

    private static void assumeRoot() throws IOException
    {
        final Path probe = Files.createTempFile("jfabric-uid", ".tmp");
        try
        {
            assumeTrue(0 == (Integer)Files.getAttribute(probe, "unix:uid"),
                "needs root to give files to another user");
        }
        finally
        {
            Files.delete(probe);
        }
    }

    private static UserPrincipal otherUser() throws IOException
    {
        return FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(OTHER_USER);
    }

    private int otherUid() throws IOException
    {
        return idOf("-u");
    }

    private int otherGid() throws IOException
    {
        return idOf("-g");
    }

    private int rootGid() throws IOException
    {
        return (Integer)Files.getAttribute(root.dir(), "unix:gid", LinkOption.NOFOLLOW_LINKS);
    }

    private static int idOf(final String flag) throws IOException
    {
        try
        {
            final Process process = new ProcessBuilder("id", flag, OTHER_USER).redirectErrorStream(true).start();
            final String out = new String(process.getInputStream().readAllBytes()).trim();
            assertTrue(process.waitFor(10, TimeUnit.SECONDS) && 0 == process.exitValue(), out);
            return Integer.parseInt(out);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException(ex);
        }
    }

    private static void runAs(final String user, final String script) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("/usr/sbin/runuser", "-u", user, "--", "sh", "-c"));
        command.add(script);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "runuser did not finish: " + out);
        assertEquals(0, process.exitValue(), "runuser -u " + user + " sh -c \"" + script + "\": " + out);
    }

    private static long attachCount(final Path file) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final ByteBuffer bytes = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
            assertEquals(8, channel.read(bytes, RegionDescriptor.ATTACH_COUNT_OFFSET));
            return bytes.getLong(0);
        }
    }

    private static String permissions(final Path path) throws IOException
    {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }

    private static List<String> listNames(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static void assertMessageContains(final FabricException ex, final String... parts)
    {
        for (final String part : parts)
        {
            assertTrue(ex.getMessage().contains(part), "expected \"" + part + "\" in: " + ex.getMessage());
        }
    }
}
