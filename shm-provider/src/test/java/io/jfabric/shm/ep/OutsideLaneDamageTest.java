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
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damage outside the lanes (issue 26, item 4): two peers in two JVMs run with Agrona's bounds checks off (as
 * {@code bin/jfabric} and the benchmarks run) and exchange delivery-complete messages (each acknowledged through the
 * sender's transmit ring), while this JVM writes garbage into one structure another process can write, about once a
 * millisecond for 3 s: the sender's acknowledgement ring (records and trailer, or only its positions), the
 * receiver's completion ring (records and trailer, or only its positions), either peer's endpoint slot header.
 * Neither peer may crash or see an exception, no message may
 * arrive twice, no error entry may have err 0, the damage must be reported on an EQ, and messages must flow again
 * within 3 s after the damage stops. Before the fix random writes into the acknowledgement ring killed the sender
 * with SIGSEGV, damaged trailers stopped both peers for good, mostly with no EQ report, damaged completion
 * records reached the application as error entries with err 0, and a damaged slot header stopped the peers for good.
 */
class OutsideLaneDamageTest
{
    private static final long DAMAGE_MS = 3_000;
    private static final long FLOW_MS = 3_000;

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private ShmDomain domain;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name("outside");
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
    void shouldSurviveRandomWritesIntoTheAcknowledgementRing() throws Exception
    {
        run(false, (b, sender, receiver, random) -> anywhere(b, ringOffset(true, sender.slot), txBytes(), random));
    }

    @Test
    void shouldSurviveGarbagePositionsInTheAcknowledgementRing() throws Exception
    {
        run(false, (b, sender, receiver, random) -> positions(b, ringOffset(true, sender.slot), txBytes(), random));
    }

    @Test
    void shouldSurviveRandomWritesIntoTheCompletionRing() throws Exception
    {
        run(true, (b, sender, receiver, random) -> anywhere(b, ringOffset(false, receiver.ring), cqBytes(), random));
    }

    @Test
    void shouldSurviveGarbagePositionsInTheCompletionRing() throws Exception
    {
        run(true, (b, sender, receiver, random) -> positions(b, ringOffset(false, receiver.ring), cqBytes(), random));
    }

    @Test
    void shouldSurviveRandomWritesIntoTheSlotHeaders() throws Exception
    {
        final RegionGeometry g = domain.region().geometry();
        run(true, (b, sender, receiver, random) ->
        {
            final int slot = random.nextBoolean() ? sender.slot : receiver.slot;
            final int at = random.nextInt(RegionDescriptor.slotHeaderLength(g) / 8) * 8;
            b.putLongVolatile(RegionDescriptor.slotOffset(g, slot) + at,
                random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(-64, 1 << 20));
        });
    }

    private int ringOffset(final boolean tx, final int index)
    {
        final RegionGeometry g = domain.region().geometry();
        return tx ? RegionDescriptor.txRingOffset(g, index) : RegionDescriptor.cqRingOffset(g, index);
    }

    private int txBytes()
    {
        return domain.region().geometry().txRingBytes();
    }

    private int cqBytes()
    {
        return domain.region().geometry().cqRingBytes();
    }

    /** A random word anywhere in a ring: records and trailer. */
    private static void anywhere(
        final AtomicBuffer b, final int ring, final int capacity, final ThreadLocalRandom random)
    {
        final int at = random.nextInt((capacity + RingBufferDescriptor.TRAILER_LENGTH) / 8) * 8;
        b.putLongVolatile(ring + at, random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(-64, 1 << 20));
    }

    /** A random value for a ring's consumer or producer position. */
    private static void positions(
        final AtomicBuffer b, final int ring, final int capacity, final ThreadLocalRandom random)
    {
        b.putLongVolatile(ring + capacity + (random.nextBoolean() ? RingBufferDescriptor.HEAD_POSITION_OFFSET :
            RingBufferDescriptor.TAIL_POSITION_OFFSET), random.nextLong());
    }

    /** A peer as it introduced itself. */
    private record Peer(int slot, int ring)
    {
        Peer(final Map<String, String> result)
        {
            this(Integer.parseInt(result.get("slot")), Integer.parseInt(result.get("ring")));
        }
    }

    /** One damage. */
    @FunctionalInterface
    private interface Damage
    {
        void apply(AtomicBuffer region, Peer sender, Peer receiver, ThreadLocalRandom random);
    }

    /**
     * @param atReceiver whether the damaged structure is the receiver's (else the sender's): its EQ gets the reports.
     * @param damage     one damage, done about once a millisecond.
     */
    private void run(final boolean atReceiver, final Damage damage) throws Exception
    {
        final ChildJvm sender = opened.keep(start("sender"));
        final ChildJvm receiver = opened.keep(start("receiver"));
        final Map<String, String> s = sender.awaitResult(60);
        final Map<String, String> r = receiver.awaitResult(60);
        sender.tell(r.get("addr"));
        receiver.tell(s.get("addr"));
        awaitDone(receiver, 200, 30_000);

        final AtomicBuffer b = domain.region().buffer();
        final Peer atSender = new Peer(s);
        final Peer atReceiverPeer = new Peer(r);
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        final long stopAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DAMAGE_MS);
        long damages = 0;
        while (System.nanoTime() < stopAt)
        {
            damage.apply(b, atSender, atReceiverPeer, random);
            damages++;
            LockSupport.parkNanos(1_000_000);
        }
        final long atStop = done(receiver);
        final long flowingBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FLOW_MS);
        while (done(receiver) < atStop + 100 && System.nanoTime() < flowingBy)
        {
            Thread.sleep(10);
        }
        final Map<String, String> senderState = last(sender);
        final Map<String, String> receiverState = last(receiver);
        final String state = damages + " damages; sender " + senderState + "; receiver " + receiverState;
        assertAlive(sender, state);
        assertAlive(receiver, state);
        assertTrue(done(receiver) >= atStop + 100, "messages flow again after the damage: " + state);
        assertEquals("0", receiverState.get("dups"), "nothing arrived twice: " + state);
        assertEquals("0", senderState.get("zeroErr"), state);
        assertEquals("0", receiverState.get("zeroErr"), state);
        final Map<String, String> damaged = atReceiver ? receiverState : senderState;
        assertTrue(Long.parseLong(damaged.get("eq")) > 0, "the damage was reported on an EQ: " + state);
    }

    private ChildJvm start(final String role) throws Exception
    {
        return ChildJvm.start(DamageVictimMain.class, List.of("jfabric.shm.dir=" + root.dir(),
            "agrona.disable.bounds.checks=true"), "outside", role);
    }

    private static void awaitDone(final ChildJvm child, final long count, final long ms) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (done(child) < count && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertTrue(done(child) >= count, "messages flow before the damage: " + child.output());
    }

    private static long done(final ChildJvm child)
    {
        final String d = last(child).get("done");
        return d == null ? 0 : Long.parseLong(d);
    }

    /** @return the child's last status line. */
    private static Map<String, String> last(final ChildJvm child)
    {
        final String out = child.output();
        final int at = out.lastIndexOf("result done=");
        if (at < 0)
        {
            return Map.of();
        }
        final int end = out.indexOf('\n', at);
        return ChildJvm.parseResult(out.substring(at, end < 0 ? out.length() : end));
    }

    private static void assertAlive(final ChildJvm child, final String state) throws Exception
    {
        assertTrue(ProcessHandle.of(child.pid()).map(ProcessHandle::isAlive).orElse(false),
            "the peer is alive: " + state + "\n" + child.output());
        assertFalse(child.output().contains("Exception") || child.output().contains("Error"),
            "no exception: " + child.output());
        try (Stream<Path> files = Files.list(Path.of(".")))
        {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().equals("hs_err_pid" + child.pid() + ".log")),
                "no crash log of " + child.pid());
        }
    }
}
