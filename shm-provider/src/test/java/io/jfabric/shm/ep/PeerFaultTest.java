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

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.Msg;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a sender sees when its receiver, a real second JVM, is SIGKILLed or SIGSTOPped with sends in flight, and
 * what the next process to take the dead receiver's slot sees (issue 14, items 1 to 3). The domain's liveness
 * timeout is 500 ms here.
 * <ul>
 *   <li>A send in flight to a receiver that dies (segmented, by rendezvous, with FI_DELIVERY_COMPLETE) completes
 *   with FI_EHOSTUNREACH, and a later send fails at once.</li>
 *   <li>A receiver that stops: nothing fails before the timeout; after it, new sends fail and the send that was
 *   only partly in its ring completes in error; when it resumes, what was already in its ring is delivered, the
 *   partial message's receive ends in error (the sender's ABORT record), and sends work again.</li>
 *   <li>A send queued to a receiver that dies is never delivered to the process that takes the slot next.</li>
 * </ul>
 */
class PeerFaultTest
{
    private static final long TIMEOUT_MS = 500;
    private static final int MIB = 1 << 20;

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private Domain domain;
    private AddressVector av;
    private CompletionQueue cq;
    private Endpoint ep;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider(key -> "liveness.timeout.ms".equals(key) ? "" + TIMEOUT_MS : null);
        final Info hints = new Info();
        hints.domainAttr().name("faults");
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        domain = opened.keep(fabric.domain(info, 0));
        av = opened.keep(domain.avOpen(new AvAttr(), 0));
        cq = opened.keep(domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0));
        ep = opened.keep(domain.endpoint(info, 0));
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
    }

    @AfterEach
    void close() throws Exception
    {
        opened.close();
        root.close();
    }

    /** How a large send travels. */
    enum Path
    {
        /** FIRST and PIECE records through the lane, from plain memory. */
        SEGMENTED,
        /** An RTS record; the receiver would copy from the sender's shareable memory and acknowledge. */
        RENDEZVOUS,
        /** Segmented, then an acknowledgement request (FI_DELIVERY_COMPLETE). */
        DELIVERY_COMPLETE
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void shouldFailASendInFlightToAReceiverThatIsKilledAndEveryLaterSendAtOnce(final Path path) throws Exception
    {
        final ChildJvm child = child();
        final long dest = insert(child.awaitResult(60).get("addr"));
        final int size = path == Path.RENDEZVOUS ? 16 * MIB : MIB;
        final ByteBuffer src;
        long desc = 0;
        if (path == Path.RENDEZVOUS)
        {
            final ShareableMemory memory = opened.keep(domain.allocShareable(size));
            final MemoryRegion mr = opened.keep(domain.mrRegv(new MrIov[] { MrIov.of(memory, 0, size) }, Flags.FI_SEND, 0, 0,
                0, 0));
            src = memory.buffer();
            desc = mr.desc();
        }
        else
        {
            src = ByteBuffer.allocateDirect(size);
        }
        if (path == Path.DELIVERY_COMPLETE)
        {
            final Msg msg = new Msg(1).set(src, 0, size, 0);
            msg.addr = dest;
            msg.context = 7;
            assertEquals(0, ep.sendmsg(msg, Flags.FI_DELIVERY_COMPLETE | Flags.FI_COMPLETION));
        }
        else
        {
            assertEquals(0, ep.send(src, 0, size, desc, dest, 7));
        }
        assertEquals(-Errno.FI_EAGAIN, poll(300), "the idle receiver takes nothing: the send stays in flight");

        child.kill();
        final long killedAt = System.nanoTime();
        assertEquals(-Errno.FI_EAVAIL, poll(5_000), "the send ends once the receiver is found gone");
        final long ms = (System.nanoTime() - killedAt) / 1_000_000;
        final CqErrEntry err = new CqErrEntry();
        assertEquals(1, cq.readErr(err, 0));
        assertEquals(7, err.opContext);
        assertEquals(Errno.FI_EHOSTUNREACH, err.err, Errno.name(err.err));
        assertTrue(ms < 2 * TIMEOUT_MS, "found gone within the liveness timeout: " + ms + " ms");
        assertEquals(-Errno.FI_EHOSTUNREACH, ep.inject(ByteBuffer.allocateDirect(8), 0, 8, dest),
            "a later send fails at once");
    }

    @Test
    void shouldFailSendsToAStoppedReceiverOnlyAfterTheTimeoutAndDeliverWhatWasInItsRingWhenItResumes()
        throws Exception
    {
        final ChildJvm child = child();
        final long dest = insert(child.awaitResult(60).get("addr"));
        assertEquals(0, ep.inject(message(11, 64), 0, 64, dest), "a whole message into the idle receiver's ring");
        assertEquals(0, ep.send(ByteBuffer.allocateDirect(MIB), 0, MIB, 0, dest, 8), "partly into its ring");
        child.stop();
        final long stoppedAt = System.nanoTime();

        assertEquals(-Errno.FI_EAGAIN, poll(TIMEOUT_MS / 2), "before the timeout a stopped peer is only slow");
        assertEquals(-Errno.FI_EAVAIL, poll(5_000));
        final long ms = (System.nanoTime() - stoppedAt) / 1_000_000;
        final CqErrEntry err = new CqErrEntry();
        assertEquals(1, cq.readErr(err, 0));
        assertEquals(8, err.opContext);
        assertEquals(Errno.FI_EHOSTUNREACH, err.err, Errno.name(err.err));
        assertTrue(ms >= TIMEOUT_MS - 50 && ms < TIMEOUT_MS + 1_500, "failed after the timeout: " + ms + " ms");
        assertEquals(-Errno.FI_EHOSTUNREACH, ep.inject(message(12, 64), 0, 64, dest), "new sends fail");

        child.resume();
        child.tell("recv 1 64");
        child.tell("recv 2 " + MIB);
        child.tell("recv 3 64");
        long rc = -Errno.FI_EHOSTUNREACH;
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (rc != 0 && System.nanoTime() < deadline)
        {
            poll(20); // progress writes the ABORT record of the abandoned send once the receiver beats again
            rc = ep.inject(message(13, 64), 0, 64, dest);
        }
        assertEquals(0, rc, "sends work again once the receiver runs");
        child.tell("poll 1000");
        final Map<String, String> first = child.awaitResult(30);
        assertEquals("1", first.get("ctx"));
        assertEquals("0", first.get("err"), "the message already in the ring arrives: " + first);
        assertEquals("11", first.get("first"));
        final Map<String, String> second = child.awaitResult(30);
        assertEquals("2", second.get("ctx"));
        assertEquals("" + Errno.FI_EIO, second.get("err"), "the partial message's receive ends in error: " + second);
        final Map<String, String> third = child.awaitResult(30);
        assertEquals("3", third.get("ctx"));
        assertEquals("0", third.get("err"));
        assertEquals("13", third.get("first"), "the message sent after it resumed");
        assertEquals("3", child.awaitResult(30).get("polled"));
    }

    @Test
    void shouldNeverDeliverASendQueuedToADeadReceiverToTheNextProcessInItsSlot() throws Exception
    {
        final ChildJvm dead = child();
        final String deadAddr = dead.awaitResult(60).get("addr");
        final long dest = insert(deadAddr);
        final ByteBuffer big = ByteBuffer.allocateDirect(MIB);
        big.putLong(0, 99);
        assertEquals(0, ep.send(big, 0, MIB, 0, dest, 9), "queued: the lane fills");
        dead.kill();

        final ChildJvm next = child(deadAddr);
        final String nextAddr = next.awaitResult(60).get("addr");
        assertEquals(deadAddr.substring(0, deadAddr.indexOf('?') < 0 ? deadAddr.length() : deadAddr.indexOf('?')),
            nextAddr.substring(0, nextAddr.indexOf('?') < 0 ? nextAddr.length() : nextAddr.indexOf('?')),
            "the next process has the dead one's slot");
        assertTrue(!deadAddr.equals(nextAddr), "at the next incarnation: " + deadAddr + " then " + nextAddr);
        assertEquals(-Errno.FI_EAVAIL, poll(5_000), "the queued send ends in error");
        final CqErrEntry err = new CqErrEntry();
        assertEquals(1, cq.readErr(err, 0));
        assertEquals(9, err.opContext);
        assertEquals(Errno.FI_EHOSTUNREACH, err.err);
        assertEquals(-Errno.FI_EHOSTUNREACH, ep.inject(message(5, 64), 0, 64, dest),
            "the old address does not reach the new incarnation");

        next.tell("recv 1 " + MIB);
        next.tell("recv 2 64");
        final long nextDest = insert(nextAddr);
        long rc;
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while ((rc = ep.inject(message(21, 64), 0, 64, nextDest)) == -Errno.FI_EAGAIN && System.nanoTime() < deadline)
        {
            poll(10);
        }
        assertEquals(0, rc);
        next.tell("poll 1000");
        final Map<String, String> got = next.awaitResult(30);
        assertEquals("1", got.get("ctx"));
        assertEquals("0", got.get("err"));
        assertEquals("64", got.get("len"), "only the message sent to it, not the dead one's 1 MiB: " + got);
        assertEquals("21", got.get("first"));
        assertEquals("1", next.awaitResult(30).get("polled"));
    }

    private ChildJvm child(final String... slotOf) throws Exception
    {
        final List<String> args = new ArrayList<>();
        args.add("faults");
        args.addAll(List.of(slotOf));
        final ChildJvm child = ChildJvm.start(FaultPeerMain.class, List.of("jfabric.shm.dir=" + root.dir(),
            "jfabric.shm.liveness.timeout.ms=" + TIMEOUT_MS), args.toArray(new String[0]));
        opened.keep(child);
        return child;
    }

    private long insert(final String address)
    {
        final long[] out = new long[1];
        av.insert(new String[] { address }, 1, out, 0, 0);
        return out[0];
    }

    private static ByteBuffer message(final long first, final int size)
    {
        return ByteBuffer.allocateDirect(size).putLong(0, first);
    }

    /** Read the CQ (which progresses the endpoint) for up to {@code ms}: the first read that is not FI_EAGAIN. */
    private int poll(final long ms)
    {
        final CqEntries e = new CqEntries(4);
        final long deadline = System.nanoTime() + ms * 1_000_000L;
        int n;
        do
        {
            n = cq.read(e, 4);
        }
        while (n == -Errno.FI_EAGAIN && System.nanoTime() < deadline);
        return n;
    }
}
