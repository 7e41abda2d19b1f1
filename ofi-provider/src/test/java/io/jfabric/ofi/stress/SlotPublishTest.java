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
 * The posting thread fills a slot and publishes it while the CQ reader looks at it: a reader that sees the slot
 * POSTED must see the context the poster wrote (the fields are written before the release store of the state, and
 * the reader reads them after its acquire load). Run over both pools: SPSC (FI_THREAD_FID/ENDPOINT, a poster and a
 * reader at once) and MPMC (FI_THREAD_SAFE).
 * <p>
 * Catches {@code ofi.slot.stateBeforeFields}: the state published before the context is written; the reader then
 * takes a completion's slot with the context of nobody. A program-order bug, so x86 shows it too.
 */
public final class SlotPublishTest
{
    private SlotPublishTest()
    {
    }

    /** Over the SPSC pool. */
    @JCStressTest
    @Description("A reader that sees a slot POSTED sees its context (SPSC pool).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Not posted yet.")
    @Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "Posted, with its context.")
    @Outcome(expect = FORBIDDEN, desc = "Posted without its context.")
    @State
    public static class Spsc
    {
        static
        {
            Variants.arm("ofi.slot.stateBeforeFields");
        }

        private final SlotPool pool = new SpscSlotPool(4, 64, 3, Arena.ofAuto());

        /** The poster. */
        @Actor
        public void post()
        {
            pool.hold(pool.acquire(), 42, this, null, null, 0, 0, 0);
        }

        /** The reader. */
        @Actor
        public void read(final JJ_Result r)
        {
            if (pool.isPosted(0))
            {
                r.r1 = 1;
                r.r2 = pool.context(0);
            }
        }
    }

    /** Over the MPMC pool. */
    @JCStressTest
    @Description("A reader that sees a slot POSTED sees its context (MPMC pool).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Not posted yet.")
    @Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "Posted, with its context.")
    @Outcome(expect = FORBIDDEN, desc = "Posted without its context.")
    @State
    public static class Mpmc
    {
        static
        {
            Variants.arm("ofi.slot.stateBeforeFields");
        }

        private final SlotPool pool = new MpmcSlotPool(4, 64, 3, Arena.ofAuto());

        /** The poster. */
        @Actor
        public void post()
        {
            pool.hold(pool.acquire(), 42, this, null, null, 0, 0, 0);
        }

        /** The reader. */
        @Actor
        public void read(final JJ_Result r)
        {
            if (pool.isPosted(0))
            {
                r.r1 = 1;
                r.r2 = pool.context(0);
            }
        }
    }
}
