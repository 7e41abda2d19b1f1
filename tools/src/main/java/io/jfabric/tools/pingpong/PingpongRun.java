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

import io.jfabric.Errno;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;

/**
 * One side of a pingpong from start to end: meet the peer ({@link PeerLink}), agree on the settings (the client's
 * hello carries {@link PingpongOptions#agreement()}, the server answers {@code ok} or why not: {@link ControlChannel}),
 * with {@code --endpoints} receive a message from each extra endpoint (the server opens them: {@link Crowd}), then
 * per size {@code W} unmeasured round trips ({@link Warmup}) and {@code I} measured ones in lockstep, timed as a
 * whole as fi_pingpong times them, then {@code I} more, each timed on its own, and a final {@code fin} from the
 * client. The client prints a line saying what the warm-up was, fi_pingpong's header and rows (from the first pass)
 * and, per size, the round-trip line from an HdrHistogram of the second pass's round trips; the server prints the
 * same lines but the round trips' for the passes it echoed (nothing when quiet). With {@code --hgrm} the client also
 * writes each size's histogram as a percentile distribution ({@link HgrmFiles}) after the size's timed pass, and says
 * where in a {@code #} line after the round-trip line.
 * <p>
 * The one-sided modes ({@code -o write|read|atomic}) first tell each other where their registered memory is, and
 * start each size with a {@code size N} / {@code ready} exchange (after which each side has cleared what the size's
 * first operation must find clear). A round trip is then: for write, the client's fi_write of the size into the
 * server's memory with a sequence number in its last word, which the server polls for and answers with its own write
 * into the client's memory (a write-write ping-pong, two transfers per round trip; with {@code -c} each side then
 * also waits for every byte of the write, which a copy may store after the number); for read, one fi_read to its
 * completion; for atomic, one fi_fetch_atomic FI_UINT64 FI_SUM of 1 on the server's first word to its completion,
 * at 8 bytes whatever {@code -S} says, the value fetched checked to count every add before it. For read and atomic
 * the server's CPU takes no part: it waits for the next control message, times nothing and prints no rows, and each
 * row counts one transfer per iteration (usec/xfer: the operation's whole latency).
 * <p>
 * The client's progress bar ({@link ProgressMeter}) is told how far the run is between batches only: between the
 * warm-up's calls, after the pass timed as a whole, and between batches of {@link #PROGRESS_BATCH} of the pass timed
 * round trip by round trip. Runs on the calling thread.
 */
final class PingpongRun extends PerfRun
{
    /** Round trips per call of a measured loop during the warm-up ({@link #warmUp}). */
    static final int WARMUP_CHUNK = 2;
    /**
     * Round trips per call of the loop that times each one (the second pass), between which the progress bar hears
     * how far the run is; the first pass, timed as a whole, is one call.
     */
    static final int PROGRESS_BATCH = 4096;
    /** Largest round trip the histogram tracks (longer ones count as this): 60 s. */
    static final long HISTOGRAM_MAX_NANOS = 60_000_000_000L;
    /** The sizes of {@code -o atomic}, whatever {@code -S} says: one FI_UINT64. */
    static final String ATOMIC_SIZE_SPEC = "8";
    /** The client's first word of a size, in the one-sided modes. */
    static final String SIZE_STEP = "size ";
    /** The server's answer to it. */
    static final String READY = "ready";

    private final Histogram rtt = new Histogram(1, HISTOGRAM_MAX_NANOS, 3);
    /** The write mode's sequence number, the same count on both sides: round trips so far. */
    private long sequence;
    /** The atomic mode's adds so far in this size: what the next fetch must find. */
    private long adds;
    /** With {@code --plot}, the client's timed round trips per size, copied after each size's timed pass. */
    private java.util.Map<Integer, Histogram> plotted;

    /**
     * @param setup what the run is made from.
     */
    PingpongRun(final Setup setup)
    {
        super(setup);
    }

    @Override
    boolean repostAfterHello()
    {
        return true;
    }

