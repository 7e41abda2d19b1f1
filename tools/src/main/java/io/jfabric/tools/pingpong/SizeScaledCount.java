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
 * A count per message size, the rule behind {@code -W} and {@code -I}: when the option is given, every size gets that
 * many, as in fabtests; without it a size gets {@code most}, but no more than carry {@code bytes} and at least
 * {@code least}, so that small messages give a large sample and large ones do not run for minutes. Size 0 gets
 * {@code most}. Immutable; any thread.
 */
final class SizeScaledCount
{
    private final int most;
    private final long bytes;
    private final int least;
    private final boolean byDefault;

    private SizeScaledCount(final int most, final long bytes, final int least, final boolean byDefault)
    {
        this.most = most;
        this.bytes = bytes;
        this.least = least;
        this.byDefault = byDefault;
    }

    /**
     * @param most  the count of small sizes.
     * @param bytes the most bytes a size's count may carry, when that gives fewer than {@code most}.
     * @param least the fewest of any size.
     * @return the rule without the option.
     */
    static SizeScaledCount byDefault(final int most, final long bytes, final int least)
    {
        return new SizeScaledCount(most, bytes, least, true);
    }

    /**
     * @param count the option's value.
     * @return that many for every size.
     */
    static SizeScaledCount given(final int count)
    {
        return new SizeScaledCount(count, 0, count, false);
    }

    /**
     * @param size message bytes.
     * @return the count for that size.
     */
    int count(final int size)
    {
        if (!byDefault || size == 0)
        {
            return most;
        }
        return (int)Math.min(most, Math.max(least, bytes / size));
    }

    /** @return true when the option was not given. */
    boolean isDefault()
    {
        return byDefault;
    }

    /** @return the count of small sizes, or the option's value. */
    int most()
    {
        return most;
    }

    /** @return the most bytes a size's count carries by default. */
    long bytes()
    {
        return bytes;
    }

    /**
     * @param name the option's letter, as "W".
     * @return the rule as the client's hello carries it, to be compared with the server's: {@code "W=10"}, or with
     * the default {@code "W=200000/1073741824B"}.
     */
    String agreement(final String name)
    {
        return byDefault ? name + "=" + most + "/" + bytes + "B" : name + "=" + most;
    }

    /**
     * @param unit what is counted, as "round trips" or "transfers".
     * @param way  after "as many as carry 1g": " each way" for a pingpong, "" for a bw.
     * @return as {@code "the first 200000 round trips of each size, or as many as carry 1g each way if fewer"}.
     */
    String describe(final String unit, final String way)
    {
        return most + " " + unit + " of each size" +
            (byDefault ? ", or as many as carry " + PerfFormat.sizeStr(bytes) + way + " if fewer" : "");
    }
}
