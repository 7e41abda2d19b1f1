package io.jfabric.shm.mr;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.region.RegionDirectory;
import io.jfabric.shm.region.RegionFile;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

import static io.jfabric.shm.mr.SegmentDescriptor.*;

/**
 * One shareable memory segment file (layout in {@link SegmentDescriptor}) mapped into this process: created by its
 * owner, mapped on demand by peers.
 * <p>
 * Creation follows the region's discipline ({@link RegionFile}): a temporary file in the root directory, every
 * page allocated by writing zeros ({@link RegionFile#preallocate}, so a full tmpfs is an {@link Errno#FI_ENOSPC}
 * now rather than a SIGBUS later), header written and marked ready with release, then published by
 * {@code link(2)}. Opening by a peer checks the file with the root directory's ownership rule
 * ({@link RegionDirectory#checkFile}), opens it without following links, validates a private copy of the header
 * page, compares the file's length, and only then maps it. The peer's mapping keeps the pages alive after the
 * owner unmaps and deletes the file, so an access racing the owner's close never touches freed memory.
 * <p>
 * Threads: created and opened on the control path (a peer's first access to a segment); the buffer may be used from
 * any thread until {@link #close()}, which unmaps at once.
 */
public final class SegmentFile implements AutoCloseable
{
    private final Path path;
    private final long ownerPid;
    private final long segmentId;
    private final long dataLength;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private boolean closed;

    private SegmentFile(
        final Path path, final long ownerPid, final long segmentId, final long dataLength, final MappedByteBuffer mapped)
    {
        this.path = path;
        this.ownerPid = ownerPid;
        this.segmentId = segmentId;
        this.dataLength = dataLength;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
    }

    /**
     * Create and map a new segment.
     *
     * @param directory   the checked root directory.
     * @param domainName  the domain.
     * @param ownerPid    this process's pid.
     * @param segmentId   this process's number for the segment, unique per process and domain.
     * @param dataLength  bytes of data, in {@code [1, MAX_DATA_LENGTH]}.
     * @param groupAccess create 0660 rather than 0600.
     * @return the mapped segment.
     */
    public static SegmentFile create(
        final RegionDirectory directory,
        final String domainName,
        final long ownerPid,
        final long segmentId,
        final long dataLength,
        final boolean groupAccess)
    {
        if (dataLength < 1 || dataLength > MAX_DATA_LENGTH)
        {
            throw new FabricException(Errno.FI_EINVAL,
                "allocShareable: length " + dataLength + " not in [1, " + MAX_DATA_LENGTH + "]");
        }
        final Path dir = directory.path();
        final Path path = dir.resolve(fileName(domainName, ownerPid, segmentId));
        final long fileLength = fileLength(dataLength);
        final Set<PosixFilePermission> permissions =
            PosixFilePermissions.fromString(groupAccess ? "rw-rw----" : "rw-------");
        Path temp = null;
        MappedByteBuffer mapped = null;
        try
        {
            temp = Files.createTempFile(dir, "." + domainName + ".seg.", ".tmp",
                PosixFilePermissions.asFileAttribute(permissions));
            Files.setPosixFilePermissions(temp, permissions);
            try (FileChannel channel = FileChannel.open(
                temp, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))
            {
                RegionFile.preallocate(channel, fileLength, dir, "shareable memory segment " + path);
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, fileLength);
            }
            final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
            header.putLong(MAGIC_OFFSET, MAGIC);
            header.putInt(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
            header.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
            header.putLong(DATA_LENGTH_OFFSET, dataLength);
            header.putLong(OWNER_PID_OFFSET, ownerPid);
            header.putLong(SEGMENT_ID_OFFSET, segmentId);
            header.putIntRelease(READY_OFFSET, READY_VALUE);
            try
            {
                Files.createLink(path, temp);
            }
            catch (final FileAlreadyExistsException ex)
            {
                throw new FabricException(Errno.FI_EBUSY, "allocShareable: segment file " + path + " already " +
                    "exists: left by an earlier process with this pid; remove it once no process uses the domain", ex);
            }
            final SegmentFile segment = new SegmentFile(path, ownerPid, segmentId, dataLength, mapped);
            mapped = null;
            return segment;
        }
        catch (final IOException ex)
        {
            throw RegionFile.ioFailure("create shareable memory segment " + path, ex);
        }
        finally
        {
            if (mapped != null)
            {
                IoUtil.unmap(mapped);
            }
            RegionFile.deleteQuietly(temp);
        }
    }

