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

import org.agrona.SystemUtil;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * The message sizes a pingpong run tests, read from {@code -S} as fi_pingpong reads it, plus a comma list:
 * <ul>
 *   <li>absent: fi_pingpong's default sizes, {@value #DEFAULT_SIZES_TEXT};</li>
 *   <li>{@code all} (any case): fi_pingpong's {@code -S all} list, 0 and 1, then every power of two from 2 with
 *       its "half up" (2, 3, 4, 6, 8, 12, 16, 24, ...) up to {@link #ALL_LIMIT} (6 MiB, fi_pingpong's largest
 *       buffer);</li>
 *   <li>a size, or sizes separated by commas, in the order given: a number of bytes, or with a {@code k},
 *       {@code m} or {@code g} suffix (any case) for KiB, MiB or GiB, as Agrona's {@link SystemUtil#parseSize}
 *       reads it ({@code 4k} is 4096).</li>
 * </ul>
 * A size given above the provider's max_msg_size, or above {@link #MAX_BUFFER_SIZE}, is refused when the list is
 * read, before anything runs; the default and {@code all} lists drop theirs, as fi_pingpong drops the sizes above
 * max_msg_size ({@link #within}). Immutable; any thread.
 */
public final class SizeList
{
    /** fi_pingpong's default sizes, tested without {@code -S}. */
    static final int[] DEFAULT_SIZES = {64, 256, 1024, 4096, 65536, 1048576};

    /** The default sizes as the help text shows them. */
    static final String DEFAULT_SIZES_TEXT = "64,256,1024,4096,65536,1048576";

    /** bw's default sizes, tested without {@code -S}. */
    static final int[] BW_DEFAULT_SIZES = {64, 4096, 65536, 1048576};

    /** bw's default sizes as the help text shows them. */
    static final String BW_DEFAULT_SIZES_TEXT = "64,4k,64k,1m";

    /** fi_pingpong's largest message, (1 << 22) + (1 << 21): the end of the {@code all} list. */
    static final int ALL_LIMIT = (1 << 22) + (1 << 21);

    /** The largest message a Java buffer holds, and so the largest size pingpong tests, whatever max_msg_size is. */
    static final long MAX_BUFFER_SIZE = Integer.MAX_VALUE;

    private final int[] sizes;
    private final String spec;

    private SizeList(final int[] sizes, final String spec)
    {
        this.sizes = sizes;
        this.spec = spec;
    }

    /**
     * @param spec the {@code -S} value, or null when the option was not given.
     * @return the sizes, with no other limit than {@link #MAX_BUFFER_SIZE}.
     * @throws IllegalArgumentException naming the value that is not a size, or is above that.
     */
    public static SizeList parse(final String spec)
    {
        return parse(spec, MAX_BUFFER_SIZE);
    }

    /**
     * @param spec       the {@code -S} value, or null when the option was not given.
     * @param maxMsgSize the provider's max_msg_size: a size given above it is refused; the default and {@code all}
     *                   lists leave theirs out.
     * @return the sizes.
     * @throws IllegalArgumentException naming the value that is not a size, or the size that is above the limit and
     *                                  the limit.
     */
    public static SizeList parse(final String spec, final long maxMsgSize)
    {
        return parse(spec, maxMsgSize, DEFAULT_SIZES);
    }

    /**
     * @param spec       the {@code -S} value, or null when the option was not given.
     * @param maxMsgSize the provider's max_msg_size, as for {@link #parse(String, long)}.
     * @param defaults   the sizes without {@code -S} (a command's own default list, as bw's
     *                   {@link #BW_DEFAULT_SIZES}).
     * @return the sizes.
     * @throws IllegalArgumentException as {@link #parse(String, long)}.
     */
    public static SizeList parse(final String spec, final long maxMsgSize, final int[] defaults)
    {
        if (spec == null)
        {
            return new SizeList(Arrays.stream(defaults).filter(size -> size <= maxMsgSize).toArray(), null);
        }
        if ("all".equals(spec.toLowerCase(Locale.ROOT)))
        {
            return new SizeList(allSizes(Math.min(ALL_LIMIT, maxMsgSize)), spec);
        }
        final String[] parts = spec.split(",", -1);
        final int[] sizes = new int[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            sizes[i] = parseSize(parts[i], spec, maxMsgSize);
        }
        return new SizeList(sizes, spec);
    }

    /**
     * fi_pingpong's {@code -S all} list up to {@code limit}: 0, 1, then 2^i and 2^i + 2^(i-1) for i = 1, 2, ...
     * while they are at most {@code limit}.
     *
     * @param limit the largest size.
     * @return the sizes, ascending.
     */
    static int[] allSizes(final long limit)
    {
        final List<Integer> sizes = new ArrayList<>();
        sizes.add(0);
        if (limit >= 1)
        {
            sizes.add(1);
        }
        for (int shift = 1; shift < 31; shift++)
        {
            final long power = 1L << shift;
            if (power > limit)
            {
                break;
            }
            sizes.add((int)power);
            final long halfUp = power + (power >> 1);
            if (halfUp > limit)
            {
                break;
            }
            sizes.add((int)halfUp);
        }
        return sizes.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int parseSize(final String text, final String spec, final long maxMsgSize)
    {
        final String trimmed = text.trim();
        final long size;
        try
        {
            size = SystemUtil.parseSize("-S", trimmed);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("-S: '" + text + "' in '" + spec + "' is not a size (bytes, or " +
                "with k, m or g for KiB, MiB or GiB, such as 4k; a comma list; or all)");
        }
        final String given = trimmed.equals(Long.toString(size)) ? trimmed : trimmed + " (" + size + ")";
        if (size > MAX_BUFFER_SIZE && maxMsgSize >= MAX_BUFFER_SIZE)
        {
            throw new IllegalArgumentException("-S: size " + given + " is above " + MAX_BUFFER_SIZE +
                ", the largest message a Java buffer holds");
        }
        if (size > maxMsgSize)
        {
            throw new IllegalArgumentException("-S: size " + given + " is above the shm provider's max_msg_size, " +
                maxMsgSize + " (" + PerfFormat.sizeStr(maxMsgSize) + "; set by jfabric.shm.max.msg.size)");
        }
        return (int)size;
    }

    /**
     * @param maxMsgSize the endpoint's max_msg_size.
     * @return the sizes that are at most {@code maxMsgSize}, in order.
     */
    public SizeList within(final long maxMsgSize)
    {
        return new SizeList(Arrays.stream(sizes).filter(size -> size <= maxMsgSize).toArray(), spec);
    }

    /** @return the sizes, in test order (a copy). */
    public int[] sizes()
    {
        return sizes.clone();
    }

    /** @return the largest size, 0 when empty. */
    public int max()
    {
        return Arrays.stream(sizes).max().orElse(0);
    }

    /** @return how many sizes. */
    public int count()
    {
        return sizes.length;
    }

    /** @return the {@code -S} value that gives this list again (null for the default list). */
    public String spec()
    {
        return spec;
    }

    /**
     * @return a short text that differs between lists: the count, the first and last size and a CRC-32 of them all,
     * such as {@code "46 sizes 0..6291456 crc 1a2b3c4d"}.
     */
    public String digest()
    {
        final CRC32 crc = new CRC32();
        for (final int size : sizes)
        {
            crc.update(size >>> 24);
            crc.update(size >>> 16);
            crc.update(size >>> 8);
            crc.update(size);
        }
        return sizes.length == 0 ? "no sizes" : sizes.length + " sizes " + sizes[0] + ".." + sizes[sizes.length - 1] +
            " crc " + Long.toHexString(crc.getValue());
    }

    @Override
    public String toString()
    {
        return Arrays.toString(sizes);
    }
}
