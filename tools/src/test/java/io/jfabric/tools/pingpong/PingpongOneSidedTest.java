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

import io.jfabric.testsupport.ChildJvm;
import io.jfabric.tools.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric pingpong -o write|read|atomic} end to end, between this JVM (the client) and a server JVM over a real
 * domain region in a root directory of its own ({@link OwnShmRoot}), with fi_pingpong's rows and the round-trip line
 * per size. With {@code -c} a write ping-pong checks every byte each side receives and a read checks every byte it
 * reads; an atomic run always checks that every fetch found the adds before it. Every run must leave the root empty.
 */
class PingpongOneSidedTest
{
    @RegisterExtension
    static final OwnShmRoot ROOT = OwnShmRoot.use("jfabric-pingpong-rma-");

    @Test
    void shouldPingpongWritesOfEverySizeSkippingZeroAndSaySo() throws IOException
    {
        final CommandRun run = runCleanly("-o", "write", "-S", "0,1,7,8,12,64,4k,70000", "-I", "200", "-W", "20",
            "-c");
        final List<String> lines = run.out.lines().toList();
        assertEquals("# warm-up, not counted: the first 20 round trips of each size (-W)", lines.get(0), run::toString);
        assertEquals("# measured: 200 round trips of each size (-I)", lines.get(1), run::toString);
        assertTrue(lines.get(2).startsWith("# write: the client fi_writes each size into the server's registered " +
            "memory"), run::toString);
        assertEquals("# write: size 0 skipped: a write ping-pong carries its sequence number in the message",
            lines.get(3), run::toString);
        assertEquals(PerfFormat.header().trim(), lines.get(4).trim(), run::toString);
        final String[] sizes = {"1", "7", "8", "12", "64", "4k", "68k"};
        assertEquals(5 + 2 * sizes.length, lines.size(), run::toString);
        for (int i = 0; i < sizes.length; i++)
        {
            final String[] row = lines.get(5 + 2 * i).trim().split(" +");
            assertEquals(sizes[i], row[0], run::toString);
            assertEquals("200", row[1], run::toString);
            assertEquals("=200", row[2], run::toString);
            assertTrue(Double.parseDouble(row[6]) > 0, run::toString);
            assertTrue(lines.get(6 + 2 * i).matches(
                "rtt_ns p50=\\d+ p90=\\d+ p99=\\d+ p99\\.9=\\d+ max=\\d+ rounds=200"), run::toString);
        }
        // 2 writes per round trip: total = 200 x 12 x 2 bytes.
        assertTrue(run.out.contains("\n12      200     =200     4.6k "), run::toString);
    }

    @Test
    void shouldTimeEveryReadAsOneTransfer() throws IOException
    {
        final CommandRun run = runCleanly("-o", "read", "-S", "0,64,4k,1m", "-I", "100", "-W", "10", "-c");
        assertTrue(run.out.contains("# read: one fi_read of each size from the server's registered memory per " +
            "iteration; usec/xfer and rtt_ns are the whole read's latency\n"), run::toString);
        assertEquals(4, run.out.lines().filter(line -> line.startsWith("rtt_ns") &&
            line.endsWith("rounds=100")).count(), run::toString);
        // One transfer per iteration: total = 100 x 1m.
        assertTrue(run.out.contains("\n1m      100     =100     100m "), run::toString);
    }

    @Test
    void shouldFetchAndAddEightBytesWhateverSSays() throws IOException
    {
        final CommandRun run = runCleanly("-o", "atomic", "-S", "64,4k", "-I", "500", "-W", "50");
        final List<String> lines = run.out.lines().toList();
        assertTrue(lines.get(2).startsWith("# atomic: one fi_fetch_atomic FI_UINT64 FI_SUM on the server's " +
            "registered word per iteration, 8 bytes whatever -S says"), run::toString);
        assertEquals(PerfFormat.header().trim(), lines.get(3).trim(), run::toString);
        assertEquals(6, lines.size(), "one size, 8 bytes: " + run);
        assertTrue(lines.get(4).startsWith("8       500     =500     3.9k "), run::toString);
        assertTrue(lines.get(5).endsWith("rounds=500"), run::toString);
    }

    @Test
    void shouldKeepTheDistributionOfFetchingAtomics(@TempDir final Path dir) throws IOException
    {
        final Path hgrm = dir.resolve("fadd.hgrm");
        final CommandRun run = runCleanly("-o", "atomic", "-I", "300", "-W", "10", "--hgrm", hgrm.toString());
        final HgrmParse parsed = HgrmParse.read(dir.resolve("fadd-8.hgrm"));
        assertEquals(300, parsed.footerTotalCount, run::toString);
    }

    @Test
    void shouldPingpongWritesAndReadsWithAnIdleStrategy() throws IOException
    {
        for (final String mode : new String[]{"write", "read"})
        {
            final CommandRun run = runCleanly("-o", mode, "--idle", "backoff", "-S", "64", "-I", "100", "-W", "10",
                "-c");
            assertTrue(run.out.contains("rounds=100"), run::toString);
        }
    }

    @Test
    void shouldRunAWriteServerAndClientInTwoRoles() throws Exception
    {
        final PingpongOptions serverOptions = new PingpongOptions.Builder()
            .sizes(SizeList.parse("64,4k"))
            .iterations(Iterations.of(100))
            .warmup(Warmup.of(10))
            .domain("rma-roles")
            .mode(TransferMode.WRITE)
            .verify(true)
            .timeoutSeconds(20)
            .build();
        final List<String> command = new java.util.ArrayList<>(PeerLauncher.command(serverOptions));
        command.remove("--quiet");
        try (ChildJvm server = ChildJvm.start(command))
        {
            final CommandRun run = CommandRun.run("pingpong", "--timeout=20", "--role", "client", "--domain",
                "rma-roles", "-o", "write", "-S", "64,4k", "-I", "100", "-W", "10", "-c");
            final int serverStatus = server.awaitExit(30);
            final String serverOutput = server.output();
            assertEquals(0, run.status, run::toString);
            assertEquals(0, serverStatus, serverOutput);
            assertEquals(2, serverOutput.lines().filter(line -> line.contains("=100 ")).count(),
                "the server of a write ping-pong times its echoes too: " + serverOutput);
        }
        ROOT.assertEmpty();
    }

    /** Run {@code pingpong --self} with {@code args}, which must succeed and leave no file in the root. */
    private static CommandRun runCleanly(final String... args) throws IOException
    {
        final String[] command = new String[args.length + 3];
        command[0] = "pingpong";
        command[1] = "--timeout=20"; // A lost write fails the test in 20 s.
        command[2] = "--self";
        System.arraycopy(args, 0, command, 3, args.length);
        final CommandRun run = CommandRun.run(command);
        assertEquals(0, run.status, run::toString);
        ROOT.assertEmpty();
        return run;
    }
}
