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
package io.jfabric.tools.fipp;

import java.util.Locale;

/**
 * fi_pingpong's result line ({@code show_perf} in util/pingpong.c): the header once, then per size the size, the
 * count sent, the acknowledged count, the bytes moved, the time, MB/sec, usec/xfer and Mxfers/sec, in its formats.
 * Stateless.
 */
public final class FiPerfLine
{
    /** The header line. */
    public static final String HEADER = String.format(Locale.ROOT, "%-8s%-8s%-9s%-8s%8s %10s%13s%13s",
        "bytes", "#sent", "#ack", "total", "time", "MB/sec", "usec/xfer", "Mxfers/sec");

    private FiPerfLine()
    {
    }

    /**
     * @param size      message bytes.
     * @param sent      iterations.
     * @param acked     the peer's count.
     * @param elapsedUs microseconds.
     * @param xfersPerIter transfers per iteration (2 for a ping-pong).
     * @return the line.
     */
    public static String line(final int size, final long sent, final long acked, final long elapsedUs,
        final int xfersPerIter)
    {
        final long bytes = sent * size * xfersPerIter;
        final float usecPerXfer = (float)elapsedUs / sent / xfersPerIter;
        final String ack = sent == acked ? "=" + count(acked) : sent < acked ? "-" + count(acked - sent) :
            "+" + count(sent - acked);
        return String.format(Locale.ROOT, "%-8s%-8s%-9s%-8s%8.2fs%10.2f%11.2f%11.2f", size(size), count(sent), ack,
            size(bytes), elapsedUs / 1_000_000.0, bytes / (1.0 * elapsedUs), usecPerXfer, 1.0 / usecPerXfer);
    }

    /**
     * @param line a result line of fi_pingpong or of this class.
     * @return its usec/xfer column.
     */
    public static double usecPerXfer(final String line)
    {
        final String[] fields = line.trim().split("\\s+");
        return Double.parseDouble(fields[fields.length - 2]);
    }

    static String size(final long size)
    {
        final long base;
        final String mag;
        if (size >= 1L << 30)
        {
            base = 1L << 30;
            mag = "g";
        }
        else if (size >= 1 << 20)
        {
            base = 1 << 20;
            mag = "m";
        }
        else if (size >= 1 << 10)
        {
            base = 1 << 10;
            mag = "k";
        }
        else
        {
            base = 1;
            mag = "";
        }
        final long fraction = size / base < 10 ? (size % base) * 10 / base : 0;
        return fraction != 0 ? size / base + "." + fraction + mag : size / base + mag;
    }

    static String count(final long count)
    {
        if (count >= 1_000_000_000)
        {
            return count / 1_000_000_000 + "b";
        }
        if (count >= 1_000_000)
        {
            return count / 1_000_000 + "m";
        }
        if (count >= 1000)
        {
            return count / 1000 + "k";
        }
        return Long.toString(count);
    }
}
