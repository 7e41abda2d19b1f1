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

import io.jfabric.Addresses;
import io.jfabric.CompletionQueue;
import io.jfabric.CqEntries;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.Msg;
import io.jfabric.ShareableMemory;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.region.SlotDescriptor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two endpoints of one domain in one process, talking through the region's lanes: the core data path without a
 * second JVM (the two-JVM acceptance tests live beside this class).
 */
class ShmEndpointLoopbackTest
{
    private EndpointPair pair;
    private Domain domain;
    private CompletionQueue cqA;
    private CompletionQueue cqB;
    private Endpoint a;
    private Endpoint b;
    private long addrB;
    private long addrA;

    @BeforeEach
    void open()
    {
        pair = new EndpointPair();
        domain = pair.domain;
        cqA = pair.cqA;
        cqB = pair.cqB;
        a = pair.a;
        b = pair.b;
        addrA = pair.addrA;
        addrB = pair.addrB;
    }

    @AfterEach
    void close()
    {
        pair.close();
    }

    @Test
    void shouldDeliverSmallAndSegmentedMessagesByteExact()
    {
        for (final int size : new int[] { 0, 1, 32, 64, 4096, 8160, 8161, 65536, 1 << 20 })
        {
            final ByteBuffer src = ByteBuffer.allocateDirect(Math.max(size, 1));
            for (int i = 0; i < size; i++)
            {
                src.put(i, (byte)(i * 31 + size));
            }
            final ByteBuffer dst = ByteBuffer.allocateDirect(Math.max(size, 1));
            assertEquals(0, b.recv(dst, 0, size, 0, addrA, 100 + size));
            assertEquals(0, a.send(src, 0, size, 0, addrB, 200 + size));
            final CqEntries e = new CqEntries(4);
            boolean sent = false;
            boolean received = false;
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while ((!sent || !received) && System.nanoTime() < deadline)
            {
                int n = cqA.read(e, 4);
                if (n > 0)
                {
                    assertEquals(200 + size, e.opContext[0]);
                    assertEquals(Flags.FI_SEND | Flags.FI_MSG, e.flags[0]);
                    sent = true;
                }
                n = cqB.read(e, 4);
                if (n > 0)
                {
                    assertEquals(100 + size, e.opContext[0]);
                    assertEquals(Flags.FI_RECV | Flags.FI_MSG, e.flags[0]);
                    assertEquals(size, e.len[0]);
                    received = true;
                }
            }
            assertEquals(true, sent && received, "size " + size + " sent=" + sent + " received=" + received);
            for (int i = 0; i < size; i++)
            {
                assertEquals((byte)(i * 31 + size), dst.get(i), "size " + size + " byte " + i);
            }
        }
    }

    /**
     * Issue 15: FI_INJECT as an operation flag hands the buffer back at once but completes like any send (fi_msg(3));
     * only the inject calls write no completion. It used to suppress the completion, so a program that waits for it
     * hung.
     */
    @Test
    void shouldCompleteASendmsgWithTheInjectFlagButNotAnInjectCall()
    {
        final ByteBuffer src = ByteBuffer.allocateDirect(64);
        final ByteBuffer dst = ByteBuffer.allocateDirect(64);
        final Msg msg = new Msg(1).set(src, 0, 64, 0);
        msg.addr = addrB;
        msg.context = 77;
        assertEquals(0, b.recv(dst, 0, 64, 0, addrA, 1));
        assertEquals(0, a.sendmsg(msg, Flags.FI_INJECT | Flags.FI_COMPLETION));
        src.put(0, (byte)9); // the buffer is the application's again at once
        assertEquals(77, awaitSendCompletion(), "the FI_INJECT sendmsg completes");

        assertEquals(0, b.recv(dst, 0, 64, 0, addrA, 2));
        assertEquals(0, a.inject(src, 0, 64, addrB));
        assertEquals(-1, awaitSendCompletion(), "fi_inject writes no completion");
    }

