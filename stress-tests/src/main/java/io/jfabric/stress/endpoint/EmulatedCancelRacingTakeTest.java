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

import io.jfabric.CqEntries;
import io.jfabric.Flags;
import io.jfabric.MemoryRegion;
import io.jfabric.Threading;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SpscLaneDescriptor;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.StressDomain;
import org.agrona.concurrent.AtomicBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The emulated RMA path's exactly-once decision: endpoint A has issued an fi_write to endpoint B's heap buffer
 * (memory no peer can map, so the write travels as a request record in A's lane into B); then one thread drives
 * B's receive progress (B's CQ read: {@code EmulatedTarget.serve} swaps the request's State from the cookie to
 * STATE_TAKEN, applies, answers) while another closes A ({@code EmulatedCompletions.discard} cancels every
 * operation in flight through {@code cancel}: State from the cookie to STATE_CANCELLED while the record is unread).
 * The arbiter looks at B's buffer and at the request's State word in the region. Exactly one swap may win: applied
 * with State TAKEN, or not applied with State CANCELLED.
 * <p>
 * Close is the public way to reach {@code cancel}: the other caller, transmit progress's sweep, cancels only once
 * the target has had no heartbeat for the liveness timeout (at least 100 ms), which a sample cannot wait for; both
 * run the same {@code cancel}, and the target's side is the same {@code serve} either way. Both endpoints are in one
 * mapping of the region (one process), as the emulated path serves a process's own local-only memory.
 * <p>
 * Catches {@code emul.cancel-plain}: a cancel that reads the State and then writes CANCELLED (instead of one CAS)
 * overwrites a take that fell between the two: the write is applied and the request reads as cancelled.
 */
@JCStressTest
@Catches("emul.cancel-plain")
@Description("An emulated request is either taken and applied or cancelled and never applied, never both.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The target took it first: applied, State TAKEN.")
@Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "The close cancelled it first: not applied, State CANCELLED.")
@Outcome(id = "1, 2", expect = FORBIDDEN, desc = "Both won: applied although cancelled.")
@Outcome(expect = FORBIDDEN, desc = "Neither won, or a State the two sides never write.")
@State
public class EmulatedCancelRacingTakeTest
{
    static
    {
        Variants.arm(EmulatedCancelRacingTakeTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.SAFE);
    private static final ShmDomain SHM = (ShmDomain)DOMAIN.domain;
    private static final AtomicBuffer REGION = SHM.region().buffer();
    private static final AtomicLong KEYS = new AtomicLong(0x5_0000);
    private static final long PATTERN = 0x5A5A_1234_5678_A5A5L;
    private static final int READS = 4;

    private final Peer initiator = DOMAIN.open();
    private final Peer target = DOMAIN.open();
    private final ByteBuffer memory = ByteBuffer.allocate(8);
    private final MemoryRegion mr;
    private final int stateOffset;
    private final CqEntries entries = new CqEntries(1);

    /** A's fi_write of one word is in A's lane into B, not yet read. */
    public EmulatedCancelRacingTakeTest()
    {
        final long key = KEYS.getAndIncrement();
        mr = DOMAIN.domain.mrReg(memory, Flags.FI_REMOTE_WRITE, 0, key, 0, 0);
        final RegionGeometry g = SHM.region().geometry();
        final int lane = RegionDescriptor.laneOffset(g, (int)target.addr, (int)initiator.addr);
        final int capacity = g.rxRingBytes();
        final long before = REGION.getLongVolatile(lane + capacity + SpscLaneDescriptor.PRODUCER_POSITION_OFFSET);
        final ByteBuffer word = ByteBuffer.allocateDirect(8);
        word.putLong(0, PATTERN);
        final long rc = initiator.ep.write(word, 0, 8, 0, target.addr, 0, key, 1);
        if (rc != 0)
        {
            throw new IllegalStateException("fi_write: " + rc);
        }
        // the record starts where the producer stood, or at 0 after the filler that ends the ring
        int frame = (int)(before & (capacity - 1));
        if (SpscLaneDescriptor.type(REGION.getLongVolatile(lane + frame)) == SpscLaneDescriptor.PADDING_TYPE)
        {
            frame = 0;
        }
        stateOffset = lane + frame + SpscLaneDescriptor.HEADER_LENGTH + LaneRecordDescriptor.STATE_OFFSET;
        if (SpscLaneDescriptor.type(REGION.getLongVolatile(lane + frame)) != LaneRecordDescriptor.RMA_WRITE ||
            REGION.getLongVolatile(stateOffset) < 0)
        {
            throw new IllegalStateException("the request record is not where the lane's producer put it");
        }
    }

    /** B's receive progress: serves the request unless it was cancelled. */
    @Actor
    public void target()
    {
        for (int i = 0; i < READS; i++)
        {
            target.cq.read(entries, 1);
        }
    }

    /** A closes: every emulated operation in flight is cancelled unless B took it. */
    @Actor
    public void initiator()
    {
        initiator.ep.close();
    }

    /** @param r r1 1 when B's buffer holds the word; r2 the State: 1 TAKEN, 2 CANCELLED, 0 still the cookie. */
    @Arbiter
    public void check(final II_Result r)
    {
        final long state = REGION.getLongVolatile(stateOffset);
        r.r1 = memory.getLong(0) == PATTERN ? 1 : memory.getLong(0) == 0 ? 0 : 3;
        r.r2 = state == LaneRecordDescriptor.STATE_TAKEN ? 1 : state == LaneRecordDescriptor.STATE_CANCELLED ? 2 :
            state > 0 ? 0 : 3;
        mr.close();
        initiator.cq.close();
        target.close();
    }
}
