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
package io.jfabric.shm.lane;

import io.jfabric.shm.region.SpscLaneDescriptor;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.ControlledMessageHandler.Action;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static io.jfabric.shm.region.SpscLaneDescriptor.HEADER_LENGTH;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SpscLane}'s semantics, single-threaded, with the producer and the consumer as two objects over one memory
 * (as two processes have them): order, wrap-around with padding, a full ring, the longest body, abort, the
 * controlled read's actions, and recovery from a producer that died part-way.
 */
class SpscLaneTest
{
    private static final int CAPACITY = 1024;
    private static final int TYPE = 3;

    private final AtomicBuffer memory =
        new UnsafeBuffer(ByteBuffer.allocateDirect(SpscLaneDescriptor.laneLength(CAPACITY) + 64), 0,
        SpscLaneDescriptor.laneLength(CAPACITY));
    private SpscLane producer = new SpscLane(new UnsafeBuffer(memory, 0, memory.capacity()));
    private final SpscLane consumer = new SpscLane(new UnsafeBuffer(memory, 0, memory.capacity()));
    private final Recorder recorder = new Recorder();

    /** Records what it is handed and answers with {@link #answer}. */
    private static final class Recorder implements ControlledMessageHandler
    {
        final List<Integer> types = new ArrayList<>();
        final List<byte[]> bodies = new ArrayList<>();
        Action answer = Action.CONTINUE;

        @Override
        public Action onMessage(final int type, final MutableDirectBuffer buffer, final int index, final int length)
        {
            types.add(type);
            final byte[] body = new byte[length];
            buffer.getBytes(index, body);
            bodies.add(body);
            return answer;
        }
    }

    private static byte[] body(final int seed, final int length)
    {
        final byte[] b = new byte[length];
        for (int i = 0; i < length; i++)
        {
            b[i] = (byte)(seed * 31 + i);
        }
        return b;
    }

    private boolean write(final int type, final byte[] body)
    {
        final int index = producer.tryClaim(type, body.length);
        if (index < 0)
        {
            assertEquals(SpscLane.INSUFFICIENT_CAPACITY, index);
            return false;
        }
        producer.buffer().putBytes(index, body);
        producer.commit(index);
        return true;
    }

    @Test
    void shouldDeliverACommittedRecordWithItsTypeAndBody()
    {
        assertTrue(write(TYPE, body(1, 40)));
        assertEquals(1, consumer.controlledRead(recorder, 10));
        assertEquals(List.of(TYPE), recorder.types);
        assertArrayEquals(body(1, 40), recorder.bodies.get(0));
        assertEquals(consumer.producerPosition(), consumer.consumerPosition());
        assertEquals(SpscLaneDescriptor.alignedLength(40), consumer.consumerPosition());
        assertEquals(0, consumer.controlledRead(recorder, 10));
    }

    @Test
    void shouldNotDeliverAClaimedRecordUntilItIsCommitted()
    {
        final int index = producer.tryClaim(TYPE, 16);
        producer.buffer().putLong(index, 42);
        assertEquals(0, consumer.controlledRead(recorder, 10));
        assertEquals(0, consumer.consumerPosition());
        producer.commit(index);
        assertEquals(1, consumer.controlledRead(recorder, 10));
    }

    @Test
    void shouldDeliverInClaimOrderWhenALaterClaimIsCommittedFirst()
    {
        final int first = producer.tryClaim(1, 8);
        final int second = producer.tryClaim(2, 8);
        producer.commit(second);
        assertEquals(0, consumer.controlledRead(recorder, 10));
        producer.commit(first);
        assertEquals(2, consumer.controlledRead(recorder, 10));
        assertEquals(List.of(1, 2), recorder.types);
    }

    @Test
    void shouldStepOverAnAbortedRecord()
    {
        final int aborted = producer.tryClaim(1, 100);
        assertTrue(write(2, body(2, 10)));
        producer.abort(aborted);
        assertEquals(1, consumer.controlledRead(recorder, 10));
        assertEquals(List.of(2), recorder.types);
        assertEquals(consumer.producerPosition(), consumer.consumerPosition());
    }

