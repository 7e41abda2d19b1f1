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
import org.agrona.IoUtil;
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
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/**
 * The publication rules every shared file under the shm root follows (domain regions, named address vectors), in
 * one place: a file is created complete in a temporary file, its pages allocated, its header written with the
 * ready field last, and published with one {@code link(2)} (so exactly one of racing creators wins and nobody sees
 * it half written); an existing file is checked for type and owner without following links, its header read with
 * {@code read(2)} into a private copy and validated from that copy, and only then is its length checked and the
 * file mapped. See {@link RegionFile} for why each step is there.
 * <p>
 * What differs between kinds of file is a {@link Format}: its header length, how its header is validated and
 * written, and how long the file is.
 * <p>
 * Stateless; any thread.
 */
public final class SharedFile
{
    /** Bytes of zeros written per call when a new file's pages are allocated. */
    public static final int PREALLOCATE_CHUNK = 1 << 20;

    private static final long READY_POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * One kind of shared file. A format object may keep what validation found (the validated header copy) for the
     * caller to read after an open; use one per open.
     */
    public interface Format
    {
        /** @return bytes of the header, read into a private copy before anything is mapped. */
        int headerLength();

        /**
         * Validate the header copy (waiting for ready with {@link SharedFile#awaitReady} if needed).
         *
         * @param copy   the private copy of the header.
         * @param reader re-reads the header page from the file into the copy.
         * @param source what the file is, for messages.
         * @return the length the file must have, as the header says.
         * @throws IOException when re-reading fails.
         */
        long validate(UnsafeBuffer copy, HeaderReader reader, String source) throws IOException;

        /**
         * @param fileLength the validated length of the file.
         * @return how much of it to map from its start: all of it, unless the format says less (a removal maps the
         * header only).
         */
        default long mapLength(final long fileLength)
        {
            return fileLength;
        }

        /** @return the length of a new file. */
        long newFileLength();

        /**
         * Write the header of a new file into its mapping, ready field last with release.
         *
         * @param mapped the new file, mapped whole.
         */
        void write(UnsafeBuffer mapped);
    }

    /** Re-reads a file's header page into the private copy. */
    @FunctionalInterface
    public interface HeaderReader
    {
        /**
         * @throws IOException on a read failure.
         */
        void reread() throws IOException;
    }

    /** A shared file mapped into this process. */
    public static final class Mapped
    {
        private final Path path;
        private final boolean created;
        private final MappedByteBuffer buffer;
        private final Object fileKey;

        Mapped(final Path path, final boolean created, final MappedByteBuffer buffer, final Object fileKey)
        {
            this.path = path;
            this.created = created;
            this.buffer = buffer;
            this.fileKey = fileKey;
        }

        /** @return the file. */
        public Path path()
        {
            return path;
        }

        /** @return true when this call created it. */
        public boolean created()
        {
            return created;
        }

        /** @return the whole file, mapped (or what {@link Format#mapLength} asked for). */
        public MappedByteBuffer buffer()
        {
            return buffer;
        }

        /**
         * @param attributes the path's attributes ({@link RegionDirectory#readAttributes}), null when nothing is there.
         * @return true when they are the mapped file's (same device and inode).
         */
        boolean isMapped(final Map<String, Object> attributes)
        {
            return null != attributes && Objects.equals(fileKey, attributes.get("fileKey"));
        }

        /**
         * @return true while {@link #path()} still names the file that is mapped (it was not removed, nor replaced
         * by another file of that name).
         * @throws IOException when the path cannot be looked at.
         */
        public boolean isStillLinked() throws IOException
        {
            return isMapped(RegionDirectory.readAttributes(path));
        }
    }

    private SharedFile()
    {
    }

    /**
     * Check the root directory (see {@code RegionDirectory}), creating it when missing.
     *
     * @param rootDir     the shm root.
     * @param groupAccess whether the group shares it.
     * @return a token for {@link #openExisting} and {@link #tryCreate}.
     */
    public static Object checkedRoot(final Path rootDir, final boolean groupAccess)
    {
        return RegionDirectory.open(rootDir, groupAccess);
    }

