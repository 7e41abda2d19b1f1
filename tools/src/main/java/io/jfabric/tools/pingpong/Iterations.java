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

import java.util.Locale;

/**
 * How many measured iterations each size gets ({@code -I}): a round trip of pingpong or a transfer of bw. When
 * {@code -I} is given, every size gets that many, as in fabtests (whose default of 10 gives percentiles of 10 samples).
 * Without it a size gets enough for the figures printed to mean something: pingpong {@link #PINGPONG_MOST} round
 * trips (p99.9 from 100 samples above it), bw {@link #BW_MOST} transfers (a timed pass of a few hundred ms at 64 B),
 * each no more than carry {@link #DEFAULT_BYTES} and at least {@link #FEWEST_FOR_P999}. Immutable; any thread.
 */
public final class Iterations
{
    /** pingpong's measured round trips per small size without {@code -I}. */
    public static final int PINGPONG_MOST = 100_000;
    /** bw's measured transfers per small size without {@code -I}. */
    public static final int BW_MOST = 1_000_000;
    /** Without {@code -I}, the most message bytes a size's measured pass carries (each way, for pingpong). */
    public static final long DEFAULT_BYTES = 1L << 30;
    /** The fewest samples for which a p99.9 is not simply the slowest one: also the least default. */
    public static final int FEWEST_FOR_P999 = 1_000;
    /** A bw timed pass shorter than this is dominated by its start and end: bw warns below it. */
    public static final long SHORTEST_BW_PASS_NANOS = 10_000_000L;

    private static final Iterations PINGPONG =
        new Iterations(SizeScaledCount.byDefault(PINGPONG_MOST, DEFAULT_BYTES, FEWEST_FOR_P999));
    private static final Iterations BW =
        new Iterations(SizeScaledCount.byDefault(BW_MOST, DEFAULT_BYTES, FEWEST_FOR_P999));

    private final SizeScaledCount rule;

    private Iterations(final SizeScaledCount rule)
    {
        this.rule = rule;
    }

    /**
     * @param tool pingpong or bw.
     * @return the measured iterations without {@code -I}.
     */
    public static Iterations byDefault(final PerfTool tool)
    {
        return tool == PerfTool.BW ? BW : PINGPONG;
    }

    /**
     * @param iterations the {@code -I} value.
     * @return that many for every size.
     * @throws IllegalArgumentException when below 1.
     */
    public static Iterations of(final int iterations)
    {
        if (iterations < 1)
        {
            throw new IllegalArgumentException("-I must be at least 1, was " + iterations);
        }
        return new Iterations(SizeScaledCount.given(iterations));
    }

    /**
     * @param size message bytes.
     * @return measured iterations for that size.
     */
    public int count(final int size)
    {
        return rule.count(size);
    }

    /** @return the {@code -I} value that gives these iterations, or null for the default. */
    public Integer option()
    {
        return rule.isDefault() ? null : rule.most();
    }

    /** @return the rule as the client's hello carries it, to be compared with the server's. */
    String agreement()
    {
        return rule.agreement("I");
    }

    /**
     * @param unit what is counted, as "round trips" or "transfers".
     * @param way  after "as many as carry 1g": " each way" for a pingpong, "" for a bw.
     * @return the line above the header, newline included, as {@code "# measured: 100000 round trips of each size, or
     * as many as carry 1g each way if fewer, at least 1000 (-I)"}.
     */
    String headerLine(final String unit, final String way)
    {
        return "# measured: " + rule.describe(unit, way) +
            (rule.isDefault() ? ", at least " + FEWEST_FOR_P999 : "") + " (-I)\n";
    }

    /**
     * @param size the size whose round trips were timed.
     * @return a warning line when that size's sample is too small for the p99.9 pingpong prints, else null.
     */
    String percentileWarning(final int size)
    {
        final int samples = count(size);
        if (samples >= FEWEST_FOR_P999)
        {
            return null;
        }
        return "# warning: size " + size + ": " + samples + " timed round trips are too few for the percentiles " +
            "printed (p99 needs 100, p99.9 " + FEWEST_FOR_P999 + "): their tail is the slowest few; raise -I\n";
    }

    /**
     * @param size  the size bw timed.
     * @param nanos how long its timed pass took.
     * @return a warning line when the pass was too short to time reliably, else null.
     */
    static String shortPassWarning(final int size, final long nanos)
    {
        if (nanos >= SHORTEST_BW_PASS_NANOS)
        {
            return null;
        }
        return String.format(Locale.ROOT, "# warning: size %d: the timed pass took %.2f ms, too short to time " +
            "reliably (%d ms at least): raise -I%n", size, nanos / 1e6, SHORTEST_BW_PASS_NANOS / 1_000_000);
    }

    @Override
    public String toString()
    {
        return agreement();
    }
}
