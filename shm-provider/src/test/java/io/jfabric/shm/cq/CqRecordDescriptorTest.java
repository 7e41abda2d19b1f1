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
package io.jfabric.shm.cq;

import org.agrona.BitUtil;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.junit.jupiter.api.Test;

import static io.jfabric.shm.LayoutAssertions.assertFieldsInsideAlignedApart;
import static io.jfabric.shm.cq.CqRecordDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link CqRecordDescriptor} pinned, as libfabric pins its shared structs with {@code static_assert}: every offset,
 * length and type, and the claim that a success record is one cache line with the ring's header. A layout change
 * fails here first, and must come with a new layout version.
 */
class CqRecordDescriptorTest
{
    @Test
    void shouldPinEveryOffsetAndLengthOfBothRecordTypes()
    {
        assertEquals(1, ENTRY);
        assertEquals(2, ERROR);
        assertEquals(0, CONTEXT_OFFSET);
        assertEquals(8, FLAGS_OFFSET);
        assertEquals(16, LEN_OFFSET);
        assertEquals(24, BUF_OFFSET_OFFSET);
        assertEquals(32, DATA_OFFSET);
        assertEquals(40, TAG_OFFSET);
        assertEquals(48, SRC_ADDR_OFFSET);
        assertEquals(56, ENTRY_LENGTH);
        assertEquals(56, OLEN_OFFSET);
        assertEquals(64, ERR_OFFSET);
        assertEquals(68, PROV_ERRNO_OFFSET);
        assertEquals(72, ERR_DATA_LENGTH_OFFSET);
        assertEquals(76, ERR_DATA_OFFSET);
    }

    @Test
    void shouldFillASuccessRecordWithItsSevenLongsAndExtendItForErrors()
    {
        final int[][] success = {
            {CONTEXT_OFFSET, 8}, {FLAGS_OFFSET, 8}, {LEN_OFFSET, 8}, {BUF_OFFSET_OFFSET, 8}, {DATA_OFFSET, 8},
            {TAG_OFFSET, 8}, {SRC_ADDR_OFFSET, 8}};
        assertFieldsInsideAlignedApart("success record", ENTRY_LENGTH, success);
        assertEquals(7 * 8, ENTRY_LENGTH, "no byte of a success record is unused");
        assertFieldsInsideAlignedApart("error record", ERR_DATA_OFFSET,
            success[0], success[1], success[2], success[3], success[4], success[5], success[6],
            new int[]{OLEN_OFFSET, 8}, new int[]{ERR_OFFSET, 4}, new int[]{PROV_ERRNO_OFFSET, 4},
            new int[]{ERR_DATA_LENGTH_OFFSET, 4});
        assertEquals(ENTRY_LENGTH, OLEN_OFFSET, "an error record is a success record followed by its error fields");
    }

    @Test
    void shouldMakeASuccessRecordExactlyOneCacheLineWithTheRingsHeader()
    {
        assertEquals(BitUtil.CACHE_LINE_LENGTH, RecordDescriptor.HEADER_LENGTH + ENTRY_LENGTH);
        assertEquals(BitUtil.CACHE_LINE_LENGTH,
            BitUtil.align(RecordDescriptor.HEADER_LENGTH + ENTRY_LENGTH, RecordDescriptor.ALIGNMENT));
    }

    @Test
    void shouldSizeTheLargestRecordAsAnErrorWithItsDataAndTheRingsHeaderAligned()
    {
        assertEquals(88, maxRecordLength(0));
        assertEquals(88, maxRecordLength(4));
        assertEquals(96, maxRecordLength(5));
        assertEquals(8 + 76 + 256 + 4, maxRecordLength(256));
    }
}
