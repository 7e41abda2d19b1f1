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

import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.region.SpscLaneDescriptor;
import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.ControlledMessageHandler.Action;

import static io.jfabric.shm.region.SpscLaneDescriptor.DAMAGED_TYPE;
import static io.jfabric.shm.region.SpscLaneDescriptor.HEADER_LENGTH;
import static io.jfabric.shm.region.SpscLaneDescriptor.PADDING_TYPE;
import static io.jfabric.shm.region.SpscLaneDescriptor.RECORD_ALIGNMENT;
import static io.jfabric.shm.region.SpscLaneDescriptor.claimedFrame;
import static io.jfabric.shm.region.SpscLaneDescriptor.committed;
import static io.jfabric.shm.region.SpscLaneDescriptor.padding;
import static io.jfabric.shm.region.SpscLaneDescriptor.stampOf;

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
 *   <li>the consumer writes no byte of the data area, only its position and the copy beside it, once per read, in
 *   its own cache lines;</li>
 *   <li>the producer reads the consumer position only when its cached copy says the ring may be full, and writes
 *   its own position in cache lines the consumer does not read on the data path.</li>
 * </ul>
 * What differs: length, type and a stamp of the record's position are one 8-byte frame word, published with one
 * ordered store after the body and read with one ordered load; {@link #unblock} keeps what a dead producer committed
 * after a record it left claimed; the trailer is 512 bytes. Its round trip is at parity with Agrona's ring, not ahead
 * (docs/LANE.md).
 * <p>
 * <b>What another process may have written.</b> Each side keeps its own position (and the producer its cache of the
 * consumer's) in this object and only publishes it to the trailer, so a position someone else overwrote in the file
 * never moves either side: the consumer notices its published position changed when it reads
 * ({@link #takeHeadOverwritten}) and publishes its own again, the producer's next claim publishes its own. The
 * consumer publishes a copy of its position just before the position, and the producer trusts the position it reads
 * only when the copy agrees: a position overwritten with a value that looks possible (ahead of the consumer's real
 * one) would otherwise let the producer overwrite records the consumer has not read yet, or is copying out; a
 * disagreeing pair reads as a full lane until the consumer's next read puts both right. A frame is
 * trusted only when its stamp names the position the consumer reads at and its record ends within the data area:
 * otherwise (a stale record of an earlier lap, bytes of a payload read as a frame, a length changed) the handler is
 * handed {@link SpscLaneDescriptor#DAMAGED_TYPE} and the read stops there. A producer that finds the lane full while
 * the consumer waits at a record that is not committed and not one it holds open (so nobody will commit it: it was
 * damaged, or a producer that died in this slot before left it) asks the consumer to clear the lane
 * ({@link #repairRequested}), as it does when the consumer's published position cannot be right.
 * <p>
 * Recovery: a producer that died part-way through a record leaves a frame that is negative (claimed) or zero at the
 * consumer position while the producer position is past it; once the producer is known to be gone the consumer calls
 * {@link #unblock}, which turns a claimed record into padding (what was committed after it still arrives) or drops
 * what lies between the two positions. {@link #discard} drops everything unread when the lane cannot be trusted. A
 * consumer that died leaves its position where it was: its producer sees a full ring, never blocks.
 * <p>
 * Threads: {@link #tryClaim}, {@link #commit}, {@link #abort}, {@link #hold} and {@link #release} by the producer
 * only (one thread at a time; a handoff between two producer threads must order their accesses, as
 * {@code PendingSends} does); {@link #controlledRead}, {@link #unblock}, {@link #discard} and the consumer's questions
 * ({@link #headWaiting}, {@link #drained}, {@link #positionsSound}, {@link #repairRequested},
 * {@link #takeHeadOverwritten}) by the consumer only; {@link #producerPosition} and {@link #consumerPosition} (what
 * the trailer says) by any thread. Each side makes its own object over its own mapping; an object serves one side.
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
    /**
     * Broken variant: the producer asks for a repair whenever it finds the lane full and the head record not
     * committed, even when that record is the claim it holds open, so the consumer clears a record a live producer
     * will still commit. Fails anywhere a claim is held while the lane fills.
     */
    private static final boolean BROKEN_REPAIR_HELD = BrokenVariant.active("lane.spsc-repair-held-claim");
    /**
     * Broken variant: the producer trusts the consumer position it reads without comparing the copy beside it, so a
     * position another process overwrote ahead of the consumer's lets it claim space the consumer has not read.
     * Fails anywhere the position is overwritten while the ring is full: an order in the program, not the hardware's.
     */
    private static final boolean BROKEN_POSITION_WITHOUT_COPY =
        BrokenVariant.active("lane.spsc-position-without-copy");

    private final AtomicBuffer buffer;
    private final int capacity;
    private final int mask;
    private final int maxBodyLength;
    private final int producerPositionIndex;
    private final int repairRequestIndex;
    private final int consumerPositionIndex;
    private final int consumerPositionCopyIndex;

    // ---- the producer's own (one producer thread at a time)
    /** Bytes ever claimed: the producer position, which the trailer only publishes. */
    private long tail;
    /** The producer's last look at the consumer position. */
    private long headCache;
    /** Position of the record the producer holds open past the call that claimed it ({@link #hold}), else -1. */
    private long held = -1;

    // ---- the consumer's own
    /** Bytes ever consumed: the consumer position, which the trailer only publishes. */
    private long head;
    /** Whether a read found the published consumer position changed by someone else. */
    private boolean headOverwritten;

    /**
     * @param buffer the lane: data area and trailer ({@link SpscLaneDescriptor#laneLength}), at an address that is a
     *               multiple of 8 (of 64 for the cache-line economy the layout is drawn for). Each side's positions
     *               start from what the trailer says now.
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
        this.repairRequestIndex = SpscLaneDescriptor.repairRequestOffset(capacity);
        this.consumerPositionIndex = SpscLaneDescriptor.consumerPositionOffset(capacity);
        this.consumerPositionCopyIndex = SpscLaneDescriptor.consumerPositionCopyOffset(capacity);
        tail = buffer.getLongVolatile(producerPositionIndex);
        head = buffer.getLongVolatile(consumerPositionIndex);
        headCache = head;
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

    /** @return bytes ever claimed, as the trailer says (ordered read). */
    public long producerPosition()
    {
        return buffer.getLongVolatile(producerPositionIndex);
    }

    /** @return bytes ever consumed, as the trailer says (ordered read). */
    public long consumerPosition()
    {
        return buffer.getLongVolatile(consumerPositionIndex);
    }

    /**
     * Consumer: whether the published producer position is one a lane can have against this consumer's position:
     * at most a capacity ahead of it, never behind it.
     *
     * @return false when the producer position was damaged (a live producer publishes its own at its next claim).
     */
    public boolean positionsSound()
    {
        final long length = producerPosition() - head;
        return length >= 0 && length <= capacity;
    }

    /**
     * Consumer: whether everything the producer published has been consumed.
     *
     * @return whether the producer position is this consumer's.
     */
    public boolean drained()
    {
        return producerPosition() == head;
    }

    /**
     * Consumer: whether it waits at a record that is not committed: unread bytes are claimed and the frame word at
     * its position is claimed or not written yet. A live producer is then filling it; a dead one left it, which
     * {@link #unblock} clears. One look, so the receiver asks whether the producer is gone only for a lane that waits.
     *
     * @return whether the head record is not committed while the producer position is past it.
     */
    public boolean headWaiting()
    {
        final long h = head;
        return producerPosition() != h && (int)buffer.getLongVolatile((int)h & mask) <= 0;
    }

    /**
     * Consumer: whether the producer asked for the lane to be cleared at this consumer's position: it found the
     * lane full while the record there was not committed and was none it holds open, or found the published
     * consumer position impossible ({@link #tryClaim}). {@link #discard} is the answer.
     *
     * @return whether the producer's request names this consumer's position.
     */
    public boolean repairRequested()
    {
        return buffer.getLongVolatile(repairRequestIndex) == head + 1;
    }

    /**
     * Consumer: whether a read since the last call found the published consumer position changed by someone else
     * (the read went on from its own, and published it again); clears the answer.
     *
     * @return whether it was.
     */
    public boolean takeHeadOverwritten()
    {
        final boolean was = headOverwritten;
        headOverwritten = false;
        return was;
    }

    // ------------------------------------------------------------------ producer

    /**
     * Producer: claim a record of {@code length} body bytes and type {@code type}, to fill in place and then
     * {@link #commit} or {@link #abort}. Several claims may be open; the consumer takes records in the order they
     * were claimed, so it waits at the first one not yet committed.
     *
     * @param type   the record type, in 1 to 127.
     * @param length the body length, at most {@link #maxMsgLength()}.
     * @return the body's index in {@link #buffer()}, or {@link #INSUFFICIENT_CAPACITY}.
     * @throws IllegalArgumentException when the type or the length is out of range.
     */
    public int tryClaim(final int type, final int length)
    {
        if (type <= 0 || type > SpscLaneDescriptor.MAX_TYPE || length < 0 || length > maxBodyLength)
        {
            throw badClaim(type, length);
        }
        final AtomicBuffer b = buffer;
        final int recordLength = length + HEADER_LENGTH;
        final int aligned = BitUtil.align(recordLength, RECORD_ALIGNMENT);
        final long tail = this.tail;
        final int index = (int)tail & mask;
        if (aligned > capacity - index || aligned + HEADER_LENGTH > capacity - (int)(tail - headCache))
        {
            return claimSlow(type, recordLength, aligned, tail, index);
        }
        this.tail = tail + aligned;
        b.putLongRelease(producerPositionIndex, tail + aligned);
        if (!BROKEN_NO_PREZERO)
        {
            b.putLong((index + aligned) & mask, 0L);
        }
        b.putLong(index, BROKEN_EARLY_PUBLISH ? committed(claimedFrame(type, recordLength, tail)) :
            claimedFrame(type, recordLength, tail));
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
        if (required > capacity - (int)(tail - headCache))
        {
            if (BROKEN_STALE_HEAD)
            {
                return INSUFFICIENT_CAPACITY;
            }
            final long head = b.getLongVolatile(consumerPositionIndex);
            if (!BROKEN_POSITION_WITHOUT_COPY && head != b.getLongVolatile(consumerPositionCopyIndex))
            {
                return INSUFFICIENT_CAPACITY; // being published, or overwritten: full for now, never trusted
            }
            final long used = tail - head;
            if (used < 0 || used > capacity || required > capacity - (int)used)
            {
                full(head, used);
                return INSUFFICIENT_CAPACITY;
            }
            headCache = head;
        }
        final long at = tail + padding;
        final int atIndex = padding == 0 ? index : 0;
        this.tail = at + aligned;
        b.putLongRelease(producerPositionIndex, at + aligned);
        if (!BROKEN_NO_PREZERO)
        {
            b.putLong((atIndex + aligned) & mask, 0L);
        }
        b.putLong(atIndex, BROKEN_EARLY_PUBLISH ? committed(claimedFrame(type, recordLength, at)) :
            claimedFrame(type, recordLength, at));
        if (padding != 0)
        {
            // after the record's frame at 0 (zero or claimed, never an earlier lap's), so the consumer that steps
            // over the padding finds it
            b.putLongRelease(index, padding(padding, tail));
        }
        return atIndex + HEADER_LENGTH;
    }

    /**
     * The lane is full, or the published consumer position is one no consumer can have (behind this producer by
     * more than a capacity, or ahead of it). In the second case, or when the consumer waits at a record this
     * producer does not hold open and that is not committed (nobody will commit it: it was damaged, or a producer
     * that died in this slot left it), ask the consumer to clear the lane from that position. The consumer acts only
     * if that is its own position ({@link #repairRequested}), so a damaged published position asks nothing of it.
     * The producer position is published again first: the consumer clears up to it, and one someone overwrote would
     * send it astray.
     */
    private void full(final long head, final long used)
    {
        if (used >= 0 && used <= capacity && (head & (RECORD_ALIGNMENT - 1)) == 0 &&
            (used == 0 || head == held && !BROKEN_REPAIR_HELD || (int)buffer.getLongVolatile((int)head & mask) > 0))
        {
            return; // a lane the consumer has not drained yet
        }
        buffer.putLongRelease(producerPositionIndex, tail);
        buffer.putLongRelease(repairRequestIndex, head + 1);
    }

    private IllegalArgumentException badClaim(final int type, final int length)
    {
        return new IllegalArgumentException("record type " + type + " must be in [1, " + SpscLaneDescriptor.MAX_TYPE +
            "] and body length " + length + " in [0, " + maxBodyLength + "]");
    }

    /** @return producer: the bytes it has claimed so far, its own producer position. */
    public long claimedPosition()
    {
        return tail;
    }

    /**
     * Producer: the record just claimed stays open past this call (a zero-copy claim the application fills), so a
     * full lane waiting at it is not taken for damaged. One record at a time; {@link #release} when it is committed
     * or aborted.
     *
     * @param index what {@link #tryClaim} returned for it.
     */
    public void hold(final int index)
    {
        held = tail - (((int)tail - (index - HEADER_LENGTH)) & mask);
    }

    /** Producer: the record {@link #hold} named was committed or aborted. */
    public void release()
    {
        held = -1;
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
        if ((int)claimed >= 0)
        {
            return BROKEN_EARLY_PUBLISH; // that variant's frames are committed from the claim on
        }
        b.putLongRelease(at, committed(claimed));
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
        final long claimed = b.getLong(at);
        if ((int)claimed >= 0)
        {
            return false;
        }
        b.putLongRelease(at, SpscLaneDescriptor.aborted(claimed));
        return true;
    }

    // ------------------------------------------------------------------ consumer

    /**
     * Consumer: hand committed records to {@code handler} in order, stepping over padding, until the handler says
     * {@link Action#ABORT} (that record stays, to be handed again next time) or {@link Action#BREAK}, no committed
     * record is left, or {@code limit} records were handed. {@link Action#COMMIT} publishes the consumer position at
     * once; otherwise it is published once, at the end. The handler reads the body in {@link #buffer()} at the
     * index and length given; it must not keep them: the producer may write there once the read returns. A frame
     * that cannot be the record at its position (its stamp names another position, or its record would run past
     * the data area) is handed as {@link SpscLaneDescriptor#DAMAGED_TYPE}, with its length as read, and the read
     * stops there whatever the handler answers: where the next record starts is unknown.
     *
     * @param handler takes each record: its type, the buffer, the body's index and length.
     * @param limit   the most records to hand.
     * @return records handed and consumed (not counting one left with ABORT, nor padding).
     */
    public int controlledRead(final ControlledMessageHandler handler, final int limit)
    {
        final AtomicBuffer b = buffer;
        final long start = head;
        if (b.getLong(consumerPositionIndex) != start || b.getLong(consumerPositionCopyIndex) != start)
        {
            headOverwritten(start);
        }
        long position = start;
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
                if ((frame >>> SpscLaneDescriptor.STAMP_SHIFT) != stampOf(position) || recordLength > capacity - index)
                {
                    handler.onMessage(DAMAGED_TYPE, b, index + HEADER_LENGTH, recordLength - HEADER_LENGTH);
                    break;
                }
                final int type = (byte)(frame >> 32);
                final long next = position + BitUtil.align(recordLength, RECORD_ALIGNMENT);
                if (type == PADDING_TYPE)
                {
                    position = next;
                    continue;
                }
                if (BROKEN_EARLY_HEAD)
                {
                    publishPosition(b, next);
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
                    publish(position);
                }
            }
        }
        finally
        {
            if (position != start)
            {
                publish(position);
            }
        }
        return count;
    }

    /** Consumer: move its position to {@code position} and publish it (ordered). */
    private void publish(final long position)
    {
        head = position;
        publishPosition(buffer, position);
    }

    /** Consumer: the copy of the consumer position, then the position (both ordered). */
    private void publishPosition(final AtomicBuffer b, final long position)
    {
        b.putLongRelease(consumerPositionCopyIndex, position);
        b.putLongRelease(consumerPositionIndex, position);
    }

    /** A read found the published consumer position changed: note it and publish this consumer's own again. */
    private void headOverwritten(final long own)
    {
        headOverwritten = true;
        publishPosition(buffer, own);
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
        final long h = head;
        final long tail = b.getLongVolatile(producerPositionIndex);
        if (tail == h)
        {
            return false;
        }
        final int index = (int)h & mask;
        final long frame = b.getLongVolatile(index);
        final int recordLength = (int)frame;
        if (recordLength > 0)
        {
            return false;
        }
        final long claimedEnd = h + BitUtil.align(-recordLength, RECORD_ALIGNMENT);
        if (recordLength < 0 && -recordLength >= HEADER_LENGTH && claimedEnd <= tail && tail - h <= capacity &&
            (frame >>> SpscLaneDescriptor.STAMP_SHIFT) == stampOf(h))
        {
            if (claimedEnd == tail)
            {
                b.putLong((int)tail & mask, 0L); // its next frame word, should the dead producer not have zeroed it
            }
            b.putLongRelease(index, SpscLaneDescriptor.aborted(frame));
            return true;
        }
        discard();
        return true;
    }

    /**
     * Consumer: drop everything unread and go on from the producer position, for a lane whose records cannot be
     * trusted from the consumer position on (a damaged frame, a dead producer, a new consumer starting, a producer's
     * request). Zeroes the bytes between the positions and the frame word at the producer position (the whole data
     * area when the positions are not sound), then moves the consumer position. A record a live producer is writing
     * meanwhile may be damaged, and is then dropped in turn (its commit fails, or it is found damaged).
     */
    public void discard()
    {
        final AtomicBuffer b = buffer;
        final long h = head;
        // a producer position off the records' alignment was overwritten: go on from a record boundary (the producer
        // publishes its own at its next claim, and asks for a repair if this one is not it)
        final long tail = BitUtil.align(b.getLongVolatile(producerPositionIndex), RECORD_ALIGNMENT);
        final long length = tail - h;
        if (length < 0 || length > capacity - HEADER_LENGTH)
        {
            b.setMemory(0, capacity, (byte)0);
        }
        else
        {
            final int from = (int)h & mask;
            final int zeroed = (int)length + HEADER_LENGTH;
            final int first = Math.min(zeroed, capacity - from);
            b.setMemory(from, first, (byte)0);
            if (zeroed > first)
            {
                b.setMemory(0, zeroed - first, (byte)0);
            }
        }
        head = tail;
        publishPosition(b, tail);
    }
}
