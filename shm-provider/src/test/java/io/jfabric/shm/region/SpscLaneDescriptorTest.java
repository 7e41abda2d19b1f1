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
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static io.jfabric.shm.region.SpscLaneDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SpscLaneDescriptor} pinned (libfabric's {@code static_assert}s): the frame word (length, type byte, stamp),
 * the trailer with each position in a block of two cache lines of its own, the capacity rules, and the record
 * arithmetic. A layout change fails here first.
 */
class SpscLaneDescriptorTest
{
    @Test
    void shouldPinTheFrameWordAndTheTrailer()
    {
        assertEquals(8, HEADER_LENGTH);
        assertEquals(8, RECORD_ALIGNMENT);
        assertEquals(-1, PADDING_TYPE);
        assertEquals(0, DAMAGED_TYPE);
        assertEquals(127, MAX_TYPE);
        assertEquals(0, LENGTH_OFFSET);
        assertEquals(4, TYPE_OFFSET);
        assertEquals(40, STAMP_SHIFT);
        assertEquals(256, MIN_CAPACITY);
        assertEquals(128, PRODUCER_POSITION_OFFSET);
        assertEquals(136, REPAIR_REQUEST_OFFSET);
        assertEquals(384, CONSUMER_POSITION_OFFSET);
        assertEquals(392, CONSUMER_POSITION_COPY_OFFSET);
        assertEquals(512, TRAILER_LENGTH);
    }

    @Test
    void shouldGiveEachPositionTwoCacheLinesOfItsOwnAfterTwoUntouchedOnes()
    {
        final int block = 2 * BitUtil.CACHE_LINE_LENGTH;
        assertEquals(block, PRODUCER_POSITION_OFFSET, "two lines nobody writes between the data and the producer");
        assertEquals(PRODUCER_POSITION_OFFSET + BitUtil.SIZE_OF_LONG, REPAIR_REQUEST_OFFSET,
            "the repair request shares the producer's block: only the producer writes it");
        assertEquals(3 * block, CONSUMER_POSITION_OFFSET, "a reserved block between the producer's and consumer's");
        assertEquals(CONSUMER_POSITION_OFFSET + BitUtil.SIZE_OF_LONG, CONSUMER_POSITION_COPY_OFFSET,
            "the copy shares the consumer's line: only the consumer writes it");
        assertEquals(CONSUMER_POSITION_OFFSET + block, TRAILER_LENGTH);
        assertTrue(TRAILER_LENGTH <= RingBufferDescriptor.TRAILER_LENGTH,
            "a lane fits where the region lays out an Agrona ring of the same capacity");
    }

    @Test
    void shouldReadLengthTypeAndStampOfAFrameWordAtTheirOffsets()
    {
        final long position = 4096L + 64;
        final long claimed = claimedFrame(7, 40, position);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        buffer.putLong(0, claimed, ByteOrder.nativeOrder());
        if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN)
        {
            assertEquals(-40, buffer.getInt(LENGTH_OFFSET));
            assertEquals(7, buffer.getByte(TYPE_OFFSET));
        }
        assertEquals(-40, recordLength(claimed), "a claimed record's length is negated");
        assertEquals(7, type(claimed));
        assertEquals(position >>> 3, stamp(claimed));
        assertEquals(stampOf(position), stamp(claimed));

        final long committed = committed(claimed);
        assertEquals(40, recordLength(committed));
        assertEquals(7, type(committed));
        assertEquals(stamp(claimed), stamp(committed));

        final long aborted = aborted(claimed);
        assertEquals(40, recordLength(aborted));
        assertEquals(PADDING_TYPE, type(aborted));
        assertEquals(stamp(claimed), stamp(aborted));

        assertEquals(PADDING_TYPE, type(padding(64, position)));
        assertEquals(64, recordLength(padding(64, position)));
        assertEquals(MAX_TYPE, type(claimedFrame(MAX_TYPE, 16, 0)));
        assertEquals(0, recordLength(0L), "a zero frame is not written yet");
    }

    @Test
    void shouldWrapTheStampEveryTwoToTheTwentySevenBytes()
    {
        assertEquals(0, stampOf(0));
        assertEquals(1, stampOf(8));
        assertEquals(0xFF_FFFFL, stampOf((1L << 27) - 8));
        assertEquals(0, stampOf(1L << 27));
        assertEquals(stampOf(24), stampOf((1L << 27) + 24));
    }

    @Test
    void shouldAcceptOnlyPowerOfTwoCapacitiesOfAtLeastTheMinimum()
    {
        assertEquals(256 + 512, laneLength(256));
        assertEquals(1 << 20, capacityOf((1 << 20) + 512));
        for (final int bad : new int[]{0, 128, 255, 384, 1000})
        {
            assertThrows(IllegalArgumentException.class, () -> checkCapacity(bad));
        }
        assertThrows(IllegalArgumentException.class, () -> capacityOf(256));
        assertEquals(512, maxBodyLength(4096));
    }

    @Test
    void shouldPlaceRecordsOnEightByteBoundariesAndPositionsAfterTheDataArea()
    {
        assertEquals(8, alignedLength(0));
        assertEquals(16, alignedLength(1));
        assertEquals(16, alignedLength(8));
        assertEquals(24, alignedLength(9));
        assertEquals(4096 + 128, producerPositionOffset(4096));
        assertEquals(4096 + 136, repairRequestOffset(4096));
        assertEquals(4096 + 384, consumerPositionOffset(4096));
        assertEquals(4096 + 392, consumerPositionCopyOffset(4096));
    }
}
