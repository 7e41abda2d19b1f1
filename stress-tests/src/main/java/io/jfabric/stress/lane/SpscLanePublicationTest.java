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
 * One record crosses the lane from the producer's mapping to the consumer's, which polls it while it is written: the
 * consumer must see the record whole or not at all. The record's body (120 bytes, after a first record that was
 * read, so it starts mid-line) spans three cache lines, each a separate transfer between the cores.
 * <p>
 * Catches {@code lane.spsc-publish-before-payload} (the committed frame written at the claim, before the body):
 * an order in the program, so it fails on x86 too. The reverse mistakes of the correct order (the frame stored
 * without release, the consumer's frame load without acquire) are store-store and load-load reorderings that x86
 * does not make, and only the JIT could show them, rarely: they have no variant here. Called by JCStress's actor
 * threads only, one actor each, then the arbiter.
 */
@JCStressTest
@Catches("lane.spsc-publish-before-payload")
@Description("SPSC lane, two mappings: a record polled while it is written is seen whole or not at all.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Received once, whole.")
@Outcome(expect = FORBIDDEN, desc = "Lost, repeated, or received with bytes that were not written.")
@State
public class SpscLanePublicationTest
{
    static
    {
        Variants.arm(SpscLanePublicationTest.class);
    }

    private static final int CAPACITY = 1024;
    private static final int BODY = 120;
    private static final int TYPE = 2;
    private static final TwoMappings FILES =
        new TwoMappings("spsc-publication", SpscLaneDescriptor.laneLength(CAPACITY), 128);

    private final TwoMappings.Slice slice = FILES.take();
    private final SpscLane producer;
    private final SpscLane consumer;
    private final long seed;
    private final Reader reader = new Reader();

    /** A lane whose first record, 16 bytes of body, was written and read, so the next starts at 24. */
    public SpscLanePublicationTest()
    {
        final int length = SpscLaneDescriptor.laneLength(CAPACITY);
        producer = new SpscLane(new UnsafeBuffer(slice.first, 0, length));
        consumer = new SpscLane(new UnsafeBuffer(slice.second, 0, length));
        seed = System.identityHashCode(this) * 0x9E37_79B9L;
        producer.commit(producer.tryClaim(TYPE, 16));
        consumer.controlledRead((t, b, i, l) -> ControlledMessageHandler.Action.CONTINUE, 1);
        reader.seed = seed;
    }

    /** The producing process's thread: claim, fill, commit. */
    @Actor
    public void producer()
    {
        final int index = producer.tryClaim(TYPE, BODY);
        final UnsafeBuffer b = (UnsafeBuffer)producer.buffer();
        for (int j = 0; j < BODY / 8; j++)
        {
            b.putLong(index + 8 * j, seed + j);
        }
        producer.commit(index);
    }

    /** The consuming process's thread: a few polls. */
    @Actor
    public void consumer()
    {
        for (int i = 0; i < 256 && reader.received == 0; i++)
        {
            consumer.controlledRead(reader, 1);
        }
    }

    /** @param r r1 times received, r2 1 when every time it was whole. */
    @Arbiter
    public void check(final II_Result r)
    {
        consumer.controlledRead(reader, 1);
        consumer.controlledRead(reader, 1);
        r.r1 = reader.received;
        r.r2 = reader.whole ? 1 : 0;
        slice.release();
    }

    /** Checks the record. Consumer (then arbiter) only. */
    private static final class Reader implements ControlledMessageHandler
    {
        long seed;
        int received;
        boolean whole = true;

        @Override
        public Action onMessage(final int type, final MutableDirectBuffer b, final int index, final int length)
        {
            received++;
            boolean ok = type == TYPE && length == BODY;
            for (int j = 0; ok && j < BODY / 8; j++)
            {
                ok = b.getLong(index + 8 * j) == seed + j;
            }
            whole &= ok;
            return Action.CONTINUE;
        }
    }
}
