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
import io.jfabric.Addresses;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.EqAttr;
import io.jfabric.EqErrEntry;
import io.jfabric.Errno;
import io.jfabric.EventQueue;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.region.SpscLaneDescriptor;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged records in a live lane (issue 14, item 7): a sender in a second JVM writes five 64-byte messages into this
 * process's lane, the test damages one record in place (as a stray write or a hostile process of the same user
 * would), and the receiver then reads. A record whose header is impossible is dropped, counted in the slot's
 * statistics and reported as an EQ error event (FI_EIO, the sending slot as data), the others arrive, nothing is
 * read outside the lane, and the lane keeps flowing. Payload corruption is caught only with
 * {@code jfabric.shm.checksum=true} on the sender; without it the changed byte arrives (the reason the option
 * exists).
 */
class DamagedLaneTest
{
    private static final int SIZE = 64;
    private static final int COUNT = 5;

    private final OpenedObjects opened = new OpenedObjects();
    private ChildJvm sender;
    private ShmTestRoot root;
    private ShmDomain domain;
    private EventQueue eq;
    private CompletionQueue cq;
    private ShmEndpoint receiver;
    private String receiverAddr;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider(key -> null);
        final Info hints = new Info();
        hints.domainAttr().name("damage");
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        domain = (ShmDomain)opened.keep(fabric.domain(info, 0));
        eq = opened.keep(fabric.eqOpen(new EqAttr().size(16), 0));
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        cq = opened.keep(domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0));
        receiver = (ShmEndpoint)opened.keep(domain.endpoint(info, 0));
        receiver.bind(av, 0);
        receiver.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        receiver.bind(eq, 0);
        receiver.enable();
        receiverAddr = new String(receiver.getname(), StandardCharsets.US_ASCII);
    }

    @AfterEach
    void close() throws Exception
    {
        if (sender != null)
        {
            sender.kill();
        }
        opened.close();
        root.close();
    }

    @Test
    void shouldSkipARecordWhosePayloadLengthIsBeyondItAndDeliverTheOthers() throws Exception
    {
        final int senderSlot = startSender(false);
        send(0, COUNT);
        final SpscLane lane = lane(senderSlot);
        lane.buffer().putInt(body(lane, 1) + LaneRecordDescriptor.LENGTH_OFFSET, 10_000);

        assertEquals(List.of(0L, 2L, 3L, 4L), receive(COUNT, 1_000));
        assertEquals(1, damagedCount());
        assertReported(senderSlot);
    }

    @Test
    void shouldClearALaneWhoseRecordFrameIsImpossibleAndKeepItFlowing() throws Exception
    {
        final int senderSlot = startSender(false);
        send(0, COUNT);
        final SpscLane lane = lane(senderSlot);
        final int second = body(lane, 1) - SpscLaneDescriptor.HEADER_LENGTH;
        lane.buffer().putInt(second + SpscLaneDescriptor.LENGTH_OFFSET, 0x7FFF_0000);

        assertEquals(List.of(0L), receive(COUNT, 1_000), "the records after an impossible frame are lost, not read");
        assertEquals(1, damagedCount());
        assertReported(senderSlot);
        send(10, 2);
        assertEquals(List.of(10L, 11L), receive(2, 5_000), "the lane flows again");
    }

    @Test
    void shouldReadOnFromItsOwnPositionWhenTheLanesConsumerPositionIsOverwritten() throws Exception
    {
        final int senderSlot = startSender(false);
        send(0, COUNT);
        final SpscLane lane = lane(senderSlot);
        final AtomicBuffer b = lane.buffer();
        final int headIndex = SpscLaneDescriptor.consumerPositionOffset(lane.capacity());
        b.putLongOrdered(headIndex, b.getLong(headIndex) - (1L << 40));

        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), receive(COUNT, 1_000), "nothing lost, nothing read twice");
        final CqEntries e = new CqEntries(1);
        for (long until = System.nanoTime() + 1_000_000_000L; damagedCount() == 0 && System.nanoTime() < until; )
        {
            assertEquals(-Errno.FI_EAGAIN, cq.read(e, 1)); // progress: its next rescan finds what the read noted
        }
        assertEquals(1, damagedCount());
        assertReported(senderSlot);
        assertEquals(lane.producerPosition(), lane.consumerPosition(), "its own position was written back");
        send(10, 2);
        assertEquals(List.of(10L, 11L), receive(2, 5_000), "the lane flows");
    }

    @Test
    void shouldDropAMessageWhosePayloadChangedWhenTheSenderChecksums() throws Exception
    {
        final int senderSlot = startSender(true);
        send(0, COUNT);
        final SpscLane lane = lane(senderSlot);
        final int third = body(lane, 2);
        lane.buffer().putByte(third + LaneRecordDescriptor.PAYLOAD_OFFSET + 20,
            (byte)~lane.buffer().getByte(third + LaneRecordDescriptor.PAYLOAD_OFFSET + 20));

        assertEquals(List.of(0L, 1L, 3L, 4L), receive(COUNT, 1_000));
        assertEquals(1, damagedCount());
        assertReported(senderSlot);
    }

    @Test
    void shouldDeliverAMessageWhosePayloadChangedWhenTheSenderDoesNotChecksum() throws Exception
    {
        final int senderSlot = startSender(false);
        send(0, COUNT);
        final SpscLane lane = lane(senderSlot);
        final int third = body(lane, 2);
        lane.buffer().putLong(third + LaneRecordDescriptor.PAYLOAD_OFFSET, 777, ByteOrder.BIG_ENDIAN);

        assertEquals(List.of(0L, 1L, 777L, 3L, 4L), receive(COUNT, 1_000),
            "without checksums a changed payload cannot be told: it arrives as changed");
        assertEquals(0, damagedCount());
    }

    private int startSender(final boolean checksum) throws Exception
    {
        sender = ChildJvm.start(FaultPeerMain.class, List.of("jfabric.shm.dir=" + root.dir(),
            "jfabric.shm.checksum=" + checksum), "damage");
        final String addr = sender.awaitResult(60).get("addr");
        final int colon = addr.lastIndexOf(':');
        return Integer.parseInt(addr.substring(colon + 1, addr.indexOf('/', colon)));
    }

    private void send(final long first, final int count) throws Exception
    {
        sender.tell("send " + receiverAddr + " " + first + " " + count + " " + SIZE);
        assertEquals("" + count, sender.awaitResult(30).get("sent"));
    }

    /** The lane from the sender's slot into the receiver's, as the receiver maps it. */
    private SpscLane lane(final int senderSlot)
    {
        final RegionGeometry g = domain.region().geometry();
        return new SpscLane(new UnsafeBuffer(domain.region().buffer(),
            RegionDescriptor.laneOffset(g, receiver.slot(), senderSlot), RegionDescriptor.laneLength(g.rxRingBytes())));
    }

    /** @return the body index of the n-th unread record of the lane (all records here are the same length). */
    private static int body(final SpscLane lane, final int n)
    {
        final int head = (int)lane.consumerPosition() & (lane.capacity() - 1);
        final int record = SpscLaneDescriptor.HEADER_LENGTH +
            LaneRecordDescriptor.bodyLength(LaneRecordDescriptor.HEADER_LENGTH + SIZE);
        return head + n * record + SpscLaneDescriptor.HEADER_LENGTH;
    }

    /** Post {@code posts} receives and read the CQ for {@code ms}: the first 8 bytes of each message received. */
    private List<Long> receive(final int posts, final long ms)
    {
        final ByteBuffer[] into = new ByteBuffer[posts];
        for (int i = 0; i < posts; i++)
        {
            into[i] = ByteBuffer.allocateDirect(SIZE);
            assertEquals(0, receiver.recv(into[i], 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, i));
        }
        final List<Long> got = new ArrayList<>();
        final CqEntries e = new CqEntries(1);
        final long deadline = System.nanoTime() + ms * 1_000_000L;
        while (System.nanoTime() < deadline && got.size() < posts)
        {
            final int n = cq.read(e, 1);
            if (n == 1)
            {
                got.add(into[(int)e.opContext[0]].getLong(0));
            }
            else if (n == -Errno.FI_EAVAIL)
            {
                final CqErrEntry err = new CqErrEntry();
                cq.readErr(err, 0);
                throw new AssertionError("a receive completed in error: " + Errno.name(err.err));
            }
        }
        final CqErrEntry cancelled = new CqErrEntry();
        for (int i = 0; i < posts; i++)
        {
            if (receiver.cancel(i) == 0) // what never came
            {
                while (cq.read(e, 1) != -Errno.FI_EAVAIL)
                {
                    Thread.onSpinWait();
                }
                assertEquals(1, cq.readErr(cancelled, 0));
                assertEquals(Errno.FI_ECANCELED, cancelled.err);
            }
        }
        return got;
    }

    private long damagedCount()
    {
        final RegionGeometry g = domain.region().geometry();
        return domain.region().buffer().getLongVolatile(
            SlotDescriptor.statOffset(g, receiver.slot(), SlotDescriptor.STAT_DAMAGED_OFFSET));
    }

    private void assertReported(final int senderSlot)
    {
        final EqErrEntry err = new EqErrEntry();
        assertEquals(1, eq.readErr(err, 0), "one EQ error event");
        assertEquals(Errno.FI_EIO, err.err());
        assertEquals(senderSlot, err.data(), "the sending slot");
        final String detail = new String(err.errData(), 0, err.errDataSize(), StandardCharsets.UTF_8);
        assertTrue(detail.contains("damaged lane from slot " + senderSlot), detail);
    }
}
