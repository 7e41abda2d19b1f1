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
import io.jfabric.shm.stat.DomainStat;
import io.jfabric.shm.stat.RingStat;
import io.jfabric.shm.stat.SlotStat;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.tools.CommandRun;
import io.jfabric.tools.JfabricMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pingpong --endpoints N} ({@link Crowd}) in real runs between this JVM (the client) and a server JVM, over a
 * root of the class's own whose domains take {@link #EP_COUNT} endpoints: the run's rows, the limits of N, and, read
 * from the live domain region with {@link DomainStat}, that during the measurement N endpoints are attached and both
 * measured endpoints hold a connected, drained, idle lane from each of the N - 2 others.
 */
class PingpongEndpointsTest
{
    /** The domain's ep_cnt in this class: its region's endpoint slots. */
    private static final int EP_COUNT = 8;

    @RegisterExtension
    static final OwnShmRoot ROOT = OwnShmRoot.use("jfabric-endpoints-", EP_COUNT);

    @Test
    void shouldPingpongWithAsManyEndpointsAsTheDomainTakesAndSaySo() throws IOException
    {
        final CommandRun run = CommandRun.run("pingpong", "--self", "--timeout", "20", "--endpoints",
            Integer.toString(EP_COUNT), "-S", "64", "-I", "1000", "-W", "100", "-c");
        assertEquals(0, run.status, run::toString);
        final List<String> lines = run.out.lines().toList();
        assertEquals(List.of(
            "# warm-up, not counted: the first 100 round trips of each size (-W)",
            "# measured: 1000 round trips of each size (-I)",
            "# endpoints: 8 attached to the domain: the 2 measured and 6 idle ones the server opened, each of which " +
                "sent to both measured endpoints first (--endpoints)",
            PerfFormat.header().trim()), List.of(lines.get(0), lines.get(1), lines.get(2), lines.get(3).trim()),
            run::toString);
        assertEquals(6, lines.size(), run::toString);
        assertTrue(lines.get(4).matches("64 +1k +=1k +.*"), run::toString);
        assertTrue(lines.get(5).matches("rtt_ns p50=\\d+ p90=\\d+ p99=\\d+ p99\\.9=\\d+ max=\\d+ rounds=1000"),
            run::toString);
        ROOT.assertEmpty();
    }

    @Test
    void shouldPingpongTaggedMessagesWithExtraEndpoints() throws IOException
    {
        final CommandRun run = CommandRun.run("pingpong", "--self", "--timeout", "20", "--endpoints", "3",
            "--tagged", "-S", "0,64", "-I", "100", "-W", "10", "-c");
        assertEquals(0, run.status, run::toString);
        assertEquals(2, run.out.lines().filter(line -> line.startsWith("rtt_ns") && line.endsWith("rounds=100"))
            .count(), run::toString);
        ROOT.assertEmpty();
    }

    @Test
    void shouldRefuseMoreEndpointsThanTheDomainTakes() throws IOException
    {
        final CommandRun run = CommandRun.run("pingpong", "--self", "--endpoints", Integer.toString(EP_COUNT + 1),
            "-S", "64");
        assertEquals(1, run.status, run::toString);
        assertTrue(run.err.contains("--endpoints 9 is more than the domain takes: its ep_cnt is 8 (for the shm " +
            "provider, raise it with -Djfabric.shm.ep.count=9 or JFABRIC_SHM_EP_COUNT=9)"), run::toString);
        assertEquals("", run.out, "nothing ran");
        ROOT.assertEmpty();
    }

    @Test
    void shouldRefuseFewerThanTheTwoMeasuredEndpoints()
    {
        for (final String endpoints : new String[]{"1", "0", "-3"})
        {
            final CommandRun run = CommandRun.run("pingpong", "--self", "--endpoints", endpoints, "-S", "64");
            assertEquals(1, run.status, run::toString);
            assertTrue(run.err.contains("--endpoints must be at least 2 (the two measured ones), was " + endpoints),
                run::toString);
        }
    }

    @Test
    void shouldRefuseAServerWithOtherEndpoints() throws Exception
    {
        final PingpongOptions serverOptions = new PingpongOptions.Builder()
            .sizes(SizeList.parse("64"))
            .warmup(Warmup.of(1))
            .domain("crowd-mismatch")
            .timeoutSeconds(20)
            .endpoints(4)
            .build();
        try (ChildJvm server = ChildJvm.start(PeerLauncher.command(serverOptions)))
        {
            final CommandRun run = CommandRun.run("pingpong", "--role", "client", "--domain", "crowd-mismatch",
                "-S", "64", "-I", "10", "-W", "1", "--timeout", "20");
            final int serverStatus = server.awaitExit(30);
            assertEquals(Errno.FI_EINVAL, run.status, run::toString);
            assertTrue(run.err.contains(" endpoints=4"), run::toString);
            assertEquals(Errno.FI_EINVAL, serverStatus, server.output());
        }
    }

