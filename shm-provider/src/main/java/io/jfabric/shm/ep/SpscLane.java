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

import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.region.SpscLaneDescriptor;
import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.ControlledMessageHandler.Action;

import static io.jfabric.shm.region.SpscLaneDescriptor.HEADER_LENGTH;
import static io.jfabric.shm.region.SpscLaneDescriptor.PADDING_TYPE;
import static io.jfabric.shm.region.SpscLaneDescriptor.RECORD_ALIGNMENT;
import static io.jfabric.shm.region.SpscLaneDescriptor.frame;

/**
 * A single-producer, single-consumer lane of records in shared memory ({@link SpscLaneDescriptor}), built for the
 * round trip: one sender writes it, one receiver reads it, each usually in its own process with its own mapping.
 * It keeps the semantics of the Agrona {@code OneToOneRingBuffer} the receive lanes use today (claim, commit or
 * abort; a controlled read whose handler may leave a record for later; the same longest body, an eighth of the
 * capacity; records padded to 8 bytes, so {@link LaneRecordDescriptor#bodyLength} sizes hold) and its protocol, which
 * in Agrona 2.x is already the one a round trip wants:
 * <ul>
 *   <li>the consumer polls the record's frame word and nothing else; a zero frame means "not yet", because the
 *   producer zeroes the next frame word when it claims (see the descriptor);</li>
 *   <li>the consumer writes no byte of the data area, only its position, once per read, in its own cache lines;</li>
 *   <li>the producer reads the consumer position only when its cached copy says the ring may be full, and writes
 *   its own position in cache lines the consumer does not read on the data path.</li>
 * </ul>
 * What differs: length and type are one 8-byte frame word, published with one ordered store after the body and read
 * with one ordered load; {@link #unblock} keeps what a dead producer committed after a record it left claimed; the
 * trailer is 512 bytes. Its round trip is at parity with Agrona's ring, not ahead (docs/LANE.md).
 * Recovery: a producer that died part-way through a record leaves a frame that is negative (claimed) or zero at the
 * consumer position while the producer position is past it; once the producer is known to be gone the consumer calls
 * {@link #unblock}, which turns a claimed record into padding (what was committed after it still arrives) or drops
 * what lies between the two positions. {@link #discard} drops everything unread when the lane cannot be trusted. A
 * consumer that died leaves its position where it was: its producer sees a full ring, never blocks.
 * <p>
 * Threads: {@link #tryClaim}, {@link #commit} and {@link #abort} by the producer only (one thread at a time);
 * {@link #controlledRead}, {@link #unblock} and {@link #discard} by the consumer only; the rest (positions,
 * {@link #positionsSound}, {@link #headWaiting}) by any thread. The
 * object holds no state of its own beyond the buffer, so each side (each process) makes its own over its mapping.
 * Data path: no allocation, no lock; exceptions only for arguments that break the contract ({@link #tryClaim}),
 * never for what another process wrote into the lane.
 */
public final class SpscLane
{
    /** What {@link #tryClaim} returns when the ring has no room for the record (and the next frame word). */
    public static final int INSUFFICIENT_CAPACITY = -2;

    /**
     * Broken variant: the producer writes the committed frame when it claims, before the body (a "length published
     * before payload"). Fails on x86: it is an order in the program, not one the hardware picks.
     */
    private static final boolean BROKEN_EARLY_PUBLISH = BrokenVariant.active("lane.spsc-publish-before-payload");
    /**
     * Broken variant: the consumer publishes its position past a record before handing the record to the handler,
     * so a waiting producer may overwrite it while it is read. Fails on x86 when the ring is full.
     */
    private static final boolean BROKEN_EARLY_HEAD = BrokenVariant.active("lane.spsc-head-before-read");
    /**
     * Broken variant: the producer does not zero the frame word after the record it claims, so the consumer reads
     * what an earlier lap left there as a new record. Fails anywhere once the ring has wrapped.
     */
    private static final boolean BROKEN_NO_PREZERO = BrokenVariant.active("lane.spsc-no-prezero");
    /**
     * Broken variant: the producer trusts its cached consumer position and never reads the real one again, so
     * once the ring has filled it reports it full for ever. Fails anywhere once the ring fills.
     */
    private static final boolean BROKEN_STALE_HEAD = BrokenVariant.active("lane.spsc-stale-consumer-position");

