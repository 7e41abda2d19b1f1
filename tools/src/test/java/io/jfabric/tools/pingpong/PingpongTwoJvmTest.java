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
import io.jfabric.tools.JfabricMain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Real pingpongs between this JVM (the client, in-process) and a server JVM over a real domain region in a root
 * directory of its own ({@code jfabric.shm.dir}, which the server inherits), with every byte checked ({@code -c}).
 * <p>
 * The client finds the shm provider through {@code Fabrics.getInfo}, and that provider reads its settings once per
 * JVM, on first use: so the root and the region geometry are set once for the class, before any provider use, and
 * the tools' tests run each class in a JVM of its own (surefire {@code reuseForks=false}, tools/pom.xml). Every test
 * must leave the root empty; whatever one leaves is removed after it, so the next starts clean.
 */
class PingpongTwoJvmTest
{
    private static final String ROOT_PROPERTY = "jfabric.shm.dir";

    private static Path root;

    @BeforeAll
    static void useOwnRoot()
    {
        root = Path.of(Files.isDirectory(Path.of("/dev/shm")) ? "/dev/shm" : System.getProperty("java.io.tmpdir"),
            "jfabric-pingpong-" + UUID.randomUUID());
        System.setProperty(ROOT_PROPERTY, root.toString());
        System.setProperty("jfabric.shm.ep.count", "4"); // A small region: 4 slots.
    }

    @AfterEach
    void emptyRoot() throws IOException
    {
        delete(root, false);
    }

    @AfterAll
    static void removeRoot() throws IOException
    {
        System.clearProperty(ROOT_PROPERTY);
        System.clearProperty("jfabric.shm.ep.count");
        delete(root, true);
    }

