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
import io.jfabric.Flags;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * With an AV opened with FI_AV_USER_ID, fi_cq_readfrom reports the sender's user id, and a later
 * fi_av_set_user_id shows in the very next completion (the receiver remembers which AV entry a sender is, not the
 * id it had).
 */
class ReadFromUserIdTest
{
    @Test
    void shouldReportTheSendersCurrentUserId()
    {
        try (EndpointPair pair = new EndpointPair();
            AddressVector av = pair.domain.avOpen(new AvAttr().flags(Flags.FI_AV_USER_ID), 0);
            CompletionQueue cq = pair.domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            Endpoint sender = pair.domain.endpoint(pair.a.info(), 0);
            Endpoint receiver = pair.domain.endpoint(pair.a.info(), 0))
        {
            for (final Endpoint ep : new Endpoint[] { sender, receiver })
            {
                ep.bind(av, 0);
                ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
                ep.enable();
            }
            final long[] fiAddr = new long[2];
            assertEquals(2, av.insert(new String[] { new String(sender.getname(), StandardCharsets.US_ASCII),
                new String(receiver.getname(), StandardCharsets.US_ASCII) }, 2, fiAddr, 0, 0));
            final long senderAddr = fiAddr[0];
            final long receiverAddr = fiAddr[1];
            av.setUserId(senderAddr, 100, 0);
            final ByteBuffer buf = ByteBuffer.allocateDirect(64);
            final CqEntries entries = new CqEntries(4);

            assertEquals(0, receiver.recv(buf, 0, 64, 0, Addresses.FI_ADDR_UNSPEC, 1));
            assertEquals(0, sender.inject(buf, 0, 64, receiverAddr));
            assertEquals(1, readFromOne(cq, entries));
            assertEquals(100, entries.srcAddr[0]);

            av.setUserId(senderAddr, 111, 0);
            assertEquals(0, receiver.recv(buf, 0, 64, 0, Addresses.FI_ADDR_UNSPEC, 2));
            assertEquals(0, sender.inject(buf, 0, 64, receiverAddr));
            assertEquals(1, readFromOne(cq, entries));
            assertEquals(2, entries.opContext[0]);
            assertEquals(111, entries.srcAddr[0], "the id set after the first message");
        }
    }

    private static int readFromOne(final CompletionQueue cq, final CqEntries entries)
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        int n;
        while ((n = cq.readFrom(entries, 1)) == -io.jfabric.Errno.FI_EAGAIN && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
        return n;
    }
}
