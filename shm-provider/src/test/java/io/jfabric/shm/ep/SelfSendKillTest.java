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
package io.jfabric.shm.ep;

import io.jfabric.Fabric;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SpscLaneDescriptor;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A process SIGKILLed while it sends to its own address (issue 26, item 7), as the README's quick start does: inside
 * a zero-copy claim, or at a random moment of a stream of sends to itself (mostly in the middle of copying a
 * record). The next process that takes its endpoint slot then injects 50 messages to its own address: every one must
 * be delivered. Before the fix the dead process's unfinished record stayed at the head of the slot's lane to itself
 * and the newcomer, whose incarnation the lane then named as its sender, was taken for the live producer of that
 * record: its injects were accepted and never delivered (0 of 50), with no error. Real child JVMs, real region.
 */
class SelfSendKillTest
{
    private static final int RANDOM_KILLS = 10;
    /** Runs at most, until one kill lands inside a record (where the kill falls is chance). */
    private static final int MAX_RANDOM_KILLS = 40;
    /** Few slots with large lanes: a lane record of 64 KiB, so a sender is mostly in the middle of copying one. */
    private static final List<String> SETTINGS = List.of("ep.count=4", "rx.ring.bytes=524288");

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private ShmDomain domain;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider(key -> SETTINGS.stream().filter(p -> p.startsWith(key + "="))
            .map(p -> p.substring(key.length() + 1)).findFirst().orElse(null));
        final Info hints = new Info();
        hints.domainAttr().name("self");
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        domain = (ShmDomain)opened.keep(fabric.domain(info, 0));
    }

    @AfterEach
    void close() throws Exception
    {
        opened.close();
        root.close();
    }

    @Test
    void shouldDeliverTheNextProcesssInjectsAfterAKillInsideAnOpenClaim() throws Exception
    {
        final ChildJvm first = opened.keep(start());
        final String addr = first.awaitResult(60).get("addr");
        first.tell("claim");
        assertEquals("0", first.awaitResult(30).get("claimed"));
        assertTrue(leftPartWay(slotOf(addr)), "the claim is open at the head of the slot's lane to itself");
        first.kill();

        assertAllDelivered(addr);
    }

    @Test
    void shouldDeliverTheNextProcesssInjectsAfterKillsInTheMiddleOfSends() throws Exception
    {
        int partWay = 0;
        int run = 0;
        for (; run < RANDOM_KILLS || partWay == 0 && run < MAX_RANDOM_KILLS; run++)
        {
            final ChildJvm first = opened.keep(start());
            final String addr = first.awaitResult(60).get("addr");
            first.tell("stream " + (run % 2 == 0 ? 4 << 20 : 60_000));
            assertEquals("1", first.awaitResult(30).get("streaming"));
            Thread.sleep(ThreadLocalRandom.current().nextInt(20, 200));
            first.kill();
            if (leftPartWay(slotOf(addr)))
            {
                partWay++;
            }
            assertAllDelivered(addr);
        }
        assertTrue(partWay > 0, "a kill landed inside a record in " + partWay + " of " + run + " runs");
    }

    /** The next process takes the dead one's slot and injects 50 messages to itself: all must arrive. */
    private void assertAllDelivered(final String addr) throws Exception
    {
        try (ChildJvm next = start(addr))
        {
            assertEquals(slotOf(addr), slotOf(next.awaitResult(60).get("addr")), "the next process took the slot");
            next.tell("inject 50 64");
            final Map<String, String> result = next.awaitResult(60);
            assertEquals("50", result.get("injected"), result.toString());
            assertEquals("0", result.get("errors"), result.toString());
            assertEquals("50", result.get("delivered"), "every inject it accepted arrived: " + result);
            next.tell("exit");
        }
    }

    private ChildJvm start(final String... slotAddress) throws Exception
    {
        final String[] args = slotAddress.length == 0 ? new String[] { "self" } :
            new String[] { "self", slotAddress[0] };
        final List<String> properties = new java.util.ArrayList<>(List.of("jfabric.shm.dir=" + root.dir()));
        SETTINGS.forEach(p -> properties.add("jfabric.shm." + p));
        return ChildJvm.start(SelfSendPeerMain.class, properties, args);
    }

    private static int slotOf(final String addr)
    {
        final int colon = addr.lastIndexOf(':');
        return Integer.parseInt(addr.substring(colon + 1, addr.indexOf('/', colon)));
    }

    /** @return whether the slot's lane to itself holds a record its dead writer never finished. */
    private boolean leftPartWay(final int slot)
    {
        final RegionGeometry g = domain.region().geometry();
        final SpscLane lane = new SpscLane(new UnsafeBuffer(domain.region().buffer(),
            RegionDescriptor.laneOffset(g, slot, slot), RegionDescriptor.laneLength(g.rxRingBytes())));
        final long tail = lane.producerPosition();
        for (long position = lane.consumerPosition(); position < tail; )
        {
            final int length = SpscLaneDescriptor.recordLength(lane.buffer().getLong((int)position & (lane.capacity() - 1)));
            if (length <= 0)
            {
                return true;
            }
            position += SpscLaneDescriptor.alignedLength(length - SpscLaneDescriptor.HEADER_LENGTH);
        }
        return false;
    }
}
