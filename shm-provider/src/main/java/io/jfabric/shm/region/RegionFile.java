package io.jfabric.shm.region;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
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
 * Creation: the region is built complete in a unique temporary file in the same directory (sized sparse, header
 * written, ready flag last with release) and then published with one {@code link(2)}, which fails if the name
 * exists; so a region file is never visible half written, and when several processes race exactly one wins and
 * the others open the winner's file.
 * <p>
 * Opening validates, in this order, before trusting anything: the file is a regular file at least a header long;
 * the ready flag (acquire; a file with a foreign magic is refused at once, a jfabric one that is not ready is
 * waited for, bounded); magic; layout version; header length; checksum; name length; geometry; the file's length
 * against the geometry; the geometry against the requested one; the recorded domain name against the requested one.
 * Only the header page is mapped until the length is known to be right, so a truncated file cannot fault the JVM
 * (touching a mapping past the end of a tmpfs file raises SIGBUS). Every open, creator included, then adds one to
 * the header's attach count. jfabric never truncates a region; a file truncated by something else while it is
 * mapped can still fault the JVM, as with any mapped file.
 * <p>
 * Errors are {@link FabricException}s naming the file and what is wrong:
 * <ul>
 *   <li>{@link Errno#FI_EINVAL}: a bad domain name or geometry; a file that is empty, truncated, not a regular
 *   file, foreign (wrong magic), of another layout version, damaged (a field out of range, wrong length), or of
 *   another geometry or domain name than requested.</li>
 *   <li>{@link Errno#FI_ECRC}: the header checksum does not match its fields.</li>
 *   <li>{@link Errno#FI_ETIMEDOUT}: a jfabric header whose ready flag was not set within the timeout.</li>
 *   <li>{@link Errno#FI_ENOSPC}: the file system has less free space than the region needs; refused at creation
 *   because pages of a sparse tmpfs file that cannot be allocated later fault the JVM with SIGBUS.</li>
 *   <li>{@link Errno#FI_EACCES}: permission denied; {@link Errno#FI_EIO}: any other I/O failure;
 *   {@link Errno#FI_EBUSY}: the name kept appearing and disappearing under concurrent removal.</li>
 * </ul>
 * Files are created mode 0600, or 0660 with group access; a missing root directory is created 0700 or 0770.
 * <p>
 * Threads: {@link #openOrCreate} from any thread; the getters from any thread while open; {@link #close()} once,
 * from any thread, after every user of {@link #buffer()} has stopped: closing unmaps the region.
 */
public final class RegionFile implements AutoCloseable
{
    /** File name suffix of a domain region. */
    public static final String FILE_SUFFIX = ".domain";

    /** Longest domain name, in characters. */
    public static final int MAX_NAME_LENGTH = 200;

    /** How long an open waits for a jfabric header that is not yet marked ready. */
    public static final long DEFAULT_READY_TIMEOUT_MS = 500;

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

    private RegionFile(
        final Path path, final boolean created, final RegionGeometry geometry, final MappedByteBuffer mappedBuffer)
    {
        this.path = path;
        this.created = created;
        this.geometry = geometry;
        this.mappedBuffer = mappedBuffer;
        this.buffer = new UnsafeBuffer(mappedBuffer);
        this.header = new RegionHeader(buffer);
        this.creatorPid = header.creatorPid();
        this.creatorStartTime = header.creatorStartTime();
        this.creationTime = header.creationTime();
        header.incrementAttachCount();
    }

    /**
     * Open the named domain's region, creating it when it does not exist, waiting at most
     * {@link #DEFAULT_READY_TIMEOUT_MS} for a header that is not marked ready.
     *
     * @param rootDir     directory of the shared files; created when missing.
     * @param domainName  the domain's name: letters, digits, '.', '_' and '-', not starting with '.' or '-', at
     *                    most {@link #MAX_NAME_LENGTH} characters.
     * @param geometry    the geometry this process needs; an existing region must have exactly this one.
     * @param groupAccess create files 0660 and a missing root directory 0770, instead of 0600 and 0700.
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
     * @param groupAccess    create files 0660 and a missing root directory 0770.
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

        ensureRootDir(rootDir, groupAccess);
        final Path path = regionPath(rootDir, domainName);
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
        {
            final RegionFile existing = openExisting(path, domainName, geometry, readyTimeoutMs);
            if (existing != null)
            {
                return existing;
            }

            final RegionFile created = tryCreate(path, domainName, geometry, groupAccess);
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
     * @return the whole region, offsets as in {@link RegionDescriptor}. Invalid once closed: do not keep it past
     * {@link #close()}.
     */
    public AtomicBuffer buffer()
    {
        return buffer;
    }

    /**
     * Unmap the region; idempotent. The file stays: other processes may still use the domain.
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
        final Path path, final String domainName, final RegionGeometry geometry, final long readyTimeoutMs)
    {
        try
        {
            final BasicFileAttributes attributes;
            try
            {
                attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            }
            catch (final NoSuchFileException ex)
            {
                return null;
            }
            if (!attributes.isRegularFile())
            {
                throw new FabricException(Errno.FI_EINVAL, "domain region " + path + " is not a regular file");
            }

            try (FileChannel channel = FileChannel.open(
                path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))
            {
                final long fileLength = channel.size();
                if (fileLength < RegionDescriptor.HEADER_LENGTH)
                {
                    throw new FabricException(Errno.FI_EINVAL, "domain region " + path + " is " +
                        (0 == fileLength ? "empty" : "truncated") + ": " + fileLength + " bytes, shorter than its " +
                        RegionDescriptor.HEADER_LENGTH + " byte header");
                }

                validateHeader(path, channel, fileLength, domainName, geometry, readyTimeoutMs);

                return new RegionFile(path, false, geometry, channel.map(FileChannel.MapMode.READ_WRITE, 0, fileLength));
            }
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw ioFailure("open domain region " + path, ex);
        }
    }

    private static void validateHeader(
        final Path path,
        final FileChannel channel,
        final long fileLength,
        final String domainName,
        final RegionGeometry requested,
        final long readyTimeoutMs) throws IOException
    {
        final String source = "domain region " + path;
        final MappedByteBuffer headerPage = channel.map(FileChannel.MapMode.READ_WRITE, 0, RegionDescriptor.HEADER_LENGTH);
        try
        {
            final RegionHeader header = new RegionHeader(new UnsafeBuffer(headerPage));
            awaitReady(header, source, readyTimeoutMs);
            header.verify(source);

            final long regionLength = header.regionLength();
            if (fileLength != regionLength)
            {
                throw new FabricException(Errno.FI_EINVAL, source + " is " + (fileLength < regionLength ?
                    "truncated" : "damaged") + ": " + fileLength + " bytes but its header says " + regionLength);
            }

            final RegionGeometry found = header.geometry();
            if (!found.equals(requested))
            {
                throw new FabricException(Errno.FI_EINVAL, source + " was created with another geometry (region vs " +
                    "requested: " + found.describeMismatch(requested) + "); region " + found + ", requested " +
                    requested + ". Every process of a domain must use the same shm ring and table settings");
            }

            final String foundName = header.domainName();
            if (!foundName.equals(domainName))
            {
                throw new FabricException(Errno.FI_EINVAL,
                    source + " belongs to domain \"" + printable(foundName) + "\", not \"" + domainName + "\"");
            }
        }
        finally
        {
            IoUtil.unmap(headerPage);
        }
    }

    private static void awaitReady(final RegionHeader header, final String source, final long readyTimeoutMs)
    {
        if (header.isReady())
        {
            return;
        }

        header.verifyIdentity(source);
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(readyTimeoutMs);
        while (!header.isReady())
        {
            if (System.nanoTime() - deadlineNs >= 0)
            {
                throw new FabricException(Errno.FI_ETIMEDOUT, source + " was not marked ready within " +
                    readyTimeoutMs + " ms: it was not published by a jfabric create, which links only finished " +
                    "regions, or it is damaged; remove it once no process uses the domain");
            }
            LockSupport.parkNanos(READY_POLL_NS);
        }
    }

    private static RegionFile tryCreate(
        final Path path, final String domainName, final RegionGeometry geometry, final boolean groupAccess)
    {
        final Path dir = path.getParent();
        final long regionLength = RegionDescriptor.regionLength(geometry);
        final Set<PosixFilePermission> permissions = PosixFilePermissions.fromString(groupAccess ? "rw-rw----" : "rw-------");
        Path temp = null;
        MappedByteBuffer mapped = null;
        try
        {
            final long usable = Files.getFileStore(dir).getUsableSpace();
            if (usable < regionLength)
            {
                throw new FabricException(Errno.FI_ENOSPC, "cannot create domain region " + path + ": it needs " +
                    regionLength + " bytes but " + dir + " has " + usable + " free; shrink the shm ring or slot " +
                    "settings or free space");
            }

            temp = Files.createTempFile(
                dir, "." + domainName + ".", ".tmp", PosixFilePermissions.asFileAttribute(permissions));
            Files.setPosixFilePermissions(temp, permissions);
            try (RandomAccessFile file = new RandomAccessFile(temp.toFile(), "rw"))
            {
                file.setLength(regionLength);
                mapped = file.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, regionLength);
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

            final RegionFile region = new RegionFile(path, true, geometry, mapped);
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

    private static void ensureRootDir(final Path rootDir, final boolean groupAccess)
    {
        if (Files.isDirectory(rootDir))
        {
            return;
        }

        final Set<PosixFilePermission> permissions = PosixFilePermissions.fromString(groupAccess ? "rwxrwx---" : "rwx------");
        try
        {
            final Path parent = rootDir.toAbsolutePath().getParent();
            if (null != parent)
            {
                Files.createDirectories(parent);
            }
            Files.createDirectory(rootDir, PosixFilePermissions.asFileAttribute(permissions));
            Files.setPosixFilePermissions(rootDir, permissions);
        }
        catch (final FileAlreadyExistsException ex)
        {
            if (!Files.isDirectory(rootDir))
            {
                throw new FabricException(Errno.FI_EINVAL, "shm root " + rootDir + " exists but is not a directory", ex);
            }
        }
        catch (final IOException ex)
        {
            throw ioFailure("create shm root directory " + rootDir, ex);
        }
    }

    private static FabricException ioFailure(final String action, final IOException ex)
    {
        final int errno = ex instanceof AccessDeniedException ? Errno.FI_EACCES : Errno.FI_EIO;
        return new FabricException(errno, "cannot " + action + ": " + ex, ex);
    }

    private static void deleteQuietly(final Path temp)
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
