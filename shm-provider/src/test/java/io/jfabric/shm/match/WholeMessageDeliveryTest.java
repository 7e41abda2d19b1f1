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
package io.jfabric.shm.match;

import io.jfabric.Flags;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReceiveMatcher#deliver}, the endpoint's path for whole messages, must do exactly what begin, write and end
 * do: the same random mix of posts (untagged, tagged with ignore bits, directed, multi-receive, short buffers) and
 * messages (from two senders, some with CQ data, some unexpected, some too long) played into two matchers, one
 * each way, gives the same completions and the same bytes in the receive buffers.
 */
class WholeMessageDeliveryTest
{
    @Test
    void shouldCompleteExactlyAsBeginWriteEndDo()
    {
        final Side pieces = new Side();
        final Side whole = new Side();
        final Random random = new Random(42);
        for (int step = 0; step < 3000; step++)
        {
            final int what = random.nextInt(10);
            final long sender = random.nextBoolean() ? MatcherFixture.SENDER_A : MatcherFixture.SENDER_B;
            final boolean tagged = random.nextBoolean();
            final long tag = random.nextInt(4);
            if (what < 4)
            {
                final int length = 1 + random.nextInt(300);
                final int offset = random.nextInt(4096 - length);
                final long src = random.nextInt(4) == 0 ? 3 : io.jfabric.Addresses.FI_ADDR_UNSPEC;
                final long ignore = random.nextInt(3) == 0 ? 1 : 0;
                final long flags = !tagged && random.nextInt(6) == 0 ? Flags.FI_MULTI_RECV : Flags.FI_COMPLETION;
                final long context = step;
                assertEquals(pieces.m.post(tagged, pieces.buf, offset, length, src, tag, ignore, context, flags),
                    whole.m.post(tagged, whole.buf, offset, length, src, tag, ignore, context, flags));
            }
            else
            {
                final byte[] payload = MatcherFixture.payload(random.nextInt(200), step);
                final long data = random.nextInt(2) == 0 ? step : 0;
                final long msgFlags = data != 0 ? Flags.FI_REMOTE_CQ_DATA : 0;
                pieces.ring.putBytes(0, payload);
                whole.ring.putBytes(0, payload);
                final long d = pieces.m.begin(sender, tagged, tag, data, msgFlags, payload.length);
                final boolean took = whole.m.deliver(sender, tagged, tag, data, msgFlags, whole.ring, 0, payload.length);
                assertEquals(d != ReceiveMatcher.DELIVERY_NONE, took, "step " + step);
                if (took)
                {
                    pieces.m.write(d, pieces.ring, 0, payload.length);
                    pieces.m.end(d);
                }
            }
        }
        assertTrue(pieces.f.sink.count > 500, "the mix completed receives: " + pieces.f.sink.count);
        assertEquals(pieces.f.sink.count, whole.f.sink.count);
        for (int i = 0; i < pieces.f.sink.count; i++)
        {
            final RecordingSink a = pieces.f.sink;
            final RecordingSink b = whole.f.sink;
            final String at = "completion " + i;
            assertEquals(a.context[i], b.context[i], at);
            assertEquals(a.opFlags[i], b.opFlags[i], at);
            assertEquals(a.cqFlags[i], b.cqFlags[i], at);
            assertEquals(a.len[i], b.len[i], at);
            assertEquals(a.bufOffset[i], b.bufOffset[i], at);
            assertEquals(a.data[i], b.data[i], at);
            assertEquals(a.tag[i], b.tag[i], at);
            assertEquals(a.olen[i], b.olen[i], at);
            assertEquals(a.errno[i], b.errno[i], at);
            assertEquals(a.srcAddr[i], b.srcAddr[i], at);
        }
        assertArrayEquals(MatcherFixture.bytes(pieces.buf, 0, 4096), MatcherFixture.bytes(whole.buf, 0, 4096));
        assertEquals(pieces.m.unexpectedCount(), whole.m.unexpectedCount());
        assertEquals(pieces.m.postedCount(), whole.m.postedCount());
    }

    /** One matcher with its own sink, resolver, receive buffer and source ring. */
    private static final class Side
    {
        final MatcherFixture f = new MatcherFixture();
        final ReceiveMatcher m;
        final ByteBuffer buf = ByteBuffer.allocateDirect(4096);
        final org.agrona.concurrent.UnsafeBuffer ring = f.ring;

        Side()
        {
            f.resolver.fiAddrBySlot[3] = 3;
            m = f.matcher(64, 64, 1 << 14, true);
            m.minMultiRecv(64);
        }
    }
}
