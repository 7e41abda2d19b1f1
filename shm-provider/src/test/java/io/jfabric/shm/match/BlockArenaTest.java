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

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class BlockArenaTest
{
    private static final long CHUNK_BYTES = (long)BlockArena.CHUNK_BLOCKS * BlockArena.BLOCK_SIZE;

    @Test
    void shouldAllocateNothingUntilTheFirstBlockIsTaken()
    {
        final BlockArena arena = new BlockArena(131_072, false);
        assertEquals(0, arena.allocatedBytes());
        assertNotEquals(BlockArena.NONE, arena.take());
        assertEquals(CHUNK_BYTES, arena.allocatedBytes());
    }

    @Test
    void shouldAllocateEveryChunkUpFrontWhenPreallocated()
    {
        final BlockArena arena = new BlockArena(1500, true);
        assertEquals(1500L * BlockArena.BLOCK_SIZE, arena.allocatedBytes(), "a whole chunk and a part of one");
        for (int i = 0; i < 1500; i++)
        {
            assertNotEquals(BlockArena.NONE, arena.take());
        }
        assertEquals(1500L * BlockArena.BLOCK_SIZE, arena.allocatedBytes());
    }

    @Test
    void shouldReuseFreedBlocksBeforeGrowing()
    {
        final BlockArena arena = new BlockArena(10_000, false);
        final int[] taken = new int[BlockArena.CHUNK_BLOCKS];
        for (int round = 0; round < 3; round++)
        {
            for (int i = 0; i < taken.length; i++)
            {
                taken[i] = arena.take();
            }
            assertEquals(CHUNK_BYTES, arena.allocatedBytes(), "round " + round);
            for (final int b : taken)
            {
                arena.free(b);
            }
            assertEquals(0, arena.taken());
        }
    }

    @Test
    void shouldHandOutEveryBlockOnceAndThenRefuse()
    {
        final int count = BlockArena.CHUNK_BLOCKS + 476;
        final BlockArena arena = new BlockArena(count, false);
        final boolean[] seen = new boolean[count];
        for (int i = 0; i < count; i++)
        {
            final int b = arena.take();
            assertEquals(false, seen[b], "block " + b + " handed out twice");
            seen[b] = true;
        }
        assertEquals(BlockArena.NONE, arena.take(), "all taken");
        assertEquals((long)count * BlockArena.BLOCK_SIZE, arena.allocatedBytes(), "never beyond the limit");
        arena.free(7);
        assertEquals(7, arena.take());
    }

    @Test
    void shouldKeepEachBlocksBytesAndLinkAcrossChunks()
    {
        final BlockArena arena = new BlockArena(3 * BlockArena.CHUNK_BLOCKS, false);
        final int n = 2 * BlockArena.CHUNK_BLOCKS + 5;
        final UnsafeBuffer src = new UnsafeBuffer(new byte[BlockArena.BLOCK_SIZE]);
        int previous = BlockArena.NONE;
        int first = BlockArena.NONE;
        for (int i = 0; i < n; i++)
        {
            final int b = arena.take();
            src.setMemory(0, BlockArena.BLOCK_SIZE, (byte)i);
            arena.put(b, 0, src, 0, BlockArena.BLOCK_SIZE);
            if (previous == BlockArena.NONE)
            {
                first = b;
            }
            else
            {
                arena.link(previous, b);
            }
            previous = b;
        }
        int b = first;
        for (int i = 0; i < n; i++)
        {
            final UnsafeBuffer chunk = arena.buffer(b);
            assertEquals((byte)i, chunk.getByte(BlockArena.offset(b)), "first byte of block " + i);
            assertEquals((byte)i, chunk.getByte(BlockArena.offset(b) + BlockArena.BLOCK_SIZE - 1), "last byte " + i);
            b = arena.link(b);
        }
        assertEquals(BlockArena.NONE, b, "the chain ends with the last block");
    }
}
