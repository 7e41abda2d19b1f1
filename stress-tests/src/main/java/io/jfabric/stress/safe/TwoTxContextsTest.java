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
package io.jfabric.stress.safe;

import io.jfabric.Threading;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.StressDomain;
import io.jfabric.stress.scenario.TwoTxContexts;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * FI_THREAD_SAFE: two threads send at once, each through its own transmit context of one scalable endpoint, to one
 * receiver ({@link TwoTxContexts}). Each context has its own send guard, so the guards do not serialize the two
 * threads: what keeps them apart is that each context writes its own lane.
 * <p>
 * Catches {@code sep.tx-from-address-slot}: transmit contexts that send from their scalable endpoint's address slot
 * (so that receivers would see the endpoint's address without the context-of word) share that slot's lanes, two
 * producers on a single-producer ring: records overwrite each other or the lane is corrupted. Mutual exclusion,
 * not ordering, is what fails, on any hardware.
 */
@JCStressTest
@Catches("sep.tx-from-address-slot")
@Description("SAFE: two threads on two transmit contexts of one scalable endpoint lose, tear or reorder nothing.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE,
    desc = "Every send completed once; every message arrived once, whole, in its context's order.")
@Outcome(expect = FORBIDDEN, desc = "A send refused or not completed once; a message lost, torn, repeated, reordered.")
@State
public class TwoTxContextsTest
{
    static
    {
        Variants.arm(TwoTxContextsTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.SAFE);

    private final TwoTxContexts scenario = new TwoTxContexts(DOMAIN);

    /** Transmit context 0's thread. */
    @Actor
    public void context0()
    {
        scenario.send(0);
    }

    /** Transmit context 1's thread. */
    @Actor
    public void context1()
    {
        scenario.send(1);
    }

    /** @param r r1, r2 the sends of each context completed once, r3 every message delivered in order. */
    @Arbiter
    public void check(final III_Result r)
    {
        scenario.check(r);
    }
}