    /**
     * Map a peer's segment, validating it first.
     *
     * @param directory  the checked root directory.
     * @param domainName the domain.
     * @param ownerPid   the owner recorded in the key table entry.
     * @param segmentId  the segment id recorded in the key table entry.
     * @return the mapped segment, or null when the file does not exist (the owner freed it).
     * @throws FabricException {@link Errno#FI_EINVAL} for a file that is not a valid segment of that owner and id,
     *                         or as {@link RegionDirectory#checkFile} says.
     */
    public static SegmentFile open(
        final RegionDirectory directory, final String domainName, final long ownerPid, final long segmentId)
    {
        final Path path = directory.path().resolve(fileName(domainName, ownerPid, segmentId));
        final String source = "shareable memory segment " + path;
        try (FileChannel channel = directory.openTrusted(source, path))
        {
            if (channel == null)
            {
                return null;
            }
            final ByteBuffer page = ByteBuffer.allocate(HEADER_LENGTH);
            RegionFile.readHeaderPage(channel, page, source);
            final UnsafeBuffer copy = new UnsafeBuffer(page);
            final long dataLength = validate(copy, source, ownerPid, segmentId);
            final long fileLength = channel.size();
            if (fileLength != fileLength(dataLength))
            {
                throw new FabricException(Errno.FI_EINVAL, source + " is damaged or truncated: " + fileLength +
                    " bytes but its header's data length " + dataLength + " needs " + fileLength(dataLength));
            }
            return new SegmentFile(path, ownerPid, segmentId, dataLength,
                channel.map(FileChannel.MapMode.READ_WRITE, 0, fileLength));
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw RegionFile.ioFailure("open " + source, ex);
        }
    }

    private static long validate(final UnsafeBuffer copy, final String source, final long ownerPid, final long segmentId)
    {
        if (copy.getIntAcquire(READY_OFFSET) != READY_VALUE)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is not marked ready: it was not published by " +
                "jfabric, which links only finished segments");
        }
        if (copy.getLong(MAGIC_OFFSET) != MAGIC)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is not a jfabric segment: magic 0x" +
                Long.toHexString(copy.getLong(MAGIC_OFFSET)) + ", expected 0x" + Long.toHexString(MAGIC));
        }
        if (copy.getInt(LAYOUT_VERSION_OFFSET) != LAYOUT_VERSION || copy.getInt(HEADER_LENGTH_OFFSET) != HEADER_LENGTH)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " has layout version " +
                copy.getInt(LAYOUT_VERSION_OFFSET) + " and header length " + copy.getInt(HEADER_LENGTH_OFFSET) +
                "; this jfabric reads version " + LAYOUT_VERSION + " with a " + HEADER_LENGTH + " byte header");
        }
        if (copy.getLong(OWNER_PID_OFFSET) != ownerPid || copy.getLong(SEGMENT_ID_OFFSET) != segmentId)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " records owner " + copy.getLong(OWNER_PID_OFFSET) +
                " segment " + copy.getLong(SEGMENT_ID_OFFSET) + ", not owner " + ownerPid + " segment " + segmentId);
        }
        final long dataLength = copy.getLong(DATA_LENGTH_OFFSET);
        if (dataLength < 1 || dataLength > MAX_DATA_LENGTH)
        {
            throw new FabricException(Errno.FI_EINVAL,
                source + " is damaged: data length " + dataLength + " not in [1, " + MAX_DATA_LENGTH + "]");
        }
        return dataLength;
    }

    /** @return the file. */
    public Path path()
    {
        return path;
    }

    /** @return the owner's pid. */
    public long ownerPid()
    {
        return ownerPid;
    }

    /** @return the owner's segment number. */
    public long segmentId()
    {
        return segmentId;
    }

    /** @return data bytes. */
    public long dataLength()
    {
        return dataLength;
    }

    /** @return the whole file; data at {@link SegmentDescriptor#DATA_OFFSET}. Invalid once closed. */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** @return the mapping, for direct buffer views. Invalid once closed. */
    MappedByteBuffer mapped()
    {
        return mapped;
    }

    /** @return native address of the first data byte in this process. */
    public long dataAddress()
    {
        return buffer.addressOffset() + DATA_OFFSET;
    }

    /**
     * Unmap now; idempotent. Every user of the buffer in this process must have stopped.
     *
     * @param delete also delete the file (the owner, when freeing).
     */
    public synchronized void close(final boolean delete)
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (delete)
        {
            RegionFile.deleteQuietly(path);
        }
        buffer.wrap(new byte[0]);
        IoUtil.unmap(mapped);
    }

    @Override
    public void close()
    {
        close(false);
    }
}
