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
package io.jfabric.tools;

import io.jfabric.tools.cli.VersionProvider;
import io.jfabric.tools.inspect.DumpCommand;
import io.jfabric.tools.inspect.StatCommand;
import io.jfabric.tools.pingpong.BwCommand;
import io.jfabric.tools.pingpong.PingpongCommand;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.charset.Charset;

/**
 * The {@code jfabric} command line: {@code info} (libfabric's fi_info), {@code strerror}, {@code pingpong}
 * (libfabric's fi_pingpong), {@code bw} (fabtests' fi_msg_bw and fi_rma_bw), {@code stat} (a live domain's slots,
 * rings and counts, as Aeron's AeronStat), {@code dump} (decodes any jfabric file) and {@code clean} (removes the shm
 * files of processes that are gone).
 * {@link #main} is what {@code bin/jfabric} and {@code java -jar jfabric-tools.jar} run; {@link #execute} runs the
 * same in-process with the caller's streams and returns the exit status, for tests and embedding.
 * <p>
 * Each call builds a fresh command line, so concurrent calls on different threads do not interfere.
 */
@Command(
    name = "jfabric",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 1,
    versionProvider = VersionProvider.class,
    subcommands = {InfoCommand.class, StrerrorCommand.class, PingpongCommand.class, BwCommand.class,
        StatCommand.class, DumpCommand.class, CleanCommand.class, CommandLine.HelpCommand.class},
    description = "jfabric tools: the libfabric object model on the JVM, with a shared-memory provider.")
public final class JfabricMain implements Runnable
{
    @Spec
    private CommandSpec spec;

    /**
     * Not for use: picocli instantiates the command.
     */
    public JfabricMain()
    {
    }

    /**
     * Without a subcommand there is nothing to do: a usage error.
     */
    @Override
    public void run()
    {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        final Charset charset = Charset.defaultCharset();
        final int status = execute(
            new PrintWriter(new java.io.OutputStreamWriter(System.out, charset), true),
            new PrintWriter(new java.io.OutputStreamWriter(System.err, charset), true),
            args);
        System.exit(status);
    }

    /**
     * Run a command line in-process.
     *
     * @param out  where the command's output goes.
     * @param err  where errors and usage go.
     * @param args the command line, such as {@code "info", "-p", "shm"}.
     * @return the exit status.
     */
    public static int execute(final PrintWriter out, final PrintWriter err, final String... args)
    {
        final CommandLine commandLine = new CommandLine(new JfabricMain());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setOverwrittenOptionsAllowed(true); // fi_info: the last -t, -p, ... wins
        // strerror takes negated names too (-FI_EAGAIN), which would otherwise read as unknown options.
        commandLine.getSubcommands().get("strerror").setUnmatchedOptionsArePositionalParams(true);
        final int status = commandLine.execute(args);
        out.flush();
        err.flush();
        return status;
    }
}
