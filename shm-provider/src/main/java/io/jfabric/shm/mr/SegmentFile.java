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
package io.jfabric.shm.mr;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.core.MappedFileWatch;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.HeaderChecks;
import io.jfabric.shm.region.OwnedFiles;
import io.jfabric.shm.region.RegionDirectory;
import io.jfabric.shm.region.SharedFile;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import static io.jfabric.shm.mr.SegmentDescriptor.*;

/**
 * One shareable memory segment file (layout in {@link SegmentDescriptor}) mapped into this process: created by its
 * owner, mapped on demand by peers.
 * <p>
 * Creation and opening follow the rules of every shared file ({@link SharedFile}): a temporary file in the root
 * directory with every page allocated (so a full tmpfs is an {@link Errno#FI_ENOSPC} now rather than a SIGBUS
 * later), header written and marked ready with release, then published by {@code link(2)}; a peer's open checks
 * the file with the root directory's ownership rule, validates a private copy of the header page, compares the
 * file's length, and only then maps it. The peer's mapping keeps the pages alive after the
 * owner unmaps and deletes the file, so an access racing the owner's close never touches freed memory.
 * <p>
 * Threads: created and opened on the control path (a peer's first access to a segment); the buffer may be used from
 * any thread until {@link #close()}, which unmaps at once.
 */
public final class SegmentFile implements AutoCloseable, MappedFileWatch.Watched
{
    private final Path path;
    private final long ownerPid;
    private final long segmentId;
    private final long nonce;
    private final long dataLength;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private boolean closed;
    /** Why an access to the mapping faulted (its file was truncated), or null. */
    private volatile String fault;
    /** Where a fault is reported once ({@link #reportFaultsTo}): the domain's event queue; null for nowhere. */
    private volatile Consumer<String> faultReport;

    private SegmentFile(
        final Path path,
        final long ownerPid,
        final long segmentId,
        final long nonce,
        final long dataLength,
        final MappedByteBuffer mapped)
    {
        this.path = path;
        this.ownerPid = ownerPid;
        this.segmentId = segmentId;
        this.nonce = nonce;
        this.dataLength = dataLength;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        MappedFileWatch.watch(this);
    }

    /**
     * Create and map a new segment with a fresh random nonce. A file already under its name can only be left by an
     * earlier process with this pid (segment ids never repeat within a process), which is gone since this process
     * holds its pid: the file is deleted (peers that map it keep their mapping, and the new nonce tells the two
     * apart) and the name taken once more. The file is listed in {@link OwnedFiles} until {@link #close(boolean)}
     * deletes it, so JVM shutdown deletes a segment that was never freed.
     *
     * @param directory   the checked root directory.
     * @param domainName  the domain.
     * @param ownerPid    this process's pid (the header records this process's {@link ProcessIdentity} too).
     * @param segmentId   this process's number for the segment, unique within the process.
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
        final long owner = ProcessIdentity.self();
        if (ProcessIdentity.pid(owner) != ownerPid)
        {
            throw new IllegalArgumentException("owner pid " + ownerPid + " is not this process's, " +
                ProcessIdentity.pid(owner));
        }
        final Path path = directory.path().resolve(fileName(domainName, ownerPid, segmentId));
        final long nonce = newNonce();
        final SegmentFormat format = new SegmentFormat(ownerPid, segmentId, nonce, dataLength);
        format.ownerIdentity = owner;
        SharedFile.Mapped created = null;
        for (int attempt = 0; attempt < 2 && null == created; attempt++)
        {
            if (attempt > 0)
            {
                OwnedFiles.deleteQuietly(path); // Left by an earlier process with this pid, which is gone.
            }
            created = SharedFile.tryCreate(directory, path, "shareable memory segment", format, groupAccess,
                "allocate less shareable memory");
        }
        if (null == created)
        {
            throw new FabricException(Errno.FI_EBUSY, "allocShareable: segment file " + path + " was left by an " +
                "earlier process with this pid and could not be deleted; check the root directory's permissions");
        }
        OwnedFiles.add(path); // Deleted at JVM shutdown unless freed first.
        return new SegmentFile(path, ownerPid, segmentId, nonce, dataLength, created.buffer());
    }

    private static long newNonce()
    {
        long nonce;
        do
        {
            nonce = ThreadLocalRandom.current().nextLong();
        }
        while (nonce == 0);
        return nonce;
    }

    /**
     * Map a peer's segment, validating it first.
     *
     * @param directory  the checked root directory.
     * @param domainName the domain.
     * @param ownerPid   the owner recorded in the key table entry.
     * @param segmentId  the segment id recorded in the key table entry.
     * @param nonce      the nonce recorded in the key table entry.
     * @return the mapped segment, or null when the file does not exist (the owner freed it) or is another segment
     *         under the same name (its nonce differs: the entry's segment was freed and the name reused).
     * @throws FabricException {@link Errno#FI_EINVAL} for a file that is not a valid segment of that owner and id,
     *                         or as {@link RegionDirectory#checkFile} says.
     */
    public static SegmentFile open(
        final RegionDirectory directory,
        final String domainName,
        final long ownerPid,
        final long segmentId,
        final long nonce)
    {
        final Path path = directory.path().resolve(fileName(domainName, ownerPid, segmentId));
        final SegmentFormat format = new SegmentFormat(ownerPid, segmentId, nonce, 0);
        final SharedFile.Mapped mapped =
            SharedFile.openExisting(directory, path, "shareable memory segment", format, false);
        if (null == mapped)
        {
            return null;
        }
        if (format.foundNonce != nonce)
        {
            IoUtil.unmap(mapped.buffer());
            return null;
        }
        return new SegmentFile(path, ownerPid, segmentId, nonce, format.dataLength, mapped.buffer());
    }

