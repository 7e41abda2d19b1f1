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
package io.jfabric.shm.soak;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The soak's sets of sequence numbers: merging, counting against another set, the highest number not held, and the
 * printed form the journals and reports carry.
 */
class SeqRangesTest
{
    @Test
    void shouldMergeAdjacentAndOverlappingRanges()
    {
        final SeqRanges set = new SeqRanges();
        set.add(5);
        set.add(7);
        set.add(6);
        set.add(10, 12);
        set.add(1, 2);
        set.add(11, 20);
        assertEquals("1-2,5-7,10-20", set.toString());
        assertEquals(16, set.count());
        assertEquals(set.toString(), SeqRanges.parse(set.toString()).toString());
        assertEquals("-", new SeqRanges().toString());
        assertEquals(0, SeqRanges.parse("-").count());
    }

    @Test
    void shouldCountAgainstAnotherSet()
    {
        final SeqRanges gaps = SeqRanges.parse("3-5,9-9");
        final SeqRanges failed = SeqRanges.parse("4-9");
        assertEquals(1, gaps.countNotIn(failed), "3 did not fail");
        assertEquals(3, gaps.countShared(failed));
        assertEquals(2, failed.countWithin(8, 100));
    }

    @Test
    void shouldFindTheHighestNumberNotHeld()
    {
        assertEquals(10, SeqRanges.parse("-").highestAbsent(10));
        assertEquals(6, SeqRanges.parse("7-10").highestAbsent(10));
        assertEquals(6, SeqRanges.parse("4-5,7-10").highestAbsent(10));
        assertEquals(3, SeqRanges.parse("4-6,7-10").highestAbsent(10));
        assertEquals(12, SeqRanges.parse("4-6,9-10").highestAbsent(12));
        assertEquals(0, SeqRanges.parse("1-10").highestAbsent(10));
        assertEquals(0, SeqRanges.parse("-").highestAbsent(0));
    }
}
