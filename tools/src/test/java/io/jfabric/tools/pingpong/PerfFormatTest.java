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

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The output matches fi_pingpong's byte for byte: the expected rows were printed by fi_pingpong's own format
 * strings and arithmetic (C printf) for the same inputs; the header is the one libfabric 1.17's fi_pingpong prints.
 */
class PerfFormatTest
{
    @Test
    void shouldPrintFiPingpongsHeader()
    {
        assertEquals(
            "bytes   #sent   #ack     total       time     MB/sec    usec/xfer   Mxfers/sec" + System.lineSeparator(),
            PerfFormat.header());
    }

    @Test
    void shouldPrintARowAsFiPingpongDoes()
    {
        assertEquals("64      1m      =1m      122m        1.23s    103.68       0.62       1.62",
            row(64, 1_000_000, 1_000_000, 1_234_567_000L));
        assertEquals("4k      100k    =100k    781m        0.27s   2995.73       1.37       0.73",
            row(4096, 100_000, 100_000, 273_456_000L));
        assertEquals("0       10      =10      0           0.00s      0.00       1.85       0.54",
            row(0, 10, 10, 37_000L));
    }

    @Test
    void shouldShowMissingRepliesAsPlusTheirCount()
    {
        assertEquals("1m      1k      +1       1.9g        2.35s    894.05    1172.84       0.00",
            row(1048576, 1000, 999, 2_345_678_000L));
    }

    @Test
    void shouldTakeUsecPerXferAsTheMeanOfHalfARoundTrip()
    {
        // 1000 round trips in 2 ms: 2 us each, so 1 us per transfer and 1 million transfers per second.
        final String[] columns = row(64, 1000, 1000, 2_000_000L).trim().split(" +");
        assertEquals("1.00", columns[6]);
        assertEquals("1.00", columns[7]);
    }

    @Test
    void shouldCountOneTransferPerIterationForAnOperationThatIsItsOwnRoundTrip()
    {
        // 1000 reads in 2 ms: 2 us each; total counts each read once.
        final String row = PerfFormat.row(4096, 1000, 1000, 2_000_000L, 1);
        assertEquals("4k      1k      =1k      3.9m        0.00s   2048.00       2.00       0.50" +
            System.lineSeparator(), row);
    }

    @Test
    void shouldPrintFabtestsBandwidthHeaderAndRows()
    {
        assertEquals("bytes   iters   total       time     MB/sec    usec/xfer   Mxfers/sec" + System.lineSeparator(),
            PerfFormat.bwHeader());
        // fabtests' show_perf for 1000 transfers of 64 KiB in 12.5 ms, one transfer per iteration.
        assertEquals("64k     1k      62m         0.01s   5242.88      12.50       0.08" + System.lineSeparator(),
            PerfFormat.bwRow(65536, 1000, 12_500_000L));
        assertEquals("0       100k    0           0.05s      0.00       0.50       2.00" + System.lineSeparator(),
            PerfFormat.bwRow(0, 100_000, 50_000_000L));
    }

    @Test
    void shouldScaleSizesByPowersOf1024WithOneDecimalBelowTen()
    {
        assertEquals("0", PerfFormat.sizeStr(0));
        assertEquals("1023", PerfFormat.sizeStr(1023));
        assertEquals("1k", PerfFormat.sizeStr(1024));
        assertEquals("1.5k", PerfFormat.sizeStr(1536));
        assertEquals("10k", PerfFormat.sizeStr(10240));
        assertEquals("1.5m", PerfFormat.sizeStr(1572864));
        assertEquals("6m", PerfFormat.sizeStr(6291456));
        assertEquals("1.5g", PerfFormat.sizeStr(1610612736L));
    }

    @Test
    void shouldTruncateCountsToThousandsMillionsAndBillions()
    {
        assertEquals("999", PerfFormat.cntStr(999));
        assertEquals("1k", PerfFormat.cntStr(1999));
        assertEquals("2m", PerfFormat.cntStr(2_500_000));
        assertEquals("1b", PerfFormat.cntStr(1_000_000_000L));
    }

    @Test
    void shouldPrintRoundTripPercentilesInFloorShsForm()
    {
        final Histogram rtt = new Histogram(1, PingpongRun.HISTOGRAM_MAX_NANOS, 3);
        for (int ns = 1; ns <= 1000; ns++)
        {
            rtt.recordValue(ns);
        }
        assertEquals("rtt_ns p50=500 p90=900 p99=990 p99.9=999 max=1000 rounds=1000" + System.lineSeparator(),
            PerfFormat.rttLine(rtt));
    }

    private static String row(final int size, final long sent, final long acked, final long nanos)
    {
        final String row = PerfFormat.row(size, sent, acked, nanos);
        assertEquals(System.lineSeparator(), row.substring(row.length() - System.lineSeparator().length()));
        return row.substring(0, row.length() - System.lineSeparator().length());
    }
}
