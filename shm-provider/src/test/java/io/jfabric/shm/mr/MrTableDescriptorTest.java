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

import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;

import org.agrona.BitUtil;
import org.junit.jupiter.api.Test;

import static io.jfabric.shm.LayoutAssertions.assertFieldsInsideAlignedApart;
import static io.jfabric.shm.mr.MrTableDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link MrTableDescriptor} pinned (libfabric's {@code static_assert}s): every offset of a key table entry as its
 * Javadoc draws it, the entry filling one cache line, the states, and the control word's packing. A layout change
 * fails here first. ({@code MrLayoutTest} checks the same layout's relations with the region header.)
 */
class MrTableDescriptorTest
{
    @Test
    void shouldPinEveryOffsetAsDrawn()
    {
        assertEquals(0, CONTROL_OFFSET);
        assertEquals(8, KEY_OFFSET);
        assertEquals(16, OWNER_OFFSET);
        assertEquals(24, SEGMENT_ID_OFFSET);
        assertEquals(32, SEGMENT_OFFSET_OFFSET);
        assertEquals(36, LENGTH_OFFSET);
        assertEquals(40, SEGMENT_NONCE_OFFSET);
        assertEquals(48, BASE_ADDRESS_OFFSET);
        assertEquals(56, ACCESS_OFFSET);
        assertEquals(60, COUNTER_OFFSET);
        assertEquals(64, RegionDescriptor.MR_ENTRY_LENGTH);
        assertEquals(8, RegionDescriptor.MR_AUTH_DIGEST_LENGTH);
    }

    @Test
    void shouldFillExactlyOneCacheLinePerEntry()
    {
        assertFieldsInsideAlignedApart("key table entry", RegionDescriptor.MR_ENTRY_LENGTH,
            new int[]{CONTROL_OFFSET, 8}, new int[]{KEY_OFFSET, 8}, new int[]{OWNER_OFFSET, 8},
            new int[]{SEGMENT_ID_OFFSET, 8}, new int[]{SEGMENT_OFFSET_OFFSET, 4}, new int[]{LENGTH_OFFSET, 4},
            new int[]{SEGMENT_NONCE_OFFSET, 8}, new int[]{BASE_ADDRESS_OFFSET, 8}, new int[]{ACCESS_OFFSET, 4},
            new int[]{COUNTER_OFFSET, 4});
        assertEquals(RegionDescriptor.MR_ENTRY_LENGTH, COUNTER_OFFSET + 4, "no byte of an entry is unused");
        assertEquals(BitUtil.CACHE_LINE_LENGTH, RegionDescriptor.MR_ENTRY_LENGTH);
    }

    @Test
    void shouldPinTheStatesAndPackThemUnderTheGenerationInTheLowByte()
    {
        assertEquals(0, STATE_EMPTY);
        assertEquals(1, STATE_CLAIMED);
        assertEquals(2, STATE_PUBLISHED);
        assertEquals(3, STATE_FREE);
        assertEquals(0x0102, control(1, 2));
        assertEquals(STATE_FREE, state(control(-1L >>> 8, STATE_FREE)));
        assertEquals(-1L >>> 8, generation(control(-1L >>> 8, STATE_FREE)), "56 bits of generation survive");
    }

    @Test
    void shouldPlaceEntriesOneAfterAnotherFromTheTablesOffset()
    {
        final RegionGeometry g = new RegionGeometry(2, 4096, 4096, 4096, 10, 4);
        final int table = RegionDescriptor.mrTableOffset(g);
        assertEquals(table + 9 * 64, entryOffset(table, 9));
        assertEquals(entryOffset(table, 9), entryOffset(g, 9));
    }
}
