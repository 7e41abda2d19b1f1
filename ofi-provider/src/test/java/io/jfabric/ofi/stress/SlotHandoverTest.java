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
package io.jfabric.ofi.stress;

import io.jfabric.ofi.ctx.MpmcSlotPool;
import io.jfabric.ofi.ctx.SlotPool;
import io.jfabric.ofi.ctx.SpscSlotPool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import java.lang.foreign.Arena;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The hand-over of a slot from one operation to the next: the CQ reader completes slot 1 (context 12) while the
 * posting thread waits for it and, once it has it, posts a new operation there (context 13, a buffer). When both are
 * done, the slot must hold the new operation whole: POSTED, context 13, its buffer kept reachable. The reader's
 * clearing of the old operation must come before the poster's filling of the new: a clear that lands after would
 * drop the new buffer (which the NIC still writes: the memory-safety guarantee lost) and its context. Over both
 * pools.
 * <p>
 * Catches {@code ofi.slot.freeBeforeClear}: the reader publishes FREE before it clears the fields. A program-order
 * bug, so x86 shows it, when the poster's fill falls in the few nanoseconds between the two.
 */
public final class SlotHandoverTest
{
    private SlotHandoverTest()
    {
    }

    static void post(final SlotPool pool, final Object buffer, final JJJJ_Result r)
    {
        final long slot = SlotReuseTest.takeWhenFreed(pool);
        r.r2 = slot;
        if (slot >= 0)
        {
            pool.hold((int)slot, 13, buffer, null, null, 0, 0, 0);
        }
    }

    static void judge(final SlotPool pool, final Object buffer, final JJJJ_Result r)
    {
        if (r.r2 >= 0)
        {
            r.r3 = pool.isPosted((int)r.r2) ? pool.context((int)r.r2) : -2;
            r.r4 = pool.referenceAt((int)r.r2, 0) == buffer ? 1 : 0;
        }
    }

    /** Over the SPSC pool. */
    @JCStressTest
    @Description("A slot freed and taken at once holds the new operation whole (SPSC pool).")
    @Outcome(id = "12, 1, 13, 1", expect = ACCEPTABLE, desc = "The new operation, whole.")
    @Outcome(id = "12, -1, 0, 0", expect = ACCEPTABLE, desc = "No slot yet.")
    @Outcome(expect = FORBIDDEN, desc = "The new operation's context or buffer cleared by the old one's completion.")
    @State
    public static class Spsc
    {
        static
        {
            Variants.arm("ofi.slot.freeBeforeClear");
        }

        private final SlotPool pool = new SpscSlotPool(2, 64, 3, Arena.ofAuto());
        private final Object buffer = new Object();

        /** Slots 0 and 1 in flight. */
        public Spsc()
        {
            pool.hold(pool.acquire(), 11, this, null, null, 0, 0, 0);
            pool.hold(pool.acquire(), 12, this, null, null, 0, 0, 0);
        }

        /** The CQ reader completes slot 1. */
        @Actor
        public void complete(final JJJJ_Result r)
        {
            r.r1 = pool.complete(1);
        }

        /** The poster waits for a slot and posts into it. */
        @Actor
        public void post(final JJJJ_Result r)
        {
            SlotHandoverTest.post(pool, buffer, r);
        }

        /** What the slot holds once both are done. */
        @Arbiter
        public void judge(final JJJJ_Result r)
        {
            SlotHandoverTest.judge(pool, buffer, r);
        }
    }

    /** Over the MPMC pool. */
    @JCStressTest
    @Description("A slot freed and taken at once holds the new operation whole (MPMC pool).")
    @Outcome(id = "12, 1, 13, 1", expect = ACCEPTABLE, desc = "The new operation, whole.")
    @Outcome(id = "12, -1, 0, 0", expect = ACCEPTABLE, desc = "No slot yet.")
    @Outcome(expect = FORBIDDEN, desc = "The new operation's context or buffer cleared by the old one's completion.")
    @State
    public static class Mpmc
    {
        static
        {
            Variants.arm("ofi.slot.freeBeforeClear");
        }

        private final SlotPool pool = new MpmcSlotPool(2, 64, 3, Arena.ofAuto());
        private final Object buffer = new Object();

        /** Slots 0 and 1 in flight. */
        public Mpmc()
        {
            pool.hold(pool.acquire(), 11, this, null, null, 0, 0, 0);
            pool.hold(pool.acquire(), 12, this, null, null, 0, 0, 0);
        }

        /** The CQ reader completes slot 1. */
        @Actor
        public void complete(final JJJJ_Result r)
        {
            r.r1 = pool.complete(1);
        }

        /** The poster waits for a slot and posts into it. */
        @Actor
        public void post(final JJJJ_Result r)
        {
            SlotHandoverTest.post(pool, buffer, r);
        }

        /** What the slot holds once both are done. */
        @Arbiter
        public void judge(final JJJJ_Result r)
        {
            SlotHandoverTest.judge(pool, buffer, r);
        }
    }
}
