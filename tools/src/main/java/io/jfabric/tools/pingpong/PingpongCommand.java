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

import io.jfabric.tools.fipp.FiControl;
import io.jfabric.tools.fipp.FiPingpong;
import io.jfabric.tools.fipp.FiSizes;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code jfabric pingpong}: libfabric's fi_pingpong over a jfabric provider (fi_getinfo with {@code -p}, shm by
 * default: {@link PingpongProvider}), between two JVMs on this host. Either {@code --self} (this JVM is the client and
 * starts the server JVM itself) or one side per terminal with {@code --role server} and {@code --role client} and the
 * same {@code --domain} ({@link PeerOptions}, {@link PeerSession}). Takes fi_pingpong's {@code -p}, {@code -S},
 * {@code -I} and {@code -c}, prints its header and columns, and per size a {@code rtt_ns} percentile line; with
 * {@code --hgrm} the client also keeps each size's round-trip distribution in a file ({@link HgrmFiles});
 * {@code --idle} says how both sides wait between empty CQ polls ({@link IdleMode}). {@code -o} picks the calls
 * ({@link TransferMode}): messages by default, or the one-sided RMA write, RMA read and fetching atomic latencies.
 * {@code --endpoints N} attaches N - 2 more endpoints to the domain, idle senders both measured receivers poll
 * ({@link Crowd}). See {@link PingpongRun} for the protocol and {@link PingpongEndpoint} for the libfabric calls.
 * <p>
 * Exit status: 0; 1 for a usage error; otherwise the errno of what failed (61, FI_ENODATA, when fi_getinfo finds no
 * such provider or it offers nothing for pingpong's hints; 110, FI_ETIMEDOUT, when the peer does not show up or stops
 * answering), with the reason on stderr. However it ends (done, failed, timed out, or the JVM
 * stopped by Ctrl-C or SIGTERM), each side removes the files it created and {@code --self} stops its server JVM
 * ({@link ExitCleanup}). Runs on the command line's thread.
 */
@Command(
    name = "pingpong",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 1,
    sortOptions = false,
    description = "Ping-pong messages between two JVMs through a named domain of the provider -p names (shm by " +
        "default), as libfabric's fi_pingpong does: " +
        "per size, fi_pingpong's columns (usec/xfer = mean of half a round trip) and the round-trip percentiles in " +
        "ns. With -o write, read or atomic, the latency of RMA writes (a write-write ping-pong), RMA reads or 8-byte " +
        "fetch-and-adds on memory the server registered.")
