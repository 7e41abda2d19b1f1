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
 * The stream of {@link SpscLaneFullRingTest} (slow consumer, ring full) while the published consumer position is
 * overwritten ahead: the first four times a claim finds the ring full, the producer's thread, playing a process that
 * damages the lane, writes the position word alone (not the copy beside it) with a value that looks possible, one
 * record alignment behind the producer's own position. The overwrite races the consumer's read: before the read
 * starts (the consumer finds it and publishes its own position and copy again), or while the consumer is in the
 * middle of a record (it finds it only at its next read). Either way the producer must not claim over a record the
 * consumer has not read: it trusts the position only when the copy agrees, and a disagreeing pair is a full lane for
 * now. Every record must arrive whole, once, in order (the arbiter finishes what the actors' bounded loops left).
 * <p>
 * A third actor doing the overwrite, as another process would, is not possible here: JCStress does not schedule a
 * test with more actors than the machine has CPUs (two on the build's machines), so the producer's thread does it,
 * in its own mapping of the file, between two claims.
 * <p>
 * Catches {@code lane.spsc-position-without-copy} (the producer's slow claim trusts the position without comparing
 * the copy: it takes the ring for nearly empty and writes records over the ones the consumer has not read, or is
 * reading). That is an order in the program, not one the hardware picks, so it fails on x86 too, in the samples
 * where the producer reads the overwritten position before the consumer's next read puts it right. Called by
 * JCStress's actor threads only, one actor each, then the arbiter.
 */
@JCStressTest
@Catches("lane.spsc-position-without-copy")
@Description("SPSC lane, two mappings: a consumer position overwritten ahead never lets unread records be overwritten.")
@Outcome(id = "64, 0", expect = ACCEPTABLE, desc = "Every record received once, whole, in order.")
@Outcome(expect = FORBIDDEN, desc = "A record overwritten before it was read: lost, torn, repeated or out of order.")
@State
public class SpscLanePositionCopyTest
{
    static
    {
        Variants.arm(SpscLanePositionCopyTest.class);
    }

    private static final TwoMappings FILES = new TwoMappings("spsc-position-copy", LaneStream.sliceLength(), 128);

    private final LaneStream stream = new LaneStream(FILES, 8, 4);

    /** The producing process's thread, which also overwrites the published consumer position. */
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