    /**
     * The extra endpoints' messages ({@link Crowd}), then the sizes and the fin.
     *
     * @throws PingpongException when a data-path call fails or the peer disagrees or does not answer.
     */
    @Override
    @SuppressWarnings("try") // the crowd stays open, unnamed, for the whole run
    void afterHello(final PeerLink link, final PingpongEndpoint endpoint, final int[] sizes)
    {
        try (Crowd crowd = Crowd.gather(link, control, options, provider.info(), role))
        {
            runSizes(link, endpoint, sizes);
        }
    }

    /** The run after the hello and the extra endpoints' messages, to the end of the fin. */
    private void runSizes(final PeerLink link, final PingpongEndpoint endpoint, final int[] sizes)
    {
        if (mode.oneSided())
        {
            control.exchangeRegions();
        }
        printHeader(sizes);
        try (ProgressMeter progressMeter = ProgressMeter.open(
            options, role, quiet, "round trips", roundTripsInAll(sizes), err))
        {
            meter = progressMeter;
            for (final int size : sizes)
            {
                if (mode != TransferMode.WRITE || size > 0)
                {
                    measure(endpoint, size);
                }
            }
        }
        if (plotted != null)
        {
            PercentilePlot.write(options.plot(), plotted);
            if (!quiet)
            {
                out.print("# percentile plot: " + options.plot() + "\n");
                out.flush();
            }
        }
        fin(link);
    }

    /** @return the round trips the client runs over all sizes, warm-up included. */
    private long roundTripsInAll(final int[] sizes)
    {
        long total = 0;
        for (final int size : sizes)
        {
            if (mode != TransferMode.WRITE || size > 0)
            {
                total += options.warmup().roundTrips(size) + 2L * options.iterations().count(size);
            }
        }
        return total;
    }

    /**
     * One size: first {@code W} unmeasured round trips ({@link #warmUp}), then {@code I} measured ones timed as
     * fi_pingpong times them (one clock read where the measured ones start and one at the end, so the columns carry no
     * clock cost of ours), then {@code I} more, which the client times one by one for the round-trip line. A clock
     * read costs 25-30 ns here (kvm-clock); two per round trip in the first pass made usec/xfer about 5% longer than
     * fi_pingpong's way of counting. The client sends and waits for the echo; the server echoes. Both print
     * fi_pingpong's row for the first {@code I} (-I >= 1), the client also the round-trip line. In the one-sided
     * modes the size starts with {@link #step}; for read and atomic the server does nothing else.
     */
    private void measure(final PingpongEndpoint endpoint, final int size)
    {
        final boolean client = role == Role.CLIENT;
        if (mode.oneSided())
        {
            step(endpoint, size);
            if (!client && mode != TransferMode.WRITE)
            {
                return;
            }
        }
        meter.stage("size " + PerfFormat.sizeStr(size));
        final int iterations = options.iterations().count(size);
        int next = warmUp(endpoint, size);
        final long start = System.nanoTime();
        next = client ? roundTrips(endpoint, size, next, iterations) : echoes(endpoint, size, next, iterations);
        final long end = System.nanoTime();
        progress += iterations;
        meter.reached(progress);
        if (client)
        {
            rtt.reset();
            int timed = 0;
            while (timed < iterations) // each round trip is timed on its own: batches cost the timing nothing
            {
                final int count = Math.min(PROGRESS_BATCH, iterations - timed);
                next = timedRoundTrips(endpoint, size, next, count);
                timed += count;
                meter.reached(progress + timed);
            }
        }
        else
        {
            echoes(endpoint, size, next, iterations);
        }
        progress += iterations;
        meter.reached(progress);
        if (!quiet)
        {
            meter.print(out, PerfFormat.row(size, iterations, iterations, end - start, xfersPerIteration()) +
                (client ? PerfFormat.rttLine(rtt) : ""));
            final String warning = client ? options.iterations().percentileWarning(size) : null;
            if (warning != null)
            {
                err.print(warning);
                err.flush();
            }
        }
        if (client && options.plot() != null)
        {
            if (plotted == null)
            {
                plotted = new java.util.LinkedHashMap<>();
            }
            plotted.put(size, rtt.copy());
        }
        if (client && options.hgrm() != null)
        {
            final Path written = HgrmFiles.write(options.hgrm(), size, rtt);
            if (!quiet)
            {
                meter.print(out, "# distribution (" + HgrmFiles.UNIT + "): " + written + "\n");
            }
        }
    }

