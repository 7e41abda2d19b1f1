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

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.CompletionQueue;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Ioc;
import io.jfabric.Msg;
import io.jfabric.RmaIov;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 27: a region's FI_REMOTE_WRITE counter counts operations (fi_mr(3): an event whenever a remote write or
 * atomic modifies the region), as the initiator's own FI_WRITE counter does: a writev of three buffers into one
 * region is one event, on the one-sided path (the target's shareable region, written by three copies) as on the
 * emulated one (its heap region). The target is a second JVM ({@link EmulatedPeerMain}), its two regions each bound
 * to a counter.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RegionWriteCounterTest
{
    private static final String DOMAIN = "mrcount";
    private static final long HEAP_KEY = 7;
    private static final long SHARED_KEY = 11;

    private EmulatedTargetSession session;
    private Endpoint ep;
    private CompletionQueue cq;
    private long peer;
    private long heapBase;
    private long sharedBase;

    @BeforeAll
    void start() throws Exception
    {
        session = new EmulatedTargetSession(DOMAIN, 65536);
        ep = session.ep;
        cq = session.cq;
        peer = session.peer;
        heapBase = session.address("base");
        sharedBase = session.address("sbase");
    }

    @AfterAll
    void stop() throws Exception
    {
        session.close();
    }

    private Map<String, String> counters() throws Exception
    {
        return session.ask("counters");
    }

    /** @return a Msg of three 8-byte buffers. */
    private static Msg threeBuffers()
    {
        final Msg msg = new Msg(3);
        for (int i = 0; i < 3; i++)
        {
            msg.iov[i] = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).putLong(0, i + 1);
            msg.iovLength[i] = 8;
        }
        msg.iovCount = 3;
        return msg;
    }

    private void complete(final long rc, final long flags)
    {
        assertEquals(0, rc, "the call");
        assertEquals(flags, CqWait.next(cq));
    }

    @Test
    void shouldCountAWritevOfThreeBuffersAsOneWriteOfTheRegionOnBothPaths() throws Exception
    {
        final Map<String, String> before = counters();
        final long ownBefore = session.writes.read();
        complete(ep.writev(threeBuffers(), peer, sharedBase, SHARED_KEY, 1), Flags.FI_RMA | Flags.FI_WRITE);
        complete(ep.writev(threeBuffers(), peer, heapBase, HEAP_KEY, 2), Flags.FI_RMA | Flags.FI_WRITE);
        final Map<String, String> after = counters();
        assertEquals(1, delta(before, after, "smwrite"), "the shareable region (one-sided: three copies)");
        assertEquals(1, delta(before, after, "mrwrite"), "the heap region (emulated: one request)");
        assertEquals(ownBefore + 2, session.writes.read(), "the initiator's FI_WRITE counter, as ever");
    }

    @Test
    void shouldCountAWritemsgOverTwoRangesOfOneRegionAsOneWrite() throws Exception
    {
        final Map<String, String> before = counters();
        final Msg msg = threeBuffers();
        msg.addr = peer;
        final RmaIov rma = new RmaIov(2).set(sharedBase + 64, 16, SHARED_KEY);
        rma.addr[1] = sharedBase + 256;
        rma.length[1] = 8;
        rma.key[1] = SHARED_KEY;
        rma.count = 2;
        complete(ep.writemsg(msg, rma, 0), Flags.FI_RMA | Flags.FI_WRITE);
        assertEquals(1, delta(before, counters(), "smwrite"));
    }

    @Test
    void shouldCountAVectoredAtomicAsOneWriteAndAReadvAsNone() throws Exception
    {
        final Map<String, String> before = counters();
        final Msg msg = threeBuffers();
        final ByteBuffer operands = ByteBuffer.allocateDirect(24).order(ByteOrder.nativeOrder());
        final Ioc iov = new Ioc(3).set(operands, 0, 1, 0).add(operands, 8, 1, 0).add(operands, 16, 1, 0);
        complete(ep.atomicv(iov, peer, sharedBase + 512, SHARED_KEY, AtomicDatatype.UINT64, AtomicOp.SUM, 3),
            Flags.FI_ATOMIC | Flags.FI_WRITE);
        complete(ep.readv(msg, peer, sharedBase, SHARED_KEY, 4), Flags.FI_RMA | Flags.FI_READ);
        assertEquals(1, delta(before, counters(), "smwrite"));
    }

    @Test
    void shouldCountNothingForAWriteThatFails() throws Exception
    {
        final Map<String, String> before = counters();
        final Msg msg = threeBuffers();
        msg.addr = peer;
        final RmaIov rma = new RmaIov(2).set(sharedBase, 16, SHARED_KEY);
        rma.addr[1] = 0;
        rma.length[1] = 8;
        rma.key[1] = 999;
        rma.count = 2;
        complete(ep.writemsg(msg, rma, 0), -Errno.FI_EKEYREJECTED);
        assertEquals(0, delta(before, counters(), "smwrite"));
    }

    private static long delta(final Map<String, String> before, final Map<String, String> after, final String key)
    {
        return Long.parseLong(after.get(key)) - Long.parseLong(before.get(key));
    }
}
