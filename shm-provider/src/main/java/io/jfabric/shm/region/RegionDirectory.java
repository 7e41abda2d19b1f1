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

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The root directory of the shared files, checked to belong to this process's user before any file in it is
 * trusted, and the ownership rule for the files in it.
 * <p>
 * Why: the default root, {@code /dev/shm/jfabric-$USER}, is a predictable name in a directory every user can write.
 * Another local user could create it first, writable by all, and plant a region file there that this process would
 * then map read-write. So, reading every attribute without following links:
 * <ul>
 *   <li>a missing root is created 0700, or 02770 with group access (set-group-ID, so every file made in it has its
 *   group; its parents as the umask allows);</li>
 *   <li>the root must be a real directory, not a symbolic link (a link could be repointed by whoever owns the
 *   directory it lives in, and the link's own owner says nothing about its target);</li>
 *   <li>it must not be writable by others, nor by its group unless group access is on: whoever can write the
 *   directory can put or swap files in it;</li>
 *   <li>it must be owned by this process's user (below), or, with group access, be a root its group shares: owned by
 *   another user, writable by its group and by nobody else, and this process must be able to create a file in it
 *   (the ownership probe below). A process that is not the owner and not root can do so only through the group's
 *   write permission, so that proves it is a member of the root's group;</li>
 *   <li>read or search permission for others (or for the group without group access) is taken away in place on this
 *   user's own root, keeping the special bits: nobody but the owner could have written the directory, so it is safe
 *   to adopt, and a directory made by {@code mkdir -p} under the usual umask 022 works without manual steps. A shared
 *   root of another user is left as it is: only its owner may change it, and others can at most list names there
 *   (files are 0660).</li>
 * </ul>
 * Anything else is refused with {@link Errno#FI_EACCES} naming the directory, its owner and mode, what is wrong
 * and what to do ({@link Errno#FI_EINVAL} for a path that exists but is no directory at all).
 * <p>
 * A file in the root is trusted ({@link #checkFile}) when it is owned by this process's user, or, with group access,
 * when its group is the root directory's group; and it must not be writable by others. Every file this process
 * makes there with group access is given the root's group ({@link #adoptGroup}; the set-group-ID bit does the same),
 * so the other users of the group trust it in turn.
 * <p>
 * Sharing a root between the users of a group: create it once with the group, e.g. {@code install -d -m 2770 -g
 * GROUP /dev/shm/jfabric-GROUP}, and run every process with {@code jfabric.shm.dir} naming it and group access on.
 * Trusting the root's owner is no wider than trusting the group: a user can give a directory only a group it
 * belongs to (root aside), and every member can write the root anyway. Without group access a root of another user
 * is refused, with a message that says how to share it.
 * <p>
 * Who "this process's user" is: the uid the kernel puts on a file this process creates in the root directory,
 * read from a probe file that is created there (exclusively, mode 0600, a {@link TempFiles temporary file} for
 * {@code uid-probe}, which no published name can be) and deleted again. That is exactly what ownership means here:
 * the owner a region file gets when this process creates it. It needs no native code, no optional module and no user name
 * lookup; the alternatives each fall short: {@code com.sun.security.auth.module.UnixSystem} lives in the optional
 * {@code jdk.security.auth} module (absent from trimmed runtime images) and reports the real rather than the
 * effective uid; {@code /proc/self} is Linux only and belongs to root for a non-dumpable process; user names may
 * be missing (containers) or map to more than one uid. The probe costs one create and one delete on tmpfs per open.
 * <p>
 * Needs the JDK's {@code "unix"} file attribute view (Linux, macOS, the platforms with {@code /dev/shm} style
 * shared memory) for numeric owners and modes.
 * <p>
 * Limits: only the root directory itself is checked, not its ancestors, which must be trusted as {@code /dev/shm}
 * is (sticky, so only an entry's owner can rename or remove it). Root (uid 0) can write anything, so a process
 * running as root is protected against files and directories other users made, but not against root.
 * <p>
 * Immutable and thread safe once {@link #open opened}.
 */
public final class RegionDirectory
{
    private static final String ATTRIBUTES = "unix:mode,uid,gid,size,fileKey,isDirectory,isRegularFile,isSymbolicLink";
    private static final String PROBE_TARGET = "uid-probe";
    private static final String SETTING_HINT = "the shm root setting (jfabric.shm.dir or JFABRIC_SHM_DIR)";
    private static final int SET_GROUP_ID = 02000;

    private static final int OTHERS_WRITE = 0002;
    private static final int GROUP_WRITE = 0020;
    private static final int OTHERS_ALL = 0007;
    private static final int GROUP_ALL = 0070;
    private static final int PERMISSION_BITS = 07777;

    private final Path path;
    private final boolean groupAccess;
    private final int uid;
    private final int gid;

    private RegionDirectory(final Path path, final boolean groupAccess, final int uid, final int gid)
    {
        this.path = path;
        this.groupAccess = groupAccess;
        this.uid = uid;
        this.gid = gid;
    }

    /**
     * Create the root directory when it is missing, then check it as the class description says.
     *
     * @param rootDir     the root directory.
     * @param groupAccess whether the group may share it: create it 0770 rather than 0700, accept group
     *                    permissions and files of the directory's group.
     * @return the checked directory.
     * @throws FabricException {@link Errno#FI_EACCES} when the directory is not safe to use,
     *                         {@link Errno#FI_EINVAL} when the path is not a directory, {@link Errno#FI_EIO} on any
     *                         other I/O failure, {@link Errno#FI_ENOSYS} before anything is created when the JVM
     *                         lacks the flag Agrona needs ({@link AgronaAccess}).
     */
    public static RegionDirectory open(final Path rootDir, final boolean groupAccess)
    {
        Objects.requireNonNull(rootDir, "rootDir");
        AgronaAccess.check();
        try
        {
            Map<String, Object> attributes = readAttributes(rootDir);
            if (null == attributes)
            {
                create(rootDir, groupAccess);
                attributes = readAttributes(rootDir);
                if (null == attributes)
                {
                    throw new FabricException(Errno.FI_EIO, "shm root directory " + rootDir +
                        " disappeared right after it was created: something is removing it");
                }
            }

            checkShape(rootDir, attributes);
            checkNotWritableByOthers(rootDir, attributes, groupAccess);
            final int processUid = probeUid(rootDir, attributes);
            checkOwner(rootDir, attributes, processUid, groupAccess);

            final int excess = mode(attributes) & (groupAccess ? OTHERS_ALL : OTHERS_ALL | GROUP_ALL);
            if (0 != excess && (Integer)attributes.get("uid") == processUid)
            {
                attributes = takeAway(rootDir, attributes, excess, groupAccess, processUid);
            }

            return new RegionDirectory(rootDir, groupAccess, processUid, (Integer)attributes.get("gid"));
        }
        catch (final IOException ex)
        {
            throw new FabricException(ex instanceof AccessDeniedException ? Errno.FI_EACCES : Errno.FI_EIO,
                "cannot use shm root directory " + rootDir + ": " + ex, ex);
        }
    }

    /** @return the root directory. */
    public Path path()
    {
        return path;
    }

    /** @return uid of this process's user, as the owner of a file it creates in the directory. */
    int uid()
    {
        return uid;
    }

    /** @return gid of the root directory. */
    int gid()
    {
        return gid;
    }

    /**
     * Read a file's attributes without following links: mode, uid, gid, fileKey and the type flags.
     *
     * @param file the file.
     * @return its attributes, or null when it does not exist.
     * @throws IOException on any other failure.
     */
    public static Map<String, Object> readAttributes(final Path file) throws IOException
    {
        try
        {
            return Files.readAttributes(file, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
    }

    /**
     * Check that a file in the directory may be trusted: owned by this process's user or, with group access, of
     * the directory's group; not writable by others. Call only for a regular file.
     *
     * @param source     what the file is, for messages, such as "domain region /dev/shm/...".
     * @param file       the file.
     * @param attributes its attributes from {@link #readAttributes}.
     * @throws FabricException {@link Errno#FI_EACCES} naming the file, its owner and mode, when it is not.
     */
    public void checkFile(final String source, final Path file, final Map<String, Object> attributes)
    {
        final int fileUid = (Integer)attributes.get("uid");
        final int fileGid = (Integer)attributes.get("gid");
        final int mode = mode(attributes);
        if (fileUid != uid && !(groupAccess && fileGid == gid))
        {
            throw new FabricException(Errno.FI_EACCES, source + " (" + describe(file, attributes) +
                ") is not owned by this process's user (uid " + uid + ")" + (groupAccess ? " nor of the shm " +
                "root's group (gid " + gid + ")" : "") + ": another user may have planted it. Remove it if no " +
                "process of yours uses the domain; jfabric maps only its own user's files");
        }
        if (0 != (mode & OTHERS_WRITE))
        {
            throw new FabricException(Errno.FI_EACCES, source + " (" + describe(file, attributes) +
                ") is writable by every user, so its contents cannot be trusted; remove it if no process uses " +
                "the domain");
        }
    }

    /**
     * Give a file this process made in the root the root's group, as the set-group-ID bit would: with group access,
     * so the other users of the group trust it ({@link #checkFile}).
     *
     * @param file a new file in the root.
     * @throws FabricException {@link Errno#FI_EACCES} when this process may not (it is not in the root's group).
     */
    public void adoptGroup(final Path file)
    {
        try
        {
            if ((Integer)Files.getAttribute(file, "unix:gid", LinkOption.NOFOLLOW_LINKS) != gid)
            {
                Files.setAttribute(file, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
            }
        }
        catch (final IOException ex)
        {
            throw new FabricException(Errno.FI_EACCES, "cannot give " + file + " the shm root's group (gid " + gid +
                "), which the other users of a shared root need: " + ex, ex);
        }
    }

    private static void create(final Path rootDir, final boolean groupAccess) throws IOException
    {
        final Set<PosixFilePermission> permissions =
            PosixFilePermissions.fromString(groupAccess ? "rwxrwx---" : "rwx------");
        final Path parent = rootDir.toAbsolutePath().getParent();
        if (null != parent)
        {
            Files.createDirectories(parent);
        }
        try
        {
            Files.createDirectory(rootDir, PosixFilePermissions.asFileAttribute(permissions));
        }
        catch (final FileAlreadyExistsException ex)
        {
            return; // made by someone else meanwhile: checked like any existing directory.
        }
        // The umask may have taken group bits away; the directory is new and ours, so set exactly what was asked:
        // with group access also set-group-ID, so every file made in it has its group.
        Files.setAttribute(rootDir, "unix:mode", groupAccess ? SET_GROUP_ID | 0770 : 0700);
    }

    private static void checkShape(final Path rootDir, final Map<String, Object> attributes)
    {
        if ((Boolean)attributes.get("isSymbolicLink"))
        {
            String target = "?";
            try
            {
                target = Files.readSymbolicLink(rootDir).toString();
            }
            catch (final IOException | UnsupportedOperationException ignore)
            {
                // Only for the message.
            }
            throw new FabricException(Errno.FI_EACCES, "shm root " + rootDir + " is a symbolic link to " + target +
                ": jfabric uses only a real directory its user owns, never a " +
                "link, which another user could have made or could repoint. Set " + SETTING_HINT + " to the real " +
                "directory, or remove the link");
        }
        if (!(Boolean)attributes.get("isDirectory"))
        {
            throw new FabricException(Errno.FI_EINVAL, "shm root " + rootDir + " exists but is not a directory");
        }
    }

    private static void checkNotWritableByOthers(
        final Path rootDir, final Map<String, Object> attributes, final boolean groupAccess)
    {
        final int mode = mode(attributes);
        final String problem;
        if (0 != (mode & OTHERS_WRITE))
        {
            problem = "is writable by every user, who could plant or swap region files in it. If it is yours, " +
                "chmod it " + (groupAccess ? "770" : "700");
        }
        else if (!groupAccess && 0 != (mode & GROUP_WRITE))
        {
            problem = "is writable by its group but group access is off (jfabric.shm.group.access). If it is " +
                "yours, chmod it 700 or turn group access on; if its group shares it, turn group access on in " +
                "every process that uses it";
        }
        else
        {
            return;
        }
        throw new FabricException(Errno.FI_EACCES, "shm root directory " + rootDir + " (" +
            describe(rootDir, attributes) + ") " + problem + "; otherwise remove it, or set " + SETTING_HINT +
            " to a directory of your own");
    }

    private static int probeUid(final Path rootDir, final Map<String, Object> attributes) throws IOException
    {
        final Path probe;
        try
        {
            probe = TempFiles.create(rootDir, PROBE_TARGET,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        catch (final AccessDeniedException ex)
        {
            throw new FabricException(Errno.FI_EACCES, "shm root directory " + rootDir + " (" +
                describe(rootDir, attributes) + ") does not let this process create files: it is not this user's " +
                "directory. Set " + SETTING_HINT + " to a directory of your own", ex);
        }
        try
        {
            return (Integer)Files.getAttribute(probe, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        }
        finally
        {
            OwnedFiles.delete(probe);
        }
    }

    private static void checkOwner(
        final Path rootDir, final Map<String, Object> attributes, final int processUid, final boolean groupAccess)
    {
        if ((Integer)attributes.get("uid") == processUid ||
            (groupAccess && 0 != (mode(attributes) & GROUP_WRITE)))
        {
            return; // This user's, or a root its group shares: the probe got in through the group's write permission.
        }
        throw new FabricException(Errno.FI_EACCES, "shm root directory " + rootDir + " (" +
            describe(rootDir, attributes) + ") is not owned by this process's user (uid " + processUid + "): " +
            "another user may have created it to plant region files. Remove it if it is not in use, or set " +
            SETTING_HINT + " to a directory of your own");
    }

    private static Map<String, Object> takeAway(
        final Path rootDir,
        final Map<String, Object> attributes,
        final int excess,
        final boolean groupAccess,
        final int processUid) throws IOException
    {
        final int tightened = mode(attributes) & ~excess;
        // No link-safe chmod in Java (Temurin 25 follows the link even with NOFOLLOW_LINKS), so check again after.
        Files.setAttribute(rootDir, "unix:mode", tightened);

        final Map<String, Object> after = readAttributes(rootDir);
        if (null == after ||
            !Objects.equals(after.get("fileKey"), attributes.get("fileKey")) ||
            (Boolean)after.get("isSymbolicLink") ||
            (Integer)after.get("uid") != processUid ||
            mode(after) != tightened)
        {
            throw new FabricException(Errno.FI_EACCES, "shm root directory " + rootDir + " changed while its " +
                "permissions were being tightened to " + String.format("%04o", tightened) + " (now " +
                (null == after ? "missing" : describe(rootDir, after)) + "): something else is changing it. Set " +
                SETTING_HINT + " to a directory only you use");
        }
        checkNotWritableByOthers(rootDir, after, groupAccess);
        return after;
    }

    private static int mode(final Map<String, Object> attributes)
    {
        return (Integer)attributes.get("mode") & PERMISSION_BITS;
    }

    private static String describe(final Path file, final Map<String, Object> attributes)
    {
        final int uid = (Integer)attributes.get("uid");
        String owner = "uid " + uid;
        try
        {
            final String name = Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).getName();
            if (!name.equals(Integer.toString(uid)))
            {
                owner = name + " (uid " + uid + ")";
            }
        }
        catch (final IOException | UnsupportedOperationException ignore)
        {
            // Only for the message: the uid alone will do.
        }
        return "owner " + owner + ", gid " + attributes.get("gid") + ", mode " +
            String.format("%04o", mode(attributes));
    }
}
