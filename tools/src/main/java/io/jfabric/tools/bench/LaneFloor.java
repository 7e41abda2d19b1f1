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
import io.jfabric.tools.SpinPatience;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Arrays;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * The round trip of bare lanes: two JVMs ping-pong one message at a time through two Agrona
 * {@code OneToOneRingBuffer}s in a {@code /dev/shm} file, each record laid out as the shm provider lays out a whole
 * message in a receive lane ({@link LaneRecordDescriptor}) and copied out by the receiver, and nothing else: no
 * endpoint, address vector, matching or completion queue.
 * <p>
 * It sits between {@code tools/bench/reference/floor.sh} (one counter in one cache line each way) and
 * {@code jfabric pingpong}: the floor-to-lane ratio is what the lane's record format and ring protocol cost, the
 * lane-to-pingpong ratio what the library adds. {@code tools/bench/lane-floor.sh} runs the two processes, as
 * {@code floor.sh} does.
 * <pre>
 * file: [0, 4096) control (ready flag at 0) | ring ping-to-pong | ring pong-to-ping
 * </pre>
 * The lane is Agrona's ring by default ({@code agrona}), or with {@code spsc} the shm provider's own
 * single-producer, single-consumer lane ({@link SpscLane}, laid out from the start of the same ring spaces, with the
 * same 64 KiB capacity), so the two protocols are compared on the same record format.
 * <p>
 * Usage: {@code LaneFloor ping|pong ROUND_TRIPS SIZE FILE [WARMUP [agrona|spsc]]}; the ping side prints
 * {@code lanefloor rtt_ns p50=... p90=... p99=... p99.9=... max=... rounds=... size=...}, followed by
 * {@code lane=spsc} in that mode. Each message carries its round number as its tag and the receiver checks it, so a
 * lost or repeated message fails the run (exit status 1). One thread per process.
 */
public final class LaneFloor
{
    /**
     * Bytes of each ring's data part (a lane of the default domain geometry is no smaller): 64 KiB, or the power of
     * two in the system property {@code lanefloor.capacity} (both sides must be given the same).
     */
    static final int RING_CAPACITY = Integer.getInteger("lanefloor.capacity", 64 * 1024);
    private static final int CONTROL_LENGTH = 4096;
    private static final int RING_LENGTH = RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH;
    private static final int READY_OFFSET = 0;
    private static final int MSG_TYPE = LaneRecordDescriptor.MSG;
    /** The largest payload: Agrona's longest message in a ring of this capacity (capacity / 8), less the header. */
    static final int MAX_SIZE = RING_CAPACITY / 8 - LaneRecordDescriptor.HEADER_LENGTH;
    private static final int DEFAULT_WARMUP = 200_000;
    private static final long PATIENCE_NANOS = 10_000_000_000L;

    private final OneToOneRingBuffer out;
    private final OneToOneRingBuffer in;
    private final boolean spsc;
    private final SpscLane spscOut;
    private final SpscLane spscIn;
    private final ControlledMessageHandler spscReader = new SpscReader();
    private final ByteBuffer source;
    private final ByteBuffer sink;
    private final int size;
    private final int bodyLength;
    private final MessageHandler reader = this::onMessage;
    private final SpinPatience patience;
    private long received = -1;
    private int receivedLength = -1;
    private int receivedType;

    private LaneFloor(
        final AtomicBuffer file, final boolean ping, final int size, final long patienceNanos, final boolean spsc)
    {
        this.patience = new SpinPatience(patienceNanos);
        this.spsc = spsc;
        final int spscLength = SpscLaneDescriptor.laneLength(RING_CAPACITY);
        final SpscLane spscPingToPong = new SpscLane(new UnsafeBuffer(file, CONTROL_LENGTH, spscLength));
        final SpscLane spscPongToPing = new SpscLane(new UnsafeBuffer(file, CONTROL_LENGTH + RING_LENGTH, spscLength));
        this.spscOut = ping ? spscPingToPong : spscPongToPing;
        this.spscIn = ping ? spscPongToPing : spscPingToPong;
        final OneToOneRingBuffer pingToPong =
            new OneToOneRingBuffer(new UnsafeBuffer(file, CONTROL_LENGTH, RING_LENGTH));
        final OneToOneRingBuffer pongToPing =
            new OneToOneRingBuffer(new UnsafeBuffer(file, CONTROL_LENGTH + RING_LENGTH, RING_LENGTH));
        this.out = ping ? pingToPong : pongToPing;
        this.in = ping ? pongToPing : pingToPong;
        this.size = size;
        this.bodyLength = LaneRecordDescriptor.bodyLength(LaneRecordDescriptor.HEADER_LENGTH + size);
        this.source = ByteBuffer.allocateDirect(Math.max(1, size));
        this.sink = ByteBuffer.allocateDirect(Math.max(1, size));
    }