    /**
     * For cleanup: the process a segment file names as its owner, read from its header page with {@code read(2)}
     * (nothing is mapped).
     *
     * @param file    a file named as a segment.
     * @param namePid the owner pid its name carries ({@link SegmentDescriptor#ownerPidOf}).
     * @return the owner's {@link ProcessIdentity} from a finished header of this layout whose owner pid is
     * {@code namePid}; otherwise (another layout, damaged, gone) an identity of {@code namePid} with an unknown start
     * time, which {@link ProcessIdentity#isGone} judges by the pid alone; 0 (no owner) for a pid no process can
     * have.
     * @throws IOException on a read failure.
     */
    public static long recordedOwner(final Path file, final long namePid) throws IOException
    {
        if (namePid <= 0 || namePid > ProcessIdentity.PID_MASK)
        {
            return 0;
        }
        final UnsafeBuffer copy = SharedFile.readHeaderCopy(file, HEADER_LENGTH);
        if (null != copy && copy.getIntAcquire(READY_OFFSET) == READY_VALUE && copy.getLong(MAGIC_OFFSET) == MAGIC &&
            copy.getInt(LAYOUT_VERSION_OFFSET) == LAYOUT_VERSION && copy.getLong(OWNER_PID_OFFSET) == namePid)
        {
            final long identity = copy.getLong(OWNER_IDENTITY_OFFSET);
            if (identity != 0 && ProcessIdentity.pid(identity) == namePid)
            {
                return identity;
            }
        }
        return ProcessIdentity.of(namePid, 0);
    }

    /**
     * The segment's {@link SharedFile.Format}: the header of a new segment, and validation of a peer's header copy
     * against the owner and segment id its key table entry recorded. Keeps the data length it wrote or validated.
     */
    private static final class SegmentFormat implements SharedFile.Format
    {
        private final long ownerPid;
        private final long segmentId;
        private final long nonce;
        private long dataLength;
        private long foundNonce;
        private long ownerIdentity;

        SegmentFormat(final long ownerPid, final long segmentId, final long nonce, final long dataLength)
        {
            this.ownerPid = ownerPid;
            this.segmentId = segmentId;
            this.nonce = nonce;
            this.dataLength = dataLength;
        }

        @Override
        public int headerLength()
        {
            return HEADER_LENGTH;
        }

        @Override
        public long newFileLength()
        {
            return fileLength(dataLength);
        }

        @Override
        public void write(final UnsafeBuffer mapped)
        {
            mapped.putLong(MAGIC_OFFSET, MAGIC);
            mapped.putInt(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
            mapped.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
            mapped.putLong(DATA_LENGTH_OFFSET, dataLength);
            mapped.putLong(OWNER_PID_OFFSET, ownerPid);
            mapped.putLong(SEGMENT_ID_OFFSET, segmentId);
            mapped.putLong(NONCE_OFFSET, nonce);
            mapped.putLong(OWNER_IDENTITY_OFFSET, ownerIdentity);
            mapped.putIntRelease(READY_OFFSET, READY_VALUE);
        }

        @Override
        public long validate(final UnsafeBuffer copy, final SharedFile.HeaderReader reader, final String source)
        {
            // A segment is linked under its name only after its ready store, so a peer never waits for one.
            final long length = verifyHeader(copy, source);
            if (copy.getLong(OWNER_PID_OFFSET) != ownerPid || copy.getLong(SEGMENT_ID_OFFSET) != segmentId)
            {
                throw new FabricException(Errno.FI_EINVAL, source + " records owner " +
                    copy.getLong(OWNER_PID_OFFSET) + " segment " + copy.getLong(SEGMENT_ID_OFFSET) + ", not owner " +
                    ownerPid + " segment " + segmentId);
            }
            foundNonce = copy.getLong(NONCE_OFFSET);
            dataLength = length;
            return fileLength(length);
        }
    }

