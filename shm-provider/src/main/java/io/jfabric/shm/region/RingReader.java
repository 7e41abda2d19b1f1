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
package io.jfabric.shm.region;

import io.jfabric.shm.core.BrokenVariant;

import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.ControlledMessageHandler.Action;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import static org.agrona.concurrent.ringbuffer.RecordDescriptor.ALIGNMENT;
import static org.agrona.concurrent.ringbuffer.RecordDescriptor.HEADER_LENGTH;
import static org.agrona.concurrent.ringbuffer.RecordDescriptor.lengthOffset;
import static org.agrona.concurrent.ringbuffer.RecordDescriptor.typeOffset;

/**
 * The consumer of an Agrona ring in shared memory (the layout of Agrona's {@code ManyToOneRingBuffer} and
 * {@code OneToOneRingBuffer}, {@link RingBufferDescriptor}): a transmit-context ring, where receivers write
 * acknowledgements and responses, and a completion ring. It reads what Agrona's reads read, but trusts nothing another
 * process may have written: Agrona's read takes a record's length as it finds it, and a changed length makes it hand
 * out, and zero, memory past the ring (a SIGSEGV with Agrona's bounds checks off, as the benchmarks and
 * {@code bin/jfabric} run).
 * <ul>
 *   <li>The consumer position is kept in this object and only published to the trailer: one someone overwrote is
 *   noticed at the next read and published again, nothing is read twice or skipped.</li>
 *   <li>A record is read only when its length is a header or more, fits before the end of the data area, is at most
 *   the ring's longest record (a padding record may fill the rest of the data area) and its type is padding or
 *   positive. Otherwise the read stops at it and {@link #finding} says so: where the next record starts is unknown,
 *   and the owner {@link #repair}s the ring (everything unread is lost) and reports it.</li>
 *   <li>A read that finds nothing checks the producer position against its own: a producer position no ring can
 *   have is a finding too.</li>
 *   <li>A record left claimed at the head ({@link #stuck} for a while: a producer that died part-way, or a frame
 *   damaged to look claimed) is turned into padding by {@link #unblock} with one compare-and-set of the whole header,
 *   so a producer that is alive after all and commits at the same moment either wins (its record is read) or finds
 *   its commit refused ({@link RingRecords#commit}) and writes the record again: nothing is lost without its
 *   producer knowing. Agrona's own unblock checks and then writes, and drops a record committed in between.</li>
 * </ul>
 * Threads: the ring's one consumer (its owner's guard or progress); {@link #consumerPosition} and
 * {@link #producerPosition} any thread. Data path: no allocation except for the text of a finding, no lock.
 */
public final class RingReader
{
    /**
     * Broken variant: {@link #unblock} checks that the head record is claimed and then writes padding over it with
     * plain stores, as Agrona's {@code unblock} does, so a record its producer commits in between is lost.
     */
    private static final boolean BROKEN_PLAIN_UNBLOCK = BrokenVariant.active("txring.unblock-plain");
    private static final int PADDING_TYPE = -1;

    private final AtomicBuffer buffer;
    private final int capacity;
    private final int mask;
    private final int maxRecordLength;
    private final int headPositionIndex;
    private final int tailPositionIndex;
    private final int headCacheIndex;
    /** Bytes ever consumed: the consumer position, which the trailer only publishes. */
    private long head;
    /** What the last read found wrong, until {@link #takeFinding}; null when nothing. */
    private String finding;
    private boolean needsRepair;
    /** When the head was first seen waiting at an unfinished record at {@link #stuckPosition}, 0 when it is not. */
    private long stuckSinceMs;
    private long stuckPosition;

    /**
     * @param buffer       the ring: data area and trailer, as {@code RegionDescriptor.ringLength} lays it out.
     * @param maxMsgLength the longest body a record of this ring may have (Agrona's {@code maxMsgLength}).
     */
    public RingReader(final AtomicBuffer buffer, final int maxMsgLength)
    {
        this.buffer = buffer;
        this.capacity = RingBufferDescriptor.checkCapacity(buffer.capacity(), 64);
        this.mask = capacity - 1;
        this.maxRecordLength = maxMsgLength + HEADER_LENGTH;
        this.headPositionIndex = capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET;
        this.tailPositionIndex = capacity + RingBufferDescriptor.TAIL_POSITION_OFFSET;
        this.headCacheIndex = capacity + RingBufferDescriptor.HEAD_CACHE_POSITION_OFFSET;
        head = buffer.getLongVolatile(headPositionIndex);
    }

    /**
     * Any thread, as a producer's check before it claims: whether the producer position and the producers' cache of
     * the consumer position are positions a ring can have (the cache at most a capacity behind, never ahead; the
     * producer position on a record boundary). A producer that claimed from positions someone overwrote would write
     * over records not read yet. Two loads of lines the producers write anyway.
     *
     * @return whether they are.
     */
    public boolean producerSound()
    {
        final long tail = buffer.getLongVolatile(tailPositionIndex);
        final long used = tail - buffer.getLongVolatile(headCacheIndex);
        return used >= 0 && used <= capacity && (tail & (ALIGNMENT - 1)) == 0;
    }

