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

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code --hgrm FILE}: the client keeps each size's timed round trips as HdrHistogram's percentile distribution
 * ({@link Histogram#outputPercentileDistribution}, the {@code .hgrm} text its plotters and {@code HistogramLogProcessor}
 * read), one file per size: {@code FILE} with {@code -<size in bytes>} inserted before its extension, so
 * {@code rtt.hgrm} becomes {@code rtt-64.hgrm}, {@code rtt-4096.hgrm}, ... (after the whole name when it has no
 * extension: {@code rtt} gives {@code rtt-64}). One distribution per file, as the plotters expect, and a name that
 * scripts can build from the size.
 * <p>
 * Values are the round trips in nanoseconds, unscaled, as the {@code rtt_ns} line prints them (scaling ratio 1); the
 * first line, a {@code #} comment as the format's footer lines are, says so, the size, and how many round trips:
 * <pre>
 * # jfabric pingpong: round trips of 64-byte messages, Value in ns, 100000 round trips
 *        Value     Percentile TotalCount 1/(1-Percentile)
 *
 *      241.000 0.000000000000          1           1.00
 * ...
 * #[Mean    =      263.581, StdDeviation   =       98.342]
 * #[Max     =    41215.000, Total count    =       100000]
 * #[Buckets =           26, SubBuckets     =         2048]
 * </pre>
 * Written after the size's timed pass, never inside it. Stateless; the client's thread.
 */
final class HgrmFiles
{
    /** The unit of every value written. */
    static final String UNIT = "ns";
    /** {@link Histogram#outputPercentileDistribution}'s scaling: values stay in ns, as the rtt_ns line. */
    static final double VALUE_SCALING = 1.0;
    /** {@link Histogram#outputPercentileDistribution}'s percentile ticks per half distance, its default. */
    static final int TICKS_PER_HALF_DISTANCE = 5;

    private HgrmFiles()
    {
    }

    /**
     * @param file the {@code --hgrm} file.
     * @param size the message size in bytes.
     * @return the file of that size's distribution: the size inserted before the extension.
     */
    static Path forSize(final Path file, final int size)
    {
        final String name = file.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        final String sized = dot > 0 ?
            name.substring(0, dot) + "-" + size + name.substring(dot) : name + "-" + size;
        return file.resolveSibling(sized);
    }

    /**
     * Write one size's distribution, replacing the file if it exists.
     *
     * @param file the {@code --hgrm} file.
     * @param size the message size in bytes.
     * @param rtt  the size's timed round trips, in ns.
     * @return the file written.
     * @throws UncheckedIOException when it cannot be written.
     */
    static Path write(final Path file, final int size, final Histogram rtt)
    {
        final Path sized = forSize(file, size);
        try (PrintStream out = new PrintStream(Files.newOutputStream(sized), false, StandardCharsets.US_ASCII))
        {
            out.print(header(size, rtt.getTotalCount()));
            rtt.outputPercentileDistribution(out, TICKS_PER_HALF_DISTANCE, VALUE_SCALING);
            if (out.checkError())
            {
                throw new IOException("write failed");
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("pingpong: --hgrm: cannot write " + sized, ex);
        }
        return sized;
    }

    /**
     * @param size  the message size in bytes.
     * @param count round trips recorded.
     * @return the comment line heading a file, newline included.
     */
    static String header(final int size, final long count)
    {
        return "# jfabric pingpong: round trips of " + size + "-byte messages, Value in " + UNIT + ", " + count +
            " round trips\n";
    }
}
