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

import org.agrona.BitUtil;

/**
 * Layout of a single-producer, single-consumer receive lane ({@code ep.SpscLane}): a data area of a power-of-two
 * capacity followed by a trailer that holds the two positions, each in its own pair of cache lines; the only class
 * that computes offsets into one.
 * <pre>
 *   lane, at an offset in the region that is a multiple of 64 (a cache line):
 *   +---------------------------------------------------------------+  0
 *   |  records ... (each starts on an 8-byte boundary, no gaps)    ...
 *   +---------------------------------------------------------------+  capacity (a power of two, >= 256)
 *   |  padding: two cache lines nobody writes                       |
 *   +---------------------------------------------------------------+  capacity + 128
 *   |  Producer Position (long): bytes ever claimed                 |  capacity + PRODUCER_POSITION_OFFSET
 *   |  Repair Request (long): consumer position + 1 the producer    |  capacity + REPAIR_REQUEST_OFFSET
 *   |  asks the consumer to clear the lane at, 0 never asked        |
 *   |  ... two cache lines, written by the producer only            |
 *   +---------------------------------------------------------------+  capacity + 256
 *   |  reserved: two cache lines nobody writes (layout 10 kept the  |
 *   |  producer's cache of the consumer position here)              |
 *   +---------------------------------------------------------------+  capacity + 384
 *   |  Consumer Position (long): bytes ever consumed                |  capacity + CONSUMER_POSITION_OFFSET
 *   |  Consumer Position Copy (long): the same, written just before |  capacity + CONSUMER_POSITION_COPY_OFFSET
 *   |  ... two cache lines, written by the consumer only            |
 *   +---------------------------------------------------------------+  capacity + TRAILER_LENGTH (512)
 *
 *   record, at a multiple of RECORD_ALIGNMENT (8):
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  0  frame word (long), written last
 *   |                  Record Length (header + body)                |     low int: &lt;= 0 not committed yet
 *   +---------------+-----------------------------------------------+  4
 *   |     Type      |        Stamp: (position / 8) mod 2^24         |     PADDING_TYPE (-1, 0xFF) or 1..127
 *   +---------------+-----------------------------------------------+  8  HEADER_LENGTH: the body
 *   |  body ... (LaneRecordDescriptor), padded with unwritten bytes ...
 *   |  to the next multiple of 8                                    |
 *   +---------------------------------------------------------------+  align(record length, 8): the next frame
 * </pre>
 * The frame word is one 8-byte, naturally aligned word, so the consumer learns length and type in one load and the
 * producer publishes both in one ordered store (after the body). Its length (the low int, as in Agrona's
 * {@code RecordDescriptor}) is: 0 for a frame not written yet, negative ({@code -record length}) while the record is
 * claimed and being filled, positive once committed; an aborted record and the filler at the end of the ring are
 * committed with {@link #PADDING_TYPE}, and the consumer steps over them. The stamp is the record's position in the
 * lane (bytes ever claimed before it) divided by 8, modulo 2^24: a consumer reads a frame as the record at its
 * position only when the stamp says so, so a frame an earlier lap left, or payload bytes read as a frame after a
 * length was changed, are known for what they are (a stale frame would have to be 2^27 bytes, 2,048 laps of a 64
 * KiB lane, older to pass).
 * <p>
 * <b>Why a zero frame means "not written yet" without the consumer zeroing anything:</b> when the producer claims a
 * record it also writes 0 into the frame word that follows it (the next record's frame, at index 0 when the record
 * ends the ring), before it commits the record. The consumer reaches a frame only by stepping over the committed
 * record before it (or from a position the lane starts with, which is zero), so the zero is visible to it and
 * whatever an earlier lap left there (a committed frame, payload bytes) can never be read as a new record. The
 * producer therefore claims {@link #HEADER_LENGTH} bytes more than the record: the next frame word must be free. The
 * consumer writes only its position words, never the data area, so a record's cache lines are not pulled back to the
 * consumer's cache in modified state after reading, and no zeroing store waits in the consumer's store buffer ahead
 * of what it sends next (Agrona 2.6's ring works the same way: its read zeroes nothing).
 * <p>
 * The producer position is written by the producer (ordered) at every claim, read on the hot path by nobody: the
 * consumer polls the frame word at its position; recovery and statistics read both positions. The consumer position
 * is written by the consumer (ordered) once per read that consumed something, its copy just before it; the producer
 * reads it only when its own cache of it (kept in its process, not in the lane) says the ring may be full, and trusts
 * it only when the copy agrees: a position another process overwrote with a value that looks possible (between the
 * consumer's real position and the producer's) would otherwise let the producer overwrite records the consumer has
 * not read, or is reading. A producer that finds the two different treats the lane as full for now; the consumer puts
 * both right at its next read. Each side keeps its own position
 * in its process too and only publishes it here, so a position another process overwrote moves neither side. The
 * producer writes the repair request rarely (a full lane it finds waiting at a record nobody will commit); the
 * consumer reads it when it checks the lane's health, not on the data path. Each word has a 128-byte block of its own (a pair of lines, which the
 * adjacent-line prefetcher fetches together), as in Agrona's ring trailer, and the producer position is not right
 * after the data area: with it there (at {@code capacity + 0}, the cache beside it, the consumer position at
 * {@code capacity + 128}) the two-JVM round trip of 32-byte messages was 5-10% longer in alternating A/B runs on the
 * team's host (docs/LANE.md). {@link #TRAILER_LENGTH} is less than Agrona's ring trailer (768 bytes), so a lane fits
 * the space the region lays out for an Agrona ring of the same capacity.
 * <p>
 * Stateless; any thread.
 */
