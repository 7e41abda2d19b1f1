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
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

import static io.jfabric.shm.LayoutAssertions.assertMagicSpells;
import static io.jfabric.shm.region.RegionDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegionDescriptorTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(3, 8192, 4096, 16384, 100, 10);

    @Test
    void shouldSpellJfabricInTheMagicOnALittleEndianHost()
    {
        assertMagicSpells("JFABRIC", MAGIC);
    }

    @Test
    void shouldKeepTheFieldsOtherProcessesWriteOnTheirOwnCacheLines()
    {
        final int[] groupStarts = {
            MAGIC_OFFSET, GEOMETRY_OFFSET, CREATOR_PID_OFFSET, NAME_LENGTH_OFFSET, CHECKSUM_OFFSET, READY_OFFSET,
            ATTACH_COUNT_OFFSET };
        for (final int offset : groupStarts)
        {
            assertEquals(0, offset % BitUtil.CACHE_LINE_LENGTH, "group at " + offset);
        }
        assertTrue(READY_OFFSET / BitUtil.CACHE_LINE_LENGTH != CHECKSUM_OFFSET / BitUtil.CACHE_LINE_LENGTH);
        assertTrue(ATTACH_COUNT_OFFSET / BitUtil.CACHE_LINE_LENGTH != READY_OFFSET / BitUtil.CACHE_LINE_LENGTH);
        assertTrue(ATTACH_COUNT_OFFSET + 8 <= HEADER_LENGTH);
        assertEquals(0, ATTACH_COUNT_OFFSET % 8);
        assertEquals(NAME_OFFSET + NAME_CAPACITY, CHECKSUM_OFFSET);
        assertTrue(REGION_NONCE_OFFSET + 8 <= NAME_LENGTH_OFFSET, "the nonce is in the creator group, under the CRC");
        assertEquals(0, REMOVER_OFFSET % BitUtil.CACHE_LINE_LENGTH);
        assertTrue(REMOVER_OFFSET >= MR_KEY_SEQUENCE_OFFSET + BitUtil.CACHE_LINE_LENGTH);
        assertTrue(USER_TABLE_OFFSET >= REMOVER_OFFSET + BitUtil.CACHE_LINE_LENGTH);
        assertEquals(HEADER_LENGTH, userEntryOffset(USER_TABLE_ENTRIES - 1) + USER_ENTRY_LENGTH);
        assertThrows(IndexOutOfBoundsException.class, () -> userEntryOffset(USER_TABLE_ENTRIES));
        assertTrue(NAME_CAPACITY >= RegionFile.MAX_NAME_LENGTH);
    }

    @Test
    void shouldLayOutSlotsRingsAndTablesPageAlignedWithoutOverlap()
    {
        int end = HEADER_LENGTH;
        for (int i = 0; i < GEOMETRY.slotCount(); i++)
        {
            assertEquals(end, slotOffset(GEOMETRY, i));
            assertEquals(slotOffset(GEOMETRY, i) + SLOT_HEADER_LENGTH, rxRingOffset(GEOMETRY, i));
            assertTrue(txRingOffset(GEOMETRY, i) >= laneOffset(GEOMETRY, i, GEOMETRY.slotCount() - 1) +
                laneLength(GEOMETRY.rxRingBytes()));
            assertTrue(cqRingOffset(GEOMETRY, i) >= txRingOffset(GEOMETRY, i) + ringLength(GEOMETRY.txRingBytes()));
            end = slotOffset(GEOMETRY, i) + slotLength(GEOMETRY);
            assertTrue(end >= cqRingOffset(GEOMETRY, i) + ringLength(GEOMETRY.cqRingBytes()));
            for (final int offset : new int[]{
                slotOffset(GEOMETRY, i), rxRingOffset(GEOMETRY, i), txRingOffset(GEOMETRY, i), cqRingOffset(GEOMETRY, i) })
            {
                assertEquals(0, offset % PAGE_LENGTH);
            }
        }
        assertEquals(end, mrTableOffset(GEOMETRY));
        assertEquals(BitUtil.align(100 * MR_ENTRY_LENGTH, PAGE_LENGTH), mrTableLength(GEOMETRY));
        assertEquals(mrTableOffset(GEOMETRY) + mrTableLength(GEOMETRY), counterTableOffset(GEOMETRY));
        final int mrAuthTable = counterTableOffset(GEOMETRY) + counterTableLength(GEOMETRY);
        assertEquals(mrAuthTable, mrAuthDigestOffset(GEOMETRY, 0));
        assertEquals(mrAuthTable + 99 * MR_AUTH_DIGEST_LENGTH, mrAuthDigestOffset(GEOMETRY, 99));
        assertEquals(mrAuthTable + BitUtil.align(100 * MR_AUTH_DIGEST_LENGTH, PAGE_LENGTH), regionLength(GEOMETRY));
        assertEquals(0, regionLength(GEOMETRY) % PAGE_LENGTH);
        assertEquals(mrTableOffset(GEOMETRY) + 99 * MR_ENTRY_LENGTH, mrEntryOffset(GEOMETRY, 99));
        assertEquals(counterTableOffset(GEOMETRY) + 9 * COUNTER_ENTRY_LENGTH, counterEntryOffset(GEOMETRY, 9));
    }

    @Test
    void shouldGiveEachLaneAndRingItsCapacityPlusItsTrailer()
    {
        assertEquals(8192 + RingBufferDescriptor.TRAILER_LENGTH, ringLength(8192));
        assertEquals(8192 + SpscLaneDescriptor.TRAILER_LENGTH, laneLength(8192));
        assertEquals(SpscLaneDescriptor.laneLength(8192), laneLength(8192));
        // 3 lanes of 8192 + lane trailer, each rounded to LANE_ALIGNMENT, together rounded to a page; then tx and CQ
        // rings (Agrona's, with their trailer).
        final int lanes = 3 * org.agrona.BitUtil.align(8192 + SpscLaneDescriptor.TRAILER_LENGTH, LANE_ALIGNMENT);
        assertEquals(lanes, 3 * laneSpan(GEOMETRY));
        assertEquals(0, laneOffset(GEOMETRY, 1, 2) % LANE_ALIGNMENT);
        assertEquals(SLOT_HEADER_LENGTH + org.agrona.BitUtil.align(lanes, PAGE_LENGTH) + 2 * PAGE_LENGTH +
            5 * PAGE_LENGTH, slotLength(GEOMETRY));
    }

    @Test
    void shouldRefuseIndexesOutsideTheGeometry()
    {
        assertThrows(IndexOutOfBoundsException.class, () -> slotOffset(GEOMETRY, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> slotOffset(GEOMETRY, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> mrEntryOffset(GEOMETRY, 100));
        assertThrows(IndexOutOfBoundsException.class, () -> counterEntryOffset(GEOMETRY, 10));
    }
}
