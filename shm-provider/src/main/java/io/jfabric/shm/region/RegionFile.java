package io.jfabric.shm.region;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
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
 * into an {@link InternalError} at best). Every open, creator included, then adds one to the header's attach count
 * in the mapped file.
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
 *   I/O failure; {@link Errno#FI_EBUSY}: the name kept appearing and disappearing under concurrent removal.</li>
 * </ul>
 * Files are created mode 0600, or 0660 with group access; a missing root directory is created 0700 or 0770.
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
    /** File name suffix of a domain region. */
    public static final String FILE_SUFFIX = ".domain";

    /** Longest domain name, in characters. */
    public static final int MAX_NAME_LENGTH = 200;

    /** How long an open waits for a jfabric header that is not yet marked ready. */
    public static final long DEFAULT_READY_TIMEOUT_MS = 500;

    /** Bytes of zeros written per call when a new region's pages are allocated. */
    public static final int PREALLOCATE_CHUNK = 1 << 20;

    private static final int MAX_ATTEMPTS = 16;
    private static final long READY_POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Path path;
    private final boolean created;
    private final RegionGeometry geometry;
    private final long creatorPid;
    private final long creatorStartTime;
    private final long creationTime;
    private final MappedByteBuffer mappedBuffer;
    private final UnsafeBuffer buffer;
    private final RegionHeader header;
    private volatile boolean closed;

    /**
     * @param validated the header that was validated: the private copy for an open, the mapping for a create; the
     *                  creator fields are taken from it, not read again through the mapping.
     */
    private RegionFile(
        final Path path,
        final boolean created,
        final RegionGeometry geometry,
        final MappedByteBuffer mappedBuffer,
        final RegionHeader validated)
    {
        this.path = path;
        this.created = created;
        this.geometry = geometry;
        this.mappedBuffer = mappedBuffer;
        this.creatorPid = validated.creatorPid();
        this.creatorStartTime = validated.creatorStartTime();
        this.creationTime = validated.creationTime();
        this.buffer = new UnsafeBuffer(mappedBuffer);
        this.header = new RegionHeader(buffer);
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

        final RegionDirectory directory = RegionDirectory.open(rootDir, groupAccess);
        final Path path = regionPath(rootDir, domainName);
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
        {
            final RegionFile existing = openExisting(directory, path, domainName, geometry, readyTimeoutMs);
            if (existing != null)
            {
                return existing;
            }

            final RegionFile created = tryCreate(directory, path, domainName, geometry, groupAccess);
            if (created != null)
            {
                return created;
            }
        }

        throw new FabricException(Errno.FI_EBUSY, "domain region " + path + " kept appearing and disappearing over " +
            MAX_ATTEMPTS + " attempts to open or create it: something is removing it while it is in use");
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
                throw new FabricException(Errno.FI_EINVAL, "domain name \"" + printable(domainName) +
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
     * Unmap the region now; idempotent. The file stays: other processes may still use the domain.
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
        buffer.wrap(new byte[0]);
        IoUtil.unmap(mappedBuffer);
    }

    @Override
    public String toString()
    {
        return "RegionFile{path=" + path + ", created=" + created + ", geometry=" + geometry +
            ", creatorPid=" + creatorPid + '}';
    }

    private static RegionFile openExisting(
        final RegionDirectory directory,
        final Path path,
        final String domainName,
        final RegionGeometry geometry,
        final long readyTimeoutMs)
    {
        final String source = "domain region " + path;
        try (FileChannel channel = directory.openTrusted(source, path))
        {
            if (null == channel)
            {
                return null; // Absent, or removed or replaced while being opened: look again.
            }

            final ByteBuffer page = ByteBuffer.allocate(RegionDescriptor.HEADER_LENGTH);
            final RegionHeader copy = new RegionHeader(new UnsafeBuffer(page));
            readHeaderPage(channel, page, source);
            validateHeader(channel, page, copy, source, domainName, geometry, readyTimeoutMs);

            final long regionLength = copy.regionLength();
            final long fileLength = channel.size();
            if (fileLength != regionLength)
            {
                throw new FabricException(Errno.FI_EINVAL, source + " is " + (fileLength < regionLength ?
                    "truncated" : "damaged") + ": " + fileLength + " bytes but its header says " + regionLength);
            }

            return new RegionFile(
                path, false, geometry, channel.map(FileChannel.MapMode.READ_WRITE, 0, regionLength), copy);
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw ioFailure("open " + source, ex);
        }
    }

    /**
     * Read the header page into {@code page} with positional reads, never through a mapping; for region and
     * segment files, whose headers are both one page.
     *
     * @param channel the file.
     * @param page    a buffer of {@link RegionDescriptor#HEADER_LENGTH} bytes.
     * @param source  what the file is, for messages.
     * @throws IOException     on a read failure.
     * @throws FabricException {@link Errno#FI_EINVAL} when the file ends before the header does.
     */
    public static void readHeaderPage(final FileChannel channel, final ByteBuffer page, final String source)
        throws IOException
    {
        page.clear();
        while (page.hasRemaining())
        {
            if (channel.read(page, page.position()) < 0)
            {
                break;
            }
        }

        final int length = page.position();
        if (length < RegionDescriptor.HEADER_LENGTH)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is " + (0 == length ? "empty" : "truncated") +
                ": " + length + " bytes, shorter than its " + RegionDescriptor.HEADER_LENGTH + " byte header");
        }
    }

    /**
     * Validate the header from the private copy in {@code page}; waiting for ready re-reads the copy.
     */
    private static void validateHeader(
        final FileChannel channel,
        final ByteBuffer page,
        final RegionHeader copy,
        final String source,
        final String domainName,
        final RegionGeometry requested,
        final long readyTimeoutMs) throws IOException
    {
        awaitReady(channel, page, copy, source, readyTimeoutMs);
        copy.verify(source);

        final RegionGeometry found = copy.geometry();
        if (!found.equals(requested))
        {
            throw new FabricException(Errno.FI_EINVAL, source + " was created with another geometry (region vs " +
                "requested: " + found.describeMismatch(requested) + "); region " + found + ", requested " +
                requested + ". Every process of a domain must use the same shm ring and table settings");
        }

        final String foundName = copy.domainName();
        if (!foundName.equals(domainName))
        {
            throw new FabricException(Errno.FI_EINVAL,
                source + " belongs to domain \"" + printable(foundName) + "\", not \"" + domainName + "\"");
        }
    }

    /**
     * Wait, bounded, for the ready flag of the copy, re-reading it from the file. A header that is ready at the
     * first read is complete: jfabric publishes a region by {@code link(2)} only after its ready store.
     */
    private static void awaitReady(
        final FileChannel channel,
        final ByteBuffer page,
        final RegionHeader copy,
        final String source,
        final long readyTimeoutMs) throws IOException
    {
        if (copy.isReady())
        {
            return;
        }

        copy.verifyIdentity(source);
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(readyTimeoutMs);
        while (true)
        {
            if (System.nanoTime() - deadlineNs >= 0)
            {
                throw new FabricException(Errno.FI_ETIMEDOUT, source + " was not marked ready within " +
                    readyTimeoutMs + " ms: it was not published by a jfabric create, which links only finished " +
                    "regions, or it is damaged; remove it once no process uses the domain");
            }
            LockSupport.parkNanos(READY_POLL_NS);

            readHeaderPage(channel, page, source);
            if (copy.isReady())
            {
                // One read(2) copies the fields before the ready field, so a copy that caught the release store
                // mid-way may hold fields older than it; a read after that one sees everything written before it.
                readHeaderPage(channel, page, source);
                return;
            }
            copy.verifyIdentity(source);
        }
    }

    private static RegionFile tryCreate(
        final RegionDirectory directory,
        final Path path,
        final String domainName,
        final RegionGeometry geometry,
        final boolean groupAccess)
    {
        final Path dir = directory.path();
        final long regionLength = RegionDescriptor.regionLength(geometry);
        final Set<PosixFilePermission> permissions = PosixFilePermissions.fromString(groupAccess ? "rw-rw----" : "rw-------");
        Path temp = null;
        MappedByteBuffer mapped = null;
        try
        {
            final long usable = Files.getFileStore(dir).getUsableSpace();
            if (usable < regionLength)
            {
                if (Files.exists(path, LinkOption.NOFOLLOW_LINKS))
                {
                    return null; // Another process won the race and took the space: open its region.
                }
                throw new FabricException(Errno.FI_ENOSPC, "cannot create domain region " + path + ": it needs " +
                    regionLength + " bytes but " + dir + " has " + usable + " free; shrink the shm ring or slot " +
                    "settings or free space");
            }

            temp = Files.createTempFile(
                dir, "." + domainName + ".", ".tmp", PosixFilePermissions.asFileAttribute(permissions));
            Files.setPosixFilePermissions(temp, permissions);
            try (FileChannel channel = FileChannel.open(
                temp, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))
            {
                try
                {
                    preallocate(channel, regionLength, dir, "domain region " + path);
                }
                catch (final FabricException ex)
                {
                    if (Errno.FI_ENOSPC == ex.errno() && Files.exists(path, LinkOption.NOFOLLOW_LINKS))
                    {
                        return null; // Racing creators ran the space out and one of them published: open it.
                    }
                    throw ex;
                }
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, regionLength);
            }

            final RegionHeader header = new RegionHeader(new UnsafeBuffer(mapped));
            final ProcessHandle self = ProcessHandle.current();
            header.write(
                geometry,
                domainName,
                self.pid(),
                self.info().startInstant().map(Instant::toEpochMilli).orElse(0L),
                System.currentTimeMillis());
            header.publishReady();

            try
            {
                Files.createLink(path, temp);
            }
            catch (final FileAlreadyExistsException ex)
            {
                IoUtil.unmap(mapped);
                mapped = null;
                return null;
            }

            final RegionFile region = new RegionFile(path, true, geometry, mapped, header);
            mapped = null;
            return region;
        }
        catch (final IOException ex)
        {
            throw ioFailure("create domain region " + path, ex);
        }
        finally
        {
            if (null != mapped)
            {
                IoUtil.unmap(mapped);
            }
            deleteQuietly(temp);
        }
    }

    /**
     * Allocate every page of a new, empty file now: write zeros over {@code [0, length)} through the channel, in
     * {@link #PREALLOCATE_CHUNK} writes from one shared read-only direct buffer. On tmpfs a page that is first
     * touched through a mapping when the file system is full raises SIGBUS, which faults the JVM; written here, the
     * same shortage is an ordinary error before anything is published.
     *
     * @param channel the new file, open for writing, empty.
     * @param length  how long the file must be.
     * @param dir     the file's directory, to tell an out of space failure from another when the message is not the
     *                C library's English one.
     * @param what    what is being created, for messages.
     * @throws FabricException {@link Errno#FI_ENOSPC} when the file system ran out of space (or quota),
     *                         {@link Errno#FI_EIO} or {@link Errno#FI_EACCES} for any other write failure.
     */
    public static void preallocate(final FileChannel channel, final long length, final Path dir, final String what)
    {
        final ByteBuffer zeros = Zeros.BUFFER.duplicate();
        long position = 0;
        try
        {
            while (position < length)
            {
                zeros.clear().limit((int)Math.min(zeros.capacity(), length - position));
                while (zeros.hasRemaining())
                {
                    position += channel.write(zeros, position);
                }
            }
        }
        catch (final IOException ex)
        {
            if (isOutOfSpace(ex) || usableSpace(dir) < length - position)
            {
                throw new FabricException(Errno.FI_ENOSPC, "cannot create " + what + ": " + dir + " ran out of " +
                    "space after " + position + " of its " + length + " bytes were allocated (" + ex.getMessage() +
                    "); every page is allocated at creation because tmpfs answers a later first touch of a page it " +
                    "cannot supply with SIGBUS, which crashes the process. Free space, or shrink the shm ring or " +
                    "slot settings", ex);
            }
            throw ioFailure("allocate the pages of " + what, ex);
        }
    }

    /**
     * @param action what was being done, for the message.
     * @param ex     the failure.
     * @return the failure as a FabricException: FI_EACCES, FI_ENOSPC or FI_EIO.
     */
    public static FabricException ioFailure(final String action, final IOException ex)
    {
        final int errno = ex instanceof AccessDeniedException ? Errno.FI_EACCES :
            isOutOfSpace(ex) ? Errno.FI_ENOSPC : Errno.FI_EIO;
        return new FabricException(errno, "cannot " + action + ": " + ex, ex);
    }

    /** @return true when the failure is the C library's (English) ENOSPC or EDQUOT message. */
    private static boolean isOutOfSpace(final IOException ex)
    {
        final String message = ex.getMessage();
        return null != message && (message.contains("No space left on device") ||
            message.contains("Disk quota exceeded"));
    }

    private static long usableSpace(final Path dir)
    {
        try
        {
            return Files.getFileStore(dir).getUsableSpace();
        }
        catch (final IOException ex)
        {
            return Long.MAX_VALUE;
        }
    }

    /** The zeros {@link #preallocate} writes: allocated on first use only, shared, never written. */
    private static final class Zeros
    {
        static final ByteBuffer BUFFER = ByteBuffer.allocateDirect(PREALLOCATE_CHUNK).asReadOnlyBuffer();
    }

    /**
     * Delete a file if it exists, ignoring failures: for temporary files.
     *
     * @param temp the file, or null.
     */
    public static void deleteQuietly(final Path temp)
    {
        if (null != temp)
        {
            try
            {
                Files.deleteIfExists(temp);
            }
            catch (final IOException ignore)
            {
                // A leftover ".<name>.*.tmp" file is harmless: it is never opened as a region.
            }
        }
    }

    private static String describeChar(final char c)
    {
        return c >= 0x20 && c < 0x7f ? "'" + c + "'" : String.format("character U+%04X", (int)c);
    }

    private static String printable(final String s)
    {
        final StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f)
            {
                sb.append(c);
            }
            else
            {
                sb.append(String.format("\\u%04x", (int)c));
            }
        }
        return sb.toString();
    }
}