    /**
     * Run one side.
     *
     * @param ping   whether this is the side that times the round trips (the other answers each message).
     * @param rounds round trips timed, after {@code warmup} untimed ones.
     * @param warmup round trips first, not timed.
     * @param size   payload bytes of each message.
     * @param path   the shared file: the pong side creates it (it must not exist), the ping side waits for it and
     *               deletes it at the end.
     * @return the ping side's round trips in nanoseconds, sorted; empty for the pong side.
     * @throws IOException when the file cannot be mapped.
     * @throws IllegalStateException when a message arrives out of order or with the wrong length, or when the other
     *                               side has not answered for 10 seconds.
     */
    public static long[] run(final boolean ping, final int rounds, final int warmup, final int size, final Path path)
        throws IOException
    {
        return run(ping, rounds, warmup, size, path, PATIENCE_NANOS, false);
    }

    /**
     * {@link #run(boolean, int, int, int, Path)} through the shm provider's own lane ({@link SpscLane}) instead of
     * Agrona's ring.
     *
     * @return the ping side's round trips in nanoseconds, sorted; empty for the pong side.
     * @throws IOException when the file cannot be mapped.
     */
    public static long[] runSpsc(
        final boolean ping, final int rounds, final int warmup, final int size, final Path path)
        throws IOException
    {
        return run(ping, rounds, warmup, size, path, PATIENCE_NANOS, true);
    }

    /**
     * {@link #run(boolean, int, int, int, Path)} with the time to wait for the other side before giving up.
     */
    static long[] run(
        final boolean ping, final int rounds, final int warmup, final int size, final Path path,
        final long patienceNanos)
        throws IOException
    {
        return run(ping, rounds, warmup, size, path, patienceNanos, false);
    }

    /**
     * {@link #run(boolean, int, int, int, Path)} with the time to wait for the other side before giving up, through
     * Agrona's ring or ({@code spsc}) the provider's own lane.
     */
    static long[] run(
        final boolean ping, final int rounds, final int warmup, final int size, final Path path,
        final long patienceNanos, final boolean spsc)
        throws IOException
    {
        if (rounds <= 0 || warmup < 0 || size < 0 || size > MAX_SIZE)
        {
            throw new IllegalArgumentException("rounds " + rounds + " must be > 0, warmup " + warmup +
                " >= 0 and size " + size + " in [0, " + MAX_SIZE + "]");
        }
        final UnsafeBuffer file;
        if (ping)
        {
            final SpinPatience patience = new SpinPatience(patienceNanos);
            while (!Files.exists(path))
            {
                spin(patience, -1);
            }
            file = map(path, READ, WRITE);
            while (file.getLongVolatile(READY_OFFSET) != 1L)
            {
                spin(patience, -1);
            }
        }
        else
        {
            try
            {
                file = map(path, CREATE_NEW, READ, WRITE); // a fresh file: never a ready flag left by another run
            }
            catch (final FileAlreadyExistsException ex)
            {
                throw new IllegalStateException(path + " exists (left by an earlier run?): remove it or use another");
            }
            file.putLongVolatile(READY_OFFSET, 1L);
        }
        final LaneFloor side = new LaneFloor(file, ping, size, patienceNanos, spsc);
        final long[] rtt = ping ? new long[rounds] : new long[0];
        final long total = (long)warmup + rounds;
        for (long i = 0; i < total; i++)
        {
            if (ping)
            {
                final long t0 = System.nanoTime();
                side.send(i);
                side.await(i);
                if (i >= warmup)
                {
                    rtt[(int)(i - warmup)] = System.nanoTime() - t0;
                }
            }
            else
            {
                side.await(i);
                side.send(i);
            }
        }
        if (ping)
        {
            Files.deleteIfExists(path);
        }
        Arrays.sort(rtt);
        return rtt;
    }

    private static UnsafeBuffer map(final Path path, final OpenOption... options) throws IOException
    {
        try (FileChannel ch = FileChannel.open(path, options))
        {
            return new UnsafeBuffer(ch.map(FileChannel.MapMode.READ_WRITE, 0, CONTROL_LENGTH + 2L * RING_LENGTH));
        }
    }

    /**
     * @param args {@code ping|pong ROUND_TRIPS SIZE FILE [WARMUP [agrona|spsc]]}.
     * @throws IOException when the file cannot be mapped.
     */
    public static void main(final String[] args) throws IOException
    {
        final String lane = args.length > 5 ? args[5] : "agrona";
        if (args.length < 4 || !("ping".equals(args[0]) || "pong".equals(args[0])) ||
            !("agrona".equals(lane) || "spsc".equals(lane)))
        {
            System.err.println("usage: LaneFloor ping|pong ROUND_TRIPS SIZE FILE [WARMUP [agrona|spsc]]");
            System.exit(2);
        }
        final boolean spsc = "spsc".equals(lane);
        final int rounds = Integer.parseInt(args[1]);
        final int size = Integer.parseInt(args[2]);
        final int warmup = args.length > 4 ? Integer.parseInt(args[4]) : Math.min(rounds, DEFAULT_WARMUP);
        try
        {
            final long[] rtt = run("ping".equals(args[0]), rounds, warmup, size, Path.of(args[3]), PATIENCE_NANOS,
                spsc);
            if (rtt.length > 0)
            {
                System.out.printf("lanefloor rtt_ns p50=%d p90=%d p99=%d p99.9=%d max=%d rounds=%d size=%d%s%n",
                    rtt[rounds / 2], rtt[(int)(rounds * 0.9)], rtt[(int)(rounds * 0.99)],
                    rtt[(int)(rounds * 0.999)], rtt[rounds - 1], rounds, size, spsc ? " lane=spsc" : "");
            }
        }
        catch (final IllegalStateException | IllegalArgumentException ex)
        {
            System.err.println("lanefloor: " + ex.getMessage());
            System.exit(1);
        }
    }

