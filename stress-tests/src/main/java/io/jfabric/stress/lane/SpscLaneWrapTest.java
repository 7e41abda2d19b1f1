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
 * The consumer takes each record as it comes ({@link LaneStream} without a pause), so it keeps reaching the frame word
 * the producer will write next, over several laps of a small ring with padding at each wrap: a zero there must mean
 * "not yet", never what an earlier lap left.
 * <p>
 * Catches {@code lane.spsc-no-prezero} (the producer does not zero the frame word after the record it claims: from
 * the second lap on the consumer reads an old committed frame, or payload bytes, as a new record). Fails on any
 * hardware, as soon as the consumer catches up with the producer after a wrap. Called by JCStress's actor threads
 * only, one actor each, then the arbiter.
 */
@JCStressTest
@Catches("lane.spsc-no-prezero")
@Description("SPSC lane, two mappings: a fast consumer over several laps never takes an earlier lap's frame for a record.")
@Outcome(id = "64, 0", expect = ACCEPTABLE, desc = "Every record received once, whole, in order.")
@Outcome(expect = FORBIDDEN, desc = "A record lost, repeated, torn, out of order, or left from an earlier lap.")
@State
public class SpscLaneWrapTest
{
    static
    {
        Variants.arm(SpscLaneWrapTest.class);
    }

    private static final TwoMappings FILES = new TwoMappings("spsc-wrap", LaneStream.sliceLength(), 128);

    private final LaneStream stream = new LaneStream(FILES, 0);

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
