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
import org.junit.jupiter.api.Test;

import static io.jfabric.shm.LayoutAssertions.assertFieldsInsideAlignedApart;
import static io.jfabric.shm.region.SlotDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SlotDescriptor} pinned (libfabric's {@code static_assert}s): every offset of a slot's header as its Javadoc
 * draws it, the cache lines that separate fields of different writers, where the lane owner words start, and the
 * words the descriptor packs. A layout change fails here first.
 */
class SlotDescriptorTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(5, 4096, 4096, 4096, 16, 10);

    @Test
    void shouldPinEveryOffsetAsDrawn()
    {
        assertEquals(0, OWNER_OFFSET);
        assertEquals(8, INCARNATION_OFFSET);
        assertEquals(12, STATE_OFFSET);
        assertEquals(16, CONTEXT_OF_OFFSET);
        assertEquals(64, HEARTBEAT_OFFSET);
        assertEquals(128, CQ_OWNER_OFFSET);
        assertEquals(192, STAT_INLINE_OFFSET);
        assertEquals(200, STAT_SEGMENTED_OFFSET);
        assertEquals(208, STAT_RENDEZVOUS_OFFSET);
        assertEquals(216, STAT_CLAIMED_OFFSET);
        assertEquals(224, STAT_QUEUED_OFFSET);
        assertEquals(232, STAT_DAMAGED_OFFSET);
        assertEquals(256, AUTH_COUNT_OFFSET);
        assertEquals(320, AUTH_DIGESTS_OFFSET);
        assertEquals(384, RX_CONTEXT_COUNT_OFFSET);
        assertEquals(448, RX_CONTEXTS_OFFSET);
        assertEquals(576, REMOTE_READ_COUNTER_OFFSET);
        assertEquals(580, REMOTE_WRITE_COUNTER_OFFSET);
        assertEquals(1024, RegionDescriptor.SLOT_LANE_OWNERS_OFFSET);
        assertEquals(16, MAX_EP_CONTEXTS);
        assertEquals(8, MAX_AUTH_DIGESTS);
        assertEquals(0, STATE_FREE);
        assertEquals(1, STATE_CLAIMED);
        assertEquals(2, STATE_ACTIVE);
    }

    @Test
    void shouldFitEveryFieldAndTableBeforeTheLaneOwnersWithoutOverlap()
    {
        assertFieldsInsideAlignedApart("slot header", RegionDescriptor.SLOT_LANE_OWNERS_OFFSET,
            new int[]{OWNER_OFFSET, 8}, new int[]{INCARNATION_OFFSET, 4}, new int[]{STATE_OFFSET, 4},
            new int[]{CONTEXT_OF_OFFSET, 8}, new int[]{HEARTBEAT_OFFSET, 8}, new int[]{CQ_OWNER_OFFSET, 8},
            new int[]{STAT_INLINE_OFFSET, 8}, new int[]{STAT_SEGMENTED_OFFSET, 8}, new int[]{STAT_RENDEZVOUS_OFFSET, 8},
            new int[]{STAT_CLAIMED_OFFSET, 8}, new int[]{STAT_QUEUED_OFFSET, 8}, new int[]{STAT_DAMAGED_OFFSET, 8},
            new int[]{AUTH_COUNT_OFFSET, 4}, new int[]{AUTH_DIGESTS_OFFSET, 8 * MAX_AUTH_DIGESTS, 8},
            new int[]{RX_CONTEXT_COUNT_OFFSET, 4}, new int[]{RX_CONTEXTS_OFFSET, 8 * MAX_EP_CONTEXTS, 8},
            new int[]{REMOTE_READ_COUNTER_OFFSET, 4}, new int[]{REMOTE_WRITE_COUNTER_OFFSET, 4});
        assertEquals(RX_CONTEXT_COUNT_OFFSET, AUTH_DIGESTS_OFFSET + 8 * MAX_AUTH_DIGESTS,
            "the digests fill their lines");
        assertEquals(REMOTE_READ_COUNTER_OFFSET, RX_CONTEXTS_OFFSET + 8 * MAX_EP_CONTEXTS, "as do the contexts");
    }

    @Test
    void shouldGiveEachWritersFieldsCacheLinesOfTheirOwn()
    {
        final int[] lines = {OWNER_OFFSET, HEARTBEAT_OFFSET, CQ_OWNER_OFFSET, STAT_INLINE_OFFSET, AUTH_COUNT_OFFSET,
            AUTH_DIGESTS_OFFSET, RX_CONTEXT_COUNT_OFFSET, RX_CONTEXTS_OFFSET, REMOTE_READ_COUNTER_OFFSET,
            RegionDescriptor.SLOT_LANE_OWNERS_OFFSET};
        for (int i = 0; i < lines.length; i++)
        {
            assertEquals(0, lines[i] % BitUtil.CACHE_LINE_LENGTH, "group at " + lines[i] + " starts a cache line");
            if (i > 0)
            {
                assertTrue(lines[i] > lines[i - 1], "groups in the drawn order");
            }
        }
        assertEquals(OWNER_OFFSET / BitUtil.CACHE_LINE_LENGTH, CONTEXT_OF_OFFSET / BitUtil.CACHE_LINE_LENGTH,
            "context-of shares the owner line: both are written while the slot is claimed");
        assertTrue(STAT_DAMAGED_OFFSET + 8 <= AUTH_COUNT_OFFSET, "the statistics stay on their line");
    }

    @Test
    void shouldPlaceEachFieldOfASlotFromTheSlotsOffset()
    {
        for (int slot = 0; slot < GEOMETRY.slotCount(); slot++)
        {
            final int base = RegionDescriptor.slotOffset(GEOMETRY, slot);
            assertEquals(base + OWNER_OFFSET, ownerOffset(GEOMETRY, slot));
            assertEquals(base + INCARNATION_OFFSET, incarnationOffset(GEOMETRY, slot));
            assertEquals(base + STATE_OFFSET, stateOffset(GEOMETRY, slot));
            assertEquals(base + HEARTBEAT_OFFSET, heartbeatOffset(GEOMETRY, slot));
            assertEquals(base + CQ_OWNER_OFFSET, cqOwnerOffset(GEOMETRY, slot));
            assertEquals(base + STAT_QUEUED_OFFSET, statOffset(GEOMETRY, slot, STAT_QUEUED_OFFSET));
            assertEquals(base + AUTH_COUNT_OFFSET, authCountOffset(GEOMETRY, slot));
            assertEquals(base + AUTH_DIGESTS_OFFSET + 8 * 7, authDigestOffset(GEOMETRY, slot, 7));
            assertEquals(base + CONTEXT_OF_OFFSET, contextOfOffset(GEOMETRY, slot));
            assertEquals(base + RX_CONTEXT_COUNT_OFFSET, rxContextCountOffset(GEOMETRY, slot));
            assertEquals(base + RX_CONTEXTS_OFFSET + 8 * 15, rxContextOffset(GEOMETRY, slot, 15));
            assertEquals(base + REMOTE_READ_COUNTER_OFFSET, remoteCounterOffset(GEOMETRY, slot, false));
            assertEquals(base + REMOTE_WRITE_COUNTER_OFFSET, remoteCounterOffset(GEOMETRY, slot, true));
            for (int sender = 0; sender < GEOMETRY.slotCount(); sender++)
            {
                assertEquals(base + 1024 + 8 * sender, laneOwnerOffset(GEOMETRY, slot, sender));
            }
            assertTrue(laneOwnerOffset(GEOMETRY, slot, GEOMETRY.slotCount() - 1) + 8 <=
                base + RegionDescriptor.slotHeaderLength(GEOMETRY), "every lane owner word is in the header");
        }
        final int receiver = 1;
        assertThrows(IndexOutOfBoundsException.class, () -> laneOwnerOffset(GEOMETRY, receiver, GEOMETRY.slotCount()));
        assertThrows(IndexOutOfBoundsException.class, () -> laneOwnerOffset(GEOMETRY, receiver, -1));
    }

    @Test
    void shouldPackLaneStampsAndSlotWordsSoNeitherHalfLeaksIntoTheOther()
    {
        final long stamp = laneStamp(-2, -3);
        assertEquals(-2, senderIncarnation(stamp));
        assertEquals(-3, receiverIncarnation(stamp));
        assertEquals(0x0000_0007_0000_0009L, laneStamp(7, 9));
        final long word = slotWord(0, 0);
        assertNotEquals(0, word, "a slot word is never 0, which means 'none'");
        assertEquals(0, wordSlot(word));
        assertEquals(0, wordIncarnation(word));
        assertEquals(41, wordSlot(slotWord(41, -1)));
        assertEquals(-1, wordIncarnation(slotWord(41, -1)));
    }
}
