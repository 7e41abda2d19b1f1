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
package io.jfabric.ofi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Running the machine's own programs from tests (libfabric-bin's fi_info and fi_pingpong, gcc, objdump): found on
 * the PATH or skipped with the reason, run with a time limit, output captured.
 */
final class NativeTools
{
    private NativeTools()
    {
    }

    /**
     * @param program a program name.
     * @return its path on the PATH, or null.
     */
    static Path find(final String program)
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
        {
            final Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        return null;
    }

    /**
     * Skip the calling test, printing why, when a program is not installed.
     *
     * @param program the program.
     * @param pkg     the Debian package that installs it.
     * @return its path.
     */
    static Path require(final String program, final String pkg)
    {
        final Path path = find(program);
        if (path == null)
        {
            System.out.println("ofi-provider: SKIPPING a test that runs " + program + ": not installed (" + pkg + ")");
        }
        assumeTrue(path != null, program + " is not installed (" + pkg + ")");
        return path;
    }

    /**
     * Keep libfabric's tcp provider of a child process on the loopback interface ({@code FI_TCP_IFACE=lo}):
     * tcp;ofi_rxm 1.17 ignores the hints' domain name, so C fi_pingpong's {@code -d lo} would still take eth0's
     * address, and fi_pingpong has no other way to be told.
     *
     * @param builder a child's builder.
     * @return the builder.
     */
    static ProcessBuilder loopback(final ProcessBuilder builder)
    {
        builder.environment().put("FI_TCP_IFACE", "lo");
        return builder;
    }

    /**
     * @param timeoutSeconds the longest the program may run.
     * @param command        the command line.
     * @return what it printed on stdout; stderr is appended to the failure message.
     * @throws IOException on a failure to start.
     */
    static Result run(final long timeoutSeconds, final String... command) throws IOException, InterruptedException
    {
        return run(new ProcessBuilder(command), timeoutSeconds);
    }

    /**
     * As {@link #run}, with the child's tcp provider kept on the loopback interface ({@link #loopback}): for the C
     * peers (fi_pingpong, ofi_bw) of a data run.
     *
     * @param timeoutSeconds the longest the program may run.
     * @param command        the command line.
     * @return what it printed on stdout; stderr is appended to the failure message.
     * @throws IOException on a failure to start.
     */
    static Result runOnLoopback(final long timeoutSeconds, final String... command)
        throws IOException, InterruptedException
    {
        return run(loopback(new ProcessBuilder(command)), timeoutSeconds);
    }

    private static Result run(final ProcessBuilder builder, final long timeoutSeconds)
        throws IOException, InterruptedException
    {
        final Path out = Files.createTempFile("jfabric-ofi", ".out");
        final Path err = Files.createTempFile("jfabric-ofi", ".err");
        try
        {
            final Process process = builder.redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                process.waitFor();
            }
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        }
        finally
        {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * @param exit   exit status.
     * @param stdout standard output.
     * @param stderr standard error.
     */
    record Result(int exit, String stdout, String stderr)
    {
        Result ok(final String... what)
        {
            assertTrue(exit == 0, () -> Arrays.toString(what) + " exited " + exit + "\n" + stderr + stdout);
            return this;
        }

        List<String> lines()
        {
            return new ArrayList<>(List.of(stdout.split("\n")));
        }
    }
}