    /** Reads A's CQ for up to 2 s while progressing B: the first send completion's context, or -1 for none. */
    private long awaitSendCompletion()
    {
        final CqEntries e = new CqEntries(4);
        final long deadline = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < deadline)
        {
            cqB.read(e, 4);
            final int n = cqA.read(e, 4);
            if (n > 0)
            {
                return e.opContext[0];
            }
        }
        return -1;
    }

    @Test
    void shouldReturnEagainWhenPeerLaneIsFullAndLoseNothing()
    {
        final ByteBuffer src = ByteBuffer.allocateDirect(64);
        int sent = 0;
        long rc;
        while ((rc = a.inject(src.putLong(0, sent), 0, 64, addrB)) == 0)
        {
            sent++;
        }
        assertEquals(-Errno.FI_EAGAIN, rc);
        final ByteBuffer dst = ByteBuffer.allocateDirect(64);
        final CqEntries e = new CqEntries(1);
        for (int i = 0; i < sent; i++)
        {
            assertEquals(0, b.recv(dst, 0, 64, 0, addrA, i));
            int n;
            while ((n = cqB.read(e, 1)) == -Errno.FI_EAGAIN)
            {
                Thread.onSpinWait();
            }
            assertEquals(1, n);
            assertEquals(i, dst.getLong(0));
        }
        assertTrue(sent >= 65536 / 128 - 1, "a 64 KiB lane holds about 512 records of 128 bytes, took " + sent);
    }

    @Test
    void shouldMoveALargeMessageFromShareableMemoryInOneCopyAndCountTheRendezvous()
    {
        final int size = 3 << 20;
        try (ShareableMemory memory = domain.allocShareable(size);
            MemoryRegion mr = domain.mrRegv(new MrIov[] { MrIov.of(memory, 0, size) }, Flags.FI_SEND, 0, 77, 0, 0))
        {
            final ByteBuffer src = memory.buffer();
            for (int i = 0; i < size; i++)
            {
                src.put(i, (byte)(i * 7));
            }
            final ByteBuffer dst = ByteBuffer.allocateDirect(size);
            assertEquals(0, b.recv(dst, 0, size, 0, addrA, 1));
            assertEquals(0, a.send(src, 0, size, mr.desc(), addrB, 2));
            final CqEntries e = new CqEntries(4);
            boolean sent = false;
            boolean received = false;
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while ((!sent || !received) && System.nanoTime() < deadline)
            {
                sent |= cqA.read(e, 4) > 0;
                if (cqB.read(e, 4) > 0)
                {
                    assertEquals(size, e.len[0]);
                    received = true;
                }
            }
            assertTrue(sent && received, "sent=" + sent + " received=" + received);
            for (int i = 0; i < size; i++)
            {
                assertEquals((byte)(i * 7), dst.get(i), "byte " + i);
            }
            final ShmEndpoint sender = (ShmEndpoint)a;
            final ShmDomain shm = (ShmDomain)domain;
            assertEquals(1, shm.region().buffer().getLongVolatile(SlotDescriptor.statOffset(
                shm.region().geometry(), sender.slot(), SlotDescriptor.STAT_RENDEZVOUS_OFFSET)));
            assertEquals(0, shm.region().buffer().getLongVolatile(SlotDescriptor.statOffset(
                shm.region().geometry(), sender.slot(), SlotDescriptor.STAT_SEGMENTED_OFFSET)));
        }
    }

    @Test
    void shouldCompleteADeliveryCompleteSendOnlyOnceTheReceiverHasProcessedIt()
    {
        final ByteBuffer src = ByteBuffer.allocateDirect(64).putLong(0, 42);
        final Msg msg = new Msg(1).set(src, 0, 64, 0);
        msg.addr = addrB;
        msg.context = 9;
        assertEquals(0, a.sendmsg(msg, Flags.FI_COMPLETION | Flags.FI_DELIVERY_COMPLETE));
        final CqEntries e = new CqEntries(1);
        for (int i = 0; i < 100; i++)
        {
            assertEquals(-Errno.FI_EAGAIN, cqA.read(e, 1), "no completion before the receiver has the message");
        }
        final ByteBuffer dst = ByteBuffer.allocateDirect(64);
        assertEquals(0, b.recv(dst, 0, 64, 0, addrA, 1));
        int n;
        while ((n = cqB.read(e, 1)) == -Errno.FI_EAGAIN)
        {
            Thread.onSpinWait();
        }
        assertEquals(1, n);
        assertEquals(42, dst.getLong(0));
        while ((n = cqA.read(e, 1)) == -Errno.FI_EAGAIN)
        {
            Thread.onSpinWait();
        }
        assertEquals(1, n);
        assertEquals(9, e.opContext[0]);
    }

    @Test
    void shouldDropARecordWhoseLengthSaysMoreThanItHoldsAndGoOn()
    {
        assertEquals(0, a.claim(addrB, 8, 0, 0, 0));
        final io.jfabric.MessageClaim claim = a.messageClaim();
        // The length field sits just before the payload (LaneRecordDescriptor): a peer writes a damaged one.
        claim.buffer().putInt(claim.offset() - LaneRecordDescriptor.PAYLOAD_OFFSET +
            LaneRecordDescriptor.LENGTH_OFFSET, Integer.MAX_VALUE - 7);
        assertEquals(0, claim.commit());
        final ByteBuffer src = ByteBuffer.allocateDirect(8).putLong(0, 1234);
        assertEquals(0, a.inject(src, 0, 8, addrB));
        final ByteBuffer dst = ByteBuffer.allocateDirect(8);
        assertEquals(0, b.recv(dst, 0, 8, 0, Addresses.FI_ADDR_UNSPEC, 5));
        final CqEntries e = new CqEntries(1);
        assertEquals(1, EndpointPair.readOne(cqB, e));
        assertEquals(5, e.opContext[0]);
        assertEquals(8, e.len[0]);
        assertEquals(1234, dst.getLong(0), "the damaged record was skipped, the next message taken");
    }

    @Test
    void shouldKeepAMinimumMultiReceiveSetBeforeEnable()
    {
        try (Endpoint ep = domain.endpoint(pair.a.info(), 0))
        {
            ep.bind(pair.av, 0);
            ep.bind(cqA, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.setOpt(Endpoint.FI_OPT_MIN_MULTI_RECV, 512);
            ep.enable();
            assertEquals(512, ep.getOpt(Endpoint.FI_OPT_MIN_MULTI_RECV), "the option set before enable holds after");
        }
    }
}
