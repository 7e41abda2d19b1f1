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

import java.util.Locale;

/**
 * What pingpong prints: fi_pingpong's header and per-size row (its columns, widths and unit suffixes, so the output
 * reads and parses like fi_pingpong's) and the round-trip percentile line of {@code tools/bench/reference/floor.sh}.
 * <p>
 * The row follows fi_pingpong's arithmetic: {@code total} = #sent x bytes x 2 (the ping and the pong),
 * {@code MB/sec} = total / elapsed microseconds, {@code usec/xfer} = elapsed microseconds / #sent / 2 (the mean of
 * half a round trip), {@code Mxfers/sec} = 1 / usec/xfer. A one-sided pingpong whose iteration is one operation
 * (an RMA read, a fetching atomic) counts one transfer per iteration instead ({@link #row(int, long, long, long,
 * int)}): usec/xfer is then the mean latency of the whole operation.
 * <p>
 * For bw, the header and row of fabtests' bandwidth tests (fi_msg_bw, fi_rma_bw: {@code show_perf} with one transfer
 * per iteration): {@code bytes iters total time MB/sec usec/xfer Mxfers/sec}, with the same arithmetic. Stateless;
 * any thread.
 */
public final class PerfFormat
{
    /** Transfers per iteration: the ping and the pong. */
    static final int XFERS_PER_ITERATION = 2;

    private PerfFormat()
    {
    }

    /**
     * @return fi_pingpong's column header line, newline included.
     */
    public static String header()
    {
        return String.format(Locale.ROOT, "%-8s%-8s%-9s%-8s%8s %10s%13s%13s%n",
            "bytes", "#sent", "#ack", "total", "time", "MB/sec", "usec/xfer", "Mxfers/sec");
    }

    /**
     * One size's row, as fi_pingpong prints it.
     *
     * @param size         message bytes.
     * @param sent         iterations run (messages sent by the client).
     * @param acked        replies received.
     * @param elapsedNanos time of the measured iterations.
     * @return the row, newline included.
     */
    public static String row(final int size, final long sent, final long acked, final long elapsedNanos)
    {
        return row(size, sent, acked, elapsedNanos, XFERS_PER_ITERATION);
    }

    /**
     * One size's row, as fi_pingpong prints it, for {@code xfersPerIteration} transfers per iteration.
     *
     * @param size              message bytes.
     * @param sent              iterations run (messages sent, or operations issued, by the client).
     * @param acked             replies received.
     * @param elapsedNanos      time of the measured iterations.
     * @param xfersPerIteration transfers per iteration: 2 for a ping-pong, 1 for an operation that is its own round
     *                          trip (an RMA read, a fetching atomic).
     * @return the row, newline included.
     */
    public static String row(
        final int size, final long sent, final long acked, final long elapsedNanos, final int xfersPerIteration)
    {
        final long bytes = sent * size * xfersPerIteration;
        final double elapsedMicros = elapsedNanos / 1000.0;
        final double usecPerXfer = elapsedMicros / sent / xfersPerIteration;
        final StringBuilder row = new StringBuilder(80);
        row.append(String.format(Locale.ROOT, "%-8s", sizeStr(size)));
        row.append(String.format(Locale.ROOT, "%-8s", cntStr(sent)));
        if (sent == acked)
        {
            row.append(String.format(Locale.ROOT, "=%-8s", cntStr(acked)));
        }
        else if (sent < acked)
        {
            row.append(String.format(Locale.ROOT, "-%-8s", cntStr(acked - sent)));
        }
        else
        {
            row.append(String.format(Locale.ROOT, "+%-8s", cntStr(sent - acked)));
        }
        row.append(String.format(Locale.ROOT, "%-8s", sizeStr(bytes)));
        row.append(String.format(Locale.ROOT, "%8.2fs%10.2f%11.2f%11.2f%n",
            elapsedMicros / 1_000_000.0, bytes / elapsedMicros, usecPerXfer, 1.0 / usecPerXfer));
        return row.toString();
    }

    /**
     * @return the column header line of fabtests' bandwidth tests, newline included.
     */
    public static String bwHeader()
    {
        return String.format(Locale.ROOT, "%-8s%-8s%-8s%8s %10s%13s%13s%n",
            "bytes", "iters", "total", "time", "MB/sec", "usec/xfer", "Mxfers/sec");
    }

    /**
     * One size's row, as fabtests' bandwidth tests print it (one transfer per iteration).
     *
     * @param size         bytes per transfer.
     * @param iterations   measured transfers.
     * @param elapsedNanos time of the measured transfers.
     * @return the row, newline included.
     */
    public static String bwRow(final int size, final long iterations, final long elapsedNanos)
    {
        final long bytes = iterations * size;
        final double elapsedMicros = elapsedNanos / 1000.0;
        final double usecPerXfer = elapsedMicros / iterations;
        return String.format(Locale.ROOT, "%-8s%-8s%-8s%8.2fs%10.2f%11.2f%11.2f%n",
            sizeStr(size), cntStr(iterations), sizeStr(bytes), elapsedMicros / 1_000_000.0, bytes / elapsedMicros,
            usecPerXfer, 1.0 / usecPerXfer);
    }

    /**
     * A byte count as fi_pingpong shows it: in g, m or k (powers of 1024) with one decimal below 10 units when
     * it is not 0, else plain bytes.
     *
     * @param size bytes.
     * @return such as {@code "64"}, {@code "4k"}, {@code "1.5m"}.
     */
    static String sizeStr(final long size)
    {
        final long base;
        final String mag;
        if (size >= 1L << 30)
        {
            base = 1L << 30;
            mag = "g";
        }
        else if (size >= 1L << 20)
        {
            base = 1L << 20;
            mag = "m";
        }
        else if (size >= 1L << 10)
        {
            base = 1L << 10;
            mag = "k";
        }
        else
        {
            base = 1;
            mag = "";
        }
        final long fraction = size / base < 10 ? (size % base) * 10 / base : 0;
        return fraction != 0 ? (size / base) + "." + fraction + mag : (size / base) + mag;
    }

    /**
     * A count as fi_pingpong shows it: in b, m or k (powers of 1000, truncated), else plain.
     *
     * @param count the count.
     * @return such as {@code "10"}, {@code "100k"}, {@code "1m"}.
     */
    static String cntStr(final long count)
    {
        if (count >= 1_000_000_000L)
        {
            return (count / 1_000_000_000L) + "b";
        }
        if (count >= 1_000_000L)
        {
            return (count / 1_000_000L) + "m";
        }
        if (count >= 1_000L)
        {
            return (count / 1_000L) + "k";
        }
        return Long.toString(count);
    }

    /**
     * The round-trip line, in the form {@code floor.sh} prints (without its "floor " prefix).
     *
     * @param rtt round trips in nanoseconds.
     * @return {@code "rtt_ns p50=... p90=... p99=... p99.9=... max=... rounds=N"}, newline included.
     */
    public static String rttLine(final Histogram rtt)
    {
        return String.format(Locale.ROOT, "rtt_ns p50=%d p90=%d p99=%d p99.9=%d max=%d rounds=%d%n",
            rtt.getValueAtPercentile(50), rtt.getValueAtPercentile(90), rtt.getValueAtPercentile(99),
            rtt.getValueAtPercentile(99.9), rtt.getMaxValue(), rtt.getTotalCount());
    }
}
