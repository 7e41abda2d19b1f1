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
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One side of a two-JVM measurement ({@code jfabric pingpong}, {@code jfabric bw}) from the parsed command line to
 * its exit status, the same for both: fi_getinfo for the provider ({@link PingpongProvider}), the settings checked
 * against its max_msg_size and ep_cnt, an {@link ExitCleanup} for whatever the run creates, and with {@code --self}
 * the server JVM started ({@link PeerLauncher}) and awaited, and the command line's out and err flushed at the end.
 * Errors become the exit status: the errno of what failed, with the reason on stderr. The command's thread.
 */
final class PeerSession
{
    /**
     * The settings of a run, from the command line.
     */
    @FunctionalInterface
    interface Settings
    {
        /**
         * @param maxMsgSize   the largest size {@code -S} may give: the provider's max_msg_size once it is known.
         * @param maxEndpoints the most endpoints the domain takes: the provider's domain_attr.ep_cnt once it is
         *                     known, {@link Long#MAX_VALUE} before.
         * @param role         this side.
         * @return the settings.
         * @throws picocli.CommandLine.ParameterException for a usage error.
         */
        PingpongOptions options(long maxMsgSize, long maxEndpoints, Role role);
    }

    /**
     * What one side does once the provider is found: runs a {@link PerfRun}.
     */
    @FunctionalInterface
    private interface Side
    {
        /**
         * @param provider what fi_getinfo found.
         * @param options  the run's settings.
         * @param role     this side.
         * @param cleanup  what removes this side's files at the end.
         * @throws PingpongException when a data-path call fails or the peer disagrees or does not answer.
         */
        void run(PingpongProvider provider, PingpongOptions options, Role role, ExitCleanup cleanup);
    }

    private PeerSession()
    {
    }

    /**
     * Run one side of a command ({@code call()} of {@link PingpongCommand}, {@link BwCommand}), with the command
     * line's out and err, both flushed at the end.
     *
     * @param spec     the command's, for its out and err.
     * @param tool     the command, for messages.
     * @param peer     the command's shared options: which side this is, {@code --self}, {@code --quiet}.
     * @param settings the run's settings.
     * @param runs     makes this side's run ({@link PingpongRun} or {@link BwRun}) from what the session found.
     * @return the exit status: 0, or the errno of what failed.
     * @throws picocli.CommandLine.ParameterException for a usage error.
     */
    static int run(
        final CommandSpec spec,
        final PerfTool tool,
        final PeerOptions peer,
        final Settings settings,
        final Function<PerfRun.Setup, PerfRun> runs)
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try
        {
            final Role side = peer.side();
            return run(tool, side, peer.self(), settings,
                (provider, options, role, cleanup) ->
                    runs.apply(new PerfRun.Setup(provider, options, role, peer.quiet(), cleanup, out, err)).run(),
                err);
        }
        finally
        {
            out.flush();
            err.flush();
        }
    }

    /**
     * Run one side.
     *
     * @param tool     the command, for messages.
     * @param role     this side.
     * @param self     start the server JVM too ({@code --self}; this side is then the client).
     * @param settings the run's settings.
     * @param side     what this side does.
     * @param err      where errors go.
     * @return the exit status: 0, or the errno of what failed.
     * @throws picocli.CommandLine.ParameterException for a usage error.
     */
    private static int run(
        final PerfTool tool,
        final Role role,
        final boolean self,
        final Settings settings,
        final Side side,
        final PrintWriter err)
    {
        try
        {
            final PingpongOptions given = settings.options(SizeList.MAX_BUFFER_SIZE, Long.MAX_VALUE, role);
            final PingpongProvider found = PingpongProvider.find(given.provider(), given.domain(), given.mode());
            final PingpongOptions options = settings.options(found.maxMsgSize(), found.maxEndpoints(), role);
            try (ExitCleanup cleanup = ExitCleanup.install())
            {
                if (self)
                {
                    return runSelf(tool, found, options, cleanup, side, err);
                }
                side.run(found, options, role, cleanup);
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
            err.print(tool.cliName() + ": " + ex.getMessage() + "\n");
            return ex.errno();
        }
        catch (final UncheckedIOException ex)
        {
            err.print(ex.getMessage() + ": " + ex.getCause() + "\n");
            return Errno.FI_EIO;
        }
        finally
        {
            err.flush();
        }
    }

    private static int runSelf(
        final PerfTool tool,
        final PingpongProvider found,
        final PingpongOptions options,
        final ExitCleanup cleanup,
        final Side side,
        final PrintWriter err)
    {
        final Process server;
        try
        {
            server = PeerLauncher.start(options);
        }
        catch (final IOException ex)
        {
            err.print(tool.cliName() + ": cannot start the server JVM: " + ex + "\n");
            return Errno.FI_EIO;
        }
        cleanup.stop(server);
        try
        {
            side.run(found, options, Role.CLIENT, cleanup);
            if (!server.waitFor(options.timeoutSeconds(), TimeUnit.SECONDS))
            {
                err.print(tool.cliName() + ": the server JVM (pid " + server.pid() + ") did not exit within " +
                    options.timeoutSeconds() + " s\n");
                return Errno.FI_ETIMEDOUT;
            }
            if (server.exitValue() != 0)
            {
                err.print(tool.cliName() + ": the server JVM exited with status " + server.exitValue() + "\n");
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
}
