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

/**
 * A {@link SlotPool} for one posting thread at a time: the poster takes the slots in turn by a sequence of its own
 * (a plain field), each once its state is FREE; the CQ reader frees a slot by its state word alone. Correct when at
 * most one thread at a time posts on the endpoint direction and at most one at a time reads its CQ, each handing
 * over to the next with a happens-before edge: FI_THREAD_FID, FI_THREAD_ENDPOINT (the endpoint and its CQ are
 * separate objects, so the two may run at once), FI_THREAD_COMPLETION and FI_THREAD_DOMAIN. No atomic
 * read-modify-write, no store the other side waits on: one acquire load to take a slot.
 * <p>
 * Threads: {@link #acquire} and {@link #abandon} by the poster; the reader only completes.
 */
public final class SpscSlotPool extends SlotPool
{
    private static final boolean BROKEN_NO_STATE_CHECK = BrokenVariant.active("ofi.slot.noStateCheck");

    private long cursor;

    /**
     * @param capacity slots, a power of two.
     * @param stride   bytes of each slot's native block.
     * @param refs     references a slot keeps reachable.
     * @param arena    where the native blocks live.
     */
    public SpscSlotPool(final int capacity, final long stride, final int refs, final Arena arena)
    {
        super(capacity, stride, refs, arena);
    }

    @Override
    public int acquire()
    {
        final long next = cursor;
        final int slot = (int)next & mask();
        if (take(slot))
        {
            cursor = next + 1;
            return slot;
        }
        return acquireAfter(next);
    }

    @Override
    protected boolean take(final int slot)
    {
        return BROKEN_NO_STATE_CHECK || isFree(slot);
    }

    @Override
    protected void moveCursor(final long next)
    {
        cursor = next;
    }

    @Override
    protected void abandoned(final int slot)
    {
        // The post failed: take the same slot (its lines are in this core's cache) for the retry.
        if (slot == ((int)(cursor - 1) & mask()))
        {
            cursor--;
        }
    }
}
