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
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Threading;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.rx.ActiveLanes;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One receiver with more senders attached than {@link ActiveLanes#TIERED_FROM}, in one process: the lanes of idle
 * senders turn cold and are polled in turn, and still every message arrives, within {@link ActiveLanes#COLD_STRIDE} progress calls per cold
 * lane.
 */
class ManySendersTest
{
    private static final int SENDERS = 14;

    @Test
    void shouldDeliverFromEveryIdleSenderWithinTheColdLanesTurn() throws InterruptedException
    {
        try (ShmTestRoot root = new ShmTestRoot())
        {
            final ShmProvider provider = root.provider(key -> null);
            final Info hints = new Info();
            hints.domainAttr().name("many").threading(Threading.DOMAIN);
            final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
            try (Fabric fabric = provider.fabric(info.fabricAttr(), 0);
                Domain domain = fabric.domain(info, 0);
                AddressVector av = domain.avOpen(new AvAttr(), 0);
                CompletionQueue rxCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
                CompletionQueue txCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0))
            {
                final Endpoint receiver = open(domain, info, av, rxCq);
                final Endpoint[] senders = new Endpoint[SENDERS];
                for (int i = 0; i < SENDERS; i++)
                {
                    senders[i] = open(domain, info, av, txCq);
                }
                final long[] addr = new long[1];
                assertEquals(1, av.insert(new String[] { new String(receiver.getname(), StandardCharsets.US_ASCII) },
                    1, addr, 0, 0));
                final ByteBuffer src = ByteBuffer.allocateDirect(64);
                final ByteBuffer[] dst = new ByteBuffer[SENDERS];
                final CqEntries e = new CqEntries(SENDERS);

                // every sender connects: all lanes listed, hot
                exchange(receiver, senders, addr[0], src, dst, rxCq, e, 0);
                idle(rxCq, e);
                for (int round = 1; round <= 3; round++)
                {
                    final int reads = exchange(receiver, senders, addr[0], src, dst, rxCq, e, round);
                    assertTrue(reads <= ActiveLanes.COLD_STRIDE * SENDERS + 2, "round " + round + ": " + SENDERS +
                        " messages on cold lanes took " + reads + " CQ reads; at most " + ActiveLanes.COLD_STRIDE +
                        " per cold lane are due");
                    idle(rxCq, e);
                }
                for (final Endpoint s : senders)
                {
                    s.close();
                }
                receiver.close();
            }
        }
    }

    /** Idle for longer than a lane stays hot, then progress: every lane, polled empty, turns cold. */
    private static void idle(final CompletionQueue cq, final CqEntries e) throws InterruptedException
    {
        Thread.sleep(3 * ActiveLanes.HOT_MS);
        for (int i = 0; i < 4; i++)
        {
            assertEquals(-Errno.FI_EAGAIN, cq.read(e, 1));
        }
    }

    /** Each sender sends one message (its index and the round); @return CQ reads until all arrived. */
    private static int exchange(
        final Endpoint receiver, final Endpoint[] senders, final long dest, final ByteBuffer src,
        final ByteBuffer[] dst, final CompletionQueue cq, final CqEntries e, final int round)
    {
        for (int i = 0; i < senders.length; i++)
        {
            dst[i] = ByteBuffer.allocateDirect(64);
            assertEquals(0, receiver.recv(dst[i], 0, 64, 0, io.jfabric.Addresses.FI_ADDR_UNSPEC, i));
        }
        for (int i = 0; i < senders.length; i++)
        {
            src.putInt(0, i).putInt(4, round);
            assertEquals(0, senders[i].inject(src, 0, 64, dest));
        }
        final boolean[] got = new boolean[senders.length];
        int received = 0;
        int reads = 0;
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (received < senders.length)
        {
            assertTrue(System.nanoTime() < deadline, "only " + received + " of " + senders.length + " arrived");
            final int n = cq.read(e, senders.length);
            reads++;
            if (n == -Errno.FI_EAGAIN)
            {
                continue;
            }
            assertTrue(n > 0, "fi_cq_read: " + n);
            for (int k = 0; k < n; k++)
            {
                received++;
                final ByteBuffer d = dst[(int)e.opContext[k]];
                final int sender = d.getInt(0);
                assertEquals(round, d.getInt(4));
                assertTrue(!got[sender], "sender " + sender + " twice");
                got[sender] = true;
            }
        }
        return reads;
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
