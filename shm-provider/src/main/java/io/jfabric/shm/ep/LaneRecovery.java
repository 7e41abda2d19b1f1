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
package io.jfabric.shm.ep;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * Clears a receive lane whose sender died in the middle of a record: Agrona's one-to-one ring advances its tail
 * when a record is claimed and publishes the record's length last, so a producer that stopped in between leaves a
 * record whose length is not positive at the head, and the consumer would wait for it for ever. Nothing after it can
 * exist (the lane has one producer and it is gone), so the receiver drops everything from the head to the tail.
 * <p>
 * Call only from the lane's consumer; {@link #discardAbandoned} only once the sender is known to be gone.
 */
final class LaneRecovery
{
    private LaneRecovery()
    {
    }

    /**
     * @param lane a lane with unread bytes.
     * @return whether its head record is claimed but was never committed.
     */
    static boolean headIsAbandoned(final RingBuffer lane)
    {
        final AtomicBuffer b = lane.buffer();
        final int mask = lane.capacity() - 1;
        final int index = (int)lane.consumerPosition() & mask;
        return b.getIntVolatile(RecordDescriptor.lengthOffset(index)) <= 0;
    }

    /**
     * Clear a lane whose records cannot be trusted from the head on (a damaged frame, or head and tail positions
     * that cannot both be right): zero from head to tail, or the whole ring when their distance is not one a ring
     * can have, and move the head to the tail. The producer goes on from its tail; what lay between is lost. A
     * record the producer is writing at that moment may be damaged by the zeroing, and is then dropped in turn.
     *
     * @param lane the lane.
     */
    static void discardDamaged(final RingBuffer lane)
    {
        final AtomicBuffer b = lane.buffer();
        final int capacity = lane.capacity();
        final long head = lane.consumerPosition();
        final long tail = lane.producerPosition();
        final long length = tail - head;
        if (length > 0 && length <= capacity)
        {
            discardAbandoned(lane);
            return;
        }
        b.setMemory(0, capacity, (byte)0);
        b.putLongOrdered(capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET, tail);
    }

    /**
     * @param lane a lane.
     * @return whether its head and tail positions are ones a ring can have: the tail at most a capacity ahead.
     */
    static boolean positionsSound(final RingBuffer lane)
    {
        final long length = lane.producerPosition() - lane.consumerPosition();
        return length >= 0 && length <= lane.capacity();
    }

    /**
     * Zero the bytes from head to tail and move the head to the tail.
     *
     * @param lane the lane.
     */
    static void discardAbandoned(final RingBuffer lane)
    {
        final AtomicBuffer b = lane.buffer();
        final int capacity = lane.capacity();
        final long head = lane.consumerPosition();
        final long tail = lane.producerPosition();
        final int from = (int)head & (capacity - 1);
        final long length = tail - head;
        if (length <= 0 || length > capacity)
        {
            return;
        }
        final int first = (int)Math.min(length, capacity - from);
        b.setMemory(from, first, (byte)0);
        if (length > first)
        {
            b.setMemory(0, (int)(length - first), (byte)0);
        }
        b.putLongOrdered(capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET, tail);
    }
}
