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
package io.jfabric.stress.lane;

import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.TwoMappings;
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
 * The slow consumer of {@link SpscLaneFullRingTest} keeps the ring full, so the producer's cached consumer position
 * keeps saying "full": the producer must read the real one again, and every record must arrive (the arbiter
 * finishes what the actors' bounded loops left).
 * <p>
 * Catches {@code lane.spsc-stale-consumer-position} (the producer trusts its cache and never reads the consumer
 * position again: after the first full ring nothing more is sent, and records are lost). Fails on any hardware once
 * the ring fills. Called by JCStress's actor threads only, one actor each, then the arbiter.
 */
@JCStressTest
@Catches("lane.spsc-stale-consumer-position")
@Description("SPSC lane, two mappings: a producer held up by a full ring goes on once the consumer moves.")
@Outcome(id = "64, 0", expect = ACCEPTABLE, desc = "Every record received once, whole, in order.")
@Outcome(expect = FORBIDDEN, desc = "A record lost, repeated, torn, out of order, or left from an earlier lap.")
@State
public class SpscLaneConsumerPositionTest
{
    static
    {
        Variants.arm(SpscLaneConsumerPositionTest.class);
    }

    private static final TwoMappings FILES = new TwoMappings("spsc-consumer-position", LaneStream.sliceLength(), 128);

    private final LaneStream stream = new LaneStream(FILES, 8);

    /** The producing process's thread. */
    @Actor
    public void producer()
    {
        stream.produce();
    }

    /** The consuming process's thread. */
    @Actor
    public void consumer()
    {
        stream.consume();
    }

    /** @param r r1 records received whole and in order, r2 records bad. */
    @Arbiter
    public void check(final II_Result r)
    {
        stream.check(r);
    }
}
