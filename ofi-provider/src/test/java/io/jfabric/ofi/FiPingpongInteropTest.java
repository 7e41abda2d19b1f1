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

import io.jfabric.Errno;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric pingpong -p tcp} and libfabric's C {@code fi_pingpong -p tcp -e rdm} run together over 127.0.0.1,
 * in both pairings (jfabric client against a C server, C client against a jfabric server), with the data check
 * ({@code -c}) on both sides at 64 B, 4 KiB and 1 MiB: both exit 0 and print fi_pingpong's result line with every
 * message acknowledged ({@code =N}). Skipped, saying so, where fi_pingpong is not installed. jfabric against
 * jfabric runs whether or not it is, and so does a jfabric server (pingpong, bw) whose client never comes: it gives
 * up after {@code --timeout}.
 */
@NeedsLibfabric
class FiPingpongInteropTest
{
    private static final AtomicInteger PORT = new AtomicInteger(9400 + (int)(ProcessHandle.current().pid() % 200) * 2);

    @ParameterizedTest(name = "{0} B, jfabric {1}")
    @CsvSource({"64, client", "64, server", "4096, client", "4096, server", "1048576, client", "1048576, server"})
    void shouldRunWithCFiPingpongWithDataChecked(final int size, final String jfabricRole) throws Exception
    {
        final Path fiPingpong = NativeTools.require("fi_pingpong", "libfabric-bin");
        final int port = PORT.getAndIncrement();
        final String iterations = size >= 1 << 20 ? "20" : "200";
        final List<String> cCommon = List.of(fiPingpong.toString(), "-p", "tcp", "-e", "rdm", "-d", "lo", "-S",
            Integer.toString(size), "-I", iterations, "-c");
        final boolean jfabricServer = jfabricRole.equals("server");
        final String[] jfabricArgs = jfabricServer ?
            new String[] {"pingpong", "-p", "tcp", "-d", "lo", "-B", Integer.toString(port), "-S",
                Integer.toString(size), "-I", iterations, "-c"} :
            new String[] {"pingpong", "-p", "tcp", "-d", "lo", "-P", Integer.toString(port), "-S",
                Integer.toString(size), "-I", iterations, "-c", "127.0.0.1"};
        final String expectedLine = (size >= 1 << 20 ? "1m" : size >= 1024 ? "4k" : "64") + " ";
        if (jfabricServer)
        {
            try (PeerJvm jfabric = new PeerJvm("io.jfabric.tools.JfabricMain", jfabricArgs))
            {
                jfabric.awaitStderr("for a client on control port " + port, 60_000); // C's client does not retry
                final NativeTools.Result c = NativeTools.runOnLoopback(120,
                    concat(cCommon, "-P", Integer.toString(port), "127.0.0.1"));
                assertEquals(0, c.exit(), c.stderr() + c.stdout());
                assertTrue(resultLine(c.stdout(), expectedLine).contains("=" + count(iterations)), c.stdout());
                final String line = jfabric.expect(expectedLine, 60_000);
                assertTrue(line.contains("=" + count(iterations)), line);
                assertEquals(0, jfabric.waitFor(60_000), jfabric.stderr());
            }
        }
        else
        {
            final Process c = NativeTools.loopback(new ProcessBuilder(concat(cCommon, "-B", Integer.toString(port))))
                .start();
            try (PeerJvm jfabric = new PeerJvm("io.jfabric.tools.JfabricMain", jfabricArgs))
            {
                final String line = jfabric.expect(expectedLine, 120_000);
                assertTrue(line.contains("=" + count(iterations)), line);
                assertEquals(0, jfabric.waitFor(60_000), jfabric.stderr());
                assertTrue(c.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "fi_pingpong server did not end");
                final String out = new String(c.getInputStream().readAllBytes());
                assertEquals(0, c.exitValue(), out + new String(c.getErrorStream().readAllBytes()));
                assertTrue(resultLine(out, expectedLine).contains("=" + count(iterations)), out);
            }
            finally
            {
                c.destroyForcibly();
            }
        }
    }

    @ParameterizedTest(name = "{0} B")
    @CsvSource({"64", "1048576"})
    void shouldRunJfabricAgainstJfabricWithDataChecked(final int size) throws Exception
    {
        // The same command as over shm but for -p tcp and the addresses: no C program needed.
        final String port = Integer.toString(PORT.getAndIncrement());
        final String iterations = size >= 1 << 20 ? "20" : "200";
        final String expectedLine = (size >= 1 << 20 ? "1m" : "64") + " ";
        try (PeerJvm server = new PeerJvm("io.jfabric.tools.JfabricMain", "pingpong", "-p", "tcp", "-d", "lo", "-B",
            port, "-S", Integer.toString(size), "-I", iterations, "-c"))
        {
            // No pause for the server to listen: a jfabric client keeps trying to connect until --timeout.
            try (PeerJvm client = new PeerJvm("io.jfabric.tools.JfabricMain", "pingpong", "-p", "tcp", "-d", "lo",
                "-P", port, "-S", Integer.toString(size), "-I", iterations, "-c", "127.0.0.1"))
            {
                assertTrue(client.expect(expectedLine, 120_000).contains("=" + iterations));
                assertEquals(0, client.waitFor(60_000), client.stderr());
            }
            assertTrue(server.expect(expectedLine, 60_000).contains("=" + iterations));
            assertEquals(0, server.waitFor(60_000), server.stderr());
        }
    }

    @Test
    void shouldGiveUpWhenNoClientComesWithinTheTimeout() throws Exception
    {
        // No client: each server waits --timeout, then exits FI_ETIMEDOUT naming its port (it once waited forever).
        // Without -I, the default count by size (a missing -I once threw NullPointerException, exit 1). The three
        // servers wait at the same time.
        final List<String> commands = List.of("pingpong -I 10", "pingpong", "bw");
        final List<String> ports = new ArrayList<>();
        final List<PeerJvm> servers = new ArrayList<>();
        try
        {
            for (final String command : commands)
            {
                final String port = Integer.toString(PORT.getAndIncrement());
                final List<String> args = new ArrayList<>(List.of(command.split(" ")));
                args.addAll(List.of("-p", "tcp", "-d", "lo", "-B", port, "--timeout", "2"));
                ports.add(port);
                servers.add(new PeerJvm("io.jfabric.tools.JfabricMain", args.toArray(String[]::new)));
            }
            final long start = System.nanoTime();
            for (int i = 0; i < servers.size(); i++)
            {
                final PeerJvm server = servers.get(i);
                assertEquals(Errno.FI_ETIMEDOUT, server.waitFor(30_000), commands.get(i) + ": " + server.stderr());
                assertTrue(server.stderr().contains(
                    "no client connected to control port " + ports.get(i) + " within 2 s"), server.stderr());
            }
            assertTrue(System.nanoTime() - start >= 1_500_000_000L, "gave up before --timeout");
        }
        finally
        {
            for (final PeerJvm server : servers)
            {
                server.close();
            }
        }
    }

    private static String count(final String iterations)
    {
        return iterations;
    }

    private static String resultLine(final String output, final String prefix)
    {
        return output.lines().filter(l -> l.startsWith(prefix)).findFirst()
            .orElseThrow(() -> new AssertionError("no result line in " + output));
    }

    private static String[] concat(final List<String> first, final String... more)
    {
        final List<String> all = new ArrayList<>(first);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }
}
