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
package io.jfabric.stress.process;

import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.ep.EndpointSlots;
import io.jfabric.shm.rx.SenderAddresses;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.TwoMappings;

import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The context-of word of an endpoint slot: the region's one slot was held by a transmit context of a scalable
 * endpoint (its context-of word names the scalable endpoint's address slot) whose process died. A new process (one
 * mapping) takes the slot over for a plain endpoint ({@code EndpointSlots.claim}, then {@code activate}) and sends a
 * record to a receiver; the receiver (the other mapping) reads it and asks, as it does when it reports the record's
 * source, what the slot's context-of word says for the record's incarnation ({@code SenderAddresses.contextOf}): it
 * must be nothing, never the dead context's scalable endpoint.
 * <p>
 * Catches {@code slot.context-of-kept}: a claim that does not clear the word a dead owner left makes the newcomer's
 * records the scalable endpoint's, whatever the order (fails anywhere). The orderings that make the clear visible (the
 * claim's incarnation store and the clear before the slot's ACTIVE and the record's commit, release stores the
 * receiver acquires) are store-store orders x86 keeps: no variant of them can fail here. Called by JCStress's actor
 * threads only, one actor each, then the arbiter.
 */
@JCStressTest
@Catches("slot.context-of-kept")
@Description("A slot taken over from a dead scalable endpoint's context reports its new endpoint's records as its own.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The record read, the slot's word says nothing: a plain endpoint.")
@Outcome(id = "-1, 0", expect = ACCEPTABLE, desc = "The record had not come yet when the receiver looked.")
@Outcome(expect = FORBIDDEN, desc = "The newcomer's record attributed to the dead context's scalable endpoint.")
@State
public class ContextOfWordTest
{
    static
    {
        Variants.arm(ContextOfWordTest.class);
    }

    private static final long SELF = ProcessIdentity.self();
    private static final long GONE = ProcessIdentity.of(ProcessIdentity.pid(SELF), ProcessIdentity.start(SELF) - 1);
    /** The dead context's word: the scalable endpoint's address slot 3 at its incarnation 9. */
    private static final long DEAD_CONTEXT_OF = SlotDescriptor.slotWord(3, 9);
    private static final TwoMappings FILES = new TwoMappings("context-of",
        (int)RegionDescriptor.regionLength(SlotClaimTest.GEOMETRY), 64);

    private final TwoMappings.Slice slice = FILES.take();
    private final EndpointSlots newcomer = new EndpointSlots(slice.first, SlotClaimTest.GEOMETRY);
    private final SpscLane out = lane(slice.first);
    private final SpscLane in = lane(slice.second);
    private int incarnation;

    /** The slot as the dead context left it: owner gone, incarnation 5, ACTIVE, its context-of word. */
    public ContextOfWordTest()
    {
        slice.first.putLong(SlotDescriptor.ownerOffset(SlotClaimTest.GEOMETRY, 0), GONE);
        slice.first.putInt(SlotDescriptor.incarnationOffset(SlotClaimTest.GEOMETRY, 0), 5);
        slice.first.putInt(SlotDescriptor.stateOffset(SlotClaimTest.GEOMETRY, 0), SlotDescriptor.STATE_ACTIVE);
        slice.first.putLong(SlotDescriptor.contextOfOffset(SlotClaimTest.GEOMETRY, 0), DEAD_CONTEXT_OF);
    }

    private static SpscLane lane(final org.agrona.concurrent.AtomicBuffer region)
    {
        return new SpscLane(new UnsafeBuffer(region, RegionDescriptor.laneOffset(SlotClaimTest.GEOMETRY, 0, 0),
            RegionDescriptor.laneLength(SlotClaimTest.GEOMETRY.rxRingBytes())));
    }

    /** The new process: takes the slot over, enables its plain endpoint, sends a record naming its incarnation. */
    @Actor
    public void newcomer()
    {
        newcomer.claim(0);
        newcomer.activate(0);
        final int index = out.tryClaim(1, 8);
        out.buffer().putLong(index, newcomer.incarnation(0));
        out.commit(index);
    }

    /**
     * The receiver: reads the record and asks the slot's context-of word about its sender.
     *
     * @param r r1 the word (-1 when no record came), r2 1 when the record named the new incarnation.
     */
    @Actor
    public void receiver(final JJ_Result r)
    {
        final long[] sent = { -1 };
        final ControlledMessageHandler take = (type, b, index, length) ->
        {
            sent[0] = b.getLong(index);
            return ControlledMessageHandler.Action.CONTINUE;
        };
        for (int i = 0; i < 64 && sent[0] < 0; i++)
        {
            in.controlledRead(take, 1);
        }
        if (sent[0] < 0)
        {
            r.r1 = -1;
            return;
        }
        r.r1 = SenderAddresses.contextOf(slice.second, SlotClaimTest.GEOMETRY, 0, (int)sent[0]);
        r.r2 = sent[0] == 6 ? 1 : 0;
    }

    /** Gives the slice back. */
    @Arbiter
    public void release()
    {
        slice.release();
    }
}
