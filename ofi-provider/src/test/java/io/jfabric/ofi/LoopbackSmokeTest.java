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
package io.jfabric.ofi;

import io.jfabric.CqFormat;
import io.jfabric.Errno;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two tcp;ofi_rxm endpoints of one process on 127.0.0.1 exchange a message, untagged and tagged: the whole object
 * chain (getinfo, fabric, domain, AV, CQ, endpoint) against native libfabric.
 */
@NeedsLibfabric
class LoopbackSmokeTest
{
    @Test
    void shouldSendAndReceiveBetweenTwoEndpointsOfOneProcess() throws Exception
    {
        try (Tcp.Node a = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED).enable();
             Tcp.Node b = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED).enable())
        {
            final long toB = a.insert(b.ep.getname());
            final ByteBuffer out = ByteBuffer.allocateDirect(4096);
            final ByteBuffer in = ByteBuffer.allocateDirect(4096);
            out.put(0, "hello native".getBytes());
            assertEquals(0, b.ep.recv(in, 100, 1000, 0, -1L, 77));
            long rc;
            while ((rc = a.ep.send(out, 0, 12, 0, toB, 55)) == -Errno.FI_EAGAIN)
            {
                a.cq.read(a.entries, 1);         // manual progress: the connection needs both sides to progress
                b.cq.read(b.entries, 1);
            }
            assertEquals(0, rc);
            assertEquals(77, b.await(1, 10_000)[0]);
            assertEquals(55, a.await(1, 10_000)[0]);
            assertEquals(12, b.entries.len[0]);
            final byte[] got = new byte[12];
            in.get(100, got);
            assertArrayEquals("hello native".getBytes(), got);

            assertEquals(0, b.ep.trecv(in, 0, 64, 0, -1L, 0xABC, 0, 88));
            assertEquals(0, a.ep.tsend(out, 0, 5, 0, toB, 0xABC, 66));
            assertEquals(88, b.await(1, 10_000)[0]);
            assertEquals(66, a.await(1, 10_000)[0]);
            assertEquals(0xABC, b.entries.tag[0]);
        }
    }
}