    private final AtomicBuffer buffer;
    private final int capacity;
    private final int mask;
    private final int maxBodyLength;
    private final int producerPositionIndex;
    private final int consumerCacheIndex;
    private final int consumerPositionIndex;

    /**
     * @param buffer the lane: data area and trailer ({@link SpscLaneDescriptor#laneLength}), at an address that is a
     *               multiple of 8 (of 64 for the cache-line economy the layout is drawn for).
     * @throws IllegalArgumentException when the buffer is not a lane's length.
     * @throws IllegalStateException    when the buffer is not 8-byte aligned.
     */
    public SpscLane(final AtomicBuffer buffer)
    {
        this.capacity = SpscLaneDescriptor.capacityOf(buffer.capacity());
        buffer.verifyAlignment();
        this.buffer = buffer;
        this.mask = capacity - 1;
        this.maxBodyLength = SpscLaneDescriptor.maxBodyLength(capacity);
        this.producerPositionIndex = SpscLaneDescriptor.producerPositionOffset(capacity);
        this.consumerCacheIndex = SpscLaneDescriptor.consumerCacheOffset(capacity);
        this.consumerPositionIndex = SpscLaneDescriptor.consumerPositionOffset(capacity);
    }

    /** @return the buffer the lane is laid out in (data area and trailer). */
    public AtomicBuffer buffer()
    {
        return buffer;
    }

    /** @return bytes of the data area. */
    public int capacity()
    {
        return capacity;
    }

    /** @return the longest body a record may have. */
    public int maxMsgLength()
    {
        return maxBodyLength;
    }

    /** @return bytes ever claimed (ordered read). */
    public long producerPosition()
    {
        return buffer.getLongVolatile(producerPositionIndex);
    }

    /** @return bytes ever consumed (ordered read). */
    public long consumerPosition()
    {
        return buffer.getLongVolatile(consumerPositionIndex);
    }

    /**
     * @return whether the two positions are ones a lane can have: the producer at most a capacity ahead of the
     * consumer, never behind it.
     */
    public boolean positionsSound()
    {
        final long head = consumerPosition();
        final long length = producerPosition() - head;
        return length >= 0 && length <= capacity;
    }

    /**
     * Consumer (or any thread, as a hint): whether the consumer waits at a record that is not committed: unread bytes
     * are claimed and the frame word at the consumer position is claimed or not written yet. A live producer is
     * then filling it; a dead one left it, which {@link #unblock} clears. One look, so the receiver asks whether the
     * producer is gone only for a lane that waits.
     *
     * @return whether the head record is not committed while the producer position is past it.
     */
    public boolean headWaiting()
    {
        final AtomicBuffer b = buffer;
        final long head = b.getLongVolatile(consumerPositionIndex);
        return b.getLongVolatile(producerPositionIndex) != head && (int)b.getLongVolatile((int)head & mask) <= 0;
    }

    // ------------------------------------------------------------------ producer

    /**
     * Producer: claim a record of {@code length} body bytes and type {@code type}, to fill in place and then
     * {@link #commit} or {@link #abort}. Several claims may be open; the consumer takes records in the order they
     * were claimed, so it waits at the first one not yet committed.
     *
     * @param type   the record type, positive.
     * @param length the body length, at most {@link #maxMsgLength()}.
     * @return the body's index in {@link #buffer()}, or {@link #INSUFFICIENT_CAPACITY}.
     * @throws IllegalArgumentException when the type is not positive or the length out of range.
     */
    public int tryClaim(final int type, final int length)
    {
        if (type <= 0 || length < 0 || length > maxBodyLength)
        {
            throw badClaim(type, length);
        }
        final AtomicBuffer b = buffer;
        final int recordLength = length + HEADER_LENGTH;
        final int aligned = BitUtil.align(recordLength, RECORD_ALIGNMENT);
        final long tail = b.getLong(producerPositionIndex);
        final int index = (int)tail & mask;
        if (aligned > capacity - index ||
            aligned + HEADER_LENGTH > capacity - (int)(tail - b.getLong(consumerCacheIndex)))
        {
            return claimSlow(type, recordLength, aligned, tail, index);
        }
        b.putLongRelease(producerPositionIndex, tail + aligned);
        if (!BROKEN_NO_PREZERO)
        {
            b.putLong((index + aligned) & mask, 0L);
        }
        b.putLong(index, frame(type, BROKEN_EARLY_PUBLISH ? recordLength : -recordLength));
        return index + HEADER_LENGTH;
    }

