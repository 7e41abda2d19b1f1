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

import io.jfabric.tools.fipp.FiBandwidth;
import io.jfabric.tools.fipp.FiControl;
import io.jfabric.tools.fipp.FiSizes;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code jfabric bw}: the bandwidth tests of libfabric's fabtests (fi_msg_bw, fi_rma_bw) over a jfabric provider,
 * between two JVMs on this host, started as {@code jfabric pingpong} starts them ({@link PeerOptions},
 * {@link PeerSession}): per size, the client keeps a window of {@code -w} transfers in flight and waits for their
 * completions, window after window, for {@code -W} unmeasured and {@code -I} measured transfers; messages
 * ({@code -o msg}, {@code -o tagged}) end with the receiver's acknowledgement of the last, which carries how many
 * messages and bytes it received. Prints fabtests' columns (bytes, iters, total, time, MB/sec, usec/xfer,
 * Mxfers/sec). See {@link BwRun} for the protocol.
 * <p>
 * Exit status as pingpong's: 0; 1 for a usage error; otherwise the errno of what failed (5, FI_EIO, when the data
 * did not all arrive). Runs on the command line's thread.
 */
@Command(
    name = "bw",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 1,
    sortOptions = false,
    description = "Stream windows of transfers from one JVM to another through a named domain of the provider -p " +
        "names (shm by default), as fabtests' fi_msg_bw and fi_rma_bw do: messages (-o msg, tagged) or RMA writes " +
        "and reads (-o write, read) of each size, -w in flight at a time; per size, fabtests' columns.")
public final class BwCommand implements Callable<Integer>
{
    /** The modes bw runs, for messages and help. */
    static final String MODES = "msg|tagged|write|read";
    /** The largest {@code -w}. */
    static final int MAX_WINDOW = 1 << 16;

    @Spec
    private CommandSpec spec;

    @Option(names = "-o", paramLabel = MODES,
        description = "the transfers: fi_send/fi_inject to fi_recv (msg, the default), fi_tsend/fi_tinject to " +
            "fi_trecv (tagged), fi_write/fi_inject_write into the server's registered memory (write) or fi_read " +
            "from it (read)")
    private String operation;

    @Option(names = "-S", paramLabel = "size|list|all",
        description = "transfer size in bytes (k, m, g: KiB, MiB, GiB, as 4k), a comma list, or 'all' " +
            "(fi_pingpong's all sizes); default " + SizeList.BW_DEFAULT_SIZES_TEXT +
            "; a size above max_msg_size is refused")
    private String sizes;

    @Option(names = "-I", paramLabel = "number",
        description = "measured transfers per size (default: " + Iterations.BW_MOST + ", or as many as carry " +
            "1 GiB if fewer, at least " + Iterations.FEWEST_FOR_P999 + ": a timed pass long enough to time; " +
            "fabtests' default is 1000)")
    private Integer iterations;

    @Option(names = "-W", paramLabel = "number",
        description = "unmeasured warm-up transfers before each size's measured ones (default: " +
            Warmup.DEFAULT_ROUND_TRIPS + ", or as many as carry 1 GiB if fewer; fabtests' default is 10)")
    private Integer warmup;

    @Option(names = "-w", paramLabel = "number",
        description = "transfers in flight: the client waits for all their completions before the next window " +
            "(default: ${DEFAULT-VALUE}, as fabtests)")
    private int window = PingpongOptions.DEFAULT_WINDOW;

    @Mixin
    private PeerOptions peer;

    @Option(names = "-B", paramLabel = "port",
        description = "with a native provider (-p tcp, ...): the server's control port (default 47592)")
    private Integer sourcePort;

    @Option(names = "-P", paramLabel = "port",
        description = "with a native provider: the server's control port the client connects to (default 47592)")
    private Integer destinationPort;

    @Option(names = "-d", paramLabel = "DOMAIN",
        description = "with a native provider: the domain (lo for the loopback interface)")
    private String nativeDomain;

    @Parameters(arity = "0..1", paramLabel = "server",
        description = "with a native provider: the server's address; this side is then the client")
    private String server;

    /**
     * Not for use: picocli instantiates the command.
     */
    public BwCommand()
    {
    }

    @Override
    public Integer call()
    {
        if (FiSizes.isNative(peer.provider()))
        {
            return nativeRun();
        }
        return PeerSession.run(
            spec, PerfTool.BW, peer, (maxMsgSize, maxEndpoints, side) -> options(maxMsgSize), BwRun::new);
    }

    /** A native provider: the credit-windowed stream of {@link FiBandwidth}, which a C peer speaks too. */
    private int nativeRun()
    {
        checkWindow();
        final Iterations measured = peer.parsed(
            () -> iterations == null ? Iterations.byDefault(PerfTool.BW) : Iterations.of(iterations));
        final int port = server != null ? (destinationPort != null ? destinationPort : FiControl.DEFAULT_PORT) :
            (sourcePort != null ? sourcePort : FiControl.DEFAULT_PORT);
        final int[] sizeList;
        try
        {
            sizeList = FiSizes.parse(sizes == null ? SizeList.BW_DEFAULT_SIZES_TEXT : sizes);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        return new FiBandwidth(peer.provider(), nativeDomain != null ? nativeDomain : peer.domainOption(), server,
            port, sizeList, measured, window, warmup == null ? 0 : warmup, peer.timeoutSeconds())
            .run(spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /**
     * @param maxMsgSize the largest size {@code -S} may give: the provider's max_msg_size once it is known.
     * @return the settings.
     * @throws ParameterException for a usage error.
     */
    private PingpongOptions options(final long maxMsgSize)
    {
        checkWindow();
        final int timeoutSeconds = peer.timeoutSeconds();
        final TransferMode mode = mode();
        final String provider = peer.provider();
        final SizeList sizeList = peer.parsed(() -> SizeList.parse(sizes, maxMsgSize, SizeList.BW_DEFAULT_SIZES));
        final Warmup warmupRule = peer.parsed(() -> warmup == null ? Warmup.byDefault() : Warmup.of(warmup));
        final Iterations measured = peer.parsed(
            () -> iterations == null ? Iterations.byDefault(PerfTool.BW) : Iterations.of(iterations));
        return peer.settings(PerfTool.BW)
            .iterations(measured)
            .window(window)
            .timeoutSeconds(timeoutSeconds)
            .mode(mode)
            .provider(provider)
            .sizes(sizeList)
            .warmup(warmupRule)
            .build();
    }

    /** @throws ParameterException when {@code -w} is out of range. */
    private void checkWindow()
    {
        if (window < 1 || window > MAX_WINDOW)
        {
            throw new ParameterException(spec.commandLine(),
                "-w must be from 1 to " + MAX_WINDOW + ", was " + window);
        }
    }

    private TransferMode mode()
    {
        if (operation == null)
        {
            return TransferMode.MSG;
        }
        final TransferMode mode;
        try
        {
            mode = TransferMode.parse(operation);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), "-o must be " + MODES + ", was '" + operation + "'");
        }
        if (mode == TransferMode.CLAIM || mode == TransferMode.ATOMIC)
        {
            throw new ParameterException(spec.commandLine(), "-o must be " + MODES + ", was '" + operation + "'");
        }
        return mode;
    }
}
