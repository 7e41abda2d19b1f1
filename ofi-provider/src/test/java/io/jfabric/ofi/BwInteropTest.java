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

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric bw -p tcp} against the C program of the same protocol (src/test/c/ofi_bw.c, compiled here with
 * gcc against libfabric-dev) over 127.0.0.1, in every pairing (Java-Java, Java client-C server, C client-Java
 * server) at 1 MiB: both sides exit 0 and the client prints its result line with every transfer counted. The same C
 * program is what docs/PERFORMANCE.md compares the Java client's bandwidth with.
 */
@NeedsLibfabric
class BwInteropTest
{
    private static final AtomicInteger PORT = new AtomicInteger(9700 + (int)(ProcessHandle.current().pid() % 100) * 3);
    @TempDir
    static Path dir;
    private static Path cBw;

    @BeforeAll
    static void compile() throws Exception
    {
        final Path gcc = NativeTools.require("gcc", "gcc");
        cBw = dir.resolve("ofi_bw");
        NativeTools.run(120, gcc.toString(), "-O2", "-Wall", "-o", cBw.toString(), "src/test/c/ofi_bw.c", "-lfabric")
            .ok("gcc ofi_bw.c");
    }

    @ParameterizedTest(name = "client {0}, server {1}")
    @CsvSource({"java, java", "java, c", "c, java"})
    void shouldStreamOneMebibyteMessagesEveryPairing(final String client, final String server) throws Exception
    {
        final String port = Integer.toString(PORT.getAndIncrement());
        // jfabric against itself without -S: bw's default sizes, 64 B to 1 MiB, as over shm.
        final boolean bothJava = client.equals("java") && server.equals("java");
        final String[] common = bothJava ? new String[] {"-d", "lo", "-I", "64", "-w", "8"} :
            new String[] {"-d", "lo", "-S", "1048576", "-I", "64", "-w", "8"};
        final Process cServer = server.equals("c") ? start(cBw.toString(), "-p", "tcp", "-B", port, common) : null;
        try (PeerJvm jServer = server.equals("java") ?
                new PeerJvm("io.jfabric.tools.JfabricMain", with("bw", "-p", "tcp", "-B", port, common)) : null)
        {
            if (jServer != null)
            {
                jServer.awaitStderr("for a client on control port " + port, 60_000); // C's client does not retry
            }
            final String line;
            if (client.equals("java"))
            {
                try (PeerJvm jClient = new PeerJvm("io.jfabric.tools.JfabricMain",
                    with("bw", "-p", "tcp", "-P", port, common, "127.0.0.1")))
                {
                    line = jClient.expect("1m ", 120_000);
                    assertEquals(0, jClient.waitFor(60_000), jClient.stderr());
                    if (bothJava)
                    {
                        for (final String size : new String[] {"64 ", "4k ", "64k "})
                        {
                            assertTrue(jClient.seen().stream().anyMatch(l -> l.startsWith(size) && l.contains("=64")),
                                () -> "no " + size + "line: " + jClient.seen());
                        }
                    }
                }
            }
            else
            {
                final NativeTools.Result c = NativeTools.runOnLoopback(120,
                    with(cBw.toString(), "-p", "tcp", "-P", port, common, "127.0.0.1"));
                assertEquals(0, c.exit(), c.stderr());
                line = c.stdout().lines().filter(l -> l.startsWith("1m ")).findFirst().orElseThrow();
            }
            assertTrue(line.contains("=64"), line);
            if (jServer != null)
            {
                assertEquals(0, jServer.waitFor(60_000), jServer.stderr());
            }
            if (cServer != null)
            {
                assertTrue(cServer.waitFor(60, TimeUnit.SECONDS));
                assertEquals(0, cServer.exitValue(), new String(cServer.getErrorStream().readAllBytes()));
            }
        }
        finally
        {
            if (cServer != null)
            {
                cServer.destroyForcibly();
            }
        }
    }

    private static Process start(final String program, final String a, final String b, final String c,
        final String d, final String[] common) throws Exception
    {
        return NativeTools.loopback(new ProcessBuilder(with(program, a, b, c, d, common))).start();
    }

    private static String[] with(final String first, final Object... rest)
    {
        final java.util.List<String> all = new java.util.ArrayList<>();
        all.add(first);
        for (final Object o : rest)
        {
            if (o instanceof String[] many)
            {
                all.addAll(java.util.List.of(many));
            }
            else
            {
                all.add((String)o);
            }
        }
        return all.toArray(String[]::new);
    }
}
