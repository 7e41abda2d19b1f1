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

import org.agrona.BitUtil;
import org.junit.jupiter.api.Test;

import static io.jfabric.shm.LayoutAssertions.assertFieldsInsideAlignedApart;
import static io.jfabric.shm.LayoutAssertions.assertMagicSpells;
import static io.jfabric.shm.mr.SegmentDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link SegmentDescriptor} pinned (libfabric's {@code static_assert}s): the magic, the layout version, every
 * offset of the header page as drawn, where the data starts, and the file's length and name. A layout change fails
 * here first, and must raise {@link SegmentDescriptor#LAYOUT_VERSION}.
 */
class SegmentDescriptorTest
{
    @Test
    void shouldPinTheMagicVersionAndEveryHeaderOffsetAsDrawn()
    {
        assertMagicSpells("JFABSEG", MAGIC);
        assertEquals(3, LAYOUT_VERSION);
        assertEquals(0, MAGIC_OFFSET);
        assertEquals(8, LAYOUT_VERSION_OFFSET);
        assertEquals(12, HEADER_LENGTH_OFFSET);
        assertEquals(16, DATA_LENGTH_OFFSET);
        assertEquals(24, OWNER_PID_OFFSET);
        assertEquals(32, SEGMENT_ID_OFFSET);
        assertEquals(40, NONCE_OFFSET);
        assertEquals(48, OWNER_IDENTITY_OFFSET);
        assertEquals(64, READY_OFFSET);
        assertEquals(1, READY_VALUE);
        assertEquals(4096, HEADER_LENGTH);
        assertEquals(4096, DATA_OFFSET);
        assertEquals(RegionDescriptor.MAX_REGION_LENGTH - 4096, MAX_DATA_LENGTH);
    }

    @Test
    void shouldKeepTheHeaderFieldsApartAndReadyOnItsOwnLine()
    {
        assertFieldsInsideAlignedApart("segment header", HEADER_LENGTH,
            new int[]{MAGIC_OFFSET, 8}, new int[]{LAYOUT_VERSION_OFFSET, 4}, new int[]{HEADER_LENGTH_OFFSET, 4},
            new int[]{DATA_LENGTH_OFFSET, 8}, new int[]{OWNER_PID_OFFSET, 8}, new int[]{SEGMENT_ID_OFFSET, 8},
            new int[]{NONCE_OFFSET, 8}, new int[]{OWNER_IDENTITY_OFFSET, 8}, new int[]{READY_OFFSET, 4});
        assertEquals(0, READY_OFFSET % BitUtil.CACHE_LINE_LENGTH, "ready, written last, starts its own line");
        assertEquals(0, DATA_OFFSET % RegionDescriptor.PAGE_LENGTH, "the data is page aligned");
    }

    @Test
    void shouldSizeAndNameTheFile()
    {
        assertEquals(4096 + 4096, fileLength(1));
        assertEquals(4096 + 8192, fileLength(4097));
        assertEquals("orders.seg.12.34", fileName("orders", 12, 34));
        assertEquals(12, ownerPidOf("orders.seg.12.34"));
        assertEquals("orders", domainOf("orders.seg.12.34"));
        assertEquals(-1, ownerPidOf("orders.12.34"));
        assertEquals(-1, ownerPidOf("orders.seg.x.34"));
    }
}
