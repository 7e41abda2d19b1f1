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
 * FI_THREAD_SAFE: one thread sends on an endpoint while another reads the endpoint's CQ (fi_domain(3) allows it
 * under FID, ENDPOINT and SAFE), and the read progresses the endpoint, writing queued sends into the peer's lane
 * ({@link SendRacingProgress}). Catches {@code guard.progress.SAFE}: without the transmit-progress guard the
 * sender's own progress pass and the reader's push the same queued send at once (pieces written twice or torn, a
 * completion written twice or never, a wedged lane), which is how the FID and ENDPOINT runs failed.
 * <p>
 * The guard's ordering (an acquire to take it, a release to give it back) is not what is tested: on x86 a plain
 * store would order the same. What fails without it is mutual exclusion, which fails on any hardware.
 */
@JCStressTest
@Catches("guard.progress.SAFE")
@Description("SAFE: a queued send racing a read of the sender's CQ arrives whole and completes once.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Sent, completed exactly once, arrived whole.")
@Outcome(expect = FORBIDDEN, desc = "Lost, torn, duplicated, or not completed exactly once.")
@State
public class SendRacingCqReadTest
{
    static
    {
        Variants.arm(SendRacingCqReadTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.SAFE);

    private final SendRacingProgress scenario = new SendRacingProgress(DOMAIN, false);

    /** @param r r1 the send's return. */
    @Actor
    public void sender(final III_Result r)
    {
        r.r1 = scenario.send();
    }

    /** The other thread: one read of the sender's CQ, which progresses the sender. */
    @Actor
    public void reader()
    {
        scenario.readCq();
    }

    /** @param r r2 the send's completions, r3 1 when the message arrived whole. */
    @Arbiter
    public void check(final III_Result r)
    {
        scenario.check(r);
    }
}
