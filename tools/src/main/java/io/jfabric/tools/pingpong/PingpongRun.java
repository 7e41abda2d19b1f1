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
import io.jfabric.shm.region.RegionFile;
import org.HdrHistogram.Histogram;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * One side of a pingpong from start to end: open the endpoint, exchange addresses through the {@link Rendezvous},
 * agree on the settings (the client's hello carries {@link PingpongOptions#agreement()}, the server answers
 * {@code ok} or why not), then per size {@code W} unmeasured round trips ({@link Warmup}) and {@code I} measured
 * ones in lockstep, timed as a whole as fi_pingpong times them, then {@code I} more, each timed on its own, and a
 * final {@code fin} from the client. The client prints a line saying what the warm-up was, fi_pingpong's header and
 * rows (from the first pass) and, per size, the round-trip line from an HdrHistogram of the second pass's round
 * trips; the server prints the same lines but the round trips' for the passes it echoed (nothing when quiet). With
 * {@code --hgrm} the client also writes each size's histogram as a percentile distribution ({@link HgrmFiles}) after
 * the size's timed pass, and says where in a {@code #} line after the round-trip line.
 * <p>
 * Every file this side creates is handed to the {@link ExitCleanup} as soon as it exists, so it goes however the
 * run ends: the rendezvous file, the shareable-memory segments, and the domain's region file when this side created
 * it. The client, which finishes last (it waits for the server to exit after its fin), also hands over the region
 * whoever created it. With {@link PingpongOptions#keep()} the region stays. Runs on the calling thread.
 */
final class PingpongRun
{
    /** The server's answer to a hello with the same settings. */
    static final String OK = "ok";
    /** The client's last message. */
    static final String FIN = "fin";
    /** Round trips per call of a measured loop during the warm-up ({@link #warmUp}). */
    static final int WARMUP_CHUNK = 2;
    /** Largest round trip the histogram tracks (longer ones count as this): 60 s. */
    static final long HISTOGRAM_MAX_NANOS = 60_000_000_000L;

    private final PingpongProvider provider;
    private final PingpongOptions options;
    private final Role role;
    private final boolean quiet;
    private final ExitCleanup cleanup;
    private final Path regionFile;
    private final PrintWriter out;
    private final Histogram rtt = new Histogram(1, HISTOGRAM_MAX_NANOS, 3);
    /**
     * Messages this side has received so far, counted by the protocol rather than read back from the endpoint: a
     * wait for a send completion may already have taken the next message's receive completion from the shared CQ.
     */
    private long expectedRx;
    /** With {@code --plot}, the client's timed round trips per size, copied after each size's timed pass. */
    private java.util.Map<Integer, Histogram> plotted;

    /**
     * @param provider what fi_getinfo found, and its root directory.
     * @param options  the run's settings.
     * @param role     this side.
     * @param quiet    print nothing but errors (the peer --self starts).
     * @param cleanup  what removes this side's files at the end.
     * @param out      where results go.
     */
    PingpongRun(
        final PingpongProvider provider,
        final PingpongOptions options,
        final Role role,
        final boolean quiet,
        final ExitCleanup cleanup,
        final PrintWriter out)
    {
        this.provider = provider;
        this.options = options;
        this.role = role;
        this.quiet = quiet;
        this.cleanup = cleanup;
        this.regionFile = RegionFile.regionPath(provider.rootDir(), options.domain());
        this.out = out;
    }

    /**
     * Run this side.
     *
     * @throws PingpongException when a data-path call fails or the peer disagrees or does not answer.
     */
    void run()
    {
        final Rendezvous rendezvous = new Rendezvous(provider.rootDir(), options.domain());
        try (PingpongEndpoint endpoint = PingpongEndpoint.open(provider.info(), options, this::created))
        {
            if (role == Role.CLIENT && !options.keep())
            {
                cleanup.delete(regionFile);
            }
            check(endpoint, endpoint.postRecv(), "posting the first receive");
            rendezvous.publish(role, endpoint.address());
            cleanup.delete(rendezvous.file(role));
            endpoint.insertPeer(rendezvous.await(role.peer(), options.timeoutSeconds()));
            final int[] sizes = options.sizes().within(endpoint.maxMsgSize()).sizes();
            if (role == Role.CLIENT)
            {
                hello(endpoint);
            }
            else
            {
                answerHello(endpoint);
            }
            printHeader();
            for (final int size : sizes)
            {
                measure(endpoint, size);
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
            if (role == Role.CLIENT)
            {
                check(endpoint, endpoint.sendText(FIN), "sending fin");
                awaitServerExit(endpoint, rendezvous);
            }
            else
            {
                awaitText(endpoint, FIN);
            }
        }
    }

    /** A file the endpoint created: the region stays with {@code --keep}; everything else goes. */
    private void created(final Path file)
    {
        if (!options.keep() || !file.equals(regionFile))
        {
            cleanup.delete(file);
        }
    }

    /**
     * Keep progressing (the fin may still sit in the provider's queue under manual progress) until the server has
     * withdrawn its address or exited, at most the timeout; the files are checked every millisecond.
     */
    private void awaitServerExit(final PingpongEndpoint endpoint, final Rendezvous rendezvous)
    {
        final long deadline = System.nanoTime() + options.timeoutSeconds() * 1_000_000_000L;
        long nextCheck = 0;
        while (true)
        {
            check(endpoint, endpoint.progress(), "progressing the fin");
            final long now = System.nanoTime();
            if (now - nextCheck >= 0)
            {
                if (rendezvous.finished(Role.SERVER) || now - deadline > 0)
                {
                    return;
                }
                nextCheck = now + 1_000_000L;
            }
            Thread.onSpinWait();
        }
    }

    private void hello(final PingpongEndpoint endpoint)
    {
        check(endpoint, endpoint.sendText(options.agreement()), "sending the hello");
        awaitText(endpoint, OK);
    }

    private void answerHello(final PingpongEndpoint endpoint)
    {
        check(endpoint, endpoint.awaitRx(++expectedRx), "waiting for the hello");
        final String hello = endpoint.receivedText();
        check(endpoint, endpoint.postRecv(), "posting a receive");
        final boolean agreed = hello.equals(options.agreement());
        check(endpoint, endpoint.sendText(agreed ? OK : "the server runs " + options.agreement()), "answering");
        if (!agreed)
        {
            throw new PingpongException(Errno.FI_EINVAL, "pingpong: the client runs '" + hello +
                "' but this server runs '" + options.agreement() + "'; give both sides the same -S, -I, -W, -c " +
                "and transfer mode");
        }
    }

    private void awaitText(final PingpongEndpoint endpoint, final String expected)
    {
        check(endpoint, endpoint.awaitRx(++expectedRx), "waiting for '" + expected + "'");
        final String text = endpoint.receivedText();
        check(endpoint, endpoint.postRecv(), "posting a receive");
        if (!text.equals(expected))
        {
            throw new PingpongException(Errno.FI_EINVAL, "pingpong: expected '" + expected + "' from the " +
                role.peer().cliName() + ", got '" + text + "'");
        }
    }

    /**
     * One size: first {@code W} unmeasured round trips ({@link #warmUp}), then {@code I} measured ones timed as
     * fi_pingpong times them (one clock read where the measured ones start and one at the end, so the columns carry no
     * clock cost of ours), then {@code I} more, which the client times one by one for the round-trip line. A clock
     * read costs 25-30 ns here (kvm-clock); two per round trip in the first pass made usec/xfer about 5% longer than
     * fi_pingpong's way of counting. The client sends and waits for the echo; the server echoes. Both print
     * fi_pingpong's row for the first {@code I} (-I >= 1), the client also the round-trip line.
     */
    private void measure(final PingpongEndpoint endpoint, final int size)
    {
        final boolean client = role == Role.CLIENT;
        final int iterations = options.iterations();
        int next = warmUp(endpoint, size);
        final long start = System.nanoTime();
        next = client ? roundTrips(endpoint, size, next, iterations) : echoes(endpoint, size, next, iterations);
        final long end = System.nanoTime();
        if (client)
        {
            rtt.reset();
            timedRoundTrips(endpoint, size, next, iterations);
        }
        else
        {
            echoes(endpoint, size, next, iterations);
        }
        if (!quiet)
        {
            out.print(PerfFormat.row(size, iterations, iterations, end - start));
            if (client)
            {
                out.print(PerfFormat.rttLine(rtt));
            }
            out.flush();
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
                out.print("# distribution (" + HgrmFiles.UNIT + "): " + written + "\n");
                out.flush();
            }
        }
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
        }
        return next;
    }

    /** @return the index after the last of the {@code count} round trips from {@code first}, untimed. */
    private int roundTrips(final PingpongEndpoint endpoint, final int size, final int first, final int count)
    {
        final int end = first + count;
        for (int i = first; i < end; i++)
        {
            check(endpoint, endpoint.send(size), size, i);
            check(endpoint, endpoint.awaitRx(++expectedRx), size, i);
            afterReply(endpoint, size, i);
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
            check(endpoint, endpoint.send(size), size, i);
            check(endpoint, endpoint.awaitRx(++expectedRx), size, i);
            rtt.recordValue(Math.min(System.nanoTime() - t0, HISTOGRAM_MAX_NANOS));
            afterReply(endpoint, size, i);
        }
        return end;
    }

    /** @return the index after the last of the {@code count} messages from {@code first} the server echoed. */
    private int echoes(final PingpongEndpoint endpoint, final int size, final int first, final int count)
    {
        final int end = first + count;
        for (int i = first; i < end; i++)
        {
            check(endpoint, endpoint.awaitRx(++expectedRx), size, i);
            afterReply(endpoint, size, i);
            check(endpoint, endpoint.send(size), size, i);
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

    private void printHeader()
    {
        if (!quiet)
        {
            out.print(options.warmup().headerLine());
            out.print(PerfFormat.header());
            out.flush();
        }
    }

    private void check(final PingpongEndpoint endpoint, final long rc, final int size, final int iteration)
    {
        if (rc < 0)
        {
            throw new PingpongException((int)-rc, "pingpong " + role.cliName() + ": " + endpoint.failure() +
                " (size " + size + ", round trip " + (iteration + 1) + " of " +
                (options.warmup().roundTrips(size) + 2 * options.iterations()) +
                ": warm-up, measured, then timed one by one)");
        }
    }

    private void check(final PingpongEndpoint endpoint, final long rc, final String phase)
    {
        if (rc < 0)
        {
            throw new PingpongException((int)-rc, "pingpong " + role.cliName() + ": " + endpoint.failure() + " (" +
                phase + ")");
        }
    }
}
