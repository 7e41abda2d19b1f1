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
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Threading;
import io.jfabric.Versions;
import io.jfabric.shm.ShmDomain;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SpscLaneDescriptor;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The idle read: under FI_THREAD_DOMAIN and COMPLETION a CQ read whose one endpoint polls one lane that shows no
 * record returns at once, without running the endpoint's progress ({@code RxContext.idle}). What it must not skip:
 * the look for new senders that progress makes every so many calls, the other endpoints of a CQ that has several,
 * nor a consumer position someone overwrote. Each test reads the CQ a bounded number of times, with no sleep, so
 * that only the call count (not the clock's once-a-tick rescan) can find what it waits for.
 */
class IdleLaneReadTest
{
    /** More reads than two of the receive context's rescan periods (1,024 calls while a lane is listed). */
    private static final int READS = 2_100;
    /**
     * Fewer reads than one such period, more than the 16 calls between the looks of an endpoint with no lane listed:
     * within these, a CQ of two endpoints must have progressed both, the idle one's rescan not being due.
     */
    private static final int FEW_READS = 100;

    @ParameterizedTest
    @EnumSource(value = Threading.class, names = {"DOMAIN", "COMPLETION", "SAFE"})
    void shouldFindANewSenderWhileTheListedOneIsIdle(final Threading threading)
    {
        try (ShmTestRoot root = new ShmTestRoot())
        {
            final Info info = info(root, threading);
            try (Fabric fabric = root.provider(key -> null).fabric(info.fabricAttr(), 0);
                Domain domain = fabric.domain(info, 0);
                AddressVector av = domain.avOpen(new AvAttr(), 0);
                CompletionQueue rxCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
                CompletionQueue txCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
                Endpoint receiver = open(domain, info, av, rxCq);
                Endpoint first = open(domain, info, av, txCq);
                Endpoint second = open(domain, info, av, txCq))
            {
                final long to = insert(av, receiver);
                final CqEntries entries = new CqEntries(4);
                final ByteBuffer src = ByteBuffer.allocateDirect(32);
                final ByteBuffer dst = ByteBuffer.allocateDirect(64);
                assertEquals(0, receiver.recv(dst, 0, 32, 0, Addresses.FI_ADDR_UNSPEC, 1));
                assertEquals(0, first.inject(src, 0, 32, to));
                assertEquals(1, readUntil(rxCq, entries, READS), "the first sender's message");
                for (int i = 0; i < 3 * READS; i++)
                {
                    assertEquals(-Errno.FI_EAGAIN, rxCq.read(entries, 4), "nothing more came");
                }

                assertEquals(0, receiver.recv(dst, 32, 32, 0, Addresses.FI_ADDR_UNSPEC, 2));
                assertEquals(0, second.inject(src, 0, 32, to));
                assertEquals(1, readUntil(rxCq, entries, READS), "the second sender's message, found by a rescan");
                assertEquals(2, entries.opContext[0]);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Threading.class, names = {"DOMAIN", "COMPLETION"})
    void shouldProgressEveryEndpointOfACqWhileOneIsIdle(final Threading threading)
    {
        try (ShmTestRoot root = new ShmTestRoot())
        {
            final Info info = info(root, threading);
            try (Fabric fabric = root.provider(key -> null).fabric(info.fabricAttr(), 0);
                Domain domain = fabric.domain(info, 0);
                AddressVector av = domain.avOpen(new AvAttr(), 0);
                CompletionQueue rxCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
                CompletionQueue txCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
                Endpoint one = open(domain, info, av, rxCq);
                Endpoint sender = open(domain, info, av, txCq))
            {
                final long toOne = insert(av, one);
                final CqEntries entries = new CqEntries(4);
                final ByteBuffer src = ByteBuffer.allocateDirect(32);
                final ByteBuffer dst = ByteBuffer.allocateDirect(96);
                assertEquals(0, one.recv(dst, 0, 32, 0, Addresses.FI_ADDR_UNSPEC, 1));
                assertEquals(0, sender.inject(src, 0, 32, toOne));
                assertEquals(1, readUntil(rxCq, entries, READS), "the first endpoint's message");
                assertEquals(-Errno.FI_EAGAIN, rxCq.read(entries, 4), "its lane is idle");

                try (Endpoint two = open(domain, info, av, rxCq))
                {
                    final long toTwo = insert(av, two);
                    assertEquals(0, two.recv(dst, 32, 32, 0, Addresses.FI_ADDR_UNSPEC, 2));
                    assertEquals(0, sender.inject(src, 0, 32, toTwo));
                    assertEquals(1, readUntil(rxCq, entries, FEW_READS),
                        "the second endpoint's message, beside an idle one");
                    assertEquals(2, entries.opContext[0]);
                }

                assertEquals(0, one.recv(dst, 64, 32, 0, Addresses.FI_ADDR_UNSPEC, 3));
                assertEquals(0, sender.inject(src, 0, 32, toOne));
                assertEquals(1, readUntil(rxCq, entries, FEW_READS), "the first endpoint's, alone on the CQ again");
                assertEquals(3, entries.opContext[0]);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Threading.class, names = {"DOMAIN", "COMPLETION"})
    void shouldWriteBackAnOverwrittenConsumerPositionOfAnIdleLaneAtTheNextRead(final Threading threading)
    {
        try (ShmTestRoot root = new ShmTestRoot())
        {
            final Info info = info(root, threading);
            try (Fabric fabric = root.provider(key -> null).fabric(info.fabricAttr(), 0);
                ShmDomain domain = (ShmDomain)fabric.domain(info, 0);
                AddressVector av = domain.avOpen(new AvAttr(), 0);
                CompletionQueue rxCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
                CompletionQueue txCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
                ShmEndpoint receiver = (ShmEndpoint)open(domain, info, av, rxCq);
                ShmEndpoint sender = (ShmEndpoint)open(domain, info, av, txCq))
            {
                final CqEntries entries = new CqEntries(4);
                final ByteBuffer buf = ByteBuffer.allocateDirect(32);
                assertEquals(0, receiver.recv(buf, 0, 32, 0, Addresses.FI_ADDR_UNSPEC, 1));
                assertEquals(0, sender.inject(buf, 0, 32, insert(av, receiver)));
                assertEquals(1, readUntil(rxCq, entries, READS));
                assertEquals(-Errno.FI_EAGAIN, rxCq.read(entries, 4), "the lane is idle");
                final RegionGeometry g = domain.region().geometry();
                final SpscLane lane = new SpscLane(new UnsafeBuffer(domain.region().buffer(),
                    RegionDescriptor.laneOffset(g, receiver.slot(), sender.slot()),
                    RegionDescriptor.laneLength(g.rxRingBytes())));
                final AtomicBuffer b = lane.buffer();
                final int index = SpscLaneDescriptor.consumerPositionOffset(lane.capacity());
                final long own = b.getLong(index);
                b.putLongOrdered(index, own + (1L << 40));

                assertEquals(-Errno.FI_EAGAIN, rxCq.read(entries, 4));
                assertEquals(own, b.getLongVolatile(index), "the next read saw the position moved and wrote it back");
            }
        }
    }

    /** @return what the first read that is not -FI_EAGAIN returned, within {@code reads} reads. */
    private static int readUntil(final CompletionQueue cq, final CqEntries entries, final int reads)
    {
        int read = -Errno.FI_EAGAIN;
        for (int i = 0; i < reads && read == -Errno.FI_EAGAIN; i++)
        {
            read = cq.read(entries, 4);
        }
        return read;
    }

    private static Info info(final ShmTestRoot root, final Threading threading)
    {
        final Info hints = new Info();
        hints.domainAttr().name("idle").threading(threading);
        return root.provider(key -> null).getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
    }

    private static long insert(final AddressVector av, final Endpoint ep)
    {
        final long[] addr = new long[1];
        assertEquals(1, av.insert(new String[] {new String(ep.getname(), StandardCharsets.US_ASCII)}, 1, addr, 0, 0));
        return addr[0];
    }

    private static Endpoint open(final Domain domain, final Info info, final AddressVector av, final CompletionQueue cq)
    {
        final Endpoint ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        return ep;
    }
}
