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
package io.jfabric.ofi;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.ShareableMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Native memory to register with the ofi provider ({@code MrIov.of(memory, offset, length)}): memory the JVM never
 * moves, so libfabric may read and write it until the region closes. Either allocated here
 * ({@link #allocate(long)}, what {@code domain.allocShareable} returns: page aligned, zero filled, freed by
 * {@link #close()}) or an application's own {@link MemorySegment} ({@link #wrap}, which the application keeps alive
 * and frees). {@link #close()} fails with FI_EBUSY while a region registered over the memory is open.
 * <p>
 * Thread safe.
 */
public final class OfiMemory implements ShareableMemory
{
    private static final long PAGE = 4096;

    private final MemorySegment segment;
    private final Arena arena;
    private int regions;
    private boolean closed;

    private OfiMemory(final MemorySegment segment, final Arena arena)
    {
        this.segment = segment;
        this.arena = arena;
    }

    /**
     * @param length bytes, at least 1.
     * @return zero-filled, page-aligned native memory, freed by {@link #close()}.
     */
    public static OfiMemory allocate(final long length)
    {
        if (length < 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "allocShareable: length must be at least 1, was " + length);
        }
        final Arena arena = Arena.ofShared();
        return new OfiMemory(arena.allocate(length, PAGE), arena);
    }

    /**
     * @param segment a native segment the application owns and keeps alive while it is registered.
     * @return the memory, for {@code MrIov.of(memory, offset, length)}; {@link #close()} does not free it.
     */
    public static OfiMemory wrap(final MemorySegment segment)
    {
        if (segment == null || !segment.isNative() || segment.byteSize() < 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "OfiMemory.wrap: a native segment of at least 1 byte is " +
                "needed, got " + segment);
        }
        return new OfiMemory(segment, null);
    }

    /** @return the memory as a segment. */
    public MemorySegment segment()
    {
        return segment;
    }

    @Override
    public long length()
    {
        return segment.byteSize();
    }

    @Override
    public ByteBuffer buffer()
    {
        if (segment.byteSize() > Integer.MAX_VALUE)
        {
            throw new FabricException(Errno.FI_EINVAL, "memory of " + segment.byteSize() + " bytes has no single " +
                "ByteBuffer view; use segment()");
        }
        return segment.asByteBuffer();
    }

    @Override
    public long address()
    {
        return segment.address();
    }

    /** A region is registered over the memory. */
    public synchronized void registered()
    {
        if (closed)
        {
            throw new FabricException(Errno.FI_EBADF, "the memory is closed");
        }
        regions++;
    }

    /** A region over the memory closed. */
    public synchronized void deregistered()
    {
        regions--;
    }

    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        if (regions > 0)
        {
            throw new FabricException(Errno.FI_EBUSY, "the memory has " + regions + " registered region(s) open; " +
                "close them first");
        }
        closed = true;
        if (arena != null)
        {
            arena.close();
        }
    }
}