public final class PingpongCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "-S", paramLabel = "size|list|all",
        description = "message size in bytes (k, m, g: KiB, MiB, GiB, as 4k), a comma list, or 'all' " +
            "(fi_pingpong's all sizes: 0, 1, 2, 3, 4, 6, 8, 12, ... 6m); default " + SizeList.DEFAULT_SIZES_TEXT +
            "; a size above max_msg_size is refused; -o atomic runs 8 bytes whatever -S says, -o write skips 0")
    private String sizes;

    @Option(names = "-I", paramLabel = "number",
        description = "measured round trips per size (default: " + Iterations.PINGPONG_MOST + ", or as many as " +
            "carry 1 GiB each way if fewer, at least " + Iterations.FEWEST_FOR_P999 + ": enough for the p99.9 " +
            "printed; fi_pingpong's default is 10)")
    private Integer iterations;

    @Option(names = "-W", paramLabel = "number",
        description = "unmeasured warm-up round trips before each size's measured ones (default: " +
            Warmup.DEFAULT_ROUND_TRIPS + ", or as many as carry 1 GiB each way if fewer: enough for HotSpot to " +
            "have compiled the data path before the timed pass; fabtests' default is 10)")
    private Integer warmup;

    @Option(names = "-o", paramLabel = TransferMode.NAMES,
        description = "the calls: messages (msg, the default; tagged: fi_tsend/fi_trecv, as --tagged; claim: as " +
            "--claim), or one-sided on memory the server registered: write (the client writes, the server sees the " +
            "sequence number in the last word and writes back), read (fi_read, one per iteration) or atomic " +
            "(fi_fetch_atomic FI_UINT64 FI_SUM of 1, one per iteration)")
    private String operation;

    @Option(names = "--tagged", description = "fi_tsend/fi_tinject/fi_trecv with tag 1234 (fi_pingpong -m tagged)")
    private boolean tagged;

    @Option(names = "--claim",
        description = "zero-copy claim/commit up to inject_size (fi_send above), received with fi_recv")
    private boolean claim;

    @Option(names = "--endpoints", paramLabel = "N",
        description = "endpoints attached to the domain during the run, the two measured ones included (default: " +
            "${DEFAULT-VALUE}; at most the domain's ep_cnt, for shm jfabric.shm.ep.count or JFABRIC_SHM_EP_COUNT). " +
            "The server opens the N-2 others in its JVM; each sends one message to both measured endpoints before " +
            "the first size (so both receivers poll N-1 lanes), which they receive and drop, and then stays open " +
            "and idle until the end: the latency with N-2 idle senders connected")
    private int endpoints = PingpongOptions.DEFAULT_ENDPOINTS;

    @Mixin
    private PeerOptions peer;

    @Option(names = "--hgrm", paramLabel = "FILE",
        description = "the client writes each size's timed round trips (ns) as HdrHistogram's percentile " +
            "distribution, one file per size: FILE with -<size> inserted before its extension, as rtt-64.hgrm " +
            "for rtt.hgrm")
    private Path hgrm;

    @Option(names = "-B", paramLabel = "port",
        description = "with a native provider (-p tcp, ...): the server's control port, as fi_pingpong -B " +
            "(default 47592)")
    private Integer sourcePort;

    @Option(names = "-P", paramLabel = "port",
        description = "with a native provider: the server's control port the client connects to, as fi_pingpong -P " +
            "(default 47592)")
    private Integer destinationPort;

    @Option(names = "-d", paramLabel = "DOMAIN",
        description = "with a native provider: the domain (fi_pingpong -d; lo for the loopback interface)")
    private String nativeDomain;

    @Parameters(arity = "0..1", paramLabel = "server",
        description = "with a native provider: the server's address; this side is then the client (as fi_pingpong)")
    private String server;

    @Option(names = "--plot", paramLabel = "FILE.png",
        description = "the client draws every size's round-trip percentiles (ns against 1/(1-percentile), log " +
            "scales, as HdrHistogram's plotter) into one PNG")
    private Path plot;

    /**
     * Not for use: picocli instantiates the command.
     */
    public PingpongCommand()
    {
    }

    @Override
    public Integer call()
    {
        if (FiSizes.isNative(peer.provider()))
        {
            return nativeRun();
        }
        return PeerSession.run(spec, PerfTool.PINGPONG, peer, this::options, PingpongRun::new);
    }

    /**
     * A native provider (-p tcp, verbs, ...): fi_pingpong's own protocol, so that either side may be C fi_pingpong
     * ({@link FiPingpong}).
     */
    private int nativeRun()
    {
        final int port = server != null ? (destinationPort != null ? destinationPort : FiControl.DEFAULT_PORT) :
            (sourcePort != null ? sourcePort : FiControl.DEFAULT_PORT);
        final int[] sizeList;
        try
        {
            sizeList = FiSizes.parse(sizes);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        final Iterations measured = peer.parsed(
            () -> iterations == null ? Iterations.byDefault(PerfTool.PINGPONG) : Iterations.of(iterations));
        return new FiPingpong(peer.provider(), nativeDomain != null ? nativeDomain : peer.domainOption(), server, port,
            sizeList, measured, peer.verify(), tagged, warmup == null ? 0 : warmup, peer.timeoutSeconds())
            .run(spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /**
     * @param maxMsgSize   the largest size {@code -S} may give: the provider's max_msg_size once it is known.
     * @param maxEndpoints the most {@code --endpoints} may give: the domain's ep_cnt once it is known.
     * @param side         this side.
     * @return the settings.
     * @throws ParameterException for a usage error.
     */
    private PingpongOptions options(final long maxMsgSize, final long maxEndpoints, final Role side)
    {
        checkEndpoints(maxEndpoints);
        final int timeoutSeconds = peer.timeoutSeconds();
        final TransferMode mode = mode();
        final String provider = peer.provider();
        if (hgrm != null)
        {
            checkClientFile(side, "--hgrm", hgrm);
        }
        if (plot != null)
        {
            checkClientFile(side, "--plot", plot);
        }
        final SizeList sizeList = peer.parsed(
            () -> SizeList.parse(mode == TransferMode.ATOMIC ? PingpongRun.ATOMIC_SIZE_SPEC : sizes, maxMsgSize));
        final Warmup warmupRule = peer.parsed(() -> warmup == null ? Warmup.byDefault() : Warmup.of(warmup));
        final Iterations measured = peer.parsed(
            () -> iterations == null ? Iterations.byDefault(PerfTool.PINGPONG) : Iterations.of(iterations));
        return peer.settings(PerfTool.PINGPONG)
            .iterations(measured)
            .endpoints(endpoints)
            .timeoutSeconds(timeoutSeconds)
            .mode(mode)
            .provider(provider)
            .hgrm(hgrm == null ? null : hgrm.toAbsolutePath().normalize())
            .plot(plot == null ? null : plot.toAbsolutePath().normalize())
            .sizes(sizeList)
            .warmup(warmupRule)
            .build();
    }

    private void checkEndpoints(final long maxEndpoints)
    {
        if (endpoints < PingpongOptions.DEFAULT_ENDPOINTS)
        {
            throw new ParameterException(spec.commandLine(), "--endpoints must be at least " +
                PingpongOptions.DEFAULT_ENDPOINTS + " (the two measured ones), was " + endpoints);
        }
        if (endpoints > maxEndpoints)
        {
            throw new ParameterException(spec.commandLine(), "--endpoints " + endpoints + " is more than the domain " +
                "takes: its ep_cnt is " + maxEndpoints + " (for the shm provider, raise it with " +
                "-Djfabric.shm.ep.count=" + endpoints + " or JFABRIC_SHM_EP_COUNT=" + endpoints + ")");
        }
    }

    /** @return the transfer mode of {@code -o}, {@code --tagged} and {@code --claim}, which must agree. */
    private TransferMode mode()
    {
        if (tagged && claim)
        {
            throw new ParameterException(spec.commandLine(), "--tagged and --claim exclude each other");
        }
        final TransferMode flagged = tagged ? TransferMode.TAGGED : claim ? TransferMode.CLAIM : null;
        if (operation == null)
        {
            return flagged == null ? TransferMode.MSG : flagged;
        }
        final TransferMode chosen;
        try
        {
            chosen = TransferMode.parse(operation);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        if (flagged != null && flagged != chosen)
        {
            throw new ParameterException(spec.commandLine(),
                "-o " + operation + " and " + flagged.option() + " exclude each other");
        }
        return chosen;
    }

    private void checkClientFile(final Role side, final String option, final Path file)
    {
        if (side == Role.SERVER)
        {
            throw new ParameterException(spec.commandLine(),
                option + " is the client's: the server times no round trip (give it to --self or --role client)");
        }
        final Path parent = file.toAbsolutePath().normalize().getParent();
        if (file.getFileName() == null || parent == null || !Files.isDirectory(parent))
        {
            throw new ParameterException(spec.commandLine(),
                option + ": " + file + " is not a file in an existing directory");
        }
    }
}
