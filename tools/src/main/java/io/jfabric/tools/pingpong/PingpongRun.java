package io.jfabric.tools.pingpong;

import io.jfabric.Errno;
import io.jfabric.shm.ShmConfig;
import io.jfabric.shm.region.RegionFile;
import org.HdrHistogram.Histogram;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * One side of a pingpong from start to end: open the endpoint, exchange addresses through the {@link Rendezvous},
 * agree on the settings (the client's hello carries {@link PingpongOptions#agreement()}, the server answers
 * {@code ok} or why not), then per size {@code W} unmeasured and {@code I} measured iterations in lockstep, timed
 * as a whole as fi_pingpong times them, then {@code I} more, each timed on its own, and a final {@code fin} from the
 * client. The client prints fi_pingpong's header and rows (from the first pass) and, per size, the round-trip line
 * from an HdrHistogram of the second pass's round trips; the server prints fi_pingpong's rows for the first pass it
 * echoed (nothing when quiet).
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
    /** Largest round trip the histogram tracks (longer ones count as this): 60 s. */
    static final long HISTOGRAM_MAX_NANOS = 60_000_000_000L;

    private final ShmConfig config;
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

    /**
     * @param config  provider settings.
     * @param options the run's settings.
     * @param role    this side.
     * @param quiet   print nothing but errors (the peer --self starts).
     * @param cleanup what removes this side's files at the end.
     * @param out     where results go.
     */
    PingpongRun(
        final ShmConfig config,
        final PingpongOptions options,
        final Role role,
        final boolean quiet,
        final ExitCleanup cleanup,
        final PrintWriter out)
    {
        this.config = config;
        this.options = options;
        this.role = role;
        this.quiet = quiet;
        this.cleanup = cleanup;
        this.regionFile = RegionFile.regionPath(config.rootDir(), options.domain());
        this.out = out;
    }

    /**
     * Run this side.
     *
     * @throws PingpongException when a data-path call fails or the peer disagrees or does not answer.
     */
    void run()
    {
        final Rendezvous rendezvous = new Rendezvous(config.rootDir(), options.domain());
        try (PingpongEndpoint endpoint = PingpongEndpoint.open(config, options, this::created))
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
                printHeader();
                for (final int size : sizes)
                {
                    client(endpoint, size);
                }
                check(endpoint, endpoint.sendText(FIN), "sending fin");
                awaitServerExit(endpoint, rendezvous);
            }
            else
            {
                answerHello(endpoint);
                printHeader();
                for (final int size : sizes)
                {
                    server(endpoint, size);
                }
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
     * The client's share of one size: first {@code W} unmeasured and {@code I} measured round trips timed as
     * fi_pingpong times them (one clock read where the measured ones start and one at the end, so the columns carry no
     * clock cost of ours), then {@code I} more round trips, each timed on its own, for the round-trip line. A clock
     * read costs 25-30 ns here (kvm-clock); two per round trip in the first pass made usec/xfer about 5% longer than
     * fi_pingpong's way of counting.
     */
    private void client(final PingpongEndpoint endpoint, final int size)
    {
        final int warmup = options.warmup();
        final int iterations = options.iterations();
        long start = System.nanoTime();
        for (int i = 0; i < warmup + iterations; i++)
        {
            if (i == warmup)
            {
                start = System.nanoTime();
            }
            roundTrip(endpoint, size, i);
        }
        final long end = System.nanoTime();
        rtt.reset();
        for (int i = warmup + iterations; i < warmup + 2 * iterations; i++)
        {
            final long t0 = System.nanoTime();
            check(endpoint, endpoint.send(size), size, i);
            check(endpoint, endpoint.awaitRx(++expectedRx), size, i);
            rtt.recordValue(Math.min(System.nanoTime() - t0, HISTOGRAM_MAX_NANOS));
            afterReply(endpoint, size, i);
        }
        if (!quiet)
        {
            out.print(PerfFormat.row(size, iterations, iterations, end - start));
            out.print(PerfFormat.rttLine(rtt));
            out.flush();
        }
    }

    private void roundTrip(final PingpongEndpoint endpoint, final int size, final int i)
    {
        check(endpoint, endpoint.send(size), size, i);
        check(endpoint, endpoint.awaitRx(++expectedRx), size, i);
        afterReply(endpoint, size, i);
    }

    private void afterReply(final PingpongEndpoint endpoint, final int size, final int i)
    {
        if (options.verify())
        {
            check(endpoint, endpoint.verify(size), size, i);
        }
        endpoint.repostLater();
    }

    /** The server's share of one size: it echoes the client's two passes; its row covers the first (-I >= 1). */
    private void server(final PingpongEndpoint endpoint, final int size)
    {
        final int warmup = options.warmup();
        final int iterations = options.iterations();
        long start = System.nanoTime();
        long end = start;
        for (int i = 0; i < warmup + 2 * iterations; i++)
        {
            if (i == warmup)
            {
                start = System.nanoTime();
            }
            else if (i == warmup + iterations)
            {
                end = System.nanoTime();
            }
            check(endpoint, endpoint.awaitRx(++expectedRx), size, i);
            afterReply(endpoint, size, i);
            check(endpoint, endpoint.send(size), size, i);
        }
        if (!quiet)
        {
            out.print(PerfFormat.row(size, iterations, iterations, end - start));
            out.flush();
        }
    }

    private void printHeader()
    {
        if (!quiet)
        {
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
                (options.warmup() + 2 * options.iterations()) + ": warm-up, measured, then timed one by one)");
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
