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
package io.jfabric.ofi.core;

import java.lang.foreign.Arena;

/**
 * Native scratch memory of one object (a CQ's entry buffer) for each thread that uses it, without a lock: the
 * first thread to use it owns the fast slot (one field compare per call); other threads get their own block through a
 * {@link ThreadLocal}, allocated once per thread. The memory lives in the object's arena, freed when it closes.
 * Any thread.
 */
public final class ThreadScratch
{
    private final Arena arena;
    private final long bytes;
    private final ThreadLocal<long[]> others = new ThreadLocal<>();
    private volatile Thread owner;
    private final long ownerBlock;

    /**
     * @param arena where the blocks are allocated (a shared arena the object closes last).
     * @param bytes bytes of each block.
     */
    public ThreadScratch(final Arena arena, final long bytes)
    {
        this.arena = arena;
        this.bytes = bytes;
        this.ownerBlock = arena.allocate(bytes, 64).address();
    }

    /** @return this thread's block's address. */
    public long address()
    {
        final Thread current = Thread.currentThread();
        final Thread o = owner;
        if (o == current)
        {
            return ownerBlock;
        }
        return slow(current, o);
    }

    private long slow(final Thread current, final Thread o)
    {
        if (o == null)
        {
            synchronized (this)
            {
                if (owner == null)
                {
                    owner = current;
                    return ownerBlock;
                }
                if (owner == current)
                {
                    return ownerBlock;
                }
            }
        }
        long[] block = others.get();
        if (block == null)
        {
            synchronized (this)
            {
                block = new long[] {arena.allocate(bytes, 64).address()};
            }
            others.set(block);
        }
        return block[0];
    }
}
