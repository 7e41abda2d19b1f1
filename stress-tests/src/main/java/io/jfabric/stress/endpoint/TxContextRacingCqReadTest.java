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
package io.jfabric.stress.endpoint;

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
 * FI_THREAD_ENDPOINT with a scalable endpoint: one thread sends through a transmit context while another reads that
 * context's CQ, which progresses the context ({@link SendRacingProgress#fromTransmitContext}).
 * <p>
 * Why not two threads on two transmit contexts, as the safe, fid and completion groups test (their
 * {@code TwoTxContextsTest}): fi_domain(3) says that under FI_THREAD_ENDPOINT "serialization is required when
 * accessing the same endpoint, even if multiple transmit and receive contexts are used". What ENDPOINT does let run
 * beside the thread driving the endpoint is a CQ: it is an object of its own, and reading it progresses the context
 * bound to it. So the context must have the model's transmit-progress guard, as a plain endpoint has.
 * <p>
 * Catches {@code guard.progress.ENDPOINT} (as {@link SendRacingCqReadTest} does for a plain endpoint): without the
 * guard the sender's own progress pass and the reader's push the same queued send at once. Mutual exclusion, not
 * ordering, is what fails, on any hardware.
 */
@JCStressTest
@Catches("guard.progress.ENDPOINT")
@Description("ENDPOINT: a queued send on a transmit context racing a read of its CQ arrives whole and completes once.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Sent, completed exactly once, arrived whole.")
@Outcome(expect = FORBIDDEN, desc = "Lost, torn, duplicated, or not completed exactly once.")
@State
public class TxContextRacingCqReadTest
{
    static
    {
        Variants.arm(TxContextRacingCqReadTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.ENDPOINT);

    private final SendRacingProgress scenario = SendRacingProgress.fromTransmitContext(DOMAIN);

    /** @param r r1 the send's return. */
    @Actor
    public void sender(final III_Result r)
    {
        r.r1 = scenario.send();
    }

    /** The other thread: one read of the transmit context's CQ, which progresses the context. */
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