public final class SpscLaneDescriptor
{
    /** Length of a record's frame word, before its body. */
    public static final int HEADER_LENGTH = BitUtil.SIZE_OF_LONG;
    /** Records start on multiples of this (the frame word's own alignment; as Agrona's ring records). */
    public static final int RECORD_ALIGNMENT = 8;
    /** Type of a padding record: the filler at the end of the ring before a wrap, or an aborted claim. */
    public static final int PADDING_TYPE = -1;
    /** The highest record type (types are one signed byte of the frame). */
    public static final int MAX_TYPE = 127;
    /**
     * Type the lane hands its reader for a frame that cannot be the record at the reader's position: its stamp names
     * another position, or its record would run past the data area. Never a record's type.
     */
    public static final int DAMAGED_TYPE = 0;
    /** Offset of the record length (int) in a frame word: its low half, in the native (little-endian) order. */
    public static final int LENGTH_OFFSET = 0;
    /** Offset of the type (byte) in a frame word, in the native (little-endian) order. */
    public static final int TYPE_OFFSET = 4;
    /** Shift of the stamp in a frame word (its top 24 bits). */
    public static final int STAMP_SHIFT = 40;
    /** The smallest capacity: a few records and the next frame word. */
    public static final int MIN_CAPACITY = 256;
    /** Offset in the trailer of the producer position (long), written by the producer only. */
    public static final int PRODUCER_POSITION_OFFSET = 2 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset in the trailer of the producer's repair request (long): a consumer position + 1, producer only. */
    public static final int REPAIR_REQUEST_OFFSET = PRODUCER_POSITION_OFFSET + BitUtil.SIZE_OF_LONG;
    /** Offset in the trailer of the consumer position (long), written by the consumer only. */
    public static final int CONSUMER_POSITION_OFFSET = 6 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset in the trailer of the copy of the consumer position (long), consumer only, written just before it. */
    public static final int CONSUMER_POSITION_COPY_OFFSET = CONSUMER_POSITION_OFFSET + BitUtil.SIZE_OF_LONG;
    /** Length of the trailer that follows the data area. */
    public static final int TRAILER_LENGTH = 8 * BitUtil.CACHE_LINE_LENGTH;

    private SpscLaneDescriptor()
    {
    }

    /**
     * @param capacity bytes of the data area.
     * @return the bytes a lane of that capacity takes: the data area and the trailer.
     * @throws IllegalArgumentException when the capacity is not a power of two of at least {@link #MIN_CAPACITY}.
     */
    public static int laneLength(final int capacity)
    {
        return checkCapacity(capacity) + TRAILER_LENGTH;
    }

    /**
     * @param laneLength bytes of a lane (data area and trailer).
     * @return its capacity.
     * @throws IllegalArgumentException when it is not the length of a lane.
     */
    public static int capacityOf(final int laneLength)
    {
        return checkCapacity(laneLength - TRAILER_LENGTH);
    }

