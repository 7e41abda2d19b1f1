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
import io.jfabric.stress.scenario.PostRacingProgress;
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
 * FI_THREAD_SAFE: one thread posts a receive on an endpoint while another reads its CQ, which drains the lanes into
 * the same matcher ({@link PostRacingProgress}). Catches {@code guard.receive.SAFE}: without the receive guard
 * the post and the delivery change the matcher at once, and the receive is lost (never completes) or the message
 * is dropped.
 * <p>
 * The guard's ordering (an acquire to take it, a release to give it back) is not what is tested: on x86 a plain
 * store would order the same. What fails without it is mutual exclusion, which fails on any hardware.
 */
@JCStressTest
@Catches("guard.receive.SAFE")
@Description("SAFE: a receive post racing the receiver's CQ read completes once, whole.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Posted, completed exactly once, the message whole.")
@Outcome(expect = FORBIDDEN, desc = "Lost, duplicated or torn.")
@State
public class PostRacingCqReadTest
{
    static
    {
        Variants.arm(PostRacingCqReadTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.SAFE);

    private final PostRacingProgress scenario = new PostRacingProgress(DOMAIN);

    /** @param r r1 the post's return. */
    @Actor
    public void poster(final III_Result r)
    {
        r.r1 = scenario.post();
    }

    /** The other thread: one read of the receiver's CQ, which drains its lane into the matcher. */
    @Actor
    public void reader()
    {
        scenario.readCq();
    }

    /** @param r r2 the receive's completions, r3 1 when the message is whole in the posted buffer. */
    @Arbiter
    public void check(final III_Result r)
    {
        scenario.check(r);
    }
}
