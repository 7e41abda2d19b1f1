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
import io.jfabric.Msg;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.lane.TxRecordDescriptor;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A receiver killed while it writes an acknowledgement into a sender's transmit ring leaves a claimed, never
 * committed record at that ring's head; every acknowledgement behind it used to wait for ever, so the sender's
 * delivery-complete and rendezvous sends never completed. Done here as the dead process would leave it: a claim in
 * the sender's ring through a second view of the region, never committed. The sender must take its next
 * acknowledgement after the liveness timeout.
 */
class AckRingRecoveryTest
{
    @Test
    void shouldCompleteADeliveryCompleteSendBehindAnAcknowledgementADeadReceiverLeftHalfWritten()
    {
        try (ShmTestRoot root = new ShmTestRoot())
        {
            final ShmProvider provider = root.provider(key -> "liveness.timeout.ms".equals(key) ? "200" : null);
            final Info hints = new Info();
            hints.domainAttr().name("ackring");
            final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
            try (Fabric fabric = provider.fabric(info.fabricAttr(), 0);
                Domain domain = fabric.domain(info, 0);
                AddressVector av = domain.avOpen(new AvAttr(), 0);
                CompletionQueue cqA = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
                CompletionQueue cqB = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
                Endpoint a = domain.endpoint(info, 0);
                Endpoint b = domain.endpoint(info, 0))
            {
                a.bind(av, 0);
                a.bind(cqA, Flags.FI_TRANSMIT | Flags.FI_RECV);
                a.enable();
                b.bind(av, 0);
                b.bind(cqB, Flags.FI_TRANSMIT | Flags.FI_RECV);
                b.enable();
                final long[] addr = new long[2];
                assertEquals(2, av.insert(new String[] {
                    new String(a.getname(), StandardCharsets.US_ASCII).trim(),
                    new String(b.getname(), StandardCharsets.US_ASCII).trim()}, 2, addr, 0, 0));

                // the dead receiver's half-written acknowledgement at the head of A's transmit ring
                final AtomicBuffer region = ((ShmDomain)domain).region().buffer();
                final RegionGeometry g = ((ShmDomain)domain).region().geometry();
                final int slotA = ((ShmEndpoint)a).slot();
                final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(new UnsafeBuffer(region,
                    RegionDescriptor.txRingOffset(g, slotA), RegionDescriptor.ringLength(g.txRingBytes())));
                assertTrue(ring.tryClaim(TxRecordDescriptor.ACK, TxRecordDescriptor.ACK_LENGTH) > 0);

                final ByteBuffer in = ByteBuffer.allocateDirect(64);
                assertEquals(0, b.recv(in, 0, 64, 0, Addresses.FI_ADDR_UNSPEC, 1));
                final Msg msg = new Msg(1).set(ByteBuffer.allocateDirect(64), 0, 64, 0);
                msg.addr = addr[1];
                msg.context = 42;
                assertEquals(0, a.sendmsg(msg, Flags.FI_DELIVERY_COMPLETE | Flags.FI_COMPLETION));

                final CqEntries entries = new CqEntries(1);
                final long started = System.nanoTime();
                final long deadline = started + 10_000_000_000L;
                boolean sent = false;
                boolean received = false;
                while ((!sent || !received) && System.nanoTime() < deadline)
                {
                    received |= cqB.read(entries, 1) == 1;
                    final int n = cqA.read(entries, 1);
                    if (n == 1)
                    {
                        assertEquals(42, entries.opContext[0]);
                        sent = true;
                    }
                    else
                    {
                        assertEquals(-Errno.FI_EAGAIN, n);
                    }
                }
                assertTrue(received, "B received the message");
                assertTrue(sent, "A's delivery-complete send completed behind the dead receiver's record");
                final long tookMs = (System.nanoTime() - started) / 1_000_000L;
                assertTrue(tookMs >= 150, "not before the liveness timeout (200 ms): " + tookMs + " ms");
            }
        }
    }
}
