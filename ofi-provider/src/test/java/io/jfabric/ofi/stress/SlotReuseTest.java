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
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import java.lang.foreign.Arena;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two operations in flight (slots 0 and 1, contexts 11 and 12); the CQ reader completes the second while the posting
 * thread waits for a free slot: the reader reports context 12, and the poster gets slot 1, the one freed, never slot
 * 0, whose operation is still in flight (its buffers would be given to another operation). The poster's sequence
 * points at slot 0 (the pools take slots in turn), so the poster must look past it. Over both pools.
 * <p>
 * Catches {@code ofi.slot.noStateCheck}: the slot at the poster's sequence taken without looking at its state, as a
 * ring that assumed completions in order would; the poster then gets slot 0, in flight. A logic bug: it shows on any
 * hardware, every time the poster runs.
 */
public final class SlotReuseTest
{
    private static final int SPINS = 10_000;

    private SlotReuseTest()
    {
    }

    static long takeWhenFreed(final SlotPool pool)
    {
        for (int i = 0; i < SPINS; i++)
        {
            final int slot = pool.acquire();
            if (slot >= 0)
            {
                return slot;
            }
            Thread.onSpinWait();
        }
        return -1;
    }

    /** Over the SPSC pool. */
    @JCStressTest
    @Description("A poster gets the slot the reader freed, never one in flight (SPSC pool).")
    @Outcome(id = {"12, 1", "12, -1"}, expect = ACCEPTABLE, desc = "The freed slot, or none yet.")
    @Outcome(expect = FORBIDDEN, desc = "A slot still in flight handed out, or the wrong context reported.")
    @State
    public static class Spsc
    {
        static
        {
            Variants.arm("ofi.slot.noStateCheck");
        }

        private final SlotPool pool = new SpscSlotPool(2, 64, 3, Arena.ofAuto());

        /** Slots 0 and 1 in flight. */
        public Spsc()
        {
            pool.hold(pool.acquire(), 11, this, null, null, 0, 0, 0);
            pool.hold(pool.acquire(), 12, this, null, null, 0, 0, 0);
        }

        /** The CQ reader completes slot 1. */
        @Actor
        public void complete(final JJ_Result r)
        {
            r.r1 = pool.complete(1);
        }

        /** The poster waits for a slot. */
        @Actor
        public void post(final JJ_Result r)
        {
            r.r2 = takeWhenFreed(pool);
        }
    }

    /** Over the MPMC pool. */
    @JCStressTest
    @Description("A poster gets the slot the reader freed, never one in flight (MPMC pool).")
    @Outcome(id = {"12, 1", "12, -1"}, expect = ACCEPTABLE, desc = "The freed slot, or none yet.")
    @Outcome(expect = FORBIDDEN, desc = "A slot still in flight handed out, or the wrong context reported.")
    @State
    public static class Mpmc
    {
        static
        {
            Variants.arm("ofi.slot.noStateCheck");
        }

        private final SlotPool pool = new MpmcSlotPool(2, 64, 3, Arena.ofAuto());

        /** Slots 0 and 1 in flight. */
        public Mpmc()
        {
            pool.hold(pool.acquire(), 11, this, null, null, 0, 0, 0);
            pool.hold(pool.acquire(), 12, this, null, null, 0, 0, 0);
        }

        /** The CQ reader completes slot 1. */
        @Actor
        public void complete(final JJ_Result r)
        {
            r.r1 = pool.complete(1);
        }

        /** The poster waits for a slot. */
        @Actor
        public void post(final JJ_Result r)
        {
            r.r2 = takeWhenFreed(pool);
        }
    }
}