    private static void delete(final Path dir, final boolean itself) throws IOException
    {
        if (Files.exists(dir))
        {
            try (Stream<Path> paths = Files.walk(dir))
            {
                paths.sorted(Comparator.reverseOrder()).filter(path -> itself || !path.equals(dir))
                    .forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void shouldPingpongEverySizeWithFiPingpongsRowsAndRoundTripsThenDeleteTheDomain() throws IOException
    {
        final Run run = runCleanly("--domain", "pp", "-S", "0,64,4096,70000", "-I", "200", "-W", "20", "-c");
        final List<String> lines = run.out.lines().toList();
        assertEquals("# warm-up, not counted: the first 20 round trips of each size (-W)", lines.get(0), run::toString);
        assertEquals("# measured: 200 round trips of each size (-I)", lines.get(1), run::toString);
        assertEquals(PerfFormat.header().trim(), lines.get(2).trim(), run::toString);
        assertEquals(3 + 4 * 2, lines.size(), run::toString);
        final String[] sizes = {"0", "64", "4k", "68k"};
        for (int i = 0; i < sizes.length; i++)
        {
            final String[] row = lines.get(3 + 2 * i).trim().split(" +");
            assertEquals(sizes[i], row[0], run::toString);
            assertEquals("200", row[1], run::toString);
            assertEquals("=200", row[2], run::toString);
            assertTrue(Double.parseDouble(row[6]) > 0, run::toString);
            final String rtt = lines.get(4 + 2 * i);
            assertTrue(rtt.matches("rtt_ns p50=\\d+ p90=\\d+ p99=\\d+ p99\\.9=\\d+ max=\\d+ rounds=200"), rtt);
        }
    }

    @Test
    void shouldWarmUpLargeSizesByAtMostOneGibibyteByDefaultAndSaySo() throws IOException
    {
        final Run run = runCleanly("-S", "1m", "-I", "10"); // 1024 warm-up round trips: 1 GiB each way
        assertTrue(run.out.startsWith("# warm-up, not counted: the first " + Warmup.DEFAULT_ROUND_TRIPS +
            " round trips of each size, or as many as carry 1g each way if fewer (-W)\n" +
            "# measured: 10 round trips of each size (-I)\n" + PerfFormat.header()), run::toString);
        assertTrue(run.out.contains("\n1m      10      =10 "), run::toString);
    }

    @Test
    void shouldMeasureEnoughRoundTripsForTheP999ByDefault() throws IOException
    {
        final Run run = runCleanly("-S", "64,1m", "-W", "10");
        assertTrue(run.out.startsWith("# warm-up, not counted: the first 10 round trips of each size (-W)\n" +
            "# measured: " + Iterations.PINGPONG_MOST + " round trips of each size, or as many as carry 1g each way " +
            "if fewer, at least " + Iterations.FEWEST_FOR_P999 + " (-I)\n"), run::toString);
        assertTrue(run.out.contains("rounds=" + Iterations.PINGPONG_MOST + "\n"), run::toString);
        assertTrue(run.out.contains("rounds=1024\n"), "1 GiB each way at 1 MiB: " + run);
        assertFalse(run.err.contains("# warning"), run::toString);
    }

    @Test
    void shouldWarnOnStderrWhenTooFewRoundTripsForTheP999() throws IOException
    {
        final Run run = runCleanly("-S", "64", "-I", "200", "-W", "10");
        assertTrue(run.err.contains("# warning: size 64: 200 timed round trips are too few for the percentiles " +
            "printed (p99 needs 100, p99.9 1000): their tail is the slowest few; raise -I\n"), run::toString);
        assertFalse(run.out.contains("warning"), "stdout stays fi_pingpong's table: " + run);
    }

    @Test
    void shouldRunFiPingpongsAllSizesUpToSixMebibytes() throws IOException
    {
        final Run run = runCleanly("-S", "all", "-I", "10", "-W", "1", "-c");
        assertEquals(46, run.rttLines(), run::toString);
        assertTrue(run.out.contains("\n6m      10      =10 "), run::toString);
    }

    @Test
    void shouldTakeSizesWithKAndMSuffixesOnBothSides() throws IOException
    {
        final Run run = runCleanly("-S", "1k,64K,1m", "-I", "20", "-W", "2", "-c");
        final List<String> rows = run.out.lines().filter(line -> line.contains("=20 ")).toList();
        assertEquals(3, rows.size(), run::toString);
        assertTrue(rows.get(0).startsWith("1k ") && rows.get(1).startsWith("64k ") && rows.get(2).startsWith("1m "),
            run::toString);
    }

    @Test
    void shouldSegmentLargeMessagesFromUnregisteredMemory() throws IOException
    {
        final Run run = runCleanly("--unregistered", "-S", "65536,1048576", "-I", "20", "-W", "2", "-c");
        assertTrue(run.out.contains("\n1m      20      =20 "), run::toString);
    }

    @Test
    void shouldPingpongTaggedMessages() throws IOException
    {
        final Run run = runCleanly("--tagged", "-S", "1,64", "-I", "100", "-W", "10", "-c");
        assertTrue(run.out.contains("rounds=100"), run::toString);
    }

    @Test
    void shouldPingpongThroughZeroCopyClaims() throws IOException
    {
        final Run run = runCleanly("--claim", "-S", "8,64,4096", "-I", "100", "-W", "10", "-c");
        assertEquals(3, run.rttLines(), run::toString);
    }

    @Test
    void shouldFindTheShmProviderThroughGetinfoWithDashP() throws IOException
    {
        final Run run = runCleanly("-p", "shm", "-S", "64", "-I", "100", "-W", "10", "-c");
        assertEquals(1, run.rttLines(), run::toString);
        assertTrue(run.out.contains("rounds=100"), run::toString);
    }

    @ParameterizedTest
    @ValueSource(strings = {"busy", "yield", "backoff", "sleep"})
    void shouldPingpongWithEachIdleMode(final String idle) throws IOException
    {
        final Run run = runCleanly("--idle", idle, "-S", "64,4096", "-I", "50", "-W", "10", "-c");
        assertEquals(2, run.rttLines(), run::toString);
        assertTrue(run.out.contains("rounds=50"), run::toString);
    }

    @Test
    void shouldDrawEverySizesPercentilesIntoOnePng(@TempDir final Path dir) throws IOException
    {
        final Path png = dir.resolve("rtt.png");
        final Run run = runCleanly("-S", "64,4096", "-I", "300", "-W", "10", "--plot", png.toString());
        assertTrue(run.out.contains("# percentile plot: " + png + "\n"), run::toString);
        final byte[] bytes = Files.readAllBytes(png);
        assertEquals(0x89, bytes[0] & 0xff, "PNG signature");
        assertEquals("PNG", new String(bytes, 1, 3, java.nio.charset.StandardCharsets.US_ASCII));
        final java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(png.toFile());
        assertEquals(PercentilePlot.WIDTH, image.getWidth());
        assertEquals(PercentilePlot.HEIGHT, image.getHeight());
        int colours = 0;
        final java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int x = 0; x < image.getWidth(); x += 7)
        {
            for (int y = 0; y < image.getHeight(); y += 7)
            {
                if (seen.add(image.getRGB(x, y)))
                {
                    colours++;
                }
            }
        }
        assertTrue(colours > 3, "something was drawn: " + colours + " colours");
    }

    @Test
    void shouldRefusePlotOnTheServerSide()
    {
        final Run run = run("pingpong", "--role", "server", "--plot", "/tmp/x.png");
        assertEquals(1, run.status, run::toString);
        assertTrue(run.err.contains("--plot is the client's"), run::toString);
    }

    @Test
    void shouldKeepEachSizesRoundTripDistributionInAFileOfItsOwn(@TempDir final Path dir) throws IOException
    {
        final Path hgrm = dir.resolve("rtt.hgrm");
        final Run run = runCleanly("-S", "64,4096", "-I", "300", "-W", "10", "--hgrm", hgrm.toString());
        final List<String> lines = run.out.lines().toList();
        assertEquals(3 + 2 * 3, lines.size(), run::toString);
        for (final int size : new int[]{64, 4096})
        {
            final Path file = dir.resolve("rtt-" + size + ".hgrm");
            assertTrue(lines.contains("# distribution (ns): " + file), run::toString);
            final HgrmParse parsed = HgrmParse.read(file);
            assertEquals("# jfabric pingpong: round trips of " + size + "-byte messages, Value in ns, " +
                "300 round trips", parsed.header);
            assertEquals(300, parsed.lastTotalCount, "the distribution counts every timed round trip");
            assertEquals(300, parsed.footerTotalCount);
            assertTrue(parsed.firstValue > 0 && parsed.lastValue == parsed.footerMax, file::toString);
        }
        try (Stream<Path> files = Files.list(dir))
        {
            assertEquals(2, files.count(), "one file per size, nothing else");
        }
    }

    @Test
    void shouldKeepTheDomainsRegionFileWhenAsked() throws IOException
    {
        final Run run = run("pingpong", "--self", "--keep", "--domain", "kept", "-S", "64", "-I", "10", "-W", "0");
        assertEquals(0, run.status, run::toString);
        try (Stream<Path> files = Files.list(root))
        {
            assertEquals(List.of(root.resolve("kept.domain")), files.toList(), "only the region is kept");
        }
    }

    @Test
    void shouldRefuseAServerRunningOtherSettings() throws Exception
    {
        final PingpongOptions serverOptions = new PingpongOptions.Builder()
            .sizes(SizeList.parse("64"))
            .iterations(Iterations.of(100))
            .warmup(Warmup.of(10))
            .domain("mismatch")
            .timeoutSeconds(20)
            .build();
        try (ChildJvm server = ChildJvm.start(PeerLauncher.command(serverOptions)))
        {
            final Run run = run("pingpong", "--role", "client", "--domain", "mismatch", "-S", "64", "-I", "200",
                "-W", "10", "--timeout", "20");
            assertTrue(exited(server, 30), () -> "the server still runs; its threads:\n" + threadDump(server));
            final int serverStatus = server.awaitExit(30);
            final String serverOutput = server.output();
            assertEquals(Errno.FI_EINVAL, run.status, () -> run + "\n--- the server (exit " + serverStatus +
                ")\n" + serverOutput);
            assertTrue(run.err.contains("the server runs jfabric-pingpong/1 1 sizes 64..64 crc "), run::toString);
            assertEquals(Errno.FI_EINVAL, serverStatus, serverOutput);
            assertTrue(serverOutput.contains("but this server runs"), serverOutput);
        }
    }

    @Test
    void shouldTimeOutWhenNoServerShowsUp()
    {
        final Run run = run("pingpong", "--role", "client", "--domain", "alone", "-S", "64", "--timeout", "1");
        assertEquals(Errno.FI_ETIMEDOUT, run.status, run::toString);
        assertTrue(run.err.contains("--role server --domain alone"), run::toString);
    }

    @Test
    void shouldRemoveEveryFileTheServerCreatedWhenNoClientShowsUp() throws IOException
    {
        final Run run = run("pingpong", "--role", "server", "--domain", "lonely", "-S", "64", "--timeout", "1");
        assertEquals(Errno.FI_ETIMEDOUT, run.status, run::toString);
        assertTrue(run.err.contains("--role client --domain lonely"), run::toString);
        assertNoFilesLeft();
    }

    @Test
    void shouldRemoveEveryFileTheClientCreatedWhenNoServerShowsUp() throws IOException
    {
        final Run run = run("pingpong", "--role", "client", "--domain", "alone", "-S", "64", "--timeout", "1");
        assertEquals(Errno.FI_ETIMEDOUT, run.status, run::toString);
        assertNoFilesLeft();
    }

    @Test
    void shouldRemoveEveryFileTheServerCreatedWhenStoppedWithCtrlC() throws Exception
    {
        // A JVM started with SIGINT ignored (every job a non-interactive shell puts in the background, and what it
        // starts) installs no handler for it, and the server it starts inherits that: Ctrl-C cannot reach it.
        assumeFalse(sigintIgnored(), "SIGINT is ignored in this process (started as a background job of a " +
            "non-interactive shell), so the server it starts would ignore it too");
        final PingpongOptions options = new PingpongOptions.Builder()
            .sizes(SizeList.parse("64"))
            .warmup(Warmup.of(10))
            .domain("interrupted")
            .build();
        try (ChildJvm server = ChildJvm.start(PeerLauncher.command(options)))
        {
            final Path published = root.resolve("interrupted.pingpong-server");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!Files.exists(published))
            {
                assertTrue(System.nanoTime() - deadline < 0, "the server did not publish its address in 20 s");
                assertTrue(server.alive(), () -> "the server exited: " + server.output());
                Thread.sleep(10);
            }
            assertTrue(Files.exists(root.resolve("interrupted.domain")), "the server created the domain");
            server.signal("-INT");
            if (!exited(server, 20))
            {
                fail("the server did not stop on SIGINT in 20 s; its threads:\n" + threadDump(server));
            }
            assertEquals(130, server.awaitExit(30), server::output);
            assertNoFilesLeft();
        }
    }

    @Test
    void shouldRemoveEveryFileOfBothSidesWhenTheyDisagree() throws Exception
    {
        shouldRefuseAServerRunningOtherSettings();
        assertNoFilesLeft();
    }

    /**
     * Wait, while it runs, for a child to exit; one that does not is left running, for {@link #threadDump}.
     *
     * @return whether it exited within {@code seconds}.
     */
    private static boolean exited(final ChildJvm child, final long seconds) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (child.alive() && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(10);
        }
        return !child.alive();
    }

