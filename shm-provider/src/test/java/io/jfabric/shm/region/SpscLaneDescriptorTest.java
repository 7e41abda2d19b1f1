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
 * {@link SpscLaneDescriptor} pinned (libfabric's {@code static_assert}s): the frame word, the trailer with each
 * position in a block of two cache lines of its own, the capacity rules, and the record arithmetic. A layout change
 * fails here first.
 */
class SpscLaneDescriptorTest
{
    @Test
    void shouldPinTheFrameWordAndTheTrailer()
    {
        assertEquals(8, HEADER_LENGTH);
        assertEquals(8, RECORD_ALIGNMENT);
        assertEquals(-1, PADDING_TYPE);
        assertEquals(0, LENGTH_OFFSET);
        assertEquals(4, TYPE_OFFSET);
        assertEquals(256, MIN_CAPACITY);
        assertEquals(128, PRODUCER_POSITION_OFFSET);
        assertEquals(256, CONSUMER_CACHE_OFFSET);
        assertEquals(384, CONSUMER_POSITION_OFFSET);
        assertEquals(512, TRAILER_LENGTH);
    }

    @Test
    void shouldGiveEachPositionTwoCacheLinesOfItsOwnAfterTwoUntouchedOnes()
    {
        final int block = 2 * BitUtil.CACHE_LINE_LENGTH;
        final int[] positions = {PRODUCER_POSITION_OFFSET, CONSUMER_CACHE_OFFSET, CONSUMER_POSITION_OFFSET};
        assertEquals(block, positions[0], "two lines nobody writes between the data and the producer position");
        for (int i = 0; i < positions.length; i++)
        {
            assertEquals(0, positions[i] % block);
            assertEquals(block * (i + 1), positions[i]);
        }
        assertEquals(CONSUMER_POSITION_OFFSET + block, TRAILER_LENGTH);
        assertTrue(TRAILER_LENGTH <= RingBufferDescriptor.TRAILER_LENGTH,
            "a lane fits where the region lays out an Agrona ring of the same capacity");
    }

    @Test
    void shouldReadLengthAndTypeOfAFrameWordAtTheirOffsets()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        buffer.putLong(0, frame(7, -40), ByteOrder.nativeOrder());
        if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN)
        {
            assertEquals(-40, buffer.getInt(LENGTH_OFFSET));
            assertEquals(7, buffer.getInt(TYPE_OFFSET));
        }
        assertEquals(-40, recordLength(frame(7, -40)));
        assertEquals(7, type(frame(7, -40)));
        assertEquals(PADDING_TYPE, type(frame(PADDING_TYPE, 64)));
        assertEquals(64, recordLength(frame(PADDING_TYPE, 64)));
        assertEquals(0, recordLength(0L), "a zero frame is not written yet");
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
        assertEquals(4096 + 256, consumerCacheOffset(4096));
        assertEquals(4096 + 384, consumerPositionOffset(4096));
    }
}