    /** @return the consumer position, as the trailer says (ordered read). */
    public long consumerPosition()
    {
        return buffer.getLongVolatile(headPositionIndex);
    }

    /** @return the producer position, as the trailer says (ordered read). */
    public long producerPosition()
    {
        return buffer.getLongVolatile(tailPositionIndex);
    }

    /**
     * Hand committed records to {@code handler} in order, stepping over padding, until it says {@link Action#ABORT}
     * (the record stays) or {@link Action#BREAK}, no committed record is left, {@code limit} records were handed, or a
     * record fails the checks (then {@link #finding} is set and {@link #needsRepair} true). Consumed records are
     * zeroed, as the producers expect, and the position published once at the end (at once after
     * {@link Action#COMMIT}).
     *
     * @param handler takes each record: its type, the buffer, the body's index and length.
     * @param limit   the most records to hand.
     * @return records handed and consumed.
     */
    public int controlledRead(final ControlledMessageHandler handler, final int limit)
    {
        final AtomicBuffer b = buffer;
        final long start = head;
        if (b.getLong(headPositionIndex) != start)
        {
            headOverwritten(start);
        }
        final int startIndex = (int)start & mask;
        final int maxBlock = capacity - startIndex;
        int bytesRead = 0;
        int count = 0;
        int zeroFrom = startIndex;
        try
        {
            while (bytesRead < maxBlock && count < limit)
            {
                final int index = startIndex + bytesRead;
                final int recordLength = b.getIntVolatile(lengthOffset(index));
                if (recordLength <= 0)
                {
                    if ((count | bytesRead) == 0)
                    {
                        checkProducer(start);
                    }
                    break;
                }
                final int type = b.getInt(typeOffset(index));
                if (!sound(index, recordLength, type))
                {
                    damagedRecord(start + bytesRead, type, recordLength);
                    break;
                }
                final int aligned = BitUtil.align(recordLength, ALIGNMENT);
                if (type == PADDING_TYPE)
                {
                    bytesRead += aligned;
                    continue;
                }
                final Action action = handler.onMessage(type, b, index + HEADER_LENGTH, recordLength - HEADER_LENGTH);
                if (action == Action.ABORT)
                {
                    break;
                }
                bytesRead += aligned;
                count++;
                if (action == Action.BREAK)
                {
                    break;
                }
                if (action == Action.COMMIT)
                {
                    zeroFrom = consumed(zeroFrom, startIndex + bytesRead, start + bytesRead);
                }
            }
        }
        finally
        {
            consumed(zeroFrom, startIndex + bytesRead, start + bytesRead);
        }
        return count;
    }

    /**
     * Zero the records consumed from {@code from} to {@code to} (indices) and publish the consumer position.
     *
     * @return {@code to}: where the next zeroing starts.
     */
    private int consumed(final int from, final int to, final long position)
    {
        if (to > from)
        {
            buffer.setMemory(from, to - from, (byte)0);
            head = position;
            buffer.putLongRelease(headPositionIndex, position);
        }
        return to;
    }

    /**
     * @return whether a record at {@code index} with that length and type can be one of this ring's: a header at
     * least, within the data area, padding or a positive type, and at most the longest record unless padding.
     */
    private boolean sound(final int index, final int recordLength, final int type)
    {
        return recordLength >= HEADER_LENGTH && recordLength <= capacity - index &&
            (type == PADDING_TYPE || type > 0 && recordLength <= maxRecordLength);
    }

    /** The published consumer position is not this reader's: note it and publish its own again. */
    private void headOverwritten(final long own)
    {
        note("its consumer position was overwritten with " + buffer.getLong(headPositionIndex) +
            "; it was written back, nothing was lost");
        buffer.putLongRelease(headPositionIndex, own);
    }

    /** An empty read: is the producer position one a ring can have against this reader's? */
    private void checkProducer(final long own)
    {
        final long used = buffer.getLongVolatile(tailPositionIndex) - own;
        if (used < 0 || used > capacity || !producerSound())
        {
            needsRepair = true;
            note("a producer position of " + (own + used) + " for a consumer at " + own + " in a " + capacity +
                " byte ring");
        }
    }

    private void damagedRecord(final long position, final int type, final int recordLength)
    {
        needsRepair = true;
        note("a record of type " + type + " and length " + recordLength + " at position " + position +
            " (a record of this ring holds at most " + maxRecordLength + " bytes)");
    }

    private void note(final String what)
    {
        finding = finding == null ? what : finding + "; " + what;
    }

    /**
     * @return what reads found wrong since the last call, or null; clears it.
     */
    public String takeFinding()
    {
        final String f = finding;
        finding = null;
        return f;
    }

    /** @return whether a read found the ring damaged so that it cannot go on without {@link #repair}. */
    public boolean needsRepair()
    {
        return needsRepair;
    }

