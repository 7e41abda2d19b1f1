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
package io.jfabric.tools.pingpong;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code -W}: given, that many warm-up round trips for every size; by default enough for HotSpot, bounded per size.
 */
class WarmupTest
{
    @Test
    void shouldWarmUpEverySizeByTheGivenRoundTrips()
    {
        final Warmup warmup = Warmup.of(500);
        assertEquals(500, warmup.roundTrips(0));
        assertEquals(500, warmup.roundTrips(64));
        assertEquals(500, warmup.roundTrips(6 << 20), "-W given is -W for every size, as in fabtests");
        assertEquals(500, warmup.option());
        assertEquals(0, Warmup.of(0).roundTrips(64));
    }

    @Test
    void shouldWarmUpSmallSizesByTheDefaultAndLargeOnesByAtMostOneGibibyteEachWay()
    {
        final Warmup warmup = Warmup.byDefault();
        assertEquals(Warmup.DEFAULT_ROUND_TRIPS, warmup.roundTrips(0));
        assertEquals(Warmup.DEFAULT_ROUND_TRIPS, warmup.roundTrips(64));
        assertEquals(Warmup.DEFAULT_ROUND_TRIPS, warmup.roundTrips(4096));
        assertEquals(16384, warmup.roundTrips(65536));
        assertEquals(1024, warmup.roundTrips(1 << 20));
        assertEquals(170, warmup.roundTrips(6 << 20));
        assertEquals(Warmup.LEAST_DEFAULT, warmup.roundTrips(Integer.MAX_VALUE));
        assertNull(warmup.option(), "the server --self starts gets no -W either");
    }

    @Test
    void shouldAgreeOnlyWithTheSameRule()
    {
        assertEquals("W=10", Warmup.of(10).agreement());
        assertEquals("W=" + Warmup.DEFAULT_ROUND_TRIPS + "/1073741824B", Warmup.byDefault().agreement());
    }

    @Test
    void shouldSayInBwsHeaderThatItCountsTransfers()
    {
        assertEquals("# warm-up, not counted: the first 20 transfers of each size (-W)\n",
            Warmup.of(20).headerLine("transfers", ""));
        assertEquals("# no warm-up (-W 0): every transfer is counted\n", Warmup.of(0).headerLine("transfers", ""));
        assertEquals("# warm-up, not counted: the first " + Warmup.DEFAULT_ROUND_TRIPS + " transfers of each size, " +
            "or as many as carry 1g if fewer (-W)\n", Warmup.byDefault().headerLine("transfers", ""));
    }

    @Test
    void shouldSayInTheHeaderWhatTheWarmUpIs()
    {
        assertEquals("# warm-up, not counted: the first 20 round trips of each size (-W)\n",
            Warmup.of(20).headerLine());
        assertEquals("# warm-up, not counted: the first " + Warmup.DEFAULT_ROUND_TRIPS + " round trips of each size, " +
            "or as many as carry 1g each way if fewer (-W)\n", Warmup.byDefault().headerLine());
        assertEquals("# no warm-up (-W 0): every round trip is counted\n", Warmup.of(0).headerLine());
    }

    @Test
    void shouldRefuseANegativeWarmUp()
    {
        assertThrows(IllegalArgumentException.class, () -> Warmup.of(-1));
    }
}
