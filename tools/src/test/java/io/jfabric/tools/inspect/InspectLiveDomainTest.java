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
package io.jfabric.tools.inspect;

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.Domain;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Info;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.av.AvDescriptor;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.stat.DomainStat;
import io.jfabric.shm.stat.SlotStat;
import io.jfabric.tools.CommandRun;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric stat} and {@code jfabric dump} over a live domain of two JVMs ({@link LivePingpong}: a pingpong
 * client and its server, sending to each other), which this JVM opens too, with a named AV holding both endpoints'
 * addresses and a page of shareable memory.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InspectLiveDomainTest
{
    private static final Pattern SENDS = Pattern.compile("sends +inline (\\d+) \\(\\+(\\d+)\\)");

    private LivePingpong live;
    private Fabric fabric;
    private Domain domain;
    private AddressVector av;
    private ShareableMemory memory;
    private DomainStat atStart;

    @BeforeAll
    void startPingpongAndJoinIt() throws Exception
    {
        live = new LivePingpong("live");
        atStart = DomainStat.read(live.regionFile());
        final ShmProvider provider = live.provider();
        final Info hints = new Info();
        hints.domainAttr().name(live.domain());
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        av = domain.avOpen(new AvAttr().name("peers"), 0);
        av.insert(addresses().toArray(new String[0]), 2, new long[2], 0, 0);
        memory = domain.allocShareable(4096);
    }

    @AfterAll
    void leaveAndStopPingpong() throws Exception
    {
        try
        {
            memory.close();
            av.close();
            domain.close();
            fabric.close();
        }
        finally
        {
            live.close();
        }
    }

    @Test
    void statShouldShowTheRegionItsUsersAndBothEndpoints() throws Exception
    {
        final CommandRun run = CommandRun.run("stat", live.domain(), "--dir", live.root().toString());

        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.startsWith("domain live: " + live.regionFile().toRealPath() + "\n  region     layout " + RegionDescriptor.LAYOUT_VERSION + ", " +
            "nonce " + Text.hex(atStart.regionNonce())), run::toString);
        assertEquals(3, run.out.lines().filter(line -> line.matches("  user \\d+ +process \\d+ .* live")).count(),
            run::toString);
        for (final SlotStat slot : atStart.slots())
        {
            assertTrue(run.out.contains("  slot " + slot.slot() + "     ACTIVE gen " + slot.incarnation() +
                ", process " + slot.ownerPid() + " live, heartbeat "), run::toString);
            assertTrue(run.out.contains("             address    " + slot.address() + "\n"), run::toString);
        }
        assertEquals("", run.err);
    }

    @Test
    void statShouldShowSendCountsGrowingBetweenTwoSamplesAndHighWaterMarksWhenWatching()
    {
        final CommandRun run = CommandRun.run("stat", live.domain(), "--dir", live.root().toString(), "--watch", "0.3",
            "--samples", "2");

        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.startsWith("--- sample 1 at "), run::toString);
        final String second = run.out.substring(run.out.indexOf("--- sample 2 at "));
        final Matcher sends = SENDS.matcher(second);
        int growing = 0;
        while (sends.find())
        {
            growing += Long.parseLong(sends.group(2)) > 0 ? 1 : 0;
        }
        assertEquals(2, growing, "both endpoints sent between the samples:\n" + run);
        assertTrue(second.contains("             lane ") && second.contains("%), high "), run::toString);
    }

    @Test
    void statShouldShowEveryDomainOfTheRootWithoutAName()
    {
        final CommandRun run = CommandRun.run("stat", "--dir", live.root().toString());

        assertEquals(0, run.status, run::toString);
        assertEquals(1, run.out.lines().filter(line -> line.startsWith("domain ")).count(), run::toString);
    }

    @Test
    void dumpShouldListTheLiveRegionsHeaderUsersEndpointsAndKeyTable() throws Exception
    {
        final CommandRun run = CommandRun.run("dump", live.regionFile().toString());

        assertEquals(0, run.status, run::toString);
        final String out = run.out;
        assertTrue(out.startsWith(live.regionFile().toRealPath() + ": domain region, " +
            Files.size(live.regionFile()) + " bytes, inode " + atStart.inode() + "\n" +
            "jfabric clean would keep it: open in live process "), out);
        assertTrue(out.contains("\n       0  magic                  0x014349524241464a (\"JFABRIC\" 1)\n" +
            "       8  layout version         " + RegionDescriptor.LAYOUT_VERSION + "\n"), out);
        assertTrue(out.contains("     196  domain name            \"live\"\n"), out);
        assertTrue(out.matches("(?s).*\n     448  checksum               0x(\\w{8}) \\(the bytes before it sum to " +
            "0x\\1\\)\n.*"), out);
        assertTrue(out.contains("  slot 0     ACTIVE") && out.contains("  slot 1     ACTIVE"), out);
        assertTrue(out.matches("(?s).*\nkey table \\(offset \\d+\\): [1-9]\\d* of 64 entries in use\n  \\[\\d+] " +
            "published gen.*"), out);
    }

    @Test
    void dumpShouldTakeADomainNameAsStatDoes() throws Exception
    {
        final CommandRun byName = CommandRun.run("dump", "--dir", live.root().toString(), "live");
        final CommandRun byFile = CommandRun.run("dump", live.regionFile().toString());

        assertEquals(0, byName.status, byName::toString);
        assertTrue(byName.out.startsWith(live.regionFile().toRealPath() + ": domain region, "), byName::toString);
        assertEquals(byFile.out.lines().limit(4).toList(), byName.out.lines().limit(4).toList());
    }

    @Test
    void dumpShouldSayWhatItLookedForWhenANameIsNeitherAFileNorADomain()
    {
        final CommandRun run = CommandRun.run("dump", "--dir", live.root().toString(), "nosuch");

        assertEquals(Errno.FI_ENOENT, run.status, run::toString);
        assertTrue(run.err.contains("and no domain 'nosuch' under " + live.root() + " (no " +
            live.root().resolve("nosuch.domain") + "): give a file's path, or the name of a domain"), run::toString);
    }

    @Test
    void dumpShouldListTheLiveNamedAvWithBothAddresses()
    {
        final Path file = live.root().resolve(AvDescriptor.fileName("live", "peers", atStart.regionNonce()));

        final CommandRun run = CommandRun.run("dump", file.toString());

        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.contains("\n       0  magic                  0x015641524241464a (\"JFABRAV\" 1)\n"),
            run::toString);
        assertTrue(run.out.contains("     452  av name                \"peers\"\n"), run::toString);
        assertTrue(run.out.contains("2 of 16 in use\n"), run::toString);
        for (final String address : addresses())
        {
            assertTrue(run.out.contains(", address " + address + ", slot "), run::toString);
        }
    }

    @Test
    void dumpShouldListALiveSegmentWithItsOwner() throws Exception
    {
        final long pid = ProcessHandle.current().pid();
        final Path segment;
        try (Stream<Path> files = Files.list(live.root()))
        {
            segment = files.filter(f -> f.getFileName().toString().startsWith("live.seg." + pid + "."))
                .findFirst().orElseThrow();
        }

        final CommandRun run = CommandRun.run("dump", segment.toString());

        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.contains("jfabric clean would keep it: owned by live process " + pid), run::toString);
        assertTrue(run.out.contains("      24  owner pid              " + pid + "\n"), run::toString);
        assertTrue(run.out.endsWith("data: 4096 bytes at offset 4096 (the application's; not shown)\n"),
            run::toString);
    }

    private List<String> addresses()
    {
        return atStart.slots().stream().map(SlotStat::address).collect(Collectors.toList());
    }
}
