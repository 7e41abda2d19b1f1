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
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Threading;
import io.jfabric.Versions;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.domain.ShmDomain;
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

    private final CqEntries entries = new CqEntries(4);
    private final ByteBuffer src = ByteBuffer.allocateDirect(32);
    private final ByteBuffer dst = ByteBuffer.allocateDirect(32);

    @ParameterizedTest
    @EnumSource(value = Threading.class, names = {"DOMAIN", "COMPLETION", "SAFE"})
    void shouldFindANewSenderWhileTheListedOneIsIdle(final Threading threading)
    {
        try (Loopback l = new Loopback(threading);
            ShmEndpoint receiver = l.endpoint(l.rxCq);
            ShmEndpoint first = l.endpoint(l.txCq);
            ShmEndpoint second = l.endpoint(l.txCq))
        {
            assertEquals(1, deliver(l, first, receiver, 1, READS), "the first sender's message");
            for (int i = 0; i < 3 * READS; i++)
            {
                assertEquals(-Errno.FI_EAGAIN, l.rxCq.read(entries, 4), "nothing more came");
            }
            assertEquals(1, deliver(l, second, receiver, 2, READS), "the second sender's message, found by a rescan");
            assertEquals(2, entries.opContext[0]);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Threading.class, names = {"DOMAIN", "COMPLETION"})
    void shouldProgressEveryEndpointOfACqWhileOneIsIdle(final Threading threading)
    {
        try (Loopback l = new Loopback(threading);
            ShmEndpoint one = l.endpoint(l.rxCq);
            ShmEndpoint sender = l.endpoint(l.txCq))
        {
            assertEquals(1, deliver(l, sender, one, 1, READS), "the first endpoint's message");
            assertEquals(-Errno.FI_EAGAIN, l.rxCq.read(entries, 4), "its lane is idle");
            try (ShmEndpoint two = l.endpoint(l.rxCq))
            {
                assertEquals(1, deliver(l, sender, two, 2, FEW_READS), "the second endpoint's, beside an idle one");
                assertEquals(2, entries.opContext[0]);
            }
            assertEquals(1, deliver(l, sender, one, 3, FEW_READS), "the first endpoint's, alone on the CQ again");
            assertEquals(3, entries.opContext[0]);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Threading.class, names = {"DOMAIN", "COMPLETION"})
    void shouldWriteBackAnOverwrittenConsumerPositionOfAnIdleLaneAtTheNextRead(final Threading threading)
    {
        try (Loopback l = new Loopback(threading);
            ShmEndpoint receiver = l.endpoint(l.rxCq);
            ShmEndpoint sender = l.endpoint(l.txCq))
        {
            assertEquals(1, deliver(l, sender, receiver, 1, READS));
            assertEquals(-Errno.FI_EAGAIN, l.rxCq.read(entries, 4), "the lane is idle");
            final RegionGeometry g = l.domain.region().geometry();
            final SpscLane lane = new SpscLane(new UnsafeBuffer(l.domain.region().buffer(),
                RegionDescriptor.laneOffset(g, receiver.slot(), sender.slot()),
                RegionDescriptor.laneLength(g.rxRingBytes())));
            final AtomicBuffer b = lane.buffer();
            final int index = SpscLaneDescriptor.consumerPositionOffset(lane.capacity());
            final long own = b.getLong(index);
            b.putLongOrdered(index, own + (1L << 40));

            assertEquals(-Errno.FI_EAGAIN, l.rxCq.read(entries, 4));
            assertEquals(own, b.getLongVolatile(index), "the next read saw the position moved and wrote it back");
        }
    }

    /**
     * Post a receive at {@code to}, inject 32 bytes from {@code from}, and read {@code to}'s CQ (the loopback's
     * receive CQ) until something comes, at most {@code reads} times.
     *
     * @return what the first read that was not -FI_EAGAIN returned.
     */
    private int deliver(final Loopback l, final Endpoint from, final Endpoint to, final long context, final int reads)
    {
        assertEquals(0, to.recv(dst, 0, 32, 0, Addresses.FI_ADDR_UNSPEC, context));
        assertEquals(0, from.inject(src, 0, 32, l.insert(to)));
        int read = -Errno.FI_EAGAIN;
        for (int i = 0; i < reads && read == -Errno.FI_EAGAIN; i++)
        {
            read = l.rxCq.read(entries, 4);
        }
        return read;
    }

    /** One domain of a private root under a threading model, its AV, a receive CQ and a transmit CQ. */
    private static final class Loopback implements AutoCloseable
    {
        final ShmTestRoot root = new ShmTestRoot();
        final Info info;
        final Fabric fabric;
        final ShmDomain domain;
        final AddressVector av;
        final CompletionQueue rxCq;
        final CompletionQueue txCq;

        Loopback(final Threading threading)
        {
            final Info hints = new Info();
            hints.domainAttr().name("idle").threading(threading);
            info = root.provider(key -> null).getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
            fabric = root.provider(key -> null).fabric(info.fabricAttr(), 0);
            domain = (ShmDomain)fabric.domain(info, 0);
            av = domain.avOpen(new AvAttr(), 0);
            rxCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            txCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
        }

        /** @return an enabled endpoint with this AV and {@code cq} for both directions. */
        ShmEndpoint endpoint(final CompletionQueue cq)
        {
            final Endpoint ep = domain.endpoint(info, 0);
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            return (ShmEndpoint)ep;
        }

        /** @return the fi_addr of {@code ep} (inserted again on every call, as the tests' peers change). */
        long insert(final Endpoint ep)
        {
            final long[] addr = new long[1];
            assertEquals(1, av.insert(new String[] {new String(ep.getname(), StandardCharsets.US_ASCII)}, 1, addr,
                0, 0));
            return addr[0];
        }

        @Override
        public void close()
        {
            txCq.close();
            rxCq.close();
            av.close();
            domain.close();
            fabric.close();
            root.close();
        }
    }
}
