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
 * {@code -I}: given, that many measured iterations for every size, as in fabtests; by default a sample large enough
 * for the p99.9 pingpong prints and a bw pass long enough to time, bounded per size; warnings where it is not.
 */
class IterationsTest
{
    @Test
    void shouldMeasureEverySizeByTheGivenIterations()
    {
        final Iterations iterations = Iterations.of(10);
        assertEquals(10, iterations.count(0));
        assertEquals(10, iterations.count(64));
        assertEquals(10, iterations.count(6 << 20));
        assertEquals(10, iterations.option());
        assertEquals("I=10", iterations.agreement());
        assertThrows(IllegalArgumentException.class, () -> Iterations.of(0));
    }

    @Test
    void shouldGivePingpongEnoughRoundTripsForItsP999ByDefault()
    {
        final Iterations iterations = Iterations.byDefault(PerfTool.PINGPONG);
        assertEquals(Iterations.PINGPONG_MOST, iterations.count(0));
        assertEquals(Iterations.PINGPONG_MOST, iterations.count(64));
        assertEquals(Iterations.PINGPONG_MOST, iterations.count(4096));
        assertEquals(16384, iterations.count(65536));
        assertEquals(1024, iterations.count(1 << 20));
        assertEquals(Iterations.FEWEST_FOR_P999, iterations.count(6 << 20), "never fewer than a p99.9 needs");
        assertNull(iterations.option(), "the server --self starts gets no -I either");
        assertEquals("I=" + Iterations.PINGPONG_MOST + "/1073741824B", iterations.agreement());
    }

    @Test
    void shouldGiveBwAMillionSmallTransfersByDefault()
    {
        final Iterations iterations = Iterations.byDefault(PerfTool.BW);
        assertEquals(Iterations.BW_MOST, iterations.count(64));
        assertEquals(262144, iterations.count(4096));
        assertEquals(1024, iterations.count(1 << 20));
        assertEquals("# measured: 1000000 transfers of each size, or as many as carry 1g if fewer, at least 1000 (-I)\n",
            iterations.headerLine("transfers", ""));
    }

    @Test
    void shouldWarnWhenTooFewRoundTripsForThePercentilesPrinted()
    {
        final String warning = Iterations.of(10).percentileWarning(64);
        assertEquals("# warning: size 64: 10 timed round trips are too few for the percentiles printed (p99 needs " +
            "100, p99.9 1000): their tail is the slowest few; raise -I\n", warning);
        assertNull(Iterations.of(1000).percentileWarning(64));
        assertNull(Iterations.byDefault(PerfTool.PINGPONG).percentileWarning(6 << 20));
    }

    @Test
    void shouldWarnWhenABwPassIsTooShortToTime()
    {
        assertEquals("# warning: size 64: the timed pass took 0.30 ms, too short to time reliably (10 ms at least): " +
            "raise -I" + System.lineSeparator(), Iterations.shortPassWarning(64, 300_000));
        assertNull(Iterations.shortPassWarning(64, Iterations.SHORTEST_BW_PASS_NANOS));
    }
}