    /**
     * The claim that must look at the consumer position or wrap: the record does not fit before the end of the data
     * area (a padding record fills the rest, the record starts at 0), or the cached consumer position says the ring
     * may be full.
     */
    private int claimSlow(final int type, final int recordLength, final int aligned, final long tail, final int index)
    {
        final AtomicBuffer b = buffer;
        final int toEnd = capacity - index;
        final int padding = aligned > toEnd ? toEnd : 0;
        final int required = padding + aligned + HEADER_LENGTH;
        if (required > capacity - (int)(tail - b.getLong(consumerCacheIndex)))
        {
            if (BROKEN_STALE_HEAD)
            {
                return INSUFFICIENT_CAPACITY;
            }
            final long head = b.getLongVolatile(consumerPositionIndex);
            if (required > capacity - (int)(tail - head))
            {
                return INSUFFICIENT_CAPACITY;
            }
            b.putLong(consumerCacheIndex, head);
        }
        final int at = padding == 0 ? index : 0;
        b.putLongRelease(producerPositionIndex, tail + padding + aligned);
        if (!BROKEN_NO_PREZERO)
        {
            b.putLong((at + aligned) & mask, 0L);
        }
        b.putLong(at, frame(type, BROKEN_EARLY_PUBLISH ? recordLength : -recordLength));
        if (padding != 0)
        {
            // after the record's frame at 0 (zero or claimed, never an earlier lap's), so the consumer that steps
            // over the padding finds it
            b.putLongRelease(index, frame(PADDING_TYPE, padding));
        }
        return at + HEADER_LENGTH;
    }

    private IllegalArgumentException badClaim(final int type, final int length)
    {
        return new IllegalArgumentException("record type " + type + " must be positive and body length " + length +
            " in [0, " + maxBodyLength + "]");
    }

    /**
     * Producer: publish a claimed record, with the ordered store the consumer polls.
     *
     * @param index what {@link #tryClaim} returned.
     * @return true; false when no record is claimed at that index any more (the consumer cleared the lane under the
     * claim: a damaged lane repaired, a new receiver starting) and nothing was published.
     */
    public boolean commit(final int index)
    {
        final AtomicBuffer b = buffer;
        final int at = index - HEADER_LENGTH;
        final long claimed = b.getLong(at);
        final int recordLength = (int)claimed;
        if (recordLength >= 0)
        {
            return BROKEN_EARLY_PUBLISH; // that variant's frames are committed from the claim on
        }
        b.putLongRelease(at, frame((int)(claimed >> 32), -recordLength));
        return true;
    }

    /**
     * Producer: give a claimed record up; the consumer steps over it.
     *
     * @param index what {@link #tryClaim} returned.
     * @return true; false when no record is claimed at that index any more (see {@link #commit}).
     */
    public boolean abort(final int index)
    {
        final AtomicBuffer b = buffer;
        final int at = index - HEADER_LENGTH;
        final int recordLength = (int)b.getLong(at);
        if (recordLength >= 0)
        {
            return false;
        }
        b.putLongRelease(at, frame(PADDING_TYPE, -recordLength));
        return true;
    }

    // ------------------------------------------------------------------ consumer

