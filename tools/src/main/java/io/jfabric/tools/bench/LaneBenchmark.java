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
package io.jfabric.tools.bench;

import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.region.SpscLaneDescriptor;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * What a lane costs the CPU per message, without the cores' traffic: one thread writes a whole-message record
 * (the provider's lane record header and {@code size} bytes of payload, as {@code LaneFloor} writes it) into a
 * 64 KiB lane and reads it back (payload copied out, tag returned), through Agrona's {@code OneToOneRingBuffer}
 * ({@code lane=agrona}) or the provider's own {@link SpscLane} ({@code lane=spsc}). {@link #emptyPoll} is one poll
 * of an empty lane, the consumer's cost while it waits. The two-JVM round trip is {@code tools/bench/lane-floor.sh};
 * this is its instruction cost alone. (Agrona's {@code read} stops after stepping over the padding at the end of the
 * ring, so a read that took nothing is tried once more, for both lanes.)
 * <p>
 * Single thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "-Dagrona.disable.bounds.checks=true"})
public class LaneBenchmark
{
    private static final int CAPACITY = 64 * 1024;
    private static final int TYPE = LaneRecordDescriptor.MSG;

    /** The lane: Agrona's ring or the provider's own. */
    @Param({"agrona", "spsc"})
    public String lane;

    /** Payload bytes of each message. */
    @Param({"32", "64"})
    public int size;

    private boolean spsc;
    private OneToOneRingBuffer ring;
    private SpscLane spscLane;
    private int bodyLength;
    private final ByteBuffer source = ByteBuffer.allocateDirect(4096);
    private final ByteBuffer sink = ByteBuffer.allocateDirect(4096);
    private long round;
    private long received;
    private final MessageHandler agronaReader = this::onMessage;
    private final ControlledMessageHandler spscReader = new SpscReader();

    /** Make the lane, in direct memory aligned to a cache line. */
    @Setup
    public void setup()
    {
        spsc = "spsc".equals(lane);
        final ByteBuffer memory = ByteBuffer.allocateDirect(CAPACITY + RingBufferDescriptor.TRAILER_LENGTH + 64);
        final UnsafeBuffer all = new UnsafeBuffer(memory);
        final int skew = (int)(64 - (all.addressOffset() & 63)) & 63;
        ring = new OneToOneRingBuffer(new UnsafeBuffer(memory, skew, CAPACITY + RingBufferDescriptor.TRAILER_LENGTH));
        spscLane = new SpscLane(new UnsafeBuffer(memory, skew, SpscLaneDescriptor.laneLength(CAPACITY)));
        bodyLength = LaneRecordDescriptor.bodyLength(LaneRecordDescriptor.HEADER_LENGTH + size);
    }

    /**
     * @return the tag of the message read back.
     */
    @Benchmark
    public long sendReceive()
    {
        final long r = round++;
        if (spsc)
        {
            final SpscLane l = spscLane;
            final int index = l.tryClaim(TYPE, bodyLength);
            fill(l.buffer(), index, r);
            l.commit(index);
            if (l.controlledRead(spscReader, 1) == 0)
            {
                l.controlledRead(spscReader, 1);
            }
        }
        else
        {
            final OneToOneRingBuffer l = ring;
            final int index = l.tryClaim(TYPE, bodyLength);
            fill(l.buffer(), index, r);
            l.commit(index);
            if (l.read(agronaReader, 1) == 0)
            {
                l.read(agronaReader, 1); // a read that met the padding at the end of the ring stops there
            }
        }
        return received;
    }

    /**
     * @return records read (none).
     */
    @Benchmark
    public int emptyPoll()
    {
        return spsc ? spscLane.controlledRead(spscReader, 1) : ring.read(agronaReader, 1);
    }

    private void fill(final AtomicBuffer b, final int index, final long r)
    {
        b.putLong(index + LaneRecordDescriptor.TAG_OFFSET, r);
        b.putLong(index + LaneRecordDescriptor.DATA_OFFSET, 0);
        b.putInt(index + LaneRecordDescriptor.LENGTH_OFFSET, size);
        b.putInt(index + LaneRecordDescriptor.FLAGS_OFFSET, LaneRecordDescriptor.flagsWord(0, 1));
        b.putBytes(index + LaneRecordDescriptor.PAYLOAD_OFFSET, source, 0, size);
    }

    private void onMessage(final int type, final MutableDirectBuffer b, final int index, final int length)
    {
        final int len = b.getInt(index + LaneRecordDescriptor.LENGTH_OFFSET);
        b.getBytes(index + LaneRecordDescriptor.PAYLOAD_OFFSET, sink, 0, len);
        received = b.getLong(index + LaneRecordDescriptor.TAG_OFFSET);
    }

    /** The provider lane's handler: {@link #onMessage}, then on, one call deep as Agrona's handler is. */
    private final class SpscReader implements ControlledMessageHandler
    {
        @Override
        public Action onMessage(final int type, final MutableDirectBuffer b, final int index, final int length)
        {
            LaneBenchmark.this.onMessage(type, b, index, length);
            return Action.CONTINUE;
        }
    }
}