    /**
     * The worst case the option promises, seen in the live region: a pingpong that runs until stopped, sampled twice
     * while it measures.
     */
    @Test
    void shouldKeepEveryExtraEndpointConnectedToBothMeasuredEndpointsAndIdleDuringTheMeasurement() throws Exception
    {
        final String domain = "crowd-live";
        final Path region = RegionFile.regionPath(ROOT.path(), domain);
        final Process client = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            PeerLauncher.AGRONA_EXPORT, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-Djfabric.shm.dir=" + ROOT.path(), "-Djfabric.shm.ep.count=" + EP_COUNT,
            "-cp", System.getProperty("java.class.path"), JfabricMain.class.getName(),
            "pingpong", "--self", "--domain", domain, "--endpoints", Integer.toString(EP_COUNT), "--idle", "backoff",
            "-S", "64", "-I", "2000000000", "-W", "1", "--timeout", "60")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try
        {
            final Map<Integer, SlotStat> first = awaitMeasuring(region, client);
            Thread.sleep(300);
            final Map<Integer, SlotStat> second = measured(DomainStat.read(region));
            assertEquals(first.keySet(), second.keySet(), "the same two measured endpoints");
            final Integer[] pair = first.keySet().toArray(new Integer[0]);
            for (int i = 0; i < 2; i++)
            {
                final int receiver = pair[i];
                final int peer = pair[1 - i];
                assertTrue(lane(second.get(receiver), peer).producerPosition() >
                    lane(first.get(receiver), peer).producerPosition(), "the measurement goes on");
                for (final RingStat lane : second.get(receiver).lanes())
                {
                    if (lane.sender() != peer)
                    {
                        assertEquals(lane(first.get(receiver), lane.sender()).producerPosition(),
                            lane.producerPosition(), "extra endpoint " + lane.sender() + " stays idle");
                        assertTrue(lane.senderIncarnation() != 0, "still connected: " + lane);
                    }
                }
            }
        }
        finally
        {
            client.destroy();
            if (!client.waitFor(30, TimeUnit.SECONDS))
            {
                client.destroyForcibly();
            }
        }
    }

    /**
     * Wait until the region shows the run measuring with every extra endpoint connected: {@link #EP_COUNT}
     * endpoints enabled, and exactly two of them (the measured ones) each holding a lane from each of the others,
     * those from the extra endpoints written and all read (their message received).
     *
     * @return the two measured endpoints' slots.
     */
    private static Map<Integer, SlotStat> awaitMeasuring(final Path region, final Process client)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String last = "no region";
        while (System.nanoTime() - deadline < 0)
        {
            final String seen = last;
            assertTrue(client.isAlive(), () -> "the pingpong ended early; last seen: " + seen);
            try
            {
                final DomainStat stat = DomainStat.read(region);
                last = stat.toString();
                final long enabled = stat.slots().stream()
                    .filter(s -> s.hasEndpoint() && s.stateName().equals("ACTIVE")).count();
                final Map<Integer, SlotStat> measured = measured(stat);
                if (enabled == EP_COUNT && measured.size() == 2 && measured.values().stream().allMatch(
                    s -> connectedLanes(s) == EP_COUNT - 1 && extraLanesDrained(s, measured.keySet())))
                {
                    assertEquals(2, stat.slots().stream().filter(s -> connectedLanes(s) > 0).count(),
                        "nothing sends to the extra endpoints: " + stat);
                    return measured;
                }
            }
            catch (final FabricException notYet)
            {
                last = notYet.toString(); // No region yet, or a moment before its endpoints.
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the region never showed " + EP_COUNT + " endpoints with both measured ones " +
            "polling a lane from each of the others; last seen: " + last);
    }

    /** @return the slots that hold at least two connected lanes (the measured endpoints, once the setup is done). */
    private static Map<Integer, SlotStat> measured(final DomainStat stat)
    {
        final Map<Integer, SlotStat> measured = new HashMap<>();
        for (final SlotStat slot : stat.slots())
        {
            if (connectedLanes(slot) >= 2)
            {
                measured.put(slot.slot(), slot);
            }
        }
        return measured;
    }

    private static long connectedLanes(final SlotStat slot)
    {
        return slot.lanes().stream().filter(lane -> lane.senderIncarnation() != 0).count();
    }

    /** @return true when every lane into {@code slot} from a sender that is not a measured endpoint was read. */
    private static boolean extraLanesDrained(final SlotStat slot, final Set<Integer> measured)
    {
        return slot.lanes().stream().filter(lane -> !measured.contains(lane.sender()))
            .allMatch(lane -> lane.producerPosition() > 0 && lane.occupancy() == 0);
    }

    private static RingStat lane(final SlotStat slot, final int sender)
    {
        return slot.lanes().stream().filter(lane -> lane.sender() == sender).findFirst()
            .orElseThrow(() -> new AssertionError("no lane from " + sender + " into " + slot));
    }

    @Test
    void shouldNotCountTheDefaultTwoInTheAgreement()
    {
        final PingpongOptions.Builder settings = new PingpongOptions.Builder()
            .sizes(SizeList.parse("64"))
            .warmup(Warmup.of(1))
            .domain("pp")
            .timeoutSeconds(20);
        final PingpongOptions two = settings.build();
        assertEquals(PingpongOptions.DEFAULT_ENDPOINTS, two.endpoints());
        assertTrue(!two.agreement().contains("endpoints"), two::agreement);
        assertNotEquals(two.agreement(), settings.endpoints(3).build().agreement());
    }
}
