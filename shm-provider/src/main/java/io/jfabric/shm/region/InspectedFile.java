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
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Objects;

/**
 * A jfabric file opened for inspection only: opened for reading, its header read with {@code read(2)} into a
 * private copy (nothing is mapped until the caller has checked that copy), then, on request, mapped read-only
 * whole once its length is the one the header gives. It never writes, locks or creates anything, so it may look at
 * any file its user can read, one a live process uses included; for the same reason it does not apply the
 * ownership rules that guard a read-write open ({@link RegionDirectory}).
 * <p>
 * What it cannot prevent: a file truncated while it is mapped faults the JVM at the next access past the new end,
 * as with every mapping (jfabric itself never truncates its files).
 * <p>
 * Errors are {@link FabricException}s naming the file: {@link Errno#FI_ENOENT} for a missing file,
 * {@link Errno#FI_EINVAL} for one that is not a regular file, empty, shorter than its header or of another length
 * than its header says, {@link Errno#FI_EACCES} or {@link Errno#FI_EIO} when it cannot be read.
 * <p>
 * One thread at a time; {@link #close()} once, after every use of the mapping.
 */
public final class InspectedFile implements AutoCloseable
{
    private final Path path;
    private final String source;
    private final FileChannel channel;
    private final Object fileKey;
    private final long inode;
    private MappedByteBuffer mapping;

    private InspectedFile(
        final Path path, final String source, final FileChannel channel, final Object fileKey, final long inode)
    {
        this.path = path;
        this.source = source;
        this.channel = channel;
        this.fileKey = fileKey;
        this.inode = inode;
    }

    /**
     * Open a file for reading; links are followed, so the file is its real path.
     *
     * @param file a file.
     * @param what what it is expected to be, such as "domain region", for messages.
     * @return the open file.
     * @throws FabricException as the class description says.
     */
    public static InspectedFile open(final Path file, final String what)
    {
        Objects.requireNonNull(file, "file");
        final String named = what + " " + file;
        try
        {
            final Path path = file.toRealPath();
            final Map<String, Object> attributes = RegionDirectory.readAttributes(path);
            if (null == attributes)
            {
                throw new NoSuchFileException(path.toString());
            }
            if (!(Boolean)attributes.get("isRegularFile"))
            {
                throw new FabricException(Errno.FI_EINVAL, named + " is not a regular file");
            }
            final long inode = ((Number)Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS)).longValue();
            final FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            return new InspectedFile(path, what + " " + path, channel, attributes.get("fileKey"), inode);
        }
        catch (final NoSuchFileException ex)
        {
            throw new FabricException(Errno.FI_ENOENT, named + " does not exist", ex);
        }
        catch (final IOException ex)
        {
            throw SharedFile.ioFailure("read " + named, ex);
        }
    }

    /** @return the file's real path. */
    public Path path()
    {
        return path;
    }

    /** @return what the file is and its path, as messages name it. */
    public String source()
    {
        return source;
    }

    /** @return the file's inode number, which tells it from a file that later takes its name. */
    public long inode()
    {
        return inode;
    }

    /**
     * @return the file's length now.
     * @throws FabricException {@link Errno#FI_EIO} when it cannot be told.
     */
    public long length()
    {
        try
        {
            return channel.size();
        }
        catch (final IOException ex)
        {
            throw SharedFile.ioFailure("read " + source, ex);
        }
    }

    /**
     * Read the file's first bytes with {@code read(2)}, mapping nothing.
     *
     * @param length bytes of the header.
     * @return a private copy of them.
     * @throws FabricException {@link Errno#FI_EINVAL} when the file is empty or ends before the header does.
     */
    public UnsafeBuffer readHeader(final int length)
    {
        final ByteBuffer page = ByteBuffer.allocate(length);
        try
        {
            SharedFile.readHeaderPage(channel, page, source);
        }
        catch (final IOException ex)
        {
            throw SharedFile.ioFailure("read " + source, ex);
        }
        return new UnsafeBuffer(page);
    }

    /**
     * Map the whole file read-only, once its header has been checked. Call once.
     *
     * @param expectedLength the length its checked header gives it.
     * @return the mapping, which must only be read (a write faults the JVM); valid until {@link #close()}.
     * @throws FabricException {@link Errno#FI_EINVAL} when the file is shorter or longer than that.
     */
    public AtomicBuffer map(final long expectedLength)
    {
        SharedFile.checkLength(length(), expectedLength, source);
        try
        {
            mapping = channel.map(FileChannel.MapMode.READ_ONLY, 0, expectedLength);
        }
        catch (final IOException ex)
        {
            throw SharedFile.ioFailure("map " + source, ex);
        }
        return new UnsafeBuffer(mapping);
    }

    /**
     * @return true while the file's path still names this file; false once it was removed, or removed and created
     * anew (then processes that open it now use another file than this one).
     */
    public boolean isStillLinked()
    {
        try
        {
            final Map<String, Object> attributes = RegionDirectory.readAttributes(path);
            return null != attributes && Objects.equals(fileKey, attributes.get("fileKey"));
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /**
     * Unmap and close; idempotent. Nothing may use the mapping afterwards.
     */
    @Override
    public void close()
    {
        if (null != mapping)
        {
            IoUtil.unmap(mapping);
            mapping = null;
        }
        try
        {
            channel.close();
        }
        catch (final IOException ignore)
        {
            // A read-only channel has nothing to flush.
        }
    }

    @Override
    public String toString()
    {
        return source;
    }
}
