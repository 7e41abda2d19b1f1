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
package io.jfabric.shm.mr;

import io.jfabric.shm.cntr.CounterTableDescriptor;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import org.agrona.BitUtil;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory registration and counter layouts: fields inside their entries without overlap, the table lock and
 * key sequence on their own header lines outside the checksum, the control word's packing.
 */
class MrLayoutTest
{
    @Test
    void shouldPlaceTheTableLockAndKeySequenceOnTheirOwnHeaderLinesOutsideTheChecksum()
    {
        final int[] taken = {RegionDescriptor.READY_OFFSET, RegionDescriptor.ATTACH_COUNT_OFFSET};
        for (final int offset : new int[]{RegionDescriptor.MR_TABLE_LOCK_OFFSET, RegionDescriptor.MR_KEY_SEQUENCE_OFFSET})
        {
            assertEquals(0, offset % BitUtil.CACHE_LINE_LENGTH);
            assertTrue(offset >= RegionDescriptor.CHECKSUM_OFFSET + 4 && offset + 8 <= RegionDescriptor.HEADER_LENGTH);
            for (final int other : taken)
            {
                assertTrue(offset / BitUtil.CACHE_LINE_LENGTH != other / BitUtil.CACHE_LINE_LENGTH);
            }
        }
        assertTrue(RegionDescriptor.MR_TABLE_LOCK_OFFSET != RegionDescriptor.MR_KEY_SEQUENCE_OFFSET);
    }

    @Test
    void shouldFitEveryKeyTableFieldInTheEntryWithoutOverlap()
    {
        final int[][] fields = {
            {MrTableDescriptor.CONTROL_OFFSET, 8}, {MrTableDescriptor.KEY_OFFSET, 8},
            {MrTableDescriptor.OWNER_OFFSET, 8}, {MrTableDescriptor.SEGMENT_ID_OFFSET, 8},
            {MrTableDescriptor.SEGMENT_OFFSET_OFFSET, 4}, {MrTableDescriptor.LENGTH_OFFSET, 4},
            {MrTableDescriptor.SEGMENT_NONCE_OFFSET, 8},
            {MrTableDescriptor.BASE_ADDRESS_OFFSET, 8}, {MrTableDescriptor.ACCESS_OFFSET, 4},
            {MrTableDescriptor.COUNTER_OFFSET, 4}};
        assertNoOverlap(fields, RegionDescriptor.MR_ENTRY_LENGTH);
        assertNoOverlap(new int[][]{{CounterTableDescriptor.STATE_OFFSET, 4}, {CounterTableDescriptor.OWNER_OFFSET, 8},
            {CounterTableDescriptor.VALUE_OFFSET, 8}, {CounterTableDescriptor.ERROR_OFFSET, 8}},
            RegionDescriptor.COUNTER_ENTRY_LENGTH);
    }

    private static void assertNoOverlap(final int[][] fields, final int entryLength)
    {
        final boolean[] used = new boolean[entryLength];
        for (final int[] field : fields)
        {
            assertEquals(0, field[0] % field[1], "field at " + field[0] + " aligned");
            for (int i = field[0]; i < field[0] + field[1]; i++)
            {
                assertTrue(i < entryLength, "field at " + field[0] + " inside the entry");
                assertTrue(!used[i], "byte " + i + " used once");
                used[i] = true;
            }
        }
    }

    @Test
    void shouldPackGenerationAndStateIntoTheControlWordAndAgreeOnEntryOffsets()
    {
        final long control = MrTableDescriptor.control(123_456_789L, MrTableDescriptor.STATE_PUBLISHED);
        assertEquals(123_456_789L, MrTableDescriptor.generation(control));
        assertEquals(MrTableDescriptor.STATE_PUBLISHED, MrTableDescriptor.state(control));
        final RegionGeometry g = new RegionGeometry(2, 4096, 4096, 4096, 100, 10);
        for (int i = 0; i < 100; i++)
        {
            assertEquals(RegionDescriptor.mrEntryOffset(g, i),
                MrTableDescriptor.entryOffset(RegionDescriptor.mrTableOffset(g), i));
            final int home = MrTableDescriptor.home(i * 7919L, 100);
            assertTrue(home >= 0 && home < 100);
        }
        assertTrue(MrTableDescriptor.home(-1L, 100) >= 0, "keys with the top bit set hash into range too");
    }

    @Test
    void shouldSizeSegmentFilesAsAHeaderPagePlusPageAlignedData()
    {
        assertEquals(8192, SegmentDescriptor.fileLength(1));
        assertEquals(8192, SegmentDescriptor.fileLength(4096));
        assertEquals(12288, SegmentDescriptor.fileLength(4097));
        assertEquals("d.seg.12.34", SegmentDescriptor.fileName("d", 12, 34));
        assertTrue(SegmentDescriptor.NONCE_OFFSET >= SegmentDescriptor.SEGMENT_ID_OFFSET + 8);
        assertTrue(SegmentDescriptor.OWNER_IDENTITY_OFFSET >= SegmentDescriptor.NONCE_OFFSET + 8);
        assertTrue(SegmentDescriptor.READY_OFFSET >= SegmentDescriptor.OWNER_IDENTITY_OFFSET + 8);
    }
}
