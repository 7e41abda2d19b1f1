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
import io.jfabric.stress.fixture.TwoMappings;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * One JCStress state of "a stream of records crosses a small lane between two mappings": the producer writes
 * {@link #RECORDS} records of varying lengths (8 to 56 bytes of body, so records straddle the end of the ring and
 * padding is written, and a freed record is reused by one of another length) into a lane of
 * {@link #CAPACITY} bytes, several laps in all, waiting while the ring is full; the consumer, in the other mapping,
 * takes them. Each record's body is its sequence number, then longs derived from it, so a record read out of
 * order, twice, torn, or left from an earlier lap is told apart.
 * <p>
 * The consumer may be slow ({@code consumerPause}: it pauses between reading a record's sequence number and the rest
 * of it, as a consumer that works on a record does), which keeps the ring full and the producer waiting on the
 * consumer position; or fast, which keeps it near empty, polling the frame word the producer writes next.
 * <p>
 * The producer's thread may also play a process that damages the lane ({@code overwrites}): the first times a claim
 * finds the ring full, it overwrites the published consumer position (the word alone, not the copy beside it) with
 * a value that looks possible, one record alignment behind its own position, so ahead of the consumer's real one.
 * <p>
 * Loops are bounded: what the actors did not finish the arbiter finishes alone, so a lane that stops flowing shows
 * as records lost, never as a hung test. Actors: {@link #produce} and {@link #consume}; {@link #check} as the
 * arbiter.
 */
final class LaneStream
{
    /** Records the producer writes. */
    static final int RECORDS = 64;
    /** The lane's capacity: a few records (its longest body is 64 bytes). */
    static final int CAPACITY = 512;
    /** Attempts of a claim, or polls of a read, before an actor gives up. */
    private static final int PATIENCE = 20_000;
    private static final int TYPE = 1;

    private final TwoMappings.Slice slice;
    private final SpscLane producer;
    private final SpscLane consumer;
    private final int consumerPause;
    private final int overwrites;
    private final Checker checker = new Checker();
    private int sent;
    private int overwritten;

    /**
     * @param files         where the state's slice comes from.
     * @param consumerPause pauses (spin-wait hints) the consumer takes in the middle of each record.
     */
    LaneStream(final TwoMappings files, final int consumerPause)
    {
        this(files, consumerPause, 0);
    }

    /**
     * @param files         where the state's slice comes from.
     * @param consumerPause pauses (spin-wait hints) the consumer takes in the middle of each record.
     * @param overwrites    times, at most, the producer overwrites the published consumer position ahead when a
     *                      claim finds the ring full.
     */
    LaneStream(final TwoMappings files, final int consumerPause, final int overwrites)
    {
        slice = files.take();
        final int length = SpscLaneDescriptor.laneLength(CAPACITY);
        producer = new SpscLane(new UnsafeBuffer(slice.first, 0, length));
        consumer = new SpscLane(new UnsafeBuffer(slice.second, 0, length));
        this.consumerPause = consumerPause;
        this.overwrites = overwrites;
    }

    /** @return a mapping slice length for {@link TwoMappings}. */
    static int sliceLength()
    {
        return SpscLaneDescriptor.laneLength(CAPACITY);
    }

    /** @return the body length of record {@code seq}: 8 to 56 bytes. */
    static int bodyLength(final int seq)
    {
        return 8 * (1 + (seq * 5) % 7);
    }

    /** @return long {@code j} (from 1) of record {@code seq}'s body. */
    static long word(final int seq, final int j)
    {
        return (seq + 1) * 0x9E37_79B9_7F4A_7C15L + j;
    }

    /** The producer's thread: write the records, each claim tried a bounded number of times. */
    void produce()
    {
        while (sent < RECORDS && send(PATIENCE))
        {
            sent++;
        }
    }

    private boolean send(final int patience)
    {
        final int seq = sent;
        final int length = bodyLength(seq);
        for (int i = 0; i < patience; i++)
        {
            final int index = producer.tryClaim(TYPE, length);
            if (index >= 0)
            {
                final UnsafeBuffer b = (UnsafeBuffer)producer.buffer();
                b.putLong(index, seq);
                for (int j = 1; j < length / 8; j++)
                {
                    b.putLong(index + 8 * j, word(seq, j));
                }
                producer.commit(index);
                return true;
            }
            if (i == 0 && overwritten < overwrites)
            {
                overwritten++;
                // another process's write, in the producer's mapping of the file: the position word only
                producer.buffer().putLongRelease(SpscLaneDescriptor.consumerPositionOffset(CAPACITY),
                    producer.claimedPosition() - SpscLaneDescriptor.RECORD_ALIGNMENT);
            }
            Thread.onSpinWait();
        }
        return false;
    }

    /** The consumer's thread: take records until all arrived, polling a bounded number of times. */
    void consume()
    {
        checker.pause = consumerPause;
        for (int i = 0; i < PATIENCE && checker.received + checker.bad < RECORDS; i++)
        {
            if (consumer.controlledRead(checker, RECORDS) == 0)
            {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * @param r r1 records received whole and in order, r2 records received out of order, torn or unknown.
     */
    void check(final II_Result r)
    {
        checker.pause = 0;
        overwritten = overwrites; // the arbiter only finishes the stream
        for (int i = 0; i < 10 * RECORDS && sent < RECORDS; i++)
        {
            if (send(1))
            {
                sent++;
            }
            else
            {
                consumer.controlledRead(checker, RECORDS);
            }
        }
        consumer.controlledRead(checker, 2 * RECORDS); // and anything after the last record, which is unknown
        r.r1 = checker.received;
        r.r2 = checker.bad;
        slice.release();
    }

    /** Checks each record against the sequence number the stream has reached. Consumer (then arbiter) only. */
    private static final class Checker implements ControlledMessageHandler
    {
        int pause;
        int received;
        int bad;

        @Override
        public Action onMessage(final int type, final MutableDirectBuffer b, final int index, final int length)
        {
            final long seq = b.getLong(index);
            for (int i = 0; i < pause; i++)
            {
                Thread.onSpinWait();
            }
            boolean whole = type == TYPE && seq == received && length == bodyLength(received);
            for (int j = 1; whole && j < length / 8; j++)
            {
                whole = b.getLong(index + 8 * j) == word(received, j);
            }
            if (whole && b.getLong(index) == seq)
            {
                received++;
            }
            else
            {
                bad++;
            }
            return Action.CONTINUE;
        }
    }
}