    /**
     * Open an existing file after checking it.
     *
     * @param root     from {@link #checkedRoot}.
     * @param path     the file.
     * @param what     what it is, such as "domain region", for messages.
     * @param format   its format.
     * @param readOnly map it read only (and open it for reading only).
     * @return the mapped file, or null when it does not exist (or was replaced while being opened: look again).
     */
    public static Mapped openExisting(
        final Object root, final Path path, final String what, final Format format, final boolean readOnly)
    {
        final RegionDirectory directory = (RegionDirectory)root;
        final String source = what + " " + path;
        try
        {
            final Map<String, Object> before = RegionDirectory.readAttributes(path);
            if (null == before)
            {
                return null;
            }
            if (!(Boolean)before.get("isRegularFile"))
            {
                throw new FabricException(Errno.FI_EINVAL, source + " is not a regular file");
            }
            directory.checkFile(source, path, before);

            try (FileChannel channel = readOnly ?
                FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS) :
                FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))
            {
                final Map<String, Object> after = RegionDirectory.readAttributes(path);
                if (null == after || !Objects.equals(before.get("fileKey"), after.get("fileKey")))
                {
                    return null; // Removed or replaced while being opened: look again.
                }

                final ByteBuffer page = ByteBuffer.allocate(format.headerLength());
                final UnsafeBuffer copy = new UnsafeBuffer(page);
                readHeaderPage(channel, page, source);
                final long length = format.validate(copy, () -> readHeaderPage(channel, page, source), source);

                checkLength(channel.size(), length, source);

                return new Mapped(path, false, channel.map(
                    readOnly ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.READ_WRITE, 0,
                    format.mapLength(length)), before.get("fileKey"));
            }
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
     * Read a file's first {@code length} bytes with {@code read(2)} into a private copy, mapping nothing: what a
     * cleanup decision reads, which must neither trust the file nor fault on it.
     *
     * @param file   the file.
     * @param length bytes to read.
     * @return the copy, or null when the file is gone, is not a regular file, or is shorter than {@code length}.
     * @throws IOException on a read failure.
     */
    public static UnsafeBuffer readHeaderCopy(final Path file, final int length) throws IOException
    {
        final Map<String, Object> attributes = RegionDirectory.readAttributes(file);
        if (null == attributes || !(Boolean)attributes.get("isRegularFile"))
        {
            return null;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))
        {
            final ByteBuffer page = ByteBuffer.allocate(length);
            while (page.hasRemaining() && channel.read(page, page.position()) >= 0)
            {
                // positional reads until the copy is full or the file ends
            }
            return page.hasRemaining() ? null : new UnsafeBuffer(page);
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
    }