    /**
     * Check a segment header on its own, whoever owns it: ready, magic, layout version, header length, that the
     * owner identity names the owner pid, data length and nonce. A peer's open then checks owner and segment id
     * against its key table entry; {@code jfabric dump} checks no more than this.
     *
     * @param copy   a private copy of the header page (read with {@code read(2)}).
     * @param source what it was read from, for messages.
     * @return the data length it records.
     * @throws FabricException {@link Errno#FI_EINVAL} naming the field, its value and what was expected.
     */
    public static long verifyHeader(final AtomicBuffer copy, final String source)
    {
        HeaderChecks.verifyReady(copy, READY_OFFSET, READY_VALUE, source);
        HeaderChecks.verifyIdentity(copy, copy.getLong(MAGIC_OFFSET), MAGIC, copy.getInt(LAYOUT_VERSION_OFFSET),
            LAYOUT_VERSION, source, "shareable memory segment");
        if (copy.getInt(HEADER_LENGTH_OFFSET) != HEADER_LENGTH)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is damaged: header length " +
                copy.getInt(HEADER_LENGTH_OFFSET) + ", layout version " + LAYOUT_VERSION + " has " + HEADER_LENGTH);
        }
        final long ownerPid = copy.getLong(OWNER_PID_OFFSET);
        final long identity = copy.getLong(OWNER_IDENTITY_OFFSET);
        if (identity == 0 || ProcessIdentity.pid(identity) != ownerPid)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is damaged: its owner identity 0x" +
                Long.toHexString(identity) + " does not name its owner pid " + ownerPid);
        }
        final long length = copy.getLong(DATA_LENGTH_OFFSET);
        if (length < 1 || length > MAX_DATA_LENGTH)
        {
            throw new FabricException(Errno.FI_EINVAL,
                source + " is damaged: data length " + length + " not in [1, " + MAX_DATA_LENGTH + "]");
        }
        if (copy.getLong(NONCE_OFFSET) == 0)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is damaged: its nonce is 0, which no " +
                "segment is created with");
        }
        return length;
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

    /** @return the segment's nonce, never 0. */
    public long nonce()
    {
        return nonce;
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

    /**
     * @return why an access to this mapping faulted (the file was truncated under it), or null: a faulted mapping is
     * never touched again.
     */
    public String fault()
    {
        return fault;
    }

    /**
     * Mark the mapping faulted, and report it (the first time) where {@link #reportFaultsTo} said. Any thread.
     *
     * @param reason what happened, naming the file.
     */
    public void faulted(final String reason)
    {
        synchronized (this)
        {
            if (fault != null)
            {
                return;
            }
            fault = reason;
        }
        final Consumer<String> report = faultReport;
        if (report != null)
        {
            report.accept(reason);
        }
    }

    /**
     * @param report where a fault of the mapping is reported, once, with a text naming the file.
     */
    public void reportFaultsTo(final Consumer<String> report)
    {
        this.faultReport = report;
    }

    @Override
    public Path file()
    {
        return path;
    }

    @Override
    public long mappedLength()
    {
        return mapped.capacity();
    }

    @Override
    public void truncated(final long fileLength)
    {
        faulted("shareable memory segment " + path + " (owner pid " + ownerPid + ") was truncated from " +
            mapped.capacity() + " to " + fileLength + " bytes by another process: the memory regions it backs now " +
            "fail with FI_EIO in this process");
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
    public void close(final boolean delete)
    {
        close(delete, true);
    }

    /**
     * Close; idempotent. With {@code unmap} false the mapping is left to the garbage collector (views of it were
     * handed out and may still be used).
     *
     * @param delete also delete the file (the owner, when freeing).
     * @param unmap  unmap now.
     */
    public synchronized void close(final boolean delete, final boolean unmap)
    {
        if (closed)
        {
            return;
        }
        closed = true;
        MappedFileWatch.unwatch(this);
        if (delete)
        {
            OwnedFiles.delete(path);
        }
        buffer.wrap(new byte[0]);
        if (unmap)
        {
            IoUtil.unmap(mapped);
        }
    }

    @Override
    public void close()
    {
        close(false);
    }
}