    /**
     * @param capacity a data area's length.
     * @return it, when it is a power of two of at least {@link #MIN_CAPACITY}.
     * @throws IllegalArgumentException otherwise.
     */
    public static int checkCapacity(final int capacity)
    {
        if (capacity < MIN_CAPACITY || !BitUtil.isPowerOfTwo(capacity))
        {
            throw new IllegalArgumentException(
                "lane capacity " + capacity + " is not a power of two of at least " + MIN_CAPACITY);
        }
        return capacity;
    }

    /**
     * @param capacity a lane's capacity.
     * @return the longest body a record may have: an eighth of the capacity, as Agrona's rings allow.
     */
    public static int maxBodyLength(final int capacity)
    {
        return capacity >> 3;
    }

    /**
     * @param bodyLength a record's body length.
     * @return the bytes the record takes in the data area: its frame word and body, to the next multiple of 8.
     */
    public static int alignedLength(final int bodyLength)
    {
        return BitUtil.align(bodyLength + HEADER_LENGTH, RECORD_ALIGNMENT);
    }

    /**
     * @param position a record's position in its lane: bytes ever claimed before it.
     * @return its stamp.
     */
    public static long stampOf(final long position)
    {
        return (position >>> 3) & 0xFF_FFFFL;
    }

    /**
     * @param type         a record type, 1 to {@link #MAX_TYPE}.
     * @param recordLength the record length (header and body).
     * @param position     the record's position in its lane.
     * @return the frame word of the record while it is claimed (its length negated).
     */
    public static long claimedFrame(final int type, final int recordLength, final long position)
    {
        return frameOf(type, -recordLength, position);
    }

    /**
     * @param length   the bytes the padding covers, its frame included.
     * @param position its position in its lane.
     * @return the committed frame word of a padding record.
     */
    public static long padding(final int length, final long position)
    {
        return frameOf(PADDING_TYPE, length, position);
    }

    /**
     * @param claimed a claimed frame word.
     * @return the same record, committed.
     */
    public static long committed(final long claimed)
    {
        return (claimed & ~0xFFFF_FFFFL) | (-(int)claimed & 0xFFFF_FFFFL);
    }

    /**
     * @param claimed a claimed frame word.
     * @return the same record turned into committed padding (an abort, or a dead producer's record unblocked).
     */
    public static long aborted(final long claimed)
    {
        return (claimed & (-1L << STAMP_SHIFT)) | ((long)(PADDING_TYPE & 0xFF) << 32) | (-(int)claimed & 0xFFFF_FFFFL);
    }

    private static long frameOf(final int type, final int recordLength, final long position)
    {
        return (stampOf(position) << STAMP_SHIFT) | ((long)(type & 0xFF) << 32) | (recordLength & 0xFFFF_FFFFL);
    }

    /**
     * @param frame a frame word.
     * @return its record length: 0 not written, negative claimed, positive committed.
     */
    public static int recordLength(final long frame)
    {
        return (int)frame;
    }

    /**
     * @param frame a frame word.
     * @return its type.
     */
    public static int type(final long frame)
    {
        return (byte)(frame >> 32);
    }

    /**
     * @param frame a frame word.
     * @return its stamp.
     */
    public static long stamp(final long frame)
    {
        return frame >>> STAMP_SHIFT;
    }

    /**
     * @param capacity a lane's capacity.
     * @return the offset of its producer position.
     */
    public static int producerPositionOffset(final int capacity)
    {
        return capacity + PRODUCER_POSITION_OFFSET;
    }

    /**
     * @param capacity a lane's capacity.
     * @return the offset of its producer's repair request.
     */
    public static int repairRequestOffset(final int capacity)
    {
        return capacity + REPAIR_REQUEST_OFFSET;
    }

    /**
     * @param capacity a lane's capacity.
     * @return the offset of its consumer position.
     */
    public static int consumerPositionOffset(final int capacity)
    {
        return capacity + CONSUMER_POSITION_OFFSET;
    }

    /**
     * @param capacity a lane's capacity.
     * @return the offset of the copy of its consumer position.
     */
    public static int consumerPositionCopyOffset(final int capacity)
    {
        return capacity + CONSUMER_POSITION_COPY_OFFSET;
    }
}