    /**
     * Check a file's length against the one its validated header gives it.
     *
     * @param fileLength the file's length now.
     * @param expected   the length its header says.
     * @param source     what the file is, for messages.
     * @throws FabricException {@link Errno#FI_EINVAL} naming both lengths when they differ.
     */
    public static void checkLength(final long fileLength, final long expected, final String source)
    {
        if (fileLength != expected)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is " + (fileLength < expected ?
                "truncated" : "damaged") + ": " + fileLength + " bytes but its header says " + expected);
        }
    }

    /**
     * Read the header page into {@code page} with positional reads, never through a mapping.
     *
     * @param channel the file, open for reading.
     * @param page    receives the header: its capacity is the header's length.
     * @param source  what the file is, for messages.
     * @throws FabricException {@link Errno#FI_EINVAL} when the file ends before the header does.
     * @throws IOException     on a read failure.
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
        if (length < page.capacity())
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is " + (0 == length ? "empty" : "truncated") +
                ": " + length + " bytes, shorter than its " + page.capacity() + " byte header");
        }
    }

    /**
     * Wait, bounded, for the ready flag of a header copy, re-reading it from the file. A header that is ready at
     * the first read is complete: a jfabric file is linked only after its ready store.
     *
     * @param isReady        acquire-reads the copy's ready field.
     * @param verifyIdentity checks magic and version of the copy (throws for a foreign file).
     * @param reader         re-reads the copy.
     * @param source         what the file is, for messages.
     * @param readyTimeoutMs how long to wait.
     * @throws IOException on a read failure.
     */
    public static void awaitReady(
        final BooleanSupplier isReady,
        final Runnable verifyIdentity,
        final HeaderReader reader,
        final String source,
        final long readyTimeoutMs) throws IOException
    {
        if (isReady.getAsBoolean())
        {
            return;
        }

        verifyIdentity.run();
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(readyTimeoutMs);
        while (true)
        {
            if (System.nanoTime() - deadlineNs >= 0)
            {
                throw new FabricException(Errno.FI_ETIMEDOUT, source + " was not marked ready within " +
                    readyTimeoutMs + " ms: it was not published by a jfabric create, which links only finished " +
                    "files, or it is damaged; remove it once no process uses it");
            }
            LockSupport.parkNanos(READY_POLL_NS);

            reader.reread();
            if (isReady.getAsBoolean())
            {
                // One read(2) copies the fields before the ready field, so a copy that caught the release store
                // mid-way may hold fields older than it; a read after that one sees everything written before it.
                reader.reread();
                return;
            }
            verifyIdentity.run();
        }
    }

    /**
     * Create and publish a new file.
     *
     * @param root        from {@link #checkedRoot}.
     * @param path        the file to publish; it is built in a {@link TempFiles temporary file} named for it and for
     *                    this process.
     * @param what        what it is, for messages.
     * @param format      its format.
     * @param groupAccess create it 0660 rather than 0600.
     * @param spaceHint   what to shrink when space runs out, for messages.
     * @return the mapped new file, or null when another process published the name first: open that one.
     */
    public static Mapped tryCreate(
        final Object root,
        final Path path,
        final String what,
        final Format format,
        final boolean groupAccess,
        final String spaceHint)
    {
        final Path dir = ((RegionDirectory)root).path();
        final long length = format.newFileLength();
        final Set<PosixFilePermission> permissions =
            PosixFilePermissions.fromString(groupAccess ? "rw-rw----" : "rw-------");
        Path temp = null;
        MappedByteBuffer mapped = null;
        try
        {
            final long usable = Files.getFileStore(dir).getUsableSpace();
            if (usable < length)
            {
                if (Files.exists(path, LinkOption.NOFOLLOW_LINKS))
                {
                    return null; // Another process won the race and took the space: open its file.
                }
                throw new FabricException(Errno.FI_ENOSPC, "cannot create " + what + " " + path + ": it needs " +
                    length + " bytes but " + dir + " has " + usable + " free; " + spaceHint + " or free space");
            }

            temp = TempFiles.create(dir, path.getFileName().toString(), PosixFilePermissions.asFileAttribute(permissions));
            final Object fileKey = Files.readAttributes(temp, BasicFileAttributes.class).fileKey();
            if (groupAccess)
            {
                ((RegionDirectory)root).adoptGroup(temp);
            }
            Files.setPosixFilePermissions(temp, permissions);
            try (FileChannel channel = FileChannel.open(
                temp, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))
            {
                try
                {
                    preallocate(channel, length, dir, what + " " + path);
                }
                catch (final FabricException ex)
                {
                    if (Errno.FI_ENOSPC == ex.errno() && Files.exists(path, LinkOption.NOFOLLOW_LINKS))
                    {
                        return null; // Racing creators ran the space out and one of them published: open it.
                    }
                    throw ex;
                }
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
            }

            format.write(new UnsafeBuffer(mapped));

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

            final Mapped created = new Mapped(path, true, mapped, fileKey);
            mapped = null;
            return created;
        }
        catch (final IOException ex)
        {
            throw ioFailure("create " + what + " " + path, ex);
        }
        finally
        {
            // The temporary file first: deleting it needs nothing that can fail the way the mapping code can.
            OwnedFiles.delete(temp);
            if (null != mapped)
            {
                unmapQuietly(mapped);
            }
        }
    }

    /**
     * Unmap a mapping now, or leave it to the garbage collector when Agrona cannot (its classes failed to
     * initialise); never throws, so it may run in a {@code finally} that has more to clean up.
     *
     * @param mapped the mapping.
     */
    static void unmapQuietly(final MappedByteBuffer mapped)
    {
        try
        {
            IoUtil.unmap(mapped);
        }
        catch (final LinkageError ignore)
        {
            // Agrona's classes did not initialise (the JVM lacks the flag AgronaAccess names): the mapping goes
            // when the buffer is garbage collected.
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
    static void preallocate(final FileChannel channel, final long length, final Path dir, final String what)
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
     * @param action what failed, for the message.
     * @param ex     the failure.
     * @return the exception to throw: FI_EACCES, FI_ENOSPC or FI_EIO.
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
}
