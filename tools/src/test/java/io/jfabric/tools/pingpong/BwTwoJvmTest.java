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
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.tools.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real {@code jfabric bw} runs between this JVM (the client, in-process) and a server JVM over a real domain region
 * in a root directory of its own ({@link OwnShmRoot}). A run exits 0 only when the data arrived: for messages the
 * server counted every message and byte of each size (and with {@code -c} checked every byte) and acknowledged them,
 * and the client checked the counts; for writes the server checked that its memory holds the bytes written; for
 * reads the client checked every slot it read into. Every run must leave the root empty.
 */
class BwTwoJvmTest
{
    @RegisterExtension
    static final OwnShmRoot ROOT = OwnShmRoot.use("jfabric-bw-");

    @ParameterizedTest
    @ValueSource(strings = {"msg", "tagged", "write", "read"})
    void shouldStreamEverySizeOfEveryModeAndPrintFabtestsColumns(final String mode) throws IOException
    {
        final CommandRun run = runCleanly("-o", mode, "-S", "0,64,4k,70000,1m", "-I", "300", "-W", "40", "-w",
            "16", "-c");
        final List<String> lines = run.out.lines().toList();
        assertEquals("# warm-up, not counted: the first 40 transfers of each size (-W)", lines.get(0), run::toString);
        assertEquals("# measured: 300 transfers of each size (-I)", lines.get(1), run::toString);
        assertTrue(lines.get(2).startsWith("# " + mode + ": windows of 16 "), run::toString);
        assertEquals(PerfFormat.bwHeader().trim(), lines.get(3).trim(), run::toString);
        assertEquals("bytes   iters   total       time     MB/sec    usec/xfer   Mxfers/sec", lines.get(3),
            "fabtests' show_perf header");
        assertEquals(4 + 5, lines.size(), run::toString);
        final String[] sizes = {"0", "64", "4k", "68k", "1m"};
        final String[] totals = {"0", "18k", "1.1m", "20m", "300m"};
        for (int i = 0; i < sizes.length; i++)
        {
            final String[] row = lines.get(4 + i).trim().split(" +");
            assertEquals(7, row.length, run::toString);
            assertEquals(sizes[i], row[0], run::toString);
            assertEquals("300", row[1], run::toString);
            assertEquals(totals[i], row[2], run::toString);
            assertTrue(row[3].endsWith("s") && Double.parseDouble(row[3].replace("s", "")) >= 0, run::toString);
            assertTrue(Double.parseDouble(row[4]) >= 0, run::toString);
            assertTrue(Double.parseDouble(row[5]) > 0, run::toString);
            assertTrue(Double.parseDouble(row[6]) >= 0, run::toString);
        }
    }

    @Test
    void shouldReuseDataSlotsWhenTheWindowOutgrowsThem() throws IOException
    {
        // 8 MiB messages: 64 MiB of receive slots hold 8 of them, so a window of 12 reuses 4.
        for (final String mode : new String[]{"msg", "read"})
        {
            final CommandRun run = runCleanly("-o", mode, "-S", "8m", "-I", "30", "-W", "3", "-w", "12", "-c");
            assertTrue(run.out.contains("\n8m      30      240m "), run::toString);
        }
    }

    @Test
    void shouldStreamWithAWindowOfOne() throws IOException
    {
        final CommandRun run = runCleanly("-S", "64,4k", "-I", "200", "-W", "0", "-w", "1", "-c");
        assertTrue(run.out.startsWith("# no warm-up (-W 0): every transfer is counted\n"), run::toString);
        assertEquals(2, run.out.lines().filter(line -> !line.startsWith("#") && line.contains(" 200 ")).count(),
            run::toString);
    }

    @Test
    void shouldStreamFromUnregisteredMemory() throws IOException
    {
        final CommandRun run = runCleanly("--unregistered", "-S", "1m", "-I", "50", "-W", "5", "-w", "8", "-c");
        assertTrue(run.out.contains("\n1m      50      50m "), run::toString);
    }

    @Test
    void shouldStreamTheDefaultSizes() throws IOException
    {
        final CommandRun run = runCleanly("-I", "100", "-W", "10", "-o", "write");
        final List<String> rows = run.out.lines().filter(line -> !line.startsWith("#") &&
            !line.startsWith("bytes")).toList();
        assertEquals(4, rows.size(), run::toString);
        assertTrue(rows.get(0).startsWith("64 ") && rows.get(1).startsWith("4k ") && rows.get(2).startsWith("64k ") &&
            rows.get(3).startsWith("1m "), run::toString);
    }

    @Test
    void shouldRefuseAServerWithAnotherWindow() throws Exception
    {
        final PingpongOptions serverOptions = new PingpongOptions.Builder()
            .tool(PerfTool.BW)
            .sizes(SizeList.parse("64"))
            .iterations(Iterations.of(100))
            .warmup(Warmup.of(10))
            .window(8)
            .domain("bw-mismatch")
            .timeoutSeconds(20)
            .build();
        try (ChildJvm server = ChildJvm.start(PeerLauncher.command(serverOptions)))
        {
            final CommandRun run = CommandRun.run("bw", "--timeout=20", "--role", "client", "--domain",
                "bw-mismatch", "-S", "64", "-I", "100", "-W", "10", "-w", "16");
            final int serverStatus = server.awaitExit(30);
            final String serverOutput = server.output();
            assertEquals(Errno.FI_EINVAL, run.status, run::toString);
            assertTrue(run.err.contains("the server runs jfabric-bw/1 1 sizes 64..64 crc "), run::toString);
            assertTrue(run.err.contains(" w=8"), run::toString);
            assertTrue(serverOutput.contains("give both sides the same -S, -I, -W, -c, -w and transfer mode"),
                serverOutput);
            assertEquals(Errno.FI_EINVAL, serverStatus, serverOutput);
        }
        ROOT.assertEmpty();
    }

    @Test
    void shouldTimeOutNamingBwsOwnRendezvousFileWhenNoServerShowsUp() throws Exception
    {
        final CommandRun run = CommandRun.run("bw", "--role", "client", "--domain", "alone", "-S", "64",
            "--timeout", "1");
        assertEquals(Errno.FI_ETIMEDOUT, run.status, run::toString);
        assertTrue(run.err.contains("bw: no server of domain 'alone' published its address in " +
            ROOT.path().resolve("alone.bw-server")), run::toString);
        ROOT.assertEmpty();
    }

    /** Run {@code bw --self} with {@code args}, which must succeed and leave no file in the root. */
    private static CommandRun runCleanly(final String... args) throws IOException
    {
        final String[] command = new String[args.length + 3];
        command[0] = "bw";
        command[1] = "--timeout=20"; // A lost message fails the test in 20 s.
        command[2] = "--self";
        System.arraycopy(args, 0, command, 3, args.length);
        final CommandRun run = CommandRun.run(command);
        assertEquals(0, run.status, run::toString);
        ROOT.assertEmpty();
        return run;
    }
}
