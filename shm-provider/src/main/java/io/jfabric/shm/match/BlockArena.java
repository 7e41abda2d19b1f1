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
package io.jfabric.shm.match;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The payload arena of the unexpected-message store ({@link UnexpectedMessages}): {@code blockCount} blocks of
 * {@link #BLOCK_SIZE} bytes, each with a link to the next block of its message, and a free list threaded through
 * the same links.
 * <p>
 * The arena is held in chunks of {@link #CHUNK_BLOCKS} blocks (64 KiB of payload and 4 KiB of links). Unless it is
 * preallocated, a chunk is allocated the first time a block beyond the ones allocated so far is taken, so an endpoint
 * whose receives are posted ahead of its messages holds no arena at all, and one that falls behind holds the high
 * water mark of what it kept, rounded up to a chunk, never more than {@code blockCount} blocks. Freed blocks are
 * reused first. With {@code preallocate} every chunk is allocated by the constructor and nothing afterwards.
 * <p>
 * Single-threaded: the thread that holds the endpoint's receive side.
 */
final class BlockArena
{
    /** Bytes of one block. */
    static final int BLOCK_SIZE = 64;
    /** log2 of {@link #BLOCK_SIZE}. */
    static final int BLOCK_SHIFT = 6;
    /** log2 of {@link #CHUNK_BLOCKS}. */
    static final int CHUNK_SHIFT = 10;
    /** Blocks of one chunk: the unit the arena grows by. */
    static final int CHUNK_BLOCKS = 1 << CHUNK_SHIFT;
    /** No block: the end of a chain, an empty free list, or an arena whose blocks are all taken. */
    static final int NONE = -1;

    private static final int CHUNK_MASK = CHUNK_BLOCKS - 1;

    private final int blockCount;
    private final UnsafeBuffer[] payload;
    private final int[][] links;
    /** Blocks handed out at least once: those below are in chunks that exist. */
    private int touched;
    private int freeHead = NONE;
    private int taken;

    /**
     * @param blockCount  blocks the arena may hold at most.
     * @param preallocate whether to allocate every chunk now rather than as blocks are first needed.
     */
    BlockArena(final int blockCount, final boolean preallocate)
    {
        if (blockCount < 0)
        {
            throw new IllegalArgumentException("block count " + blockCount + " is negative");
        }
        this.blockCount = blockCount;
        final int chunks = (blockCount + CHUNK_MASK) >>> CHUNK_SHIFT;
        payload = new UnsafeBuffer[chunks];
        links = new int[chunks][];
        if (preallocate)
        {
            for (int c = 0; c < chunks; c++)
            {
                grow(c);
            }
        }
    }

    /** @return a block for a message's next bytes, its link {@link #NONE}; {@link #NONE} when all are taken. */
    int take()
    {
        int b = freeHead;
        if (b != NONE)
        {
            freeHead = link(b);
        }
        else if (touched < blockCount)
        {
            b = touched++;
            final int c = b >>> CHUNK_SHIFT;
            if (payload[c] == null)
            {
                grow(c);
            }
        }
        else
        {
            return NONE;
        }
        link(b, NONE);
        taken++;
        return b;
    }

    /** Give back a block taken with {@link #take()}. */
    void free(final int b)
    {
        link(b, freeHead);
        freeHead = b;
        taken--;
    }

    /** @return the block after {@code b} in its message, or {@link #NONE}. */
    int link(final int b)
    {
        return links[b >>> CHUNK_SHIFT][b & CHUNK_MASK];
    }

    /** Set the block after {@code b}. */
    void link(final int b, final int next)
    {
        links[b >>> CHUNK_SHIFT][b & CHUNK_MASK] = next;
    }

    /** @return the buffer that holds block {@code b}'s bytes, at {@link #offset(int)}. */
    UnsafeBuffer buffer(final int b)
    {
        return payload[b >>> CHUNK_SHIFT];
    }

    /** @return where block {@code b}'s bytes start in {@link #buffer(int)}. */
    static int offset(final int b)
    {
        return (b & CHUNK_MASK) << BLOCK_SHIFT;
    }

    /** Copy {@code length} bytes of {@code src} into block {@code b}, from byte {@code inBlock} of it. */
    void put(final int b, final int inBlock, final DirectBuffer src, final int srcIndex, final int length)
    {
        src.getBytes(srcIndex, buffer(b), offset(b) + inBlock, length);
    }

    /** @return blocks taken now. */
    int taken()
    {
        return taken;
    }

    /** @return bytes of payload the arena has allocated so far (whole chunks). */
    long allocatedBytes()
    {
        long bytes = 0;
        for (final UnsafeBuffer chunk : payload)
        {
            bytes += chunk == null ? 0 : chunk.capacity();
        }
        return bytes;
    }

    private void grow(final int c)
    {
        final int blocks = Math.min(CHUNK_BLOCKS, blockCount - (c << CHUNK_SHIFT));
        payload[c] = new UnsafeBuffer(new byte[blocks << BLOCK_SHIFT]);
        links[c] = new int[blocks];
    }
}
