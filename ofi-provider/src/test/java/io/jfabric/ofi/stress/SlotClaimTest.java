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

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.lang.foreign.Arena;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * FI_THREAD_SAFE: two threads post on one endpoint at once and each takes a slot of the MPMC pool (two free): they
 * must get different slots.
 * <p>
 * Catches {@code ofi.slot.plainClaim}: the free list's compare-and-set made a plain store, so both threads take the
 * same slot and one operation's context and buffers overwrite the other's. A race, not an ordering: x86 shows it.
 */
@JCStressTest
@Description("Two posters at once take different slots (MPMC pool).")
@Outcome(id = {"0, 1", "1, 0"}, expect = ACCEPTABLE, desc = "Different slots.")
@Outcome(expect = FORBIDDEN, desc = "The same slot twice, or none.")
@State
public class SlotClaimTest
{
    static
    {
        Variants.arm("ofi.slot.plainClaim");
    }

    private final SlotPool pool = new MpmcSlotPool(2, 64, 3, Arena.ofAuto());

    /** The first poster. */
    @Actor
    public void first(final II_Result r)
    {
        r.r1 = pool.acquire();
    }

    /** The second poster. */
    @Actor
    public void second(final II_Result r)
    {
        r.r2 = pool.acquire();
    }
}
