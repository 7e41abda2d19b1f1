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
package io.jfabric.tools.inspect;

import io.jfabric.shm.stat.DomainStat;
import io.jfabric.shm.stat.RingStat;
import io.jfabric.shm.stat.SlotStat;

import java.util.HashMap;
import java.util.Map;

/**
 * The most bytes each ring of a domain held in any sample so far ({@code jfabric stat --watch}): the region keeps
 * no such mark (its layout has no field for one), so it is what sampling saw, and a burst between two samples is
 * missed. Keyed by slot and ring, whoever holds the slot. The watching thread only.
 */
final class HighWaterMarks
{
    private final Map<String, Long> marks = new HashMap<>();

    /**
     * @param stat a new sample.
     */
    void update(final DomainStat stat)
    {
        for (final SlotStat slot : stat.slots())
        {
            for (final RingStat lane : slot.lanes())
            {
                update(slot, lane);
            }
            update(slot, slot.transmitRing());
            update(slot, slot.completionRing());
        }
    }

    /**
     * @param slot a slot of a sample passed to {@link #update(DomainStat)}.
     * @param ring one of its rings.
     * @return the most bytes that ring held in any sample.
     */
    long high(final SlotStat slot, final RingStat ring)
    {
        return marks.getOrDefault(key(slot, ring), ring.occupancy());
    }

    private void update(final SlotStat slot, final RingStat ring)
    {
        marks.merge(key(slot, ring), ring.occupancy(), Math::max);
    }

    private static String key(final SlotStat slot, final RingStat ring)
    {
        return slot.slot() + " " + ring.key();
    }
}