    /**
     * The start of a size in the one-sided modes: for write, each side puts the pattern back over the sequence
     * numbers an earlier size left in its transmit buffer; the client clears where the server's first write of the
     * size will put its sequence number (write), says {@code size N} and waits for {@link #READY}; the server clears
     * its own (write) or its word (atomic), then answers. Neither side's first write of a size can then meet a number
     * an earlier size left, and every fetch of the size finds the adds of the size only.
     */
    private void step(final PingpongEndpoint endpoint, final int size)
    {
        final String step = SIZE_STEP + size;
        if (mode == TransferMode.WRITE)
        {
            endpoint.fillTransmit();
        }
        if (role == Role.CLIENT)
        {
            if (mode == TransferMode.WRITE)
            {
                endpoint.oneSided().clearSequence(size);
            }
            control.send(step, "starting size " + size);
            control.await(READY);
        }
        else
        {
            control.await(step);
            if (mode == TransferMode.WRITE)
            {
                endpoint.oneSided().clearSequence(size);
            }
            else if (mode == TransferMode.ATOMIC)
            {
                endpoint.oneSided().clearRma(0, Long.BYTES);
            }
            control.send(READY, "answering size " + size);
        }
        adds = 0;
    }

    /** @return the transfers a round trip counts in the row: 1 for an RMA read or a fetching atomic, else 2. */
    private int xfersPerIteration()
    {
        return mode == TransferMode.READ || mode == TransferMode.ATOMIC ? 1 : PerfFormat.XFERS_PER_ITERATION;
    }

    /**
     * The {@code W} warm-up round trips of a size, run through the same methods as the measured ones: the client's
     * {@link #roundTrips} and {@link #timedRoundTrips} by turns, the server's {@link #echoes}, each called for
     * {@link #WARMUP_CHUNK} round trips at a time. Called many times, each loop is compiled as a whole method with its
     * exit profiled; the measured pass then runs in that compiled code. (With one loop over warm-up and measured
     * round trips, the branch where the timing starts had never been taken when HotSpot compiled the loop: taking it
     * deoptimized the loop, and the measured pass began in the interpreter.)
     *
     * @return the index of the first measured round trip, {@code W}.
     */
    private int warmUp(final PingpongEndpoint endpoint, final int size)
    {
        final int warmup = options.warmup().roundTrips(size);
        int next = 0;
        boolean timed = false;
        while (next < warmup)
        {
            final int count = Math.min(WARMUP_CHUNK, warmup - next);
            if (role == Role.SERVER)
            {
                next = echoes(endpoint, size, next, count);
            }
            else
            {
                next = timed ? timedRoundTrips(endpoint, size, next, count) : roundTrips(endpoint, size, next, count);
                timed = !timed;
            }
            meter.reached(progress + next);
        }
        progress += warmup;
        return next;
    }

    /** @return the index after the last of the {@code count} round trips from {@code first}, untimed. */
    private int roundTrips(final PingpongEndpoint endpoint, final int size, final int first, final int count)
    {
        final int end = first + count;
        for (int i = first; i < end; i++)
        {
            ping(endpoint, size, i);
        }
        return end;
    }

    /** @return the index after the last of the {@code count} round trips from {@code first}, each one recorded. */
    private int timedRoundTrips(final PingpongEndpoint endpoint, final int size, final int first, final int count)
    {
        final int end = first + count;
        for (int i = first; i < end; i++)
        {
            final long t0 = System.nanoTime();
            ping(endpoint, size, i);
            rtt.recordValue(Math.min(System.nanoTime() - t0, HISTOGRAM_MAX_NANOS));
        }
        return end;
    }

