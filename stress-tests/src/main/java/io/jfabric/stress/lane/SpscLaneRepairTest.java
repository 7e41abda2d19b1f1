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

import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.region.SpscLaneDescriptor;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.TwoMappings;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
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
 * The lane's repair request racing a claim the producer holds open: the producer (one mapping) holds a zero-copy
 * claim at the head of an empty lane ({@code SpscLane.hold}) and fills the lane behind it until it is full, then
 * commits the held record; the consumer (the other mapping) meanwhile reads, and clears the lane whenever the
 * producer asks it to ({@code repairRequested}, then {@code discard}, as the receiver's rescan does). A full lane
 * waiting at a record the producer holds is not damage: the held record must be committed and read once.
 * <p>
 * Catches {@code lane.spsc-repair-held-claim}: a producer that asks for a repair whenever the full lane waits at an
 * unfinished record, its own held claim included, makes the consumer clear the record under it; its commit is
 * refused and the message is lost. Fails anywhere once the consumer sees the request. Called by JCStress's actor
 * threads only, one actor each, then the arbiter.
 */
@JCStressTest
@Catches("lane.spsc-repair-held-claim")
@Description("SPSC lane, two mappings: a full lane waiting at a held claim is never cleared under it.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The held record committed and read once.")
@Outcome(expect = FORBIDDEN, desc = "Its commit refused (the lane cleared under it) or it was not read once.")
@State
public class SpscLaneRepairTest
{
    static
    {
        Variants.arm(SpscLaneRepairTest.class);
    }

    private static final int CAPACITY = SpscLaneDescriptor.MIN_CAPACITY;
    private static final long HELD = 0x4E1D;
    private static final TwoMappings FILES =
        new TwoMappings("spsc-repair", SpscLaneDescriptor.laneLength(CAPACITY), 128);

    private final TwoMappings.Slice slice = FILES.take();
    private final SpscLane producer;
    private final SpscLane consumer;
    private final Counter counter = new Counter();

    /** An empty lane in both mappings. */
    public SpscLaneRepairTest()
    {
        final int length = SpscLaneDescriptor.laneLength(CAPACITY);
        producer = new SpscLane(new UnsafeBuffer(slice.first, 0, length));
        consumer = new SpscLane(new UnsafeBuffer(slice.second, 0, length));
    }

    /**
     * The producing process: a held claim, the lane filled behind it, then the claim committed.
     *
     * @param r r1 1 when the held record's commit was accepted.
     */
    @Actor
    public void producer(final II_Result r)
    {
        final int held = producer.tryClaim(1, 8);
        producer.hold(held);
        producer.buffer().putLong(held, HELD);
        int index;
        while ((index = producer.tryClaim(2, 24)) >= 0)
        {
            producer.commit(index);
        }
        producer.release();
        r.r1 = producer.commit(held) ? 1 : 0;
    }

    /** The consuming process: reads, and clears the lane when the producer asks. */
    @Actor
    public void consumer()
    {
        for (int i = 0; i < 64; i++)
        {
            if (consumer.repairRequested())
            {
                consumer.discard();
            }
            consumer.controlledRead(counter, 16);
        }
    }

    /** @param r r2 the times the held record was read. */
    @Arbiter
    public void check(final II_Result r)
    {
        consumer.controlledRead(counter, 64);
        consumer.controlledRead(counter, 64);
        r.r2 = counter.held;
        slice.release();
    }

    /** Counts the held record. Consumer, then arbiter. */
    private static final class Counter implements ControlledMessageHandler
    {
        int held;

        @Override
        public Action onMessage(final int type, final MutableDirectBuffer b, final int index, final int length)
        {
            if (type == 1 && b.getLong(index) == HELD)
            {
                held++;
            }
            return Action.CONTINUE;
        }
    }
}
