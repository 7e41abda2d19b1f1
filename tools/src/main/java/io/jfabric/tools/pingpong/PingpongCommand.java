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
import io.jfabric.FabricException;
import io.jfabric.shm.region.RegionFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jfabric pingpong}: libfabric's fi_pingpong over a jfabric provider (fi_getinfo with {@code -p}, shm by
 * default: {@link PingpongProvider}), between two JVMs on this host. Either {@code --self} (this JVM is the client and
 * starts the server JVM itself) or one side per terminal with {@code --role server} and {@code --role client} and the
 * same {@code --domain}. Takes fi_pingpong's {@code -p}, {@code -S}, {@code -I} and {@code -c}, prints its header and
 * columns, and per size a {@code rtt_ns} percentile line; with {@code --hgrm} the client also keeps each size's
 * round-trip distribution in a file ({@link HgrmFiles}); {@code --idle} says how both sides wait between empty CQ
 * polls ({@link IdleMode}). See {@link PingpongRun} for the protocol and {@link PingpongEndpoint} for the libfabric
 * calls.
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
        "per size, fi_pingpong's columns (usec/xfer = mean of half a round trip) and the round-trip percentiles in ns.")
public final class PingpongCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = {"-p", "--provider"}, paramLabel = "PROV",
        description = "the provider, found with fi_getinfo as 'jfabric info -p' finds it (default: ${DEFAULT-VALUE}); " +
            "none of that name: exit 61 (FI_ENODATA)")
    private String provider = PingpongProvider.DEFAULT_NAME;

    @Option(names = "-S", paramLabel = "size|list|all",
        description = "message size in bytes (k, m, g: KiB, MiB, GiB, as 4k), a comma list, or 'all' " +
            "(fi_pingpong's all sizes: 0, 1, 2, 3, 4, 6, 8, 12, ... 6m); default " + SizeList.DEFAULT_SIZES_TEXT +
            "; a size above max_msg_size is refused")
    private String sizes;

    @Option(names = "-I", paramLabel = "number",
        description = "measured iterations per size (default: ${DEFAULT-VALUE}, as fi_pingpong)")
    private int iterations = PingpongOptions.DEFAULT_ITERATIONS;

    @Option(names = "-W", paramLabel = "number",
        description = "unmeasured warm-up round trips before each size's measured ones (default: " +
            Warmup.DEFAULT_ROUND_TRIPS + ", or as many as carry 1 GiB each way if fewer: enough for HotSpot to " +
            "have compiled the data path before the timed pass; fabtests' default is 10)")
    private Integer warmup;

    @Option(names = "-c", description = "check every received byte (slows the run, as in fi_pingpong)")
    private boolean verify;

    @Option(names = "--self", description = "start the server JVM too, and be the client")
    private boolean self;

    @Option(names = "--role", paramLabel = "server|client", description = "which side this is, without --self")
    private String role;

    @Option(names = "--domain", paramLabel = "NAME",
        description = "the named domain both sides open (default: pingpong-<pid> with --self, else pingpong)")
    private String domain;

    @Option(names = "--tagged", description = "fi_tsend/fi_tinject/fi_trecv with tag 1234 (fi_pingpong -m tagged)")
    private boolean tagged;

    @Option(names = "--claim",
        description = "zero-copy claim/commit up to inject_size (fi_send above), received with fi_recv")
    private boolean claim;

    @Option(names = "--unregistered",
        description = "do not register the send buffer: large messages are segmented instead of going by rendezvous")
    private boolean unregistered;

    @Option(names = "--idle", paramLabel = IdleMode.NAMES,
        description = "how each side waits after a CQ poll that found nothing: busy spin (the default, for " +
            "latency), yield, backoff (spin, yield, then park 1-50 us) or sleep (park 50 us)")
    private String idle;

    @Option(names = "--hgrm", paramLabel = "FILE",
        description = "the client writes each size's timed round trips (ns) as HdrHistogram's percentile " +
            "distribution, one file per size: FILE with -<size> inserted before its extension, as rtt-64.hgrm " +
            "for rtt.hgrm")
    private Path hgrm;

    @Option(names = "--plot", paramLabel = "FILE.png",
        description = "the client draws every size's round-trip percentiles (ns against 1/(1-percentile), log " +
            "scales, as HdrHistogram's plotter) into one PNG")
    private Path plot;

    @Option(names = "--keep", description = "keep the domain's region file at the end (default: delete it, however the run ends)")
    private boolean keep;

    @Option(names = "--timeout", paramLabel = "SECONDS",
        description = "give up when the peer does not show up or answer within this (default: ${DEFAULT-VALUE})")
    private int timeoutSeconds = PingpongOptions.DEFAULT_TIMEOUT_SECONDS;

    @Option(names = "--quiet", hidden = true, description = "print nothing but errors (the server --self starts)")
    private boolean quiet;

    /**
     * Not for use: picocli instantiates the command.
     */
    public PingpongCommand()
    {
    }

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try
        {
            final Role side = side();
            final PingpongOptions given = options(SizeList.MAX_BUFFER_SIZE, side);
            final PingpongProvider found = PingpongProvider.find(given.provider(), given.domain(), given.mode());
            final PingpongOptions options = options(found.maxMsgSize(), side);
            try (ExitCleanup cleanup = ExitCleanup.install())
            {
                if (self)
                {
                    return runSelf(found, options, cleanup, out, err);
                }
                new PingpongRun(found, options, side, quiet, cleanup, out).run();
                return 0;
            }
        }
        catch (final PingpongException ex)
        {
            err.print(ex.getMessage() + "\n");
            return ex.errno();
        }
        catch (final FabricException ex)
        {
            err.print("pingpong: " + ex.getMessage() + "\n");
            return ex.errno();
        }
        catch (final UncheckedIOException ex)
        {
            err.print(ex.getMessage() + ": " + ex.getCause() + "\n");
            return Errno.FI_EIO;
        }
        finally
        {
            out.flush();
            err.flush();
        }
    }

    private int runSelf(
        final PingpongProvider found, final PingpongOptions options, final ExitCleanup cleanup, final PrintWriter out,
        final PrintWriter err)
    {
        final Process server;
        try
        {
            server = PeerLauncher.start(options);
        }
        catch (final IOException ex)
        {
            err.print("pingpong: cannot start the server JVM: " + ex + "\n");
            return Errno.FI_EIO;
        }
        cleanup.stop(server);
        try
        {
            new PingpongRun(found, options, Role.CLIENT, quiet, cleanup, out).run();
            if (!server.waitFor(options.timeoutSeconds(), TimeUnit.SECONDS))
            {
                err.print("pingpong: the server JVM (pid " + server.pid() + ") did not exit within " +
                    options.timeoutSeconds() + " s\n");
                return Errno.FI_ETIMEDOUT;
            }
            if (server.exitValue() != 0)
            {
                err.print("pingpong: the server JVM exited with status " + server.exitValue() + "\n");
                return server.exitValue();
            }
            return 0;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return Errno.FI_EINTR;
        }
    }

    /**
     * @param maxMsgSize the largest size {@code -S} may give: the provider's max_msg_size once it is known.
     * @param side       this side.
     * @return the settings.
     * @throws ParameterException for a usage error.
     */
    private PingpongOptions options(final long maxMsgSize, final Role side)
    {
        if (iterations < 1)
        {
            throw new ParameterException(spec.commandLine(), "-I must be at least 1, was " + iterations);
        }
        if (timeoutSeconds < 1)
        {
            throw new ParameterException(spec.commandLine(), "--timeout must be at least 1, was " + timeoutSeconds);
        }
        if (tagged && claim)
        {
            throw new ParameterException(spec.commandLine(), "--tagged and --claim exclude each other");
        }
        if (provider.isBlank())
        {
            throw new ParameterException(spec.commandLine(), "-p must name a provider");
        }
        if (hgrm != null)
        {
            checkClientFile(side, "--hgrm", hgrm);
        }
        if (plot != null)
        {
            checkClientFile(side, "--plot", plot);
        }
        final SizeList sizeList;
        final Warmup warmupRule;
        final IdleMode idleMode;
        try
        {
            sizeList = SizeList.parse(sizes, maxMsgSize);
            warmupRule = warmup == null ? Warmup.byDefault() : Warmup.of(warmup);
            idleMode = idle == null ? IdleMode.BUSY : IdleMode.parse(idle);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        final String name = domain != null ? domain : self ? "pingpong-" + ProcessHandle.current().pid() : "pingpong";
        try
        {
            RegionFile.validateDomainName(name);
        }
        catch (final FabricException ex)
        {
            throw new ParameterException(spec.commandLine(), "--domain: " + ex.getMessage());
        }
        final TransferMode mode = tagged ? TransferMode.TAGGED : claim ? TransferMode.CLAIM : TransferMode.MSG;
        return new PingpongOptions(
            sizeList, iterations, warmupRule, name, mode, verify, timeoutSeconds, !unregistered, keep, provider,
            idleMode, hgrm == null ? null : hgrm.toAbsolutePath().normalize(),
            plot == null ? null : plot.toAbsolutePath().normalize());
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

    private Role side()
    {
        if (self && role != null)
        {
            throw new ParameterException(spec.commandLine(), "--self and --role exclude each other");
        }
        if (self)
        {
            return Role.CLIENT;
        }
        if (role == null)
        {
            throw new ParameterException(spec.commandLine(),
                "give --self, or run one side with --role server and the other with --role client");
        }
        for (final Role candidate : Role.values())
        {
            if (candidate.cliName().equals(role.toLowerCase(Locale.ROOT)))
            {
                return candidate;
            }
        }
        throw new ParameterException(spec.commandLine(), "--role must be server or client, was '" + role + "'");
    }
}