    /**
     * @return the threads of a running JVM ({@code jcmd PID Thread.print}), or why they could not be had: jcmd's
     * output and errors in one text, shown as they are in a failure message.
     */
    private static String threadDump(final ChildJvm child)
    {
        try
        {
            final Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(child.pid()), "Thread.print").redirectErrorStream(true).start();
            final String dump = new String(jcmd.getInputStream().readAllBytes());
            jcmd.waitFor(20, TimeUnit.SECONDS);
            return dump;
        }
        catch (final IOException | InterruptedException ex)
        {
            return "no thread dump: " + ex;
        }
    }

    /** Run {@code pingpong --self} with {@code args}, which must succeed and leave no file in the root. */
    private Run runCleanly(final String... args) throws IOException
    {
        final String[] command = new String[args.length + 2];
        command[0] = "pingpong";
        command[1] = "--self";
        System.arraycopy(args, 0, command, 2, args.length);
        final Run run = run(command);
        assertEquals(0, run.status, run::toString);
        assertNoFilesLeft();
        return run;
    }

    private void assertNoFilesLeft() throws IOException
    {
        try (Stream<Path> files = Files.list(root))
        {
            final List<Path> left = files.toList();
            assertTrue(left.isEmpty(), "left in the root: " + left);
        }
        assertFalse(Files.exists(root.resolve("pp.domain")));
    }

    private static Run run(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final String[] bounded = new String[args.length + 1];
        bounded[0] = args[0];
        bounded[1] = "--timeout=10"; // A lost message fails the test in 10 s; a later --timeout wins.
        System.arraycopy(args, 1, bounded, 2, args.length - 1);
        final int status = JfabricMain.execute(new PrintWriter(out), new PrintWriter(err), bounded);
        return new Run(status, out.toString(), err.toString());
    }

    private static final class Run
    {
        final int status;
        final String out;
        final String err;

        Run(final int status, final String out, final String err)
        {
            this.status = status;
            this.out = out;
            this.err = err;
        }

        long rttLines()
        {
            return out.lines().filter(line -> line.startsWith("rtt_ns")).count();
        }

        @Override
        public String toString()
        {
            return "status " + status + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    /** @return whether this process ignores SIGINT (SigIgn of /proc/self/status: bit 1 is signal 2). */
    private static boolean sigintIgnored() throws IOException
    {
        final Path status = Path.of("/proc/self/status");
        if (!Files.exists(status))
        {
            return false;
        }
        for (final String line : Files.readAllLines(status))
        {
            if (line.startsWith("SigIgn:"))
            {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }
}
