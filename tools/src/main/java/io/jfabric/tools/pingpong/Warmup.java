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

/**
 * How many unmeasured round trips pingpong runs before the measured ones of each size ({@code -W}). When {@code -W}
 * is given, every size gets that many, as in fabtests. Without it, a size gets {@link #DEFAULT_ROUND_TRIPS}, which
 * keeps HotSpot's compilations out of the timed pass on a 2-core host where both JVMs busy-poll (measured: see the
 * README), but no more round trips than carry {@link #DEFAULT_BYTES} each way and at least {@link #LEAST_DEFAULT}:
 * a large message's round trip costs its copies, not the JIT, and sizes run in the order given, so the code the
 * large ones share with smaller ones is already compiled. (fabtests' default of 10 left the timed pass of a 64-byte
 * run at 15-26 usec/xfer where a warm one takes 0.2-0.3.) Immutable; any thread.
 */
public final class Warmup
{
    /** Warm-up round trips per size without {@code -W}. */
    public static final int DEFAULT_ROUND_TRIPS = 200_000;
    /** Without {@code -W}, the most message bytes a size's warm-up carries each way: 1 GiB. */
    public static final long DEFAULT_BYTES = 1L << 30;
    /** Without {@code -W}, the fewest warm-up round trips of a size: fabtests' default. */
    public static final int LEAST_DEFAULT = 10;

    private static final Warmup DEFAULT =
        new Warmup(SizeScaledCount.byDefault(DEFAULT_ROUND_TRIPS, DEFAULT_BYTES, LEAST_DEFAULT));

    private final SizeScaledCount rule;

    private Warmup(final SizeScaledCount rule)
    {
        this.rule = rule;
    }

    /** @return the warm-up without {@code -W}. */
    public static Warmup byDefault()
    {
        return DEFAULT;
    }

    /**
     * @param roundTrips the {@code -W} value.
     * @return that many warm-up round trips for every size.
     * @throws IllegalArgumentException when negative.
     */
    public static Warmup of(final int roundTrips)
    {
        if (roundTrips < 0)
        {
            throw new IllegalArgumentException("-W must not be negative, was " + roundTrips);
        }
        return new Warmup(SizeScaledCount.given(roundTrips));
    }

    /**
     * @param size message bytes.
     * @return warm-up round trips for that size.
     */
    public int roundTrips(final int size)
    {
        return rule.count(size);
    }

    /** @return the {@code -W} value that gives this warm-up, or null for the default. */
    public Integer option()
    {
        return rule.isDefault() ? null : rule.most();
    }

    /** @return the warm-up as the client's hello carries it, to be compared with the server's. */
    String agreement()
    {
        return rule.agreement("W");
    }

    /**
     * @return the line pingpong prints above fi_pingpong's header, newline included, such as {@code "# warm-up, not
     * counted: the first 200000 round trips of each size, or as many as carry 1g each way if fewer (-W)"}.
     */
    String headerLine()
    {
        return headerLine("round trips", " each way");
    }

    /**
     * @param unit what is counted, as "round trips" or "transfers".
     * @param way  after "as many as carry 1g": " each way" for a pingpong, "" for a bw.
     * @return the line above the header, newline included.
     */
    String headerLine(final String unit, final String way)
    {
        if (rule.most() == 0)
        {
            return "# no warm-up (-W 0): every " + (unit.endsWith("s") ? unit.substring(0, unit.length() - 1) : unit) +
                " is counted\n";
        }
        return "# warm-up, not counted: the first " + rule.describe(unit, way) + " (-W)\n";
    }

    @Override
    public String toString()
    {
        return agreement();
    }
}
