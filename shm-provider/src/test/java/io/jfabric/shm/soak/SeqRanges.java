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

import java.util.ArrayList;
import java.util.List;

/**
 * A set of sequence numbers kept as sorted, disjoint, non-adjacent closed ranges, so the long runs a soak makes
 * (a run of sends failed to a peer that died, a gap) stay small. Printed and parsed as {@code 3-7,9-9}, or
 * {@code -} when empty: the form the soak's reports and journals use.
 * <p>
 * Not thread safe.
 */
final class SeqRanges
{
    private final List<long[]> ranges = new ArrayList<>();

    /**
     * Add one sequence number.
     *
     * @param seq the number.
     */
    void add(final long seq)
    {
        add(seq, seq);
    }

    /**
     * Add the closed range {@code [from, to]}.
     *
     * @param from first number.
     * @param to   last number, at least {@code from}.
     */
    void add(final long from, final long to)
    {
        if (to < from)
        {
            throw new IllegalArgumentException("range " + from + "-" + to);
        }
        long lo = from;
        long hi = to;
        int i = 0;
        while (i < ranges.size() && ranges.get(i)[1] < lo - 1)
        {
            i++;
        }
        while (i < ranges.size() && ranges.get(i)[0] <= hi + 1)
        {
            lo = Math.min(lo, ranges.get(i)[0]);
            hi = Math.max(hi, ranges.get(i)[1]);
            ranges.remove(i);
        }
        ranges.add(i, new long[] { lo, hi });
    }

    /** @param other numbers to add, all of them. */
    void addAll(final SeqRanges other)
    {
        for (final long[] r : other.ranges)
        {
            add(r[0], r[1]);
        }
    }

    /** @return how many numbers the set holds. */
    long count()
    {
        long n = 0;
        for (final long[] r : ranges)
        {
            n += r[1] - r[0] + 1;
        }
        return n;
    }

    /**
     * @param from first number.
     * @param to   last number; an empty range when below {@code from}.
     * @return how many numbers of {@code [from, to]} the set holds.
     */
    long countWithin(final long from, final long to)
    {
        long n = 0;
        for (final long[] r : ranges)
        {
            final long lo = Math.max(from, r[0]);
            final long hi = Math.min(to, r[1]);
            if (hi >= lo)
            {
                n += hi - lo + 1;
            }
        }
        return n;
    }

    /**
     * @param other another set.
     * @return how many numbers of this set {@code other} does not hold.
     */
    long countNotIn(final SeqRanges other)
    {
        long n = 0;
        for (final long[] r : ranges)
        {
            n += r[1] - r[0] + 1 - other.countWithin(r[0], r[1]);
        }
        return n;
    }

    /**
     * @param other another set.
     * @return how many numbers both sets hold.
     */
    long countShared(final SeqRanges other)
    {
        long n = 0;
        for (final long[] r : ranges)
        {
            n += other.countWithin(r[0], r[1]);
        }
        return n;
    }

    /**
     * @param limit the highest number to consider.
     * @return the highest number in {@code [1, limit]} this set does not hold, 0 when it holds all of them.
     */
    long highestAbsent(final long limit)
    {
        long candidate = limit;
        for (int i = ranges.size() - 1; i >= 0 && candidate > 0; i--)
        {
            final long[] r = ranges.get(i);
            if (r[0] <= candidate && candidate <= r[1])
            {
                candidate = r[0] - 1;
            }
        }
        return Math.max(0, candidate);
    }

    /** @return whether the set is empty. */
    boolean isEmpty()
    {
        return ranges.isEmpty();
    }

    /**
     * @param text as {@link #toString} prints it.
     * @return the set.
     */
    static SeqRanges parse(final String text)
    {
        final SeqRanges set = new SeqRanges();
        if (!"-".equals(text) && !text.isEmpty())
        {
            for (final String part : text.split(","))
            {
                final int dash = part.indexOf('-', 1);
                set.add(Long.parseLong(part.substring(0, dash)), Long.parseLong(part.substring(dash + 1)));
            }
        }
        return set;
    }

    @Override
    public String toString()
    {
        if (ranges.isEmpty())
        {
            return "-";
        }
        final StringBuilder b = new StringBuilder();
        for (final long[] r : ranges)
        {
            b.append(b.length() == 0 ? "" : ",").append(r[0]).append('-').append(r[1]);
        }
        return b.toString();
    }
}
