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
package io.jfabric.shm.cntr;

import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;

import org.agrona.BitUtil;
import org.junit.jupiter.api.Test;

import static io.jfabric.shm.LayoutAssertions.assertFieldsInsideAlignedApart;
import static io.jfabric.shm.cntr.CounterTableDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link CounterTableDescriptor} pinned (libfabric's {@code static_assert}s): every offset of a counter table entry,
 * its states, and where entries lie in the region. A layout change fails here first.
 */
class CounterTableDescriptorTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(2, 4096, 4096, 4096, 16, 10);

    @Test
    void shouldPinEveryOffsetAndState()
    {
        assertEquals(0, STATE_OFFSET);
        assertEquals(8, OWNER_OFFSET);
        assertEquals(16, VALUE_OFFSET);
        assertEquals(24, ERROR_OFFSET);
        assertEquals(0, STATE_FREE);
        assertEquals(1, STATE_IN_USE);
        assertEquals(64, RegionDescriptor.COUNTER_ENTRY_LENGTH);
    }

    @Test
    void shouldKeepEachFieldAlignedForItsAtomicAccessInsideOneCacheLineEntry()
    {
        assertFieldsInsideAlignedApart("counter entry", RegionDescriptor.COUNTER_ENTRY_LENGTH,
            new int[]{STATE_OFFSET, 4}, new int[]{OWNER_OFFSET, 8}, new int[]{VALUE_OFFSET, 8},
            new int[]{ERROR_OFFSET, 8});
        assertEquals(BitUtil.CACHE_LINE_LENGTH, RegionDescriptor.COUNTER_ENTRY_LENGTH,
            "an entry is one cache line: counters of two owners never share one");
    }

    @Test
    void shouldPlaceEntriesOneAfterAnotherInTheRegionsCounterTable()
    {
        for (int i = 0; i < GEOMETRY.counterEntries(); i++)
        {
            assertEquals(RegionDescriptor.counterTableOffset(GEOMETRY) + i * RegionDescriptor.COUNTER_ENTRY_LENGTH,
                entryOffset(GEOMETRY, i));
            assertEquals(0, entryOffset(GEOMETRY, i) % BitUtil.CACHE_LINE_LENGTH);
        }
    }
}