    /**
     * Consumer: hand committed records to {@code handler} in order, stepping over padding, until the handler says
     * {@link Action#ABORT} (that record stays, to be handed again next time) or {@link Action#BREAK}, no committed
     * record is left, or {@code limit} records were handed. {@link Action#COMMIT} publishes the consumer position at
     * once; otherwise it is published once, at the end. The handler reads the body in {@link #buffer()} at the
     * index and length given; it must not keep them: the producer may write there once the read returns.
     *
     * @param handler takes each record: its type, the buffer, the body's index and length.
     * @param limit   the most records to hand.
     * @return records handed and consumed (not counting one left with ABORT, nor padding).
     */
    public int controlledRead(final ControlledMessageHandler handler, final int limit)
    {
        final AtomicBuffer b = buffer;
        final int positionIndex = consumerPositionIndex;
        final long head = b.getLong(positionIndex);
        long position = head;
        int count = 0;
        try
        {
            while (count < limit)
            {
                final int index = (int)position & mask;
                final long frame = b.getLongVolatile(index);
                final int recordLength = (int)frame;
                if (recordLength <= 0)
                {
                    break;
                }
                final int type = (int)(frame >> 32);
                final long next = position + BitUtil.align(recordLength, RECORD_ALIGNMENT);
                if (type == PADDING_TYPE)
                {
                    position = next;
                    continue;
                }
                if (BROKEN_EARLY_HEAD)
                {
                    b.putLongRelease(positionIndex, next);
                }
                final Action action = handler.onMessage(type, b, index + HEADER_LENGTH, recordLength - HEADER_LENGTH);
                if (action == Action.ABORT)
                {
                    break;
                }
                position = next;
                count++;
                if (action == Action.BREAK)
                {
                    break;
                }
                if (action == Action.COMMIT)
                {
                    b.putLongRelease(positionIndex, position);
                }
            }
        }
        finally
        {
            if (position != head)
            {
                b.putLongRelease(positionIndex, position);
            }
        }
        return count;
    }

    /**
     * Consumer, once the producer is known to be gone (never while it may still write): clear what it left
     * part-way at the consumer position. A record it claimed and never committed becomes padding, so what it
     * committed after it still arrives; a frame it never wrote (the producer position past the consumer's, the
     * frame zero) drops everything between the two positions ({@link #discard}).
     *
     * @return whether anything was cleared: false when the lane is empty, or its head record committed.
     */
    public boolean unblock()
    {
        final AtomicBuffer b = buffer;
        final long head = b.getLongVolatile(consumerPositionIndex);
        final long tail = b.getLongVolatile(producerPositionIndex);
        if (tail == head)
        {
            return false;
        }
        final int index = (int)head & mask;
        final int recordLength = (int)b.getLongVolatile(index);
        if (recordLength > 0)
        {
            return false;
        }
        final long claimedEnd = head + BitUtil.align(-recordLength, RECORD_ALIGNMENT);
        if (recordLength < 0 && -recordLength >= HEADER_LENGTH && claimedEnd <= tail && tail - head <= capacity)
        {
            if (claimedEnd == tail)
            {
                b.putLong((int)tail & mask, 0L); // its next frame word, should the dead producer not have zeroed it
            }
            b.putLongRelease(index, frame(PADDING_TYPE, -recordLength));
            return true;
        }
        discard();
        return true;
    }

    /**
     * Consumer: drop everything unread and go on from the producer position, for a lane whose records cannot be
     * trusted from the consumer position on (a damaged frame, positions that cannot both be right, a dead producer).
     * Zeroes the bytes between the positions and the frame word at the producer position (the whole data area when
     * the positions are not sound), then moves the consumer position. A record a live producer is writing meanwhile
     * may be damaged, and is then dropped in turn.
     */
    public void discard()
    {
        final AtomicBuffer b = buffer;
        final long head = b.getLongVolatile(consumerPositionIndex);
        final long tail = b.getLongVolatile(producerPositionIndex);
        final long length = tail - head;
        if (length < 0 || length > capacity - HEADER_LENGTH)
        {
            b.setMemory(0, capacity, (byte)0);
        }
        else
        {
            final int from = (int)head & mask;
            final int zeroed = (int)length + HEADER_LENGTH;
            final int first = Math.min(zeroed, capacity - from);
            b.setMemory(from, first, (byte)0);
            if (zeroed > first)
            {
                b.setMemory(0, zeroed - first, (byte)0);
            }
        }
        b.putLongRelease(consumerPositionIndex, tail);
    }
}
