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
package io.jfabric.shm.rx;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ActiveLanes}: which lanes receive progress polls on each call. Times are given, not read from the clock.
 */
class ActiveLanesTest
{
    private static final long T0 = 1_000_000;
    private static final long LATER = T0 + ActiveLanes.HOT_MS + 1;

    @Test
    void shouldKeepEveryLaneHotBelowTheSplit()
    {
        final ActiveLanes lanes = new ActiveLanes(64);
        final int n = ActiveLanes.TIERED_FROM - 1;
        lanes.rebuild(slots(n), n, T0);
        assertEquals(n, lanes.hotCount());
        for (int i = 0; i < n; i++)
        {
            assertFalse(lanes.cooled(i, LATER + 1000), "below " + ActiveLanes.TIERED_FROM + " lanes none cools");
        }
        lanes.rebuild(slots(n), n, LATER + 1000);
        assertEquals(n, lanes.hotCount());
        assertEquals(0, lanes.coldToPoll(LATER + 1000));
    }

    @Test
    void shouldListNewSendersHotAndCoolThoseIdleForLongerThanHotMs()
    {
        final ActiveLanes lanes = new ActiveLanes(64);
        lanes.rebuild(slots(16), 16, T0);
        assertEquals(16, lanes.hotCount(), "a sender that just connected is hot");
        final int busy = lanes.slotAt(3);
        lanes.recordsFrom(busy, T0 + ActiveLanes.HOT_MS);
        assertFalse(lanes.cooled(0, T0 + ActiveLanes.HOT_MS), "HOT_MS after its last record a lane is still hot");
        int position = 0;
        while (position < lanes.hotCount())
        {
            if (!lanes.cooled(position, LATER))
            {
                position++;
            }
        }
        assertEquals(1, lanes.hotCount(), "only the lane with a recent record stays hot");
        assertEquals(busy, lanes.slotAt(0));
        assertEquals(16, lanes.count());
    }

    @Test
    void shouldPollEveryColdLaneOnATicksFirstCallAndOneInTurnAfter()
    {
        final ActiveLanes lanes = new ActiveLanes(64);
        lanes.rebuild(slots(20), 20, T0);
        lanes.rebuild(slots(20), 20, LATER); // none gave records: all cold
        assertEquals(0, lanes.hotCount());
        assertEquals(20, lanes.coldToPoll(LATER), "the first call of a tick polls them all");
        int polls = 0;
        final Set<Integer> seen = new HashSet<>();
        for (int call = 0; call < 20 * ActiveLanes.COLD_STRIDE; call++)
        {
            for (int k = lanes.coldToPoll(LATER); k > 0; k--)
            {
                polls++;
                seen.add(lanes.slotAt(lanes.nextCold()));
            }
        }
        assertEquals(20, polls, "later calls of the tick poll one cold lane every " + ActiveLanes.COLD_STRIDE);
        assertEquals(20, seen.size(), "so " + 20 * ActiveLanes.COLD_STRIDE + " calls poll each of 20 cold lanes once");
        assertEquals(20, lanes.coldToPoll(LATER + 1), "a new tick polls them all again");
    }

    @Test
    void shouldWarmAColdLaneThatGivesRecordsAndVisitTheRestInTurn()
    {
        final ActiveLanes lanes = new ActiveLanes(64);
        lanes.rebuild(slots(10), 10, T0);
        lanes.rebuild(slots(10), 10, LATER);
        lanes.coldToPoll(LATER);
        final int p = lanes.nextCold();
        final int slot = lanes.slotAt(p);
        lanes.warmed(p, LATER);
        assertEquals(1, lanes.hotCount());
        assertEquals(slot, lanes.slotAt(0));
        assertFalse(lanes.cooled(0, LATER + ActiveLanes.HOT_MS), "warmed just now");
        final Set<Integer> seen = new HashSet<>();
        for (int call = 0; call < 9; call++)
        {
            final int q = lanes.nextCold();
            assertTrue(q >= lanes.hotCount() && q < lanes.count(), "a cold position: " + q);
            seen.add(lanes.slotAt(q));
        }
        assertEquals(9, seen.size(), "the 9 lanes left cold are each polled once in 9 calls");
        assertFalse(seen.contains(slot));
    }

    @Test
    void shouldForgetASenderThatLeftAndListItHotWhenItComesBack()
    {
        final ActiveLanes lanes = new ActiveLanes(64);
        lanes.rebuild(slots(12), 12, T0);
        lanes.rebuild(slots(12), 12, LATER);
        assertEquals(0, lanes.hotCount());
        lanes.rebuild(slots(11), 11, LATER); // slot 11's sender left
        assertEquals(11, lanes.count());
        lanes.rebuild(slots(12), 12, LATER + 5);
        assertEquals(1, lanes.hotCount(), "a sender that connected again is hot");
        assertEquals(11, lanes.slotAt(0));
    }

    private static int[] slots(final int n)
    {
        final int[] s = new int[n];
        for (int i = 0; i < n; i++)
        {
            s[i] = i;
        }
        return s;
    }
}
