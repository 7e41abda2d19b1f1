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
 * A {@link SlotPool} any thread posts on and any thread reads the CQ of, as FI_THREAD_SAFE allows: a poster claims
 * the slot at a shared cursor with one compare-and-set of its state word (FREE to HELD), and moves the cursor on; the
 * cursor is only a hint (posters racing may set it back a step, which costs the next poster a look further on,
 * never a slot twice). The CQ reader frees a slot by its state word alone, with no atomic read-modify-write.
 * Threads: any.
 */
public final class MpmcSlotPool extends SlotPool
{
    private static final boolean BROKEN_PLAIN_CLAIM = BrokenVariant.active("ofi.slot.plainClaim");
    private static final boolean BROKEN_NO_STATE_CHECK = BrokenVariant.active("ofi.slot.noStateCheck");
    private static final VarHandle CURSOR;

    static
    {
        try
        {
            CURSOR = MethodHandles.lookup().findVarHandle(MpmcSlotPool.class, "cursor", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    @SuppressWarnings("unused")
    private volatile long cursor;

    /**
     * @param capacity slots, a power of two.
     * @param stride   bytes of each slot's native block.
     * @param refs     references a slot keeps reachable.
     * @param arena    where the native blocks live.
     */
    public MpmcSlotPool(final int capacity, final long stride, final int refs, final Arena arena)
    {
        super(capacity, stride, refs, arena);
    }

    @Override
    public int acquire()
    {
        final long next = (long)CURSOR.getOpaque(this);
        final int slot = (int)next & mask();
        if (take(slot))
        {
            CURSOR.setOpaque(this, next + 1);
            return slot;
        }
        return acquireAfter(next);
    }

    @Override
    protected boolean take(final int slot)
    {
        if (BROKEN_NO_STATE_CHECK)
        {
            return true;
        }
        // A plain read first: a slot in flight costs no compare-and-set (and no exclusive cache line).
        return isFree(slot) && (BROKEN_PLAIN_CLAIM ? claimPlainly(slot) : claim(slot));
    }

    @Override
    protected void moveCursor(final long next)
    {
        CURSOR.setOpaque(this, next);
    }

    @Override
    protected void abandoned(final int slot)
    {
        // Nothing: the slot is FREE again, for whichever poster comes to it.
    }
}
