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

import io.jfabric.shm.rx.Acknowledgements;
import io.jfabric.shm.lane.TxRecordDescriptor;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RingReader;
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
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The acknowledgement ring's unblock: a receiver (one mapping) claimed an acknowledgement in a sender's transmit
 * ring and finishes it late, as a slow or descheduled receiver does, while the sender (the other mapping), which has
 * seen the record unfinished at its ring's head for its stuck limit, clears it ({@code RingReader.unblock}, as
 * {@code TxProgress} does). The receiver commits the record it claimed and, when the commit is refused, acknowledges
 * again, as {@code RxContext} does ({@code Acknowledgements}). The sender must read the acknowledgement exactly once.
 * <p>
 * Catches {@code txring.unblock-plain}: an unblock that checks the record is claimed and then writes padding over it
 * with plain stores (Agrona's {@code unblock}) overwrites an acknowledgement committed in between, whose receiver
 * believes it delivered: it is lost. The two sides' compare-and-sets of the whole header decide which wins. A race of
 * the program's order, so it fails on x86 too. Called by JCStress's actor threads only, one actor each, then the
 * arbiter.
 */
@JCStressTest
@Catches("txring.unblock-plain")
@Description("Transmit ring, two mappings: a late acknowledgement racing the sender's unblock is read exactly once.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "Read once: committed first, or written again after the clear.")
@Outcome(expect = FORBIDDEN, desc = "Lost (committed, then overwritten by the clear) or read twice.")
@State
public class AckRingUnblockTest
{
    static
    {
        Variants.arm(AckRingUnblockTest.class);
    }

    private static final long COOKIE = 0x5EED_0042L;
    private static final TwoMappings FILES = new TwoMappings("ack-unblock",
        (int)RegionDescriptor.regionLength(SlotClaimTest.GEOMETRY), 64);

    private final TwoMappings.Slice slice = FILES.take();
    private final Acknowledgements receiver = new Acknowledgements(slice.first, SlotClaimTest.GEOMETRY);
    private final RingReader sender = new RingReader(new UnsafeBuffer(slice.second,
        RegionDescriptor.txRingOffset(SlotClaimTest.GEOMETRY, 0),
        RegionDescriptor.ringLength(SlotClaimTest.GEOMETRY.txRingBytes())), receiver.ring(0).maxMsgLength());
    private final int claimed;

    /** The receiver's acknowledgement, claimed in slot 0's transmit ring and not yet committed. */
    public AckRingUnblockTest()
    {
        claimed = receiver.claim(0);
    }

    /** The receiver: finishes its acknowledgement, and writes it again if the sender cleared it. */
    @Actor
    public void receiver()
    {
        if (!receiver.commit(0, claimed, COOKIE, 0, 1))
        {
            receiver.acknowledge(0, COOKIE, 0, 1);
        }
    }

    /** The sender: its transmit progress clears the record it found unfinished at its head. */
    @Actor
    public void sender()
    {
        sender.unblock();
    }

    /** @param r r1 the times the sender read the acknowledgement. */
    @Arbiter
    public void check(final I_Result r)
    {
        final Counter counter = new Counter();
        sender.controlledRead(counter, 16);
        sender.controlledRead(counter, 16);
        r.r1 = counter.count;
        slice.release();
    }

    /** Counts the acknowledgements of the cookie. Arbiter only. */
    private static final class Counter implements ControlledMessageHandler
    {
        int count;

        @Override
        public Action onMessage(final int type, final MutableDirectBuffer b, final int index, final int length)
        {
            if (b.getLong(index + TxRecordDescriptor.COOKIE_OFFSET) == COOKIE)
            {
                count++;
            }
            return Action.CONTINUE;
        }
    }
}
