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
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sender that dies must not wedge its receiver. Dying between claiming a lane record and committing it: the
 * receiver takes the three messages committed before it, turns the abandoned record into padding once the sender's
 * process is gone ({@code SpscLane.unblock}), takes the message the sender committed after it, and frees the lane
 * for the next endpoint in that slot. Dying part-way through a message sent in pieces: the receive
 * completes in error (FI_EIO, the bytes that came, the rest as olen) instead of waiting forever. Real child JVMs,
 * real region.
 */
class LaneRecoveryTest
{
    @Test
    void shouldRecoverALaneWhoseSenderDiedInTheMiddleOfAClaim() throws Exception
    {
        try (ShmTestRoot root = new ShmTestRoot())
        {
            final ShmProvider provider = root.provider(key -> null);
            final Info hints = new Info();
            hints.domainAttr().name("crash");
            final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
            try (Fabric fabric = provider.fabric(info.fabricAttr(), 0);
                Domain domain = fabric.domain(info, 0);
                AddressVector av = domain.avOpen(new AvAttr(), 0);
                CompletionQueue cq = domain.cqOpen(new CqAttr(), 0);
                Endpoint receiver = domain.endpoint(info, 0))
            {
                receiver.bind(av, 0);
                receiver.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
                receiver.enable();
                final ByteBuffer dst = ByteBuffer.allocateDirect(5 * 64);
                for (int i = 0; i < 5; i++)
                {
                    assertEquals(0, receiver.recv(dst, i * 64, 64, 0, Addresses.FI_ADDR_UNSPEC, i));
                }
                final String out = ChildJvm.start(AbandonedClaimPeerMain.class,
                    List.of("jfabric.shm.dir=" + root.dir()), "crash",
                    new String(receiver.getname(), StandardCharsets.US_ASCII)).awaitSuccess(60);
                assertTrue(out.contains("claimed"), out);

                final CqEntries e = new CqEntries(8);
                int received = 0;
                final long deadline = System.nanoTime() + 10_000_000_000L;
                while (received < 4 && System.nanoTime() < deadline)
                {
                    final int n = cq.read(e, 8);
                    received += Math.max(n, 0);
                }
                assertEquals(4, received, "the message committed after the abandoned claim arrives too");
                for (int i = 0; i < 4; i++)
                {
                    assertEquals(i + 1, dst.getLong(i * 64));
                }

                try (CompletionQueue cq2 = domain.cqOpen(new CqAttr(), 0);
                    Endpoint next = domain.endpoint(info, 0))
                {
                    next.bind(av, 0);
                    next.bind(cq2, Flags.FI_TRANSMIT | Flags.FI_RECV);
                    next.enable();
                    final long[] dest = new long[1];
                    av.insert(new String[] { new String(receiver.getname(), StandardCharsets.US_ASCII) }, 1, dest, 0,
                        0);
                    final ByteBuffer src = ByteBuffer.allocateDirect(64).putLong(0, 7);
                    long rc;
                    int attempts = 0;
                    while ((rc = next.inject(src, 0, 64, dest[0])) == -Errno.FI_EAGAIN && attempts++ < 1_000_000)
                    {
                        cq.read(e, 8); // the receiver's progress frees the lane
                    }
                    assertEquals(0, rc);
                    int n;
                    while ((n = cq.read(e, 8)) == -Errno.FI_EAGAIN && System.nanoTime() < deadline + 10_000_000_000L)
                    {
                        Thread.onSpinWait();
                    }
                    assertEquals(1, n);
                    assertEquals(7, dst.getLong(4 * 64), "the fifth receive holds the new sender's message, " +
                        "not the dead one's half-written record");
                }
            }
        }
    }

    @Test
    void shouldFailTheReceiveOfALargeMessageWhoseSenderDiedPartWay() throws Exception
    {
        final int length = 1 << 20;
        try (EndpointPair pair = new EndpointPair())
        {
            final Endpoint receiver = pair.b;
            final CompletionQueue cq = pair.cqB;
            final ByteBuffer dst = ByteBuffer.allocateDirect(length);
            assertEquals(0, receiver.recv(dst, 0, length, 0, Addresses.FI_ADDR_UNSPEC, 42));
            final String out = ChildJvm.start(DeadSenderPeerMain.class,
                List.of("jfabric.shm.dir=" + pair.root.dir()), pair.domain.attr().name(),
                new String(receiver.getname(), StandardCharsets.US_ASCII), Integer.toString(length))
                .awaitSuccess(60);
            assertTrue(out.contains("queued 0"), out);

            final CqEntries e = new CqEntries(8);
            int n;
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while ((n = cq.read(e, 8)) == -Errno.FI_EAGAIN && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            assertEquals(-Errno.FI_EAVAIL, n, "the receive ends, in error, once its sender is found gone");
            final CqErrEntry err = new CqErrEntry();
            assertEquals(1, cq.readErr(err, 0));
            assertEquals(42, err.opContext);
            assertEquals(Errno.FI_EIO, err.err);
            assertTrue(err.len > 0 && err.len < length, "part of the message arrived: " + err.len);
            assertEquals(length - err.len, err.olen, "olen: the bytes that never came");
            for (int i = 0; i < (int)err.len; i++)
            {
                assertEquals(Pattern.at(5, i), dst.get(i), "byte " + i);
            }
            assertEquals(-Errno.FI_EAGAIN, cq.read(e, 8));
        }
    }
}