    /** Write message {@code round} as a whole-message lane record (the ring has room: one message is in flight). */
    private void send(final long round)
    {
        if (spsc)
        {
            sendSpsc(round);
            return;
        }
        final int index = out.tryClaim(MSG_TYPE, bodyLength);
        if (index < 0)
        {
            throw new IllegalStateException("ring full with one message in flight, at message " + round);
        }
        final AtomicBuffer b = out.buffer();
        b.putLong(index + LaneRecordDescriptor.TAG_OFFSET, round);
        b.putLong(index + LaneRecordDescriptor.DATA_OFFSET, 0);
        b.putInt(index + LaneRecordDescriptor.LENGTH_OFFSET, size);
        b.putInt(index + LaneRecordDescriptor.FLAGS_OFFSET, LaneRecordDescriptor.flagsWord(0, 1));
        b.putBytes(index + LaneRecordDescriptor.PAYLOAD_OFFSET, source, 0, size);
        out.commit(index);
    }

    /** {@link #send} through the provider's own lane. */
    private void sendSpsc(final long round)
    {
        final SpscLane lane = spscOut;
        final int index = lane.tryClaim(MSG_TYPE, bodyLength);
        if (index < 0)
        {
            throw new IllegalStateException("lane full with one message in flight, at message " + round);
        }
        final AtomicBuffer b = lane.buffer();
        b.putLong(index + LaneRecordDescriptor.TAG_OFFSET, round);
        b.putLong(index + LaneRecordDescriptor.DATA_OFFSET, 0);
        b.putInt(index + LaneRecordDescriptor.LENGTH_OFFSET, size);
        b.putInt(index + LaneRecordDescriptor.FLAGS_OFFSET, LaneRecordDescriptor.flagsWord(0, 1));
        b.putBytes(index + LaneRecordDescriptor.PAYLOAD_OFFSET, source, 0, size);
        lane.commit(index);
    }

    /** Spin until one message is read, and check that it is message {@code round} with {@code size} bytes. */
    private void await(final long round)
    {
        if (poll() == 0)
        {
            patience.reset();
            while (poll() == 0)
            {
                spin(patience, round);
            }
        }
        if (received != round || receivedLength != size || receivedType != MSG_TYPE)
        {
            throw new IllegalStateException("expected message " + round + " of " + size + " bytes, received " +
                received + " of " + receivedLength + (receivedType == MSG_TYPE ? "" : " in a record of type " +
                receivedType));
        }
    }

    /** One poll of the incoming lane, for at most one message: the same shape for both lanes. */
    private int poll()
    {
        return spsc ? spscIn.controlledRead(spscReader, 1) : in.read(reader, 1);
    }

    /** The provider lane's handler: {@link #onMessage}, then on, one call deep as Agrona's handler is. */
    private final class SpscReader implements ControlledMessageHandler
    {
        @Override
        public Action onMessage(
            final int msgTypeId, final org.agrona.MutableDirectBuffer b, final int index, final int length)
        {
            LaneFloor.this.onMessage(msgTypeId, b, index, length);
            return Action.CONTINUE;
        }
    }

    private void onMessage(final int msgTypeId, final org.agrona.MutableDirectBuffer b, final int index,
        final int length)
    {
        final int len = b.getInt(index + LaneRecordDescriptor.LENGTH_OFFSET);
        final boolean whole = len >= 0 && length >= LaneRecordDescriptor.PAYLOAD_OFFSET + len; // the record holds it
        if (whole && len == size)
        {
            b.getBytes(index + LaneRecordDescriptor.PAYLOAD_OFFSET, sink, 0, len);
        }
        received = b.getLong(index + LaneRecordDescriptor.TAG_OFFSET);
        receivedLength = whole ? len : -1;
        receivedType = msgTypeId;
    }

    /** One empty poll of a wait for {@code round} (-1: the pong side's start): spin, or give up after the timeout. */
    private static void spin(final SpinPatience patience, final long round)
    {
        Thread.onSpinWait();
        if (patience.exhausted())
        {
            throw new IllegalStateException("waited " + patience.timeoutNanos() / 1_000_000L + " ms for " +
                (round < 0 ? "the pong side to start" : "message " + round));
        }
    }
}