    @Test
    void shouldRefuseToCommitOrAbortWhatIsNotClaimedWithoutThrowing()
    {
        final int index = producer.tryClaim(TYPE, 8);
        assertTrue(producer.commit(index));
        assertFalse(producer.commit(index));
        assertFalse(producer.abort(index));
        final int cleared = producer.tryClaim(TYPE, 8);
        consumer.discard(); // the receiver clears the lane under the claim
        assertFalse(producer.commit(cleared), "nothing is claimed there any more: nothing is published");
        assertEquals(0, consumer.controlledRead(recorder, 10));
    }

    @Test
    void shouldWrapWithPaddingAndDeliverEveryRecordInOrderOverManyLaps()
    {
        int sent = 0;
        int received = 0;
        for (int lap = 0; lap < 200; lap++)
        {
            // lengths that do not divide the capacity, so records straddle the end and padding is needed
            while (write(1 + sent % 5, body(sent, (sent * 37) % (CAPACITY / 8 + 1))))
            {
                sent++;
            }
            received += consumer.controlledRead(recorder, 3);
        }
        received += consumer.controlledRead(recorder, Integer.MAX_VALUE);
        assertEquals(sent, received);
        assertTrue(consumer.consumerPosition() > 20L * CAPACITY, "wrapped many times");
        for (int i = 0; i < sent; i++)
        {
            assertEquals(1 + i % 5, recorder.types.get(i));
            assertArrayEquals(body(i, (i * 37) % (CAPACITY / 8 + 1)), recorder.bodies.get(i), "record " + i);
        }
    }

    @Test
    void shouldReturnInsufficientCapacityWhenFullAndClaimAgainOnceRead()
    {
        int sent = 0;
        while (write(TYPE, body(sent, 56)))
        {
            sent++;
        }
        // 64-byte records and the next frame word: one record fewer than the capacity holds
        assertEquals(CAPACITY / 64 - 1, sent);
        assertEquals(SpscLane.INSUFFICIENT_CAPACITY, producer.tryClaim(TYPE, 56));
        assertEquals(1, consumer.controlledRead(recorder, 1));
        assertTrue(write(TYPE, body(sent, 56)));
        assertFalse(write(TYPE, body(sent + 1, 56)));
    }

