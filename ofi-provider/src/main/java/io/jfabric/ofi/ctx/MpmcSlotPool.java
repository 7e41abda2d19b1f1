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
 * A {@link SlotPool} whose free list is a bounded multi-producer multi-consumer queue of indices (D. Vyukov's: a
 * sequence number per cell, one compare-and-set per operation): any thread posts, any thread reads the CQ, as
 * FI_THREAD_SAFE allows. Threads: any.
 */
public final class MpmcSlotPool extends SlotPool
{
    private static final boolean BROKEN_PLAIN_CLAIM = BrokenVariant.active("ofi.slot.plainClaim");
    private static final boolean BROKEN_SEQUENCE_BEFORE_ITEM = BrokenVariant.active("ofi.slot.sequenceBeforeItem");
    private static final VarHandle SEQUENCE = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle DEQUEUE;
    private static final VarHandle ENQUEUE;

    static
    {
        try
        {
            DEQUEUE = MethodHandles.lookup().findVarHandle(MpmcSlotPool.class, "dequeuePosition", long.class);
            ENQUEUE = MethodHandles.lookup().findVarHandle(MpmcSlotPool.class, "enqueuePosition", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final long[] sequence;
    private final int[] items;
    @SuppressWarnings("unused")
    private volatile long dequeuePosition;
    @SuppressWarnings("unused")
    private volatile long enqueuePosition;

    /**
     * @param capacity slots, a power of two.
     * @param stride   bytes of each slot's native block.
     * @param refs     references a slot keeps reachable.
     * @param arena    where the native blocks live.
     */
    public MpmcSlotPool(final int capacity, final long stride, final int refs, final Arena arena)
    {
        super(capacity, stride, refs, arena);
        sequence = new long[capacity];
        items = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            items[i] = i;
            sequence[i] = i + 1;
        }
        ENQUEUE.setRelease(this, (long)capacity);
    }

    @Override
    public int acquire()
    {
        final int mask = mask();
        long position = (long)DEQUEUE.getOpaque(this);
        while (true)
        {
            final int cell = (int)position & mask;
            final long difference = (long)SEQUENCE.getAcquire(sequence, cell) - (position + 1);
            if (difference == 0)
            {
                if (claim(position))
                {
                    final int slot = items[cell];
                    SEQUENCE.setRelease(sequence, cell, position + mask + 1);
                    return slot;
                }
                position = (long)DEQUEUE.getOpaque(this);
            }
            else if (difference < 0)
            {
                return -1;
            }
            else
            {
                position = (long)DEQUEUE.getOpaque(this);
            }
        }
    }

    private boolean claim(final long position)
    {
        if (BROKEN_PLAIN_CLAIM)
        {
            DEQUEUE.setOpaque(this, position + 1);
            return true;
        }
        return DEQUEUE.compareAndSet(this, position, position + 1);
    }

    @Override
    protected void free(final int slot)
    {
        final int mask = mask();
        long position = (long)ENQUEUE.getOpaque(this);
        while (true)
        {
            final int cell = (int)position & mask;
            final long difference = (long)SEQUENCE.getAcquire(sequence, cell) - position;
            if (difference == 0)
            {
                if (ENQUEUE.compareAndSet(this, position, position + 1))
                {
                    if (BROKEN_SEQUENCE_BEFORE_ITEM)
                    {
                        SEQUENCE.setRelease(sequence, cell, position + 1);
                        items[cell] = slot;
                        return;
                    }
                    items[cell] = slot;
                    SEQUENCE.setRelease(sequence, cell, position + 1);
                    return;
                }
            }
            else if (difference < 0)
            {
                throw new IllegalStateException("slot free list overflow: slot " + slot + " freed twice");
            }
            position = (long)ENQUEUE.getOpaque(this);
        }
    }

    @Override
    public int inFlight()
    {
        return (int)(capacity() - ((long)ENQUEUE.getAcquire(this) - (long)DEQUEUE.getAcquire(this)));
    }
}
