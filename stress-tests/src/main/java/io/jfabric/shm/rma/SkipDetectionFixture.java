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
package io.jfabric.shm.rma;

import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SpscLaneDescriptor;

import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;

import static io.jfabric.shm.lane.LaneRecordDescriptor.*;

/**
 * One emulated operation in flight, built from the provider's own classes for the JCStress test of its skip
 * detection ({@code io.jfabric.stress.endpoint.EmulatedSkipDetectionTest}): the initiator's {@link EmulatedOps} and
 * {@link EmulatedCompletions}, a lane ({@link SpscLane}) holding the operation's request record, the initiator's
 * transmit ring (Agrona's {@link ManyToOneRingBuffer}, as the provider's), and the target's {@link EmulatedTarget},
 * which serves the request from inside {@link SpscLane#controlledRead}, as receive progress does. It lives in the
 * stress-tests module, in the provider's package, because those classes are package-private: the module compiles the
 * provider's sources with its own, so the code under test is the provider's, not a copy.
 * <p>
 * The request asks for nothing the target can perform (no region), so the target answers it with FI_EIO: an answer
 * all the same, committed into the ring, which is what the skip detection is about. Built by one thread; then
 * {@link #serve} is the target's thread and {@link #awaitMark} / {@link #skipped} the initiator's transmit progress.
 */
public final class SkipDetectionFixture
{
    private static final int INCARNATION = 1;

    private final SpscLane lane;
    private final RingBuffer ring;
    private final EmulatedOps ops;
    private final EmulatedCompletions completions;
    private final EmulatedTarget target;
    private final int op;
    private final ControlledMessageHandler handler;

    /** The sending side's work, done: the request is committed into the lane, and the operation is in flight. */
    public SkipDetectionFixture()
    {
        final int capacity = 1024;
        lane = new SpscLane(new UnsafeBuffer(ByteBuffer.allocateDirect(SpscLaneDescriptor.laneLength(capacity))));
        ring = new ManyToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(capacity + RingBufferDescriptor.TRAILER_LENGTH)));
        ops = new EmulatedOps(1, 1, 1);
        op = ops.take(0, 0, INCARNATION);
        final int index = lane.tryClaim(RMA_WRITE, bodyLength(REGION_LIST_OFFSET));
        final UnsafeBuffer b = (UnsafeBuffer)lane.buffer();
        final long cookie = ops.cookie[op];
        b.putLong(index + STATE_OFFSET, cookie);
        b.putLong(index + DATA_OFFSET, 0);
        b.putInt(index + LENGTH_OFFSET, 0);
        b.putInt(index + FLAGS_OFFSET, flagsWord(0, INCARNATION));
        b.putLong(index + REQUEST_COOKIE_OFFSET, cookie);
        b.putInt(index + REQUEST_REGIONS_OFFSET, 0); // regions, datatype, op, kind: none
        b.putInt(index + REQUEST_TOTAL_OFFSET, 0);
        ops.request(op, lane.producerPosition(), index, 0, 0, true, true, false, 0, 0);
        ops.submit(op);
        lane.commit(index);
        completions = new EmulatedCompletions(ops, new SpscLane[] {lane}, ring, null, null, null, null);
        completions.accept();
        final RegionGeometry geometry = new RegionGeometry(1, 4096, 4096, 4096, 0, 0);
        target = new EmulatedTarget(null, null, new UnsafeBuffer(new byte[64]), geometry, 0, null);
        handler = (type, buffer, at, length) ->
        {
            target.serve(type, 0, INCARNATION, lane.buffer(), at, buffer.getInt(at + LENGTH_OFFSET), ring);
            return ControlledMessageHandler.Action.CONTINUE;
        };
    }

    /** The target's receive progress: take the request and answer it. @return records taken. */
    public int serve()
    {
        return lane.controlledRead(handler, 1);
    }

    /**
     * Transmit progress's look, repeated until it has noted the ring's producer position (it saw the target's lane
     * consumer position past the request) or {@code patience} looks were made.
     *
     * @return 1 when the position was noted, 0 when not (the target had not moved on), 2 when a look already
     * decided the request was skipped.
     */
    public int awaitMark(final int patience)
    {
        for (int i = 0; i < patience; i++)
        {
            if (completions.skipped(op))
            {
                return 2;
            }
            if (ops.answerBelow[op] >= 0)
            {
                return 1;
            }
        }
        return 0;
    }

    /** @return transmit progress's decision now: true when it would complete the operation as skipped (FI_EIO). */
    public boolean skipped()
    {
        return completions.skipped(op);
    }

    /** @return whether the target's answer is in the ring (claimed, whether committed yet or not). */
    public boolean answered()
    {
        return ring.producerPosition() > 0;
    }
}
