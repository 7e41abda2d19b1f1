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
package io.jfabric.stress.fid;

import io.jfabric.Threading;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.StressDomain;
import io.jfabric.stress.scenario.SendRacingProgress;
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
 * FI_THREAD_FID: one thread sends on an endpoint while another reads a counter bound to it with FI_SEND; with
 * manual progress the counter read progresses the endpoint like a CQ read ({@link SendRacingProgress}). Catches
 * {@code guard.progress.FID} through the counter's path.
 * <p>
 * The guard's ordering (an acquire to take it, a release to give it back) is not what is tested: on x86 a plain
 * store would order the same. What fails without it is mutual exclusion, which fails on any hardware.
 */
@JCStressTest
@Catches("guard.progress.FID")
@Description("FID: a queued send racing a read of the sender's counter arrives whole and counts once.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Sent, counted exactly once, arrived whole.")
@Outcome(expect = FORBIDDEN, desc = "Lost, torn, or not counted exactly once.")
@State
public class SendRacingCounterReadTest
{
    static
    {
        Variants.arm(SendRacingCounterReadTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.FID);

    private final SendRacingProgress scenario = new SendRacingProgress(DOMAIN, true);

    /** @param r r1 the send's return. */
    @Actor
    public void sender(final III_Result r)
    {
        r.r1 = scenario.send();
    }

    /** The other thread: one read of the sender's counter, which progresses the sender. */
    @Actor
    public void reader()
    {
        scenario.readCounter();
    }

    /** @param r r2 the counter, r3 1 when the message arrived whole. */
    @Arbiter
    public void check(final III_Result r)
    {
        scenario.check(r);
    }
}