    /**
     * Drop everything unread and go on from the producer position: zero the data area between the positions (all of
     * it when they are not sound), move the consumer position there and publish it. A record a producer claimed and
     * had not committed is zeroed with it: its commit is refused ({@link RingRecords#commit}; Agrona's commit
     * throws) and the producer must write it again.
     *
     * @return the bytes dropped (the whole capacity when the positions were not sound).
     */
    public long repair()
    {
        final AtomicBuffer b = buffer;
        final long h = head;
        long tail = b.getLongVolatile(tailPositionIndex);
        if ((tail & (ALIGNMENT - 1)) != 0)
        {
            // an overwritten producer position off the records' alignment: move it to the next record start (a CAS,
            // so a producer that claimed meanwhile wins and the next repair looks again)
            final long aligned = BitUtil.align(tail, ALIGNMENT);
            tail = b.compareAndSetLong(tailPositionIndex, tail, aligned) ? aligned : h;
        }
        final long length = tail - h;
        final long dropped;
        if (length < 0 || length > capacity)
        {
            b.setMemory(0, capacity, (byte)0);
            dropped = capacity;
        }
        else
        {
            final int from = (int)h & mask;
            final int first = (int)Math.min(length, capacity - from);
            b.setMemory(from, first, (byte)0);
            if (length > first)
            {
                b.setMemory(0, (int)length - first, (byte)0);
            }
            dropped = length;
        }
        head = tail;
        b.putLongRelease(headPositionIndex, tail);
        b.putLongRelease(headCacheIndex, tail);
        needsRepair = false;
        stuckSinceMs = 0;
        return dropped;
    }

    /**
     * @return whether the head waits at a record that is not committed (claimed, or not written yet) while the
     * producer position is past it: a producer is filling it, or stopped or died part-way, or the frame was damaged.
     */
    public boolean headWaiting()
    {
        final long h = head;
        return buffer.getLongVolatile(tailPositionIndex) != h && buffer.getIntVolatile((int)h & mask) <= 0;
    }

    /**
     * Whether the head has waited at an unfinished record (claimed or not written yet while the producer position is
     * past it) for at least {@code limitMs}: a producer that stopped or died part-way, or a frame damaged to look so.
     * Call it when a read found nothing.
     *
     * @param nowMs   a clock in milliseconds.
     * @param limitMs how long a live producer may take to finish a record.
     * @return whether it has.
     */
    public boolean stuck(final long nowMs, final long limitMs)
    {
        final long h = head;
        if (buffer.getLongVolatile(tailPositionIndex) == h || buffer.getIntVolatile((int)h & mask) > 0)
        {
            stuckSinceMs = 0;
            return false;
        }
        if (stuckSinceMs == 0 || h != stuckPosition)
        {
            stuckSinceMs = nowMs;
            stuckPosition = h;
            return false;
        }
        return nowMs - stuckSinceMs >= limitMs;
    }

    /**
     * Clear an unfinished record at the head ({@link #stuck}): one claimed with a sound length becomes padding by a
     * compare-and-set of its whole header, so its producer's commit, if it comes, is refused; nothing written where a
     * record should start, with a record further on, is padded up to that record; anything else (an impossible
     * length, nothing written at all) is {@link #repair}ed.
     *
     * @return whether anything was cleared.
     */
    public boolean unblock()
    {
        final AtomicBuffer b = buffer;
        final long h = head;
        final long tail = b.getLongVolatile(tailPositionIndex);
        if (tail == h)
        {
            return false;
        }
        final int index = (int)h & mask;
        if ((index & (ALIGNMENT - 1)) != 0)
        {
            repair(); // a position off the records' alignment: no atomic access there
            return true;
        }
        final long header = b.getLongVolatile(index);
        final int recordLength = (int)header;
        if (recordLength > 0)
        {
            return false;
        }
        if (recordLength < 0 && -recordLength >= HEADER_LENGTH && -recordLength <= capacity - index &&
            tail - h <= capacity)
        {
            final long padding = RingRecords.header(PADDING_TYPE, -recordLength);
            if (BROKEN_PLAIN_UNBLOCK)
            {
                b.putInt(typeOffset(index), PADDING_TYPE);
                b.putIntRelease(lengthOffset(index), -recordLength);
                return true;
            }
            return b.compareAndSetLong(index, header, padding);
        }
        if (recordLength == 0 && tail - h <= capacity)
        {
            final int next = nextWritten(index, (int)Math.min(tail - h, capacity - index));
            if (next > 0)
            {
                // nothing written where a record should start, and a record further on: pad the gap, so what was
                // written after it is still read (a CAS from the empty header: a producer writing there wins)
                return b.compareAndSetLong(index, 0L, RingRecords.header(PADDING_TYPE, next - index));
            }
        }
        repair();
        return true;
    }

    /** @return the first 8-byte aligned index after {@code from}, within {@code span}, whose word is not 0, or -1. */
    private int nextWritten(final int from, final int span)
    {
        for (int i = from + ALIGNMENT; i < from + span; i += ALIGNMENT)
        {
            if (buffer.getLongVolatile(i) != 0)
            {
                return i;
            }
        }
        return -1;
    }
}
