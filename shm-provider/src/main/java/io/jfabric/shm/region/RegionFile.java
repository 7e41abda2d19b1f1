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
import io.jfabric.shm.core.MappedFileWatch;
import io.jfabric.shm.core.ProcessIdentity;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A named domain's region file, {@code <rootDir>/<name>.domain}, mapped into this process: created by exactly one
 * process, opened by every other one that uses the domain, validated before anything in it is trusted.
 * <p>
 * The root directory is checked before anything in it is used (see {@code RegionDirectory}): a real directory, not
 * a symbolic link, owned by this process's user (the owner of a probe file this process creates there), writable
 * by nobody else (its group may, with group access); read or search permission for others is taken away. A region
 * file is used only when it is owned by this process's user or, with group access, has the root directory's group,
 * and is not writable by every user. This stops another local user from pre-creating the predictable default root
 * and planting a region this process would map read-write.
 * <p>
 * Creation: the region is built complete in a unique temporary file in the same directory and then published with
 * one {@code link(2)}, which fails if the name exists; so a region file is never visible half written, and when
 * several processes race exactly one wins and the others open the winner's file. The temporary file is first
 * filled with zeros through its channel in {@link #PREALLOCATE_CHUNK} writes, so tmpfs allocates every page at
 * creation: a full file system fails the creation with {@link Errno#FI_ENOSPC}, deleting the temporary file and
 * publishing nothing, instead of a later first touch of a page faulting the JVM with SIGBUS. Then the header is
 * written through the mapping, its ready flag last with release.
 * <p>
 * Opening checks the file's type and owner without following links, opens it without following links, then reads
 * the header page with {@code read(2)} into a private copy and validates, from that copy, in this order: the ready
 * flag (a file with a foreign magic is refused at once, a jfabric one that is not ready is waited for, bounded,
 * re-reading the copy); magic; layout version; header length; checksum; name length; geometry; the geometry against
 * the requested one; the recorded domain name against the requested one. Only then is the file's length compared
 * with the header's region length and the whole file mapped. Nothing is mapped before that, so a file that is
 * truncated, or truncated concurrently, while it is being validated is refused with a {@link FabricException}
 * rather than faulting the JVM (touching a mapping past the end of a tmpfs file raises SIGBUS, which HotSpot turns
 * into an {@link InternalError} at best). Every open, creator included, then records itself in the region's user
 * table ({@link RegionUsers}: this process's identity, one entry per open, given back by {@link #close()}) and adds
 * one to the header's attach count. A region being removed ({@code jfabric clean}, which removes a region only when
 * no user is alive) is not joined: the open waits, bounded, for the removal to end and creates the region anew.
 * <p>
 * What cannot be defended against: jfabric never truncates a region, but a process of the same user (or of the
 * group, with group access) can truncate a region file while it is mapped, and the next access past the new end
 * faults the JVM. Java offers no defence: tmpfs files cannot be sealed ({@code F_SEAL_SHRINK} exists only for
 * memfd), and there is no portable way to catch the fault. Everything that may write the region is trusted for
 * that reason; the ownership checks keep everyone else out.
 * <p>
 * Errors are {@link FabricException}s naming the file and what is wrong:
 * <ul>
 *   <li>{@link Errno#FI_EINVAL}: a bad domain name or geometry; a root that is not a directory; a file that is
 *   empty, truncated, not a regular file, foreign (wrong magic), of another layout version, damaged (a field out of
 *   range, wrong length), or of another geometry or domain name than requested.</li>
 *   <li>{@link Errno#FI_ECRC}: the header checksum does not match its fields.</li>
 *   <li>{@link Errno#FI_ETIMEDOUT}: a jfabric header whose ready flag was not set within the timeout.</li>
 *   <li>{@link Errno#FI_ENOSPC}: the file system has less free space than the region needs, or ran out while the
 *   region's pages were being allocated.</li>
 *   <li>{@link Errno#FI_EACCES}: a root directory or region file that is not this user's or that others may write
 *   (the message names its owner and mode and what to do), or permission denied; {@link Errno#FI_EIO}: any other
 *   I/O failure; {@link Errno#FI_EBUSY}: the name kept appearing and disappearing under concurrent removal, or a
 *   live process's removal of the region did not end within the ready timeout.</li>
 *   <li>{@link Errno#FI_ENOSPC} also when the region's user table is full of live processes' opens.</li>
 * </ul>
 * Files are created mode 0600, or 0660 of the root's group with group access; a missing root directory is created
 * 0700, or 02770 with group access.
 * <p>
 * Threads: {@link #openOrCreate} from any thread; the getters from any thread while open; {@link #close()} once,
 * from any thread. {@link #close()} unmaps the region at once, so every user of {@link #buffer()} (rings, slots,
 * tables built over it) must have stopped before it is called: touching an unmapped region crashes the JVM. The
 * domain that owns a {@code RegionFile} closes it only after every object opened from the domain is closed (each
 * holds a domain reference; closing the domain before that fails with {@link Errno#FI_EBUSY}): that is the contract
 * endpoints and everything else built over the region must keep, by stopping all use of the buffer before they
 * release their reference.
 */
public final class RegionFile implements AutoCloseable
{
    private volatile boolean keepMapped;
    /** File name suffix of a domain region. */
    public static final String FILE_SUFFIX = ".domain";

    /** Longest domain name, in characters. */
    public static final int MAX_NAME_LENGTH = 200;

    /** How long an open waits for a jfabric header that is not yet marked ready. */
    public static final long DEFAULT_READY_TIMEOUT_MS = 500;

    /** Bytes of zeros written per call when a new region's pages are allocated. */
    public static final int PREALLOCATE_CHUNK = SharedFile.PREALLOCATE_CHUNK;

    private static final String WHAT = "domain region";

    private static final int MAX_ATTEMPTS = 16;

    private final Path path;
    private final boolean created;
    private final RegionGeometry geometry;
    private final long creatorPid;
    private final long creatorStartTime;
    private final long creationTime;
    private final long regionNonce;
    private final SharedFile.Mapped mapped;
    private final MappedByteBuffer mappedBuffer;
    private volatile String fault;
    private final UnsafeBuffer buffer;
    private final RegionHeader header;
    private final RegionUsers users;
    private final int userEntry;
    private volatile boolean closed;

    /**
     * @param validated the header that was validated: the private copy for an open, the mapping for a create; the
     *                  creator fields are taken from it, not read again through the mapping.
     * @param userEntry the user table entry this open holds.
     */
    private RegionFile(
        final Path path,
        final boolean created,
        final RegionGeometry geometry,
        final SharedFile.Mapped mapped,
        final UnsafeBuffer buffer,
        final RegionHeader validated,
        final int userEntry)
    {
        this.path = path;
        this.created = created;
        this.geometry = geometry;
        this.mapped = mapped;
        this.mappedBuffer = mapped.buffer();
        this.creatorPid = validated.creatorPid();
        this.creatorStartTime = validated.creatorStartTime();
        this.creationTime = validated.creationTime();
        this.regionNonce = validated.regionNonce();
        this.buffer = buffer;
        this.header = new RegionHeader(buffer);
        this.users = new RegionUsers(buffer);
        this.userEntry = userEntry;
        header.incrementAttachCount();
    }

    /**
     * Open the named domain's region, creating it when it does not exist, waiting at most
     * {@link #DEFAULT_READY_TIMEOUT_MS} for a header that is not marked ready.
     *
     * @param rootDir     directory of the shared files; created when missing; must be this user's own (see the
     *                    class description).
     * @param domainName  the domain's name: letters, digits, '.', '_' and '-', not starting with '.' or '-', at
     *                    most {@link #MAX_NAME_LENGTH} characters.
     * @param geometry    the geometry this process needs; an existing region must have exactly this one.
     * @param groupAccess create files 0660 and a missing root directory 0770, instead of 0600 and 0700; accept a
     *                    group-writable root and region files of the root's group.
     * @return the open region.
     * @throws FabricException see the class description for the error numbers.
     */
    public static RegionFile openOrCreate(
        final Path rootDir, final String domainName, final RegionGeometry geometry, final boolean groupAccess)
    {
        return openOrCreate(rootDir, domainName, geometry, groupAccess, DEFAULT_READY_TIMEOUT_MS);
    }

    /**
     * As {@link #openOrCreate(Path, String, RegionGeometry, boolean)} with an explicit ready timeout.
     *
     * @param rootDir        directory of the shared files; created when missing.
     * @param domainName     the domain's name.
     * @param geometry       the geometry this process needs.
     * @param groupAccess    create files 0660 and a missing root directory 0770; trust the root's group.
     * @param readyTimeoutMs how long to wait for a jfabric header that is not marked ready, at least 0.
     * @return the open region.
     * @throws FabricException see the class description for the error numbers.
     */
    public static RegionFile openOrCreate(
        final Path rootDir,
        final String domainName,
        final RegionGeometry geometry,
        final boolean groupAccess,
        final long readyTimeoutMs)
    {
        Objects.requireNonNull(rootDir, "rootDir");
        Objects.requireNonNull(geometry, "geometry");
        validateDomainName(domainName);
        if (readyTimeoutMs < 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "ready timeout " + readyTimeoutMs + " ms is negative");
        }

        final Object directory = SharedFile.checkedRoot(rootDir, groupAccess);
        final Path path = regionPath(rootDir, domainName);
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
        {
            final RegionFormat existingFormat = new RegionFormat(domainName, geometry, readyTimeoutMs);
            final SharedFile.Mapped existing =
                SharedFile.openExisting(directory, path, WHAT, existingFormat, false);
            if (existing != null)
            {
                final RegionFile region = attach(existing, geometry, existingFormat.validated(), readyTimeoutMs);
                if (region != null)
                {
                    return region;
                }
                continue;
            }

            final RegionFormat newFormat = new RegionFormat(domainName, geometry, readyTimeoutMs);
            final SharedFile.Mapped created = SharedFile.tryCreate(directory, path, WHAT, newFormat, groupAccess,
                "shrink the shm ring or slot settings");
            if (created != null)
            {
                final RegionFile region = attach(created, geometry, newFormat.validated(), readyTimeoutMs);
                if (region != null)
                {
                    return region;
                }
            }
        }

        throw new FabricException(Errno.FI_EBUSY, "domain region " + path + " kept appearing and disappearing over " +
            MAX_ATTEMPTS + " attempts to open or create it: something is removing it while it is in use");
    }

    /**
     * Record this open in the region's user table ({@link RegionUsers}), unless the region is being removed: then wait
     * (bounded) for the removal to end and report whether the file is still the one the path names.
     *
     * @return the open region, or null when the mapped file was removed meanwhile (it is unmapped: look again).
     * @throws FabricException {@link Errno#FI_ENOSPC} when the user table is full of live processes,
     *                         {@link Errno#FI_EBUSY} when a live remover did not finish within the timeout.
     */
    private static RegionFile attach(
        final SharedFile.Mapped mapped,
        final RegionGeometry geometry,
        final RegionHeader validated,
        final long timeoutMs)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(mapped.buffer());
        final int entry;
        try
        {
            entry = claimUserEntry(mapped, new RegionUsers(buffer), timeoutMs);
        }
        catch (final RuntimeException | Error ex)
        {
            SharedFile.unmapQuietly(mapped.buffer());
            throw ex;
        }
        if (entry < 0)
        {
            SharedFile.unmapQuietly(mapped.buffer());
            return null;
        }
        return new RegionFile(mapped.path(), mapped.created(), geometry, mapped, buffer, validated, entry);
    }

    private static int claimUserEntry(final SharedFile.Mapped mapped, final RegionUsers users, final long timeoutMs)
    {
        final long self = ProcessIdentity.self();
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true)
        {
            final int entry = users.claim(self);
            if (entry < 0)
            {
                throw new FabricException(Errno.FI_ENOSPC, "domain region " + mapped.path() + " is open " +
                    RegionDescriptor.USER_TABLE_ENTRIES + " times already (domain objects of live processes), the " +
                    "most its user table records; close some");
            }
            final long remover = users.remover();
            if (remover == 0)
            {
                return entry;
            }
            users.release(entry, self);
            try
            {
                if (!mapped.isStillLinked())
                {
                    return -1; // Removed while being opened: the next attempt creates a new region.
                }
            }
            catch (final IOException ex)
            {
                throw SharedFile.ioFailure("open domain region " + mapped.path(), ex);
            }
            if (ProcessIdentity.isGone(remover))
            {
                users.compareAndSetRemover(remover, 0); // A remover that died half-way: the region is in use again.
            }
            else if (System.nanoTime() - deadline >= 0)
            {
                throw new FabricException(Errno.FI_EBUSY, "domain region " + mapped.path() + " is being removed " +
                    "by " + ProcessIdentity.describe(remover) + " (jfabric clean), which did not finish within " +
                    timeoutMs + " ms");
            }
            else
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }

    /**
     * @param rootDir    directory of the shared files.
     * @param domainName a {@link #validateDomainName valid} domain name.
     * @return the region file's path: {@code <rootDir>/<domainName>.domain}.
     */
    public static Path regionPath(final Path rootDir, final String domainName)
    {
        return rootDir.resolve(domainName + FILE_SUFFIX);
    }

    /**
     * Check that a domain name is a safe file name: 1 to {@link #MAX_NAME_LENGTH} characters from letters, digits,
     * '.', '_' and '-' (US-ASCII), not starting with '.' (reserved for temporary files) or '-'.
     *
     * @param domainName the name.
     * @throws FabricException {@link Errno#FI_EINVAL} saying what is wrong with it.
     */
    public static void validateDomainName(final String domainName)
    {
        if (domainName == null || domainName.isEmpty())
        {
            throw new FabricException(Errno.FI_EINVAL, "domain name must not be " +
                (domainName == null ? "null" : "empty"));
        }
        if (domainName.length() > MAX_NAME_LENGTH)
        {
            throw new FabricException(Errno.FI_EINVAL, "domain name of " + domainName.length() +
                " characters is longer than " + MAX_NAME_LENGTH + ": \"" + domainName.substring(0, 32) + "...\"");
        }
        for (int i = 0; i < domainName.length(); i++)
        {
            final char c = domainName.charAt(i);
            final boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '_' || ((c == '.' || c == '-') && i > 0);
            if (!allowed)
            {
                throw new FabricException(Errno.FI_EINVAL, "domain name \"" + RegionFormat.printable(domainName) +
                    "\" has " + describeChar(c) + " at index " + i + "; a domain name is a file name of letters, " +
                    "digits, '.', '_' and '-', not starting with '.' or '-'");
            }
        }
    }

    /** @return the region file's path. */
    public Path path()
    {
        return path;
    }

    /** @return true when this open created the region, false when it opened an existing one. */
    public boolean created()
    {
        return created;
    }

    /** @return the region's geometry, equal to the requested one. */
    public RegionGeometry geometry()
    {
        return geometry;
    }

    /** @return pid of the process that created the region. */
    public long creatorPid()
    {
        return creatorPid;
    }

    /** @return start time of the process that created the region, epoch ms, or 0 when the platform did not say. */
    public long creatorStartTime()
    {
        return creatorStartTime;
    }

    /** @return when the region was created, epoch ms. */
    public long creationTime()
    {
        return creationTime;
    }

    /** @return the region's nonce: random, never 0, fixed when it was created; its named AV files carry it. */
    public long regionNonce()
    {
        return regionNonce;
    }

    /**
     * @return how many opens the region has seen in all processes so far, this one included (a volatile read).
     * @throws IllegalStateException once closed.
     */
    public long attachCount()
    {
        if (closed)
        {
            throw new IllegalStateException("domain region " + path + " is closed");
        }
        return header.attachCount();
    }

    /**
     * @return the whole region, offsets as in {@link RegionDescriptor}. Invalid once closed: every user must have
     * stopped using it, and anything built over it, before {@link #close()} is called.
     */
    public AtomicBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return true while {@link #path()} still names the file this process mapped (it was neither removed nor
     * replaced by another file of that name).
     * @throws IOException when the path cannot be looked at.
     */
    public boolean isStillLinked() throws IOException
    {
        return mapped.isStillLinked();
    }

    /** @return the mapped header. */
    RegionHeader header()
    {
        return header;
    }

    /**
     * @param attributes the path's attributes ({@link RegionDirectory#readAttributes}), null when nothing is there.
     * @return true when they are the mapped file's (same device and inode).
     */
    boolean isMapped(final Map<String, Object> attributes)
    {
        return mapped.isMapped(attributes);
    }

    /**
     * @return null while the region is sound, else why it is not: its file was truncated under the mapping, or an
     * access to the mapping faulted. A faulted region is unusable for good: the data path answers {@code -FI_EIO}.
     * One volatile load; any thread.
     */
    public String fault()
    {
        return fault;
    }

    /**
     * Mark the region unusable (the first reason is kept). Any thread.
     *
     * @param reason what happened, for messages and the domain's event queue.
     */
    public void fail(final String reason)
    {
        synchronized (this)
        {
            if (fault == null)
            {
                fault = reason;
            }
        }
    }

    /**
     * Mark the region unusable after an access to it faulted, as when another process truncated the file: the JVM
     * turns the SIGBUS of a mapped access into an {@link InternalError}; or after a ring's shared state sent an access
     * out of the ring's bounds ({@link IndexOutOfBoundsException}), which is what a faulting access can look like
     * before the JVM raises its error (the load returns garbage and Agrona's bounds check throws first), or what a
     * peer that damaged a ring leaves. For the data path's catch blocks.
     *
     * @param error what the JVM or the ring code threw.
     * @return {@code -FI_EIO}, what the data path call returns.
     */
    public int faulted(final Throwable error)
    {
        if (error instanceof InternalError && MappedFileWatch.check() > 0)
        {
            return -Errno.FI_EIO; // a segment or AV file was truncated: it fails on its own, the region is whole
        }
        fail(error instanceof IndexOutOfBoundsException ?
            "a ring in domain region " + path + " led an access out of bounds (" + error.getMessage() +
            "): was the file truncated or damaged by another process?" :
            "an access to domain region " + path + " faulted (" + error.getMessage() +
            "): was the file truncated by another process?");
        return -Errno.FI_EIO;
    }

    /**
     * Say that a view of the mapping was handed to the application (a zero-copy claim's buffer), which may use it
     * after the domain closes: from now on {@link #close()} leaves the mapping to the garbage collector instead of
     * unmapping it, so such a use touches mapped memory (the file, which stays) and never crashes the JVM. Any
     * thread.
     */
    public void keepMappedAfterClose()
    {
        keepMapped = true;
    }

    /**
     * Unmap the region now (unless {@link #keepMappedAfterClose}); idempotent. The file stays: other processes may
     * still use the domain.
     * <p>
     * The mapping is released immediately, not when the buffer is garbage collected, so every user of
     * {@link #buffer()} in this process must have stopped first: an access to the unmapped range crashes the JVM.
     * This instance's own buffer is re-pointed at an empty array, but views other code made of it are not.
     */
    @Override
    public void close()
    {
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            closed = true;
        }
        try
        {
            users.release(userEntry, ProcessIdentity.self());
        }
        catch (final InternalError ex)
        {
            fail("domain region " + path + " faulted at close: " + ex.getMessage()); // truncated: nothing to release
        }
        buffer.wrap(new byte[0]);
        if (!keepMapped)
        {
            IoUtil.unmap(mappedBuffer);
        }
    }

    @Override
    public String toString()
    {
        return "RegionFile{path=" + path + ", created=" + created + ", geometry=" + geometry +
            ", creatorPid=" + creatorPid + '}';
    }

    /**
     * Allocate every page of a new, empty file now; see {@link SharedFile#preallocate}.
     *
     * @param channel the new file, open for writing, empty.
     * @param length  how long the file must be.
     * @param dir     the file's directory.
     * @param what    what is being created, for messages.
     */
    static void preallocate(final FileChannel channel, final long length, final Path dir, final String what)
    {
        SharedFile.preallocate(channel, length, dir, what);
    }

    private static String describeChar(final char c)
    {
        return c >= 0x20 && c < 0x7f ? "'" + c + "'" : String.format("character U+%04X", (int)c);
    }
}
