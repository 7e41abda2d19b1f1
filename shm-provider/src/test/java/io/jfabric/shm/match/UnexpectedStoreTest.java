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

import io.jfabric.Addresses;
import io.jfabric.Flags;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class UnexpectedStoreTest extends MatcherFixture
{
    private static final long UNSPEC = Addresses.FI_ADDR_UNSPEC;

    @Test
    void shouldRefuseMessageBeyondCountLimitWithoutChangingAnything()
    {
        final ReceiveMatcher m = matcher(4, 3, 4096, false);
        for (int i = 0; i < 3; i++)
        {
            send(m, SENDER_A, false, 0, payload(10, i));
        }
        assertEquals(ReceiveMatcher.DELIVERY_NONE, m.begin(SENDER_A, false, 0, 0, 0, 10));
        assertEquals(ReceiveMatcher.DELIVERY_NONE, m.begin(SENDER_A, true, 0, 0, 0, 0));
        assertEquals(3, m.unexpectedCount());
        assertEquals(30, m.unexpectedBytesInUse());
        assertEquals(0, sink.count);
        final ByteBuffer b = ByteBuffer.allocate(16);
        m.post(false, b, 0, 16, UNSPEC, 0, 0, 1, 0);
        assertArrayEquals(payload(10, 0), bytes(b, 0, 10), "the oldest first, nothing lost");
        send(m, SENDER_A, false, 0, payload(10, 3));
        assertEquals(3, m.unexpectedCount());
    }

    @Test
    void shouldRefuseMessageBeyondByteLimitButAcceptOneThatFitsExactly()
    {
        final ReceiveMatcher m = matcher(4, 8, 1000, false);
        send(m, SENDER_A, false, 0, payload(600, 1));
        assertEquals(ReceiveMatcher.DELIVERY_NONE, m.begin(SENDER_B, false, 0, 0, 0, 401));
        assertEquals(600, m.unexpectedBytesInUse());
        send(m, SENDER_B, false, 0, payload(400, 2));
        assertEquals(1000, m.unexpectedBytesInUse());
        send(m, SENDER_B, false, 0, new byte[0]);
        assertEquals(3, m.unexpectedCount(), "a zero-length message needs no bytes");
    }

    @Test
    void shouldStillDeliverToPostedReceiveWhenStoreIsFull()
    {
        final ReceiveMatcher m = matcher(4, 1, 64, false);
        send(m, SENDER_A, true, 1, payload(64, 1));
        assertEquals(ReceiveMatcher.DELIVERY_NONE, m.begin(SENDER_A, true, 2, 0, 0, 8));
        final ByteBuffer b = ByteBuffer.allocate(8);
        m.post(true, b, 0, 8, UNSPEC, 2, 0, 1, 0);
        send(m, SENDER_A, true, 2, payload(8, 2));
        assertEquals(1, sink.count);
        assertArrayEquals(payload(8, 2), bytes(b, 0, 8));
    }

    @Test
    void shouldHoldAsManyMessagesAsTheCountLimitWhateverTheirLengthsWithinTheByteLimit()
    {
        final int count = 16;
        final int length = UnexpectedMessages.BLOCK_SIZE + 1;
        final ReceiveMatcher m = matcher(4, count, count * length, false);
        for (int i = 0; i < count; i++)
        {
            send(m, SENDER_A, false, 0, payload(length, i));
        }
        assertEquals(count, m.unexpectedCount());
        assertEquals((long)count * length, m.unexpectedBytesInUse());
        for (int i = 0; i < count; i++)
        {
            final ByteBuffer b = ByteBuffer.allocate(length);
            m.post(false, b, 0, length, UNSPEC, 0, 0, i, 0);
            assertArrayEquals(payload(length, i), bytes(b, 0, length));
        }
        assertEquals(0, m.unexpectedBytesInUse());
    }

    @Test
    void shouldAllocateNoArenaWhileEveryMessageFindsItsReceivePosted()
    {
        final ReceiveMatcher m = matcher(4, 4096, 8 << 20, false);
        final ByteBuffer b = ByteBuffer.allocate(512);
        for (int i = 0; i < 100; i++)
        {
            m.post(false, b, 0, 512, UNSPEC, 0, 0, i, 0);
            send(m, SENDER_A, false, 0, payload(500, i));
        }
        assertEquals(100, sink.count);
        assertEquals(0, m.unexpectedArenaBytes(), "an 8 MiB store that was never needed holds no arena");
    }

    @Test
    void shouldGrowTheArenaToWhatTheUnexpectedMessagesNeededAndReuseIt()
    {
        final ReceiveMatcher m = matcher(4, 4096, 8 << 20, false);
        for (int round = 0; round < 3; round++)
        {
            for (int i = 0; i < 300; i++)
            {
                send(m, SENDER_A, false, 0, payload(200, i)); // 4 blocks each: 1,200 blocks, two chunks
            }
            assertEquals(2L * BlockArena.CHUNK_BLOCKS * BlockArena.BLOCK_SIZE, m.unexpectedArenaBytes(),
                "round " + round + ": two chunks, and no more after the first round");
            for (int i = 0; i < 300; i++)
            {
                final ByteBuffer b = ByteBuffer.allocate(200);
                m.post(false, b, 0, 200, UNSPEC, 0, 0, i, 0);
                assertArrayEquals(payload(200, i), bytes(b, 0, 200), "round " + round + " message " + i);
            }
            assertEquals(0, m.unexpectedCount());
        }
    }

    @Test
    void shouldRefuseNewDeliveryWhenTooManyAreInProgress()
    {
        final ReceiveMatcher m = new ReceiveMatcher(4, 8, 4096, false, false, resolver, sink, 4, 2);
        final long a = m.begin(SENDER_A, false, 0, 0, 0, 10);
        final long b = m.begin(SENDER_B, false, 0, 0, 0, 10);
        assertNotEquals(a, b);
        assertEquals(ReceiveMatcher.DELIVERY_NONE, m.begin(TableResolver.senderId(9, 1), false, 0, 0, 0, 10));
        assertEquals(2, m.unexpectedCount());
        m.end(a);
        assertNotEquals(ReceiveMatcher.DELIVERY_NONE, m.begin(TableResolver.senderId(9, 1), false, 0, 0, 0, 10));
    }

    @Test
    void shouldMatch1024UnexpectedTaggedMessagesWithReceivesPostedInReverseTagOrder()
    {
        final int n = 1024;
        final ReceiveMatcher m = matcher(n, n, 1 << 20, false);
        for (int i = 0; i < n; i++)
        {
            send(m, (i & 1) == 0 ? SENDER_A : SENDER_B, true, 0x5000_0000_0000L + i, payload(1 + i % 300, i));
        }
        assertEquals(n, m.unexpectedCount());
        final ByteBuffer b = ByteBuffer.allocateDirect(512);
        for (int i = n - 1; i >= 0; i--)
        {
            assertEquals(0, m.post(true, b, 0, 512, UNSPEC, 0x5000_0000_0000L + i, 0, i, 0));
            final int c = sink.last();
            assertEquals(n - i, sink.count);
            assertFalse(sink.error[c]);
            assertEquals(i, sink.context[c]);
            assertEquals(0x5000_0000_0000L + i, sink.tag[c]);
            assertEquals(1 + i % 300, sink.len[c]);
            assertArrayEquals(payload(1 + i % 300, i), bytes(b, 0, 1 + i % 300), "message " + i);
        }
        assertEquals(0, m.unexpectedCount());
        assertEquals(0, m.unexpectedBytesInUse());
        assertEquals(0, m.postedCount());
    }

    @Test
    void shouldKeepInterleavedPiecesOfTwoSendersApart()
    {
        final ReceiveMatcher m = matcher(4, 8, 1 << 16, false);
        final ByteBuffer posted = ByteBuffer.allocate(5000);
        m.post(true, posted, 0, 5000, UNSPEC, 1, 0, 1, 0);
        final byte[] pa = payload(5000, 1);
        final byte[] pb = payload(3000, 2);
        final long a = m.begin(SENDER_A, true, 1, 0, 0, pa.length);
        final long b = m.begin(SENDER_B, true, 2, 0, 0, pb.length);
        assertEquals(1, m.unexpectedCount(), "B's message has no receive yet");
        for (int i = 0; i < 5; i++)
        {
            piece(m, a, pa, i * 1000, 1000);
            if (i < 3)
            {
                piece(m, b, pb, i * 1000, 1000);
            }
            if (i == 1)
            {
                m.post(true, ByteBuffer.allocate(1), 0, 1, UNSPEC, 9, 0, 9, 0);
            }
        }
        m.end(b);
        m.end(a);
        assertEquals(1, sink.count);
        assertArrayEquals(pa, bytes(posted, 0, 5000));
        final ByteBuffer late = ByteBuffer.allocate(3000);
        m.post(true, late, 0, 3000, UNSPEC, 2, 0, 2, 0);
        assertEquals(2, sink.count);
        assertArrayEquals(pb, bytes(late, 0, 3000));
    }

    @Test
    void shouldKeepInterleavedUnexpectedPiecesApartWhenReceivesArriveMidway()
    {
        final ReceiveMatcher m = matcher(4, 8, 1 << 16, false);
        final byte[] pa = payload(700, 3);
        final byte[] pb = payload(900, 4);
        final long a = m.begin(SENDER_A, false, 0, 0, 0, pa.length);
        final long b = m.begin(SENDER_B, false, 0, 0, 0, pb.length);
        piece(m, b, pb, 0, 100);
        piece(m, a, pa, 0, 333);
        final ByteBuffer ra = ByteBuffer.allocate(700);
        final ByteBuffer rb = ByteBuffer.allocate(900);
        m.post(false, ra, 0, 700, UNSPEC, 0, 0, 1, 0);
        piece(m, b, pb, 100, 400);
        m.post(false, rb, 0, 900, UNSPEC, 0, 0, 2, 0);
        piece(m, a, pa, 333, 367);
        piece(m, b, pb, 500, 400);
        assertEquals(0, m.unexpectedCount());
        m.end(b);
        m.end(a);
        assertEquals(2, sink.context[0], "B ended first");
        assertEquals(1, sink.context[1]);
        assertArrayEquals(pa, bytes(ra, 0, 700), "A arrived first, so the first receive took it");
        assertArrayEquals(pb, bytes(rb, 0, 900));
    }

    @Test
    void shouldReportDeliveryEndingShortAsTruncated()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        m.post(false, ByteBuffer.allocate(100), 0, 100, UNSPEC, 0, 0, 1, 0);
        final long d = m.begin(SENDER_A, false, 0, 0, 0, 50);
        piece(m, d, payload(20, 1), 0, 20);
        m.end(d);
        assertEquals(io.jfabric.Errno.FI_ETRUNC, sink.errno[0]);
        assertEquals(20, sink.len[0]);
        assertEquals(30, sink.olen[0]);
    }

    @Test
    void shouldAllocateNothingWhilePostingMatchingDeliveringPeekingAndCancelling()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        final ReceiveMatcher m = matcher(64, 64, 1 << 16, true);
        resolver.fiAddrBySlot[3] = 3;
        m.minMultiRecv(1);
        final ByteBuffer heap = ByteBuffer.allocate(4096);
        final ByteBuffer direct = ByteBuffer.allocateDirect(4096);
        final ByteBuffer[] iov = { heap, direct };
        final int[] iovOffset = { 0, 0 };
        final int[] iovLength = { 100, 4000 };
        ring.setMemory(0, 8192, (byte)7);
        cycles(m, heap, direct, iov, iovOffset, iovLength, 20_000);
        // Steady state allocates nothing. A round may still see a one-off allocation from the JIT (a deoptimization
        // materialising a scalar-replaced object), so up to five rounds are measured and one must be clean; a path
        // that allocates per cycle fails all five.
        long allocated = Long.MAX_VALUE;
        long sum = 0;
        for (int round = 0; round < 5 && allocated != 0; round++)
        {
            sink.clear();
            final long before = threads.getCurrentThreadAllocatedBytes();
            sum = cycles(m, heap, direct, iov, iovOffset, iovLength, 100_000);
            allocated = threads.getCurrentThreadAllocatedBytes() - before;
        }
        assertEquals(0, allocated, "bytes allocated by 100k post/begin/write/end cycles");
        assertEquals(100_000L * 8, sum, "every post accepted");
        assertEquals(100_000 * 8, sink.count, "completions of the measured cycles");
        assertEquals(0, m.unexpectedCount());
        assertEquals(0, m.postedCount());
    }

    private long cycles(
        final ReceiveMatcher m, final ByteBuffer heap, final ByteBuffer direct, final ByteBuffer[] iov,
        final int[] iovOffset, final int[] iovLength, final int n)
    {
        long accepted = 0;
        for (int i = 0; i < n; i++)
        {
            final int len = 1 + (i & 1023);
            // posted first, directed
            accepted += m.post(false, heap, 0, 4096, 3, 0, 0, i, Flags.FI_COMPLETION) == 0 ? 1 : 0;
            long d = m.begin(SENDER_A, false, 0, i, Flags.FI_REMOTE_CQ_DATA, len);
            m.write(d, ring, 0, len);
            m.end(d);
            // unexpected first, in two pieces, then a tagged iov receive
            d = m.begin(SENDER_B, true, i, 0, 0, len + 200);
            m.write(d, ring, 0, 200);
            m.write(d, ring, 300, len);
            m.end(d);
            accepted += m.post(true, null, 0, 0, Addresses.FI_ADDR_UNSPEC, i, 0, i, Flags.FI_PEEK) == 0 ? 1 : 0;
            accepted += m.post(true, iov, iovOffset, iovLength, 2, Addresses.FI_ADDR_UNSPEC, i, 0, i, 0) == 0 ? 1 : 0;
            // multi-receive taking two messages and released
            accepted += m.post(false, direct, 0, 2048 + len, Addresses.FI_ADDR_UNSPEC, 0, 0, i,
                Flags.FI_MULTI_RECV) == 0 ? 1 : 0;
            d = m.begin(SENDER_A, false, 0, 0, 0, 2048);
            m.write(d, ring, 0, 2048);
            m.end(d);
            d = m.begin(SENDER_A, false, 0, 0, 0, len);
            m.write(d, ring, 0, len);
            m.end(d);
            // claim pair
            d = m.begin(SENDER_A, true, 1L << 40, 0, 0, 10);
            m.write(d, ring, 0, 10);
            m.end(d);
            accepted += m.post(true, null, 0, 0, Addresses.FI_ADDR_UNSPEC, 1L << 40, 0, -i,
                Flags.FI_PEEK | Flags.FI_CLAIM) == 0 ? 1 : 0;
            accepted += m.post(true, heap, 0, 10, Addresses.FI_ADDR_UNSPEC, 0, 0, -i, Flags.FI_CLAIM) == 0 ? 1 : 0;
            // cancel
            accepted += m.post(true, heap, 0, 10, Addresses.FI_ADDR_UNSPEC, 5, 0, 77, 0) == 0 ? 1 : 0;
            accepted += m.cancel(77) == 0 ? 1 : 0;
        }
        return accepted;
    }
}
