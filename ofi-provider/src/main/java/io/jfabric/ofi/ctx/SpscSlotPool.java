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
package io.jfabric.ofi.ctx;

import io.jfabric.ofi.core.BrokenVariant;

import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A {@link SlotPool} whose free list is a single-producer single-consumer ring of indices: the posting thread
 * consumes (acquire), the CQ reader produces (free). Correct when at most one thread at a time posts on the
 * endpoint direction and at most one at a time reads its CQ, each handing over to the next with a happens-before
 * edge: FI_THREAD_FID, FI_THREAD_ENDPOINT (the endpoint and its CQ are separate objects, so the two may run at
 * once), FI_THREAD_COMPLETION and FI_THREAD_DOMAIN. No atomic read-modify-write: an ordered store publishes each
 * side's position.
 * <p>
 * Threads: {@link #acquire} by the poster, {@link #free} by the reader.
 */
public final class SpscSlotPool extends SlotPool
{
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle INDEX = MethodHandles.arrayElementVarHandle(int[].class);
    private static final boolean BROKEN_TAIL_BEFORE_INDEX = BrokenVariant.active("ofi.slot.tailBeforeIndex");

    static
    {
        try
        {
            HEAD = MethodHandles.lookup().findVarHandle(SpscSlotPool.class, "head", long.class);
            TAIL = MethodHandles.lookup().findVarHandle(SpscSlotPool.class, "tail", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final int[] ring;
    @SuppressWarnings("unused")
    private volatile long head;
    private long tailCache;
    @SuppressWarnings("unused")
    private volatile long tail;

    /**
     * @param capacity slots, a power of two.
     * @param stride   bytes of each slot's native block.
     * @param refs     references a slot keeps reachable.
     * @param arena    where the native blocks live.
     */
    public SpscSlotPool(final int capacity, final long stride, final int refs, final Arena arena)
    {
        super(capacity, stride, refs, arena);
        ring = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            ring[i] = i;
        }
        TAIL.setRelease(this, (long)capacity);
        tailCache = capacity;
    }

    @Override
    public int acquire()
    {
        final long h = (long)HEAD.getOpaque(this);
        if (h == tailCache)
        {
            tailCache = (long)TAIL.getAcquire(this);
            if (h == tailCache)
            {
                return -1;
            }
        }
        final int slot = (int)INDEX.getAcquire(ring, (int)h & mask());
        HEAD.setRelease(this, h + 1);
        return slot;
    }

    @Override
    protected void free(final int slot)
    {
        final long t = (long)TAIL.getOpaque(this);
        if (BROKEN_TAIL_BEFORE_INDEX)
        {
            TAIL.setRelease(this, t + 1);
            INDEX.setRelease(ring, (int)t & mask(), slot);
            return;
        }
        INDEX.setRelease(ring, (int)t & mask(), slot);
        TAIL.setRelease(this, t + 1);
    }

    @Override
    public int inFlight()
    {
        return (int)(capacity() - ((long)TAIL.getAcquire(this) - (long)HEAD.getAcquire(this)));
    }
}