    @Test
    void shouldNeverBlockAProducerWhoseConsumerIsGone()
    {
        while (write(TYPE, body(0, 100)))
        {
        }
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(SpscLane.INSUFFICIENT_CAPACITY, producer.tryClaim(TYPE, 8));
        }
    }

    @Test
    void shouldTakeTheLongestBodyAndRefuseALongerOneOrABadType()
    {
        assertEquals(CAPACITY / 8, producer.maxMsgLength());
        for (int i = 0; i < 20; i++)
        {
            assertTrue(write(TYPE, body(i, CAPACITY / 8)));
            assertEquals(1, consumer.controlledRead(recorder, 10));
        }
        assertArrayEquals(body(19, CAPACITY / 8), recorder.bodies.get(19));
        assertThrows(IllegalArgumentException.class, () -> producer.tryClaim(TYPE, CAPACITY / 8 + 1));
        assertThrows(IllegalArgumentException.class, () -> producer.tryClaim(TYPE, -1));
        assertThrows(IllegalArgumentException.class, () -> producer.tryClaim(0, 8));
        assertThrows(IllegalArgumentException.class, () -> producer.tryClaim(SpscLaneDescriptor.PADDING_TYPE, 8));
    }

    @Test
    void shouldLeaveARecordTheHandlerAbortsAndHandItAgain()
    {
        assertTrue(write(1, body(1, 8)));
        assertTrue(write(2, body(2, 8)));
        recorder.answer = Action.ABORT;
        assertEquals(0, consumer.controlledRead(recorder, 10));
        assertEquals(0, consumer.consumerPosition());
        recorder.answer = Action.CONTINUE;
        assertEquals(2, consumer.controlledRead(recorder, 10));
        assertEquals(List.of(1, 1, 2), recorder.types);
    }

    @Test
    void shouldStopAfterARecordTheHandlerBreaksOnAndHonourTheLimit()
    {
        for (int i = 0; i < 4; i++)
        {
            assertTrue(write(1 + i, body(i, 8)));
        }
        recorder.answer = Action.BREAK;
        assertEquals(1, consumer.controlledRead(recorder, 10));
        recorder.answer = Action.CONTINUE;
        assertEquals(2, consumer.controlledRead(recorder, 2));
        assertEquals(1, consumer.controlledRead(recorder, 10));
        assertEquals(List.of(1, 2, 3, 4), recorder.types);
    }

    @Test
    void shouldPublishTheConsumerPositionAtOnceOnCommit()
    {
        assertTrue(write(1, body(1, 8)));
        assertTrue(write(2, body(2, 8)));
        final long[] seen = new long[2];
        final int[] n = {0};
        consumer.controlledRead((type, buffer, index, length) ->
        {
            seen[n[0]++] = producer.consumerPosition();
            return Action.COMMIT;
        }, 10);
        assertEquals(0, seen[0]);
        assertEquals(SpscLaneDescriptor.alignedLength(8), seen[1]);
    }

    @Test
    void shouldNeverTakeAnEarlierLapsFrameForANewRecord()
    {
        // fill and drain once with one size, so committed frames of that lap lie everywhere
        while (write(TYPE, body(0, 24)))
        {
        }
        consumer.controlledRead(recorder, Integer.MAX_VALUE);
        final int before = recorder.types.size();
        assertEquals(0, consumer.controlledRead(recorder, 10), "a stale frame was read as a record");
        assertTrue(write(TYPE, body(9, 24)));
        assertEquals(1, consumer.controlledRead(recorder, 10));
        assertEquals(0, consumer.controlledRead(recorder, 10));
        assertArrayEquals(body(9, 24), recorder.bodies.get(before));
    }

    @Test
    void shouldUnblockARecordADeadProducerClaimedAndDeliverWhatItCommittedAfter()
    {
        assertTrue(write(1, body(1, 8)));
        producer.tryClaim(2, 30); // never committed: the producer "dies" after one more record
        assertTrue(write(3, body(3, 8)));
        assertEquals(1, consumer.controlledRead(recorder, 10));
        assertEquals(0, consumer.controlledRead(recorder, 10));
        assertTrue(consumer.headWaiting());
        assertTrue(consumer.unblock());
        assertFalse(consumer.headWaiting());
        assertEquals(1, consumer.controlledRead(recorder, 10));
        assertEquals(List.of(1, 3), recorder.types);
        assertEquals(consumer.producerPosition(), consumer.consumerPosition());
        assertFalse(consumer.unblock());
        assertTrue(write(4, body(4, 8)));
        assertEquals(1, consumer.controlledRead(recorder, 10));
    }

    @Test
    void shouldUnblockAFrameADeadProducerNeverWroteByDroppingToItsPosition()
    {
        assertTrue(write(1, body(1, 8)));
        consumer.controlledRead(recorder, 10);
        // the producer advanced its position and died before writing the frame; what it left past it is junk
        final AtomicBuffer b = producer.buffer();
        final long head = producer.producerPosition();
        b.putLong(SpscLaneDescriptor.producerPositionOffset(CAPACITY), head + 48);
        b.putLong((int)head + 48, -1L);
        assertEquals(0, consumer.controlledRead(recorder, 10));
        assertTrue(consumer.headWaiting());
        assertTrue(consumer.unblock());
        assertEquals(head + 48, consumer.consumerPosition());
        assertEquals(0, consumer.controlledRead(recorder, 10), "the frame at the producer position is zeroed");
        producer = new SpscLane(new UnsafeBuffer(memory, 0, memory.capacity())); // the slot's next producer
        assertTrue(write(2, body(2, 8)));
        assertEquals(1, consumer.controlledRead(recorder, 10));
        assertEquals(List.of(1, 2), recorder.types);
    }

    @Test
    void shouldNotUnblockAnEmptyLaneOrACommittedHead()
    {
        assertFalse(consumer.headWaiting());
        assertFalse(consumer.unblock());
        assertTrue(write(1, body(1, 8)));
        assertFalse(consumer.headWaiting());
        assertFalse(consumer.unblock());
        assertEquals(1, consumer.controlledRead(recorder, 10));
    }

    @Test
    void shouldDiscardEverythingUnreadAndFlowAgain()
    {
        for (int i = 0; i < 5; i++)
        {
            assertTrue(write(1, body(i, 40)));
        }
        consumer.discard();
        assertTrue(consumer.positionsSound());
        assertEquals(consumer.producerPosition(), consumer.consumerPosition());
        assertEquals(0, consumer.controlledRead(recorder, 10));
        assertTrue(write(2, body(7, 40)));
        assertEquals(1, consumer.controlledRead(recorder, 10));
        assertEquals(List.of(2), recorder.types);
    }

    @Test
    void shouldDiscardTheWholeRingWhenThePositionsAreNotSound()
    {
        assertTrue(write(1, body(1, 40)));
        producer.buffer().putLong(SpscLaneDescriptor.producerPositionOffset(CAPACITY), 5L * CAPACITY);
        assertFalse(consumer.positionsSound());
        consumer.discard();
        assertTrue(consumer.positionsSound());
        assertEquals(0, consumer.controlledRead(recorder, 10));
        producer = new SpscLane(new UnsafeBuffer(memory, 0, memory.capacity())); // a producer that starts there
        assertTrue(write(2, body(2, 40)));
        assertEquals(1, consumer.controlledRead(recorder, 10));
    }

    @Test
    void shouldReadFromItsOwnPositionWhenThePublishedOneIsOverwritten()
    {
        assertTrue(write(1, body(1, 40)));
        assertTrue(write(2, body(2, 40)));
        final int headIndex = SpscLaneDescriptor.consumerPositionOffset(CAPACITY);
        memory.putLong(headIndex, 5L * CAPACITY + 16);
        assertEquals(2, consumer.controlledRead(recorder, 10), "nothing lost, nothing read twice");
        assertEquals(List.of(1, 2), recorder.types);
        assertTrue(consumer.takeHeadOverwritten());
        assertFalse(consumer.takeHeadOverwritten());
        assertEquals(consumer.producerPosition(), memory.getLong(headIndex), "its own position is published again");

        memory.putLong(headIndex, 0); // back to records consumed long ago: none is read again
        assertEquals(0, consumer.controlledRead(recorder, 10));
        assertTrue(consumer.takeHeadOverwritten());
        assertEquals(List.of(1, 2), recorder.types);
    }

    /**
     * The CI failure of 2026-11-29 (DamagedLiveLaneTest, garbage positions): a consumer position overwritten with a
     * value that looks possible, ahead of the consumer's real one, let the producer claim over records the consumer
     * had not read, and a message changed under the consumer's copy was delivered as a success.
     */
    @Test
    void shouldNotClaimOverUnreadRecordsWhenThePublishedConsumerPositionIsOverwrittenAhead()
    {
        final byte[] first = body(1, 100);
        int written = 0;
        while (write(TYPE, body(written + 1, 100)))
        {
            written++;
        }
        assertTrue(written >= 3, "the lane filled: " + written);
        final int headIndex = SpscLaneDescriptor.consumerPositionOffset(CAPACITY);
        final long tail = consumer.producerPosition();
        memory.putLongVolatile(headIndex, tail - SpscLaneDescriptor.alignedLength(100)); // all but one "consumed"

        assertFalse(write(TYPE, body(99, 100)), "the producer does not trust a position its copy does not confirm");
        assertEquals(written, consumer.controlledRead(recorder, written + 1), "every record still arrives");
        assertTrue(consumer.takeHeadOverwritten());
        assertArrayEquals(first, recorder.bodies.get(0), "the oldest one unchanged");
        for (int i = 0; i < written; i++)
        {
            assertArrayEquals(body(i + 1, 100), recorder.bodies.get(i), "record " + i);
        }
        assertTrue(write(TYPE, body(100, 100)), "the consumer put the position right: the producer goes on");
        assertEquals(1, consumer.controlledRead(recorder, 10));
        assertArrayEquals(body(100, 100), recorder.bodies.get(written));
    }

    @Test
    void shouldPublishItsOwnProducerPositionAgainAtItsNextClaim()
    {
        assertTrue(write(1, body(1, 40)));
        final int tailIndex = SpscLaneDescriptor.producerPositionOffset(CAPACITY);
        final long tail = memory.getLong(tailIndex);
        memory.putLong(tailIndex, -77);
        assertTrue(write(2, body(2, 40)));
        assertEquals(tail + SpscLaneDescriptor.alignedLength(40), memory.getLong(tailIndex));
        assertEquals(2, consumer.controlledRead(recorder, 10));
    }

    @Test
    void shouldHandAStaleFrameAsDamagedAndStopThere()
    {
        assertTrue(write(1, body(1, 40)));
        final long stale = memory.getLong(0); // the committed frame of the record at position 0
        assertEquals(1, consumer.controlledRead(recorder, 10));
        for (int i = 0; i < CAPACITY / 64; i++) // a lap later position 0 holds a new record; its frame is the old one
        {
            assertTrue(write(2, body(2, 40)));
            consumer.controlledRead(recorder, 10);
        }
        recorder.types.clear();
        final int at = (int)consumer.consumerPosition() & (CAPACITY - 1);
        memory.putLong(at, stale);
        memory.putLong(at + 8, 0); // and nothing after it
        assertEquals(0, consumer.controlledRead(recorder, 10));
        assertEquals(List.of(SpscLaneDescriptor.DAMAGED_TYPE), recorder.types, "not the record at this position");
    }

    @Test
    void shouldHandAFrameRunningPastTheDataAreaAsDamaged()
    {
        assertTrue(write(1, body(1, 40)));
        final long frame = memory.getLong(0);
        memory.putLong(0, (frame & ~0xFFFF_FFFFL) | (CAPACITY + 8));
        recorder.answer = Action.CONTINUE;
        assertEquals(0, consumer.controlledRead(recorder, 10));
        assertEquals(List.of(SpscLaneDescriptor.DAMAGED_TYPE), recorder.types);
        assertEquals(0, consumer.consumerPosition(), "the read stops at it, whatever the handler says");
    }

    @Test
    void shouldAskForARepairWhenFullAndWaitingAtARecordNobodyWillCommit()
    {
        assertTrue(write(1, body(1, 40)));
        memory.putLong(0, SpscLaneDescriptor.claimedFrame(1, 48, 0)); // damaged: looks claimed again
        int written = 1;
        while (write(2, body(2, 40)))
        {
            written++;
        }
        assertEquals(0, consumer.controlledRead(recorder, 10));
        assertTrue(consumer.headWaiting());
        assertTrue(consumer.repairRequested(), "the producer, full, found the head record not one it holds open");
        consumer.discard();
        assertFalse(consumer.repairRequested());
        assertTrue(write(3, body(3, 40)), "flows again");
        assertEquals(1, consumer.controlledRead(recorder, 10));
        assertEquals(List.of(3), recorder.types);
        assertTrue(written > 10);
    }

    @Test
    void shouldNotAskForARepairOfTheClaimItHolds()
    {
        final int held = producer.tryClaim(1, 40);
        producer.hold(held);
        while (write(2, body(2, 40)))
        {
            Thread.onSpinWait();
        }
        assertFalse(consumer.repairRequested(), "the head record is the producer's open claim");
        producer.release();
        assertTrue(producer.commit(held));
        assertTrue(consumer.controlledRead(recorder, 100) > 10);
        assertEquals(1, recorder.types.get(0));
    }

    @Test
    void shouldAskForARepairWhenThePublishedConsumerPositionCannotBeRight()
    {
        while (write(2, body(2, 40)))
        {
            Thread.onSpinWait();
        }
        assertTrue(consumer.controlledRead(recorder, 3) > 0);
        memory.putLong(SpscLaneDescriptor.consumerPositionOffset(CAPACITY), -1_000_000L);
        while (write(2, body(2, 40)))
        {
            Thread.onSpinWait();
        }
        assertFalse(write(2, body(2, 40)), "a producer does not trust a consumer position it cannot have");
        assertFalse(consumer.repairRequested(), "that is not the consumer's own position: it asks nothing of it");
        assertTrue(consumer.controlledRead(recorder, 100) > 0, "the consumer reads on from its own");
        assertTrue(consumer.takeHeadOverwritten());
        assertTrue(write(2, body(2, 40)), "and the producer sees it again");
    }

    @Test
    void shouldRefuseABufferThatIsNotALane()
    {
        assertThrows(IllegalArgumentException.class,
            () -> new SpscLane(new UnsafeBuffer(ByteBuffer.allocateDirect(1000 + SpscLaneDescriptor.TRAILER_LENGTH))));
        assertThrows(IllegalArgumentException.class,
            () -> new SpscLane(new UnsafeBuffer(ByteBuffer.allocateDirect(128 + SpscLaneDescriptor.TRAILER_LENGTH))));
        assertTrue(SpscLaneDescriptor.TRAILER_LENGTH <=
            org.agrona.concurrent.ringbuffer.RingBufferDescriptor.TRAILER_LENGTH, "fits an Agrona ring's space");
        assertEquals(HEADER_LENGTH + LaneRecordDescriptor.bodyLength(24 + 64),
            SpscLaneDescriptor.alignedLength(LaneRecordDescriptor.bodyLength(24 + 64)), "same record sizes");
    }
}
