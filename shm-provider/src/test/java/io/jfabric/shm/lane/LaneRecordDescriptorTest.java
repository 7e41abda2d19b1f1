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

import org.junit.jupiter.api.Test;

import static io.jfabric.shm.LayoutAssertions.assertFieldsInsideAlignedApart;
import static io.jfabric.shm.lane.LaneRecordDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LaneRecordDescriptor} pinned (libfabric's {@code static_assert}s): the record types, the header, each
 * type's fields, an emulated request with its region list and bounce reference, the flags word, and the lengths the
 * descriptor computes. A layout change fails here first.
 */
class LaneRecordDescriptorTest
{
    @Test
    void shouldPinTheRecordTypes()
    {
        final int[] types = {MSG, FIRST, PIECE, RTS, ACK_REQUEST, ABORT, WRITE_DATA, RMA_WRITE, RMA_READ, ATOMIC};
        for (int i = 0; i < types.length; i++)
        {
            assertEquals(i + 1, types[i], "record types are 1 to MAX_TYPE in this order");
        }
        assertEquals(10, MAX_TYPE);
        assertTrue(SpscLaneDescriptor.PADDING_TYPE < MSG, "no record type is the lane's padding");
    }

    @Test
    void shouldPinTheHeaderAndTheFieldsOfEachMessageType()
    {
        assertEquals(0, TAG_OFFSET);
        assertEquals(8, DATA_OFFSET);
        assertEquals(16, LENGTH_OFFSET);
        assertEquals(20, FLAGS_OFFSET);
        assertEquals(24, HEADER_LENGTH);
        assertFieldsInsideAlignedApart("header", HEADER_LENGTH,
            new int[]{TAG_OFFSET, 8}, new int[]{DATA_OFFSET, 8}, new int[]{LENGTH_OFFSET, 4},
            new int[]{FLAGS_OFFSET, 4});
        assertEquals(24, PAYLOAD_OFFSET);
        assertEquals(24, TOTAL_LENGTH_OFFSET);
        assertEquals(32, FIRST_PAYLOAD_OFFSET);
        assertEquals(24, ACK_REQUEST_COOKIE_OFFSET);
        assertEquals(32, ACK_REQUEST_LENGTH);
        assertEquals(24, ABORT_LENGTH);
        assertEquals(24, WRITE_DATA_LENGTH);
        assertEquals(32, RTS_KEY_OFFSET);
        assertEquals(40, RTS_ADDR_OFFSET);
        assertEquals(48, RTS_COOKIE_OFFSET);
        assertEquals(56, RTS_LENGTH);
        assertFieldsInsideAlignedApart("RTS", RTS_LENGTH, new int[]{0, HEADER_LENGTH, 8},
            new int[]{TOTAL_LENGTH_OFFSET, 8}, new int[]{RTS_KEY_OFFSET, 8}, new int[]{RTS_ADDR_OFFSET, 8},
            new int[]{RTS_COOKIE_OFFSET, 8});
        assertEquals(4, CHECKSUM_LENGTH);
        assertEquals(8, RECORD_ALIGNMENT);
        assertEquals(SpscLaneDescriptor.RECORD_ALIGNMENT, RECORD_ALIGNMENT);
    }

    @Test
    void shouldPinAnEmulatedRequestItsRegionListAndItsBounceReference()
    {
        assertEquals(TAG_OFFSET, STATE_OFFSET, "a request's State is its Tag word");
        assertEquals(8, STATE_LENGTH);
        assertEquals(-1L, STATE_TAKEN);
        assertEquals(-2L, STATE_CANCELLED);
        assertEquals(24, REQUEST_COOKIE_OFFSET);
        assertEquals(32, REQUEST_REGIONS_OFFSET);
        assertEquals(33, REQUEST_DATATYPE_OFFSET);
        assertEquals(34, REQUEST_OP_OFFSET);
        assertEquals(35, REQUEST_KIND_OFFSET);
        assertEquals(36, REQUEST_TOTAL_OFFSET);
        assertEquals(40, REGION_LIST_OFFSET);
        assertFieldsInsideAlignedApart("request", REGION_LIST_OFFSET, new int[]{0, HEADER_LENGTH, 8},
            new int[]{REQUEST_COOKIE_OFFSET, 8}, new int[]{REQUEST_REGIONS_OFFSET, 1},
            new int[]{REQUEST_DATATYPE_OFFSET, 1}, new int[]{REQUEST_OP_OFFSET, 1}, new int[]{REQUEST_KIND_OFFSET, 1},
            new int[]{REQUEST_TOTAL_OFFSET, 4});
        assertEquals(32, REGION_LENGTH);
        assertEquals(0, REGION_KEY_OFFSET);
        assertEquals(8, REGION_ADDR_OFFSET);
        assertEquals(16, REGION_CONTROL_OFFSET);
        assertEquals(24, REGION_BYTES_OFFSET);
        assertFieldsInsideAlignedApart("region", REGION_LENGTH, new int[]{REGION_KEY_OFFSET, 8},
            new int[]{REGION_ADDR_OFFSET, 8}, new int[]{REGION_CONTROL_OFFSET, 8}, new int[]{REGION_BYTES_OFFSET, 4});
        assertEquals(4, MAX_REGIONS);
        assertEquals(40, regionOffset(0));
        assertEquals(40 + 3 * 32, regionOffset(3));
        assertEquals(40 + 4 * 32, requestPayloadOffset(MAX_REGIONS));
        assertEquals(0, requestPayloadOffset(1) % 8, "the payload after the list stays 8-byte aligned");
        assertEquals(0, BOUNCE_OWNER_OFFSET);
        assertEquals(8, BOUNCE_SEGMENT_OFFSET);
        assertEquals(16, BOUNCE_NONCE_OFFSET);
        assertEquals(24, BOUNCE_DATA_OFFSET);
        assertEquals(32, BOUNCE_LENGTH);
        assertFieldsInsideAlignedApart("bounce reference", BOUNCE_LENGTH, new int[]{BOUNCE_OWNER_OFFSET, 8},
            new int[]{BOUNCE_SEGMENT_OFFSET, 8}, new int[]{BOUNCE_NONCE_OFFSET, 8}, new int[]{BOUNCE_DATA_OFFSET, 8});
    }

    @Test
    void shouldGiveEachTypeItsContentLengthAndChecksumStart()
    {
        assertEquals(24 + 100, contentLength(MSG, 100));
        assertEquals(24 + 100, contentLength(PIECE, 100));
        assertEquals(32 + 100, contentLength(FIRST, 100));
        assertEquals(56, contentLength(RTS, 100));
        assertEquals(32, contentLength(ACK_REQUEST, 100));
        assertEquals(24, contentLength(ABORT, 100));
        assertEquals(24, contentLength(WRITE_DATA, 100));
        for (final int type : new int[]{RMA_WRITE, RMA_READ, ATOMIC})
        {
            assertEquals(40 + 100, contentLength(type, 100));
            assertTrue(isRequest(type));
            assertEquals(8, checksumStart(type), "a request's State changes after it is sealed");
        }
        for (final int type : new int[]{MSG, FIRST, PIECE, RTS, ACK_REQUEST, ABORT, WRITE_DATA})
        {
            assertFalse(isRequest(type));
            assertEquals(0, checksumStart(type));
        }
        assertEquals(-1, contentLength(0, 0));
        assertEquals(-1, contentLength(MAX_TYPE + 1, 0));
    }

    @Test
    void shouldPadABodySoTheWholeRecordEndsOnTheLanesAlignment()
    {
        assertEquals(24, bodyLength(24));
        assertEquals(32, bodyLength(25));
        assertEquals(32, bodyLength(32));
        assertEquals(0, bodyLength(0));
        for (int n = 0; n < 100; n++)
        {
            assertEquals(0, (bodyLength(n) + SpscLaneDescriptor.HEADER_LENGTH) % RECORD_ALIGNMENT);
            assertTrue(bodyLength(n) >= n && bodyLength(n) < n + RECORD_ALIGNMENT);
        }
    }

    @Test
    void shouldPackFlagsInTheLowByteAndCompareTwentyFourBitsOfTheIncarnation()
    {
        assertEquals(1, FLAG_TAGGED);
        assertEquals(2, FLAG_CQ_DATA);
        assertEquals(4, FLAG_CHECKSUM);
        assertEquals(8, FLAG_BOUNCE);
        final int all = FLAG_TAGGED | FLAG_CQ_DATA | FLAG_CHECKSUM | FLAG_BOUNCE;
        assertEquals(15, all, "four distinct bits");
        final int word = flagsWord(all, 0x0123_4567);
        assertEquals(0x2345_670F, word);
        assertEquals(all, flags(word));
        assertTrue(isFor(word, 0x0123_4567));
        assertTrue(isFor(word, 0x7F23_4567), "only the low 24 bits of the incarnation travel");
        assertFalse(isFor(word, 0x0123_4568));
        assertEquals(0, flags(flagsWord(0x100, 1)), "flags are 8 bits");
    }
}
