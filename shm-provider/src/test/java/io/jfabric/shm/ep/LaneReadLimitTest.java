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
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * How many records one read of a lane takes: after a read that found nothing, one, so that the completion reaches
 * the caller without a look at the next frame (a line the sender may still hold); while records keep coming, up to
 * the read limit. Pins {@code RxContext}'s choice through what the CQ returns per read.
 */
class LaneReadLimitTest
{
    private static final int MESSAGES = 5;

    @Test
    void shouldTakeOneRecordAfterAnEmptyReadAndTheRestOnceTheLaneStreams()
    {
        try (ShmTestRoot root = new ShmTestRoot())
        {
            final ShmProvider provider = root.provider(key -> null);
            final Info hints = new Info();
            hints.domainAttr().name("limit").threading(Threading.DOMAIN);
            final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
            try (Fabric fabric = provider.fabric(info.fabricAttr(), 0);
                Domain domain = fabric.domain(info, 0);
                AddressVector av = domain.avOpen(new AvAttr(), 0);
                CompletionQueue rxCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
                CompletionQueue txCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
                Endpoint receiver = open(domain, info, av, rxCq);
                Endpoint sender = open(domain, info, av, txCq))
            {
                final long[] addr = new long[1];
                av.insert(new String[] { new String(receiver.getname(), StandardCharsets.US_ASCII) }, 1, addr, 0, 0);
                final ByteBuffer src = ByteBuffer.allocateDirect(32);
                final ByteBuffer dst = ByteBuffer.allocateDirect(32 * MESSAGES);
                final CqEntries entries = new CqEntries(16);
                for (int i = 0; i < MESSAGES; i++)
                {
                    assertEquals(0, receiver.recv(dst, 32 * i, 32, 0, Addresses.FI_ADDR_UNSPEC, i));
                }
                assertEquals(0, sender.inject(src, 0, 32, addr[0]));
                int first = -Errno.FI_EAGAIN;
                for (int attempt = 0; attempt < 1_000 && first == -Errno.FI_EAGAIN; attempt++)
                {
                    first = rxCq.read(entries, 16); // until a rescan has listed the sender's lane
                }
                assertEquals(1, first);
                assertEquals(-Errno.FI_EAGAIN, rxCq.read(entries, 16), "the lane is read empty once");
                for (int i = 1; i < MESSAGES; i++)
                {
                    assertEquals(0, sender.inject(src, 0, 32, addr[0]));
                }
                assertEquals(1, rxCq.read(entries, 16), "the first read after an empty one takes one record");
                assertEquals(MESSAGES - 2, rxCq.read(entries, 16), "a lane that gave a record is read to its end");
                assertEquals(-Errno.FI_EAGAIN, rxCq.read(entries, 16));
            }
        }
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
