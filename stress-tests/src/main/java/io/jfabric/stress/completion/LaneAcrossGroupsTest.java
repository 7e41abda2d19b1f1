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
package io.jfabric.stress.completion;

import io.jfabric.Threading;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.StressDomain;
import io.jfabric.stress.scenario.LaneTransfer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * FI_THREAD_COMPLETION: two completion groups (each an endpoint with its own CQ) on two threads share nothing but
 * the lane between them, so the lane's publication is all that orders the receiver after the sender
 * ({@link LaneTransfer}). Catches {@code lane.commit-before-payload}: a record committed before its payload is
 * copied in is read with the bytes an earlier message left there. That is an order of the writer's own program and
 * fails on x86; the lane's release store against a plain one could only fail on weaker hardware.
 */
@JCStressTest
@Catches("lane.commit-before-payload")
@Description("COMPLETION: a message crossing a lane to a receiver reading on another thread arrives whole.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Received once, whole.")
@Outcome(expect = FORBIDDEN, desc = "Lost, or received with bytes that were not sent.")
@State
public class LaneAcrossGroupsTest
{
    static
    {
        Variants.arm(LaneAcrossGroupsTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.COMPLETION);

    private final LaneTransfer scenario = new LaneTransfer(DOMAIN, DOMAIN);

    /** The sending group's thread. */
    @Actor
    public void sender()
    {
        scenario.send();
    }

    /** The receiving group's thread: a few CQ reads. */
    @Actor
    public void receiver()
    {
        scenario.receive();
    }

    /** @param r r1 received once, r2 whole. */
    @Arbiter
    public void check(final II_Result r)
    {
        scenario.check(r);
    }
}
