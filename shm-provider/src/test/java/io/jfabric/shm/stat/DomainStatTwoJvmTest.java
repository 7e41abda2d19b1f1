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
package io.jfabric.shm.stat;

import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.testsupport.ChildJvm;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DomainStat} over a live domain of two JVMs: this one holds slot 0 and never reads its completion queue;
 * a {@link StatPeerMain} child holds slot 1, has left {@link StatPeerMain#PARKED} messages in this endpoint's lane,
 * and keeps sending to itself. The last test kills the child.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DomainStatTwoJvmTest
{
    private static final String DOMAIN = "stat";

    private LiveDomain live;
    private ChildJvm child;
    private Path regionFile;

    @BeforeAll
    void openDomainWithAChild() throws Exception
    {
        live = new LiveDomain(DOMAIN);
        child = live.child();
        regionFile = live.regionFile();
    }

    @AfterAll
    void closeDomain() throws Exception
    {
        live.close();
    }

    @Test
    @Order(1)
    void shouldShowBothEndpointsWithTheirLiveOwnersAndAddresses()
    {
        final DomainStat stat = DomainStat.read(regionFile);

        assertEquals(List.of(0, 1), stat.slots().stream().map(SlotStat::slot).collect(Collectors.toList()));
        final SlotStat mine = stat.slot(0);
        final SlotStat theirs = stat.slot(1);
        assertEquals(ProcessIdentity.self(), mine.owner());
        assertEquals(child.pid(), theirs.ownerPid());
        assertTrue(mine.ownerAlive() && theirs.ownerAlive(), stat::toString);
        assertEquals("ACTIVE", mine.stateName());
        assertEquals(SlotDescriptor.STATE_ACTIVE, theirs.state());
        assertEquals(live.localAddress(), mine.address());
        assertEquals(live.childAddress(), theirs.address());
        assertTrue(theirs.heartbeatMs() > 0 && theirs.heartbeatMs() <= stat.sampledAtMs(), theirs::toString);
        assertEquals(ProcessIdentity.self(), mine.cqOwner(), "this process's CQ took completion ring 0");
    }

    @Test
    @Order(2)
    void shouldShowTheHeaderAndBothProcessesOfTheUserTable() throws Exception
    {
        final DomainStat stat = DomainStat.read(regionFile);

        assertEquals(DOMAIN, stat.domainName());
        assertEquals(RegionDescriptor.LAYOUT_VERSION, stat.layoutVersion());
        assertEquals(4, stat.geometry().slotCount());
        assertEquals(Files.size(regionFile), stat.fileLength());
        assertEquals(ProcessHandle.current().pid(), stat.creatorPid(), "this process created the region");
        assertTrue(stat.ageMs() >= 0 && stat.regionNonce() != 0, stat::toString);
        assertEquals(2, stat.attachCount());
        assertTrue(stat.stillLinked());
        // Sorted on both sides: pids wrap around, so the child's may be the smaller.
        assertEquals(Stream.of(ProcessHandle.current().pid(), child.pid()).sorted().collect(Collectors.toList()),
            stat.users().stream().map(RegionUser::pid).sorted().collect(Collectors.toList()));
        assertTrue(stat.users().stream().allMatch(RegionUser::alive), stat::toString);
    }

    @Test
    @Order(3)
    void shouldShowTheMessagesLeftInTheLaneFromTheChild()
    {
        final SlotStat mine = DomainStat.read(regionFile).slot(0);

        assertEquals(1, mine.lanes().size(), mine.lanes()::toString);
        final RingStat lane = mine.lanes().get(0);
        assertEquals(RingStat.Kind.LANE, lane.kind());
        assertEquals(1, lane.sender());
        assertEquals(4096, lane.capacity());
        assertTrue(lane.occupancy() > StatPeerMain.PARKED * StatPeerMain.PARKED_LENGTH &&
            lane.occupancy() < 2 * StatPeerMain.PARKED * StatPeerMain.PARKED_LENGTH, lane::toString);
        assertEquals(lane.producerPosition(), lane.occupancy(), "nothing was consumed: " + lane);
        assertTrue(lane.senderIncarnation() > 0, lane::toString);
    }

    @Test
    @Order(4)
    void shouldSeeTheChildsSendCountsMoveBetweenTwoSamples() throws Exception
    {
        try (RegionImage image = RegionImage.open(regionFile))
        {
            final PathCounts first = DomainStat.sample(image).slot(1).sends();
            PathCounts second = first;
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (second.inline() == first.inline() && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
                second = DomainStat.sample(image).slot(1).sends();
            }

            assertTrue(first.inline() >= StatPeerMain.PARKED, first::toString);
            final String seen = first + " then " + second;
            assertTrue(second.inline() > first.inline(), () -> seen + "; child printed: " + child.output());
            assertEquals(0, second.segmented() + second.rendezvous() + second.claimed(), second::toString);
            assertTrue(DomainStat.sample(image).slot(1).lanes().stream().anyMatch(l -> l.sender() == 1),
                "the child's own lane to itself is in use");
        }
    }

    @Test
    @Order(5)
    void shouldNeverWriteToTheRegionFile() throws Exception
    {
        final byte[] header = headerPage();

        for (int i = 0; i < 20; i++)
        {
            DomainStat.read(regionFile);
        }

        assertArrayEquals(header, headerPage(), "the header page, user table included, is unchanged");
        assertEquals(2, DomainStat.read(regionFile).attachCount(), "reading is not an open");
    }

    @Test
    @Order(6)
    void shouldShowTheChildGoneOnceItIsKilled() throws Exception
    {
        child.kill();

        final DomainStat stat = DomainStat.read(regionFile);

        final SlotStat theirs = stat.slot(1);
        assertNotNull(theirs, "a dead owner's slot stays until reclaimed");
        assertEquals(child.pid(), theirs.ownerPid());
        assertFalse(theirs.ownerAlive(), theirs::toString);
        assertFalse(stat.users().stream().filter(u -> u.pid() == child.pid()).findFirst().orElseThrow().alive());
        assertTrue(stat.slot(0).ownerAlive());
    }

    private byte[] headerPage() throws Exception
    {
        try (var in = Files.newInputStream(regionFile))
        {
            return in.readNBytes(4096);
        }
    }
}