    /**
     * The client's round trip {@code i} of the mode: send and await the echo; or write and await the write back; or
     * one read, or one fetching add, to its completion.
     */
    private void ping(final PingpongEndpoint endpoint, final int size, final int i)
    {
        switch (mode)
        {
            case WRITE:
                check(endpoint, endpoint.oneSided().writeSequence(size, ++sequence), size, i);
                check(endpoint, endpoint.oneSided().awaitSequence(size, sequence), size, i);
                if (options.verify())
                {
                    check(endpoint, endpoint.oneSided().awaitWritten(size), size, i);
                }
                break;
            case READ:
                check(endpoint, endpoint.oneSided().read(size), size, i);
                if (options.verify())
                {
                    check(endpoint, endpoint.oneSided().verifyRma(0, size, -1), size, i);
                }
                break;
            case ATOMIC:
                check(endpoint, endpoint.oneSided().fetchAdd(), size, i);
                if (endpoint.oneSided().fetched() != adds++)
                {
                    wrongFetch(endpoint, size, i);
                }
                break;
            default:
                check(endpoint, endpoint.send(size), size, i);
                check(endpoint, endpoint.awaitNextRx(), size, i);
                afterReply(endpoint, size, i);
        }
    }

    private void wrongFetch(final PingpongEndpoint endpoint, final int size, final int i)
    {
        check(endpoint, endpoint.fail(-Errno.FI_EIO, "fi_fetch_atomic fetched " + endpoint.oneSided().fetched() +
            ", expected " + (adds - 1) + " (the adds of this size before it)"), size, i);
    }

    /** @return the index after the last of the {@code count} messages (or writes) from {@code first} echoed. */
    private int echoes(final PingpongEndpoint endpoint, final int size, final int first, final int count)
    {
        final int end = first + count;
        for (int i = first; i < end; i++)
        {
            if (mode == TransferMode.WRITE)
            {
                check(endpoint, endpoint.oneSided().awaitSequence(size, ++sequence), size, i);
                if (options.verify())
                {
                    check(endpoint, endpoint.oneSided().awaitWritten(size), size, i);
                }
                check(endpoint, endpoint.oneSided().writeSequence(size, sequence), size, i);
            }
            else
            {
                check(endpoint, endpoint.awaitNextRx(), size, i);
                afterReply(endpoint, size, i);
                check(endpoint, endpoint.send(size), size, i);
            }
        }
        return end;
    }

    private void afterReply(final PingpongEndpoint endpoint, final int size, final int i)
    {
        if (options.verify())
        {
            check(endpoint, endpoint.verify(size), size, i);
        }
        endpoint.repostLater();
    }

    private void printHeader(final int[] sizes)
    {
        if (quiet)
        {
            return;
        }
        out.print(options.warmup().headerLine());
        out.print(options.iterations().headerLine("round trips", " each way"));
        final int extra = Crowd.extraEndpoints(options);
        if (extra > 0)
        {
            out.print("# endpoints: " + options.endpoints() + " attached to the domain: the 2 measured and " + extra +
                " idle ones the server opened, each of which sent to both measured endpoints first (--endpoints)\n");
        }
        switch (mode)
        {
            case WRITE:
                out.print("# write: the client fi_writes each size into the server's registered memory, the " +
                    "server sees the sequence number in its last word and fi_writes back: 2 writes per round trip\n");
                for (final int size : sizes)
                {
                    if (size == 0)
                    {
                        out.print("# write: size 0 skipped: a write ping-pong carries its sequence number in the " +
                            "message\n");
                        break;
                    }
                }
                break;
            case READ:
                out.print("# read: one fi_read of each size from the server's registered memory per iteration; " +
                    "usec/xfer and rtt_ns are the whole read's latency\n");
                break;
            case ATOMIC:
                out.print("# atomic: one fi_fetch_atomic FI_UINT64 FI_SUM on the server's registered word per " +
                    "iteration, 8 bytes whatever -S says; usec/xfer and rtt_ns are the whole operation's latency\n");
                break;
            default:
                break;
        }
        if (role == Role.SERVER && (mode == TransferMode.READ || mode == TransferMode.ATOMIC))
        {
            out.print("# the server takes no part in one-sided " + mode.cliName() + "s: the client times them\n");
        }
        out.print(PerfFormat.header());
        out.flush();
    }

    private void check(final PingpongEndpoint endpoint, final long rc, final int size, final int iteration)
    {
        if (rc < 0)
        {
            throw new PingpongException((int)-rc, "pingpong " + role.cliName() + ": " + endpoint.failure() +
                " (size " + size + ", round trip " + (iteration + 1) + " of " +
                (options.warmup().roundTrips(size) + 2L * options.iterations().count(size)) +
                ": warm-up, measured, then timed one by one)");
        }
    }
}
