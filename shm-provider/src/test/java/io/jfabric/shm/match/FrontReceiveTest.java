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
import io.jfabric.Errno;
import io.jfabric.Flags;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The matcher's front receive (a plain receive posted when none of its kind is pending, held outside the pool) must
 * be indistinguishable from a pooled one: post order, truncation, cancel, the posted limit and the other kind's
 * messages all behave as if it were the head of its list. Messages arrive through {@link ReceiveMatcher#deliver},
 * the endpoint's path for whole messages, which is where the front is taken.
 */
class FrontReceiveTest extends MatcherFixture
{
    private static final long UNSPEC = Addresses.FI_ADDR_UNSPEC;

    private boolean deliver(final ReceiveMatcher m, final boolean tagged, final long tag, final byte[] payload)
    {
        ring.putBytes(0, payload);
        return m.deliver(SENDER_A, tagged, tag, 0, 0, ring, 0, payload.length);
    }

    @Test
    void shouldCompleteAReceivePostedAheadOfEachMessage()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocateDirect(256);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(0, m.post(false, b, 64 * i, 64, UNSPEC, 0, 0, i + 1, Flags.FI_COMPLETION));
            assertEquals(1, m.postedCount());
            assertTrue(deliver(m, false, 0, payload(11 + i, i + 1)));
            assertEquals(0, m.postedCount());
        }
        assertEquals(3, sink.count);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(i + 1, sink.context[i]);
            assertEquals(Flags.FI_COMPLETION, sink.opFlags[i]);
            assertEquals(64L * i, sink.bufOffset[i]);
            assertEquals(11 + i, sink.len[i]);
            assertEquals(Flags.FI_RECV | Flags.FI_MSG, sink.cqFlags[i]);
            assertArrayEquals(payload(11 + i, i + 1), bytes(b, 64 * i, 11 + i));
        }
    }

    @Test
    void shouldCarryRemoteCqData()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(16);
        m.post(true, b, 0, 16, UNSPEC, 7, 0, 1, 0);
        ring.putBytes(0, payload(8, 1));
        assertTrue(m.deliver(SENDER_A, true, 7, 0xDA7AL, Flags.FI_REMOTE_CQ_DATA, ring, 0, 8));
        assertEquals(Flags.FI_RECV | Flags.FI_TAGGED | Flags.FI_REMOTE_CQ_DATA, sink.cqFlags[0]);
        assertEquals(0xDA7AL, sink.data[0]);
        assertEquals(7, sink.tag[0]);
    }

    @Test
    void shouldTruncateAMessageLongerThanTheFrontReceive()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(64);
        m.post(false, b, 8, 16, UNSPEC, 0, 0, 5, 0);
        assertTrue(deliver(m, false, 0, payload(20, 3)));

        assertEquals(1, sink.count);
        assertTrue(sink.error[0]);
        assertEquals(5, sink.context[0]);
        assertEquals(Errno.FI_ETRUNC, sink.errno[0]);
        assertEquals(16, sink.len[0]);
        assertEquals(4, sink.olen[0]);
        assertArrayEquals(bytes(ByteBuffer.wrap(payload(20, 3)), 0, 16), bytes(b, 8, 16));
        assertEquals(0, b.get(24), "nothing written past the receive");
        assertEquals(0, m.postedCount());
    }

    @Test
    void shouldGiveAMessageInPiecesToTheFrontReceiveAndTheNextMessageToTheReceivePostedAfter()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(256);
        m.post(false, b, 0, 64, UNSPEC, 0, 0, 1, 0);
        final byte[] first = payload(30, 7);
        final long d = m.begin(SENDER_B, false, 0, 0, 0, first.length);
        piece(m, d, first, 0, 10);
        m.post(false, b, 64, 64, UNSPEC, 0, 0, 2, 0);
        assertTrue(deliver(m, false, 0, payload(20, 8)));
        piece(m, d, first, 10, 20);
        m.end(d);

        assertEquals(2, sink.count);
        assertEquals(2, sink.context[0], "the whole message completes first");
        assertEquals(64, sink.bufOffset[0]);
        assertEquals(1, sink.context[1], "the message in pieces took the receive posted first");
        assertEquals(0, sink.bufOffset[1]);
        assertArrayEquals(first, bytes(b, 0, 30));
        assertArrayEquals(payload(20, 8), bytes(b, 64, 20));
    }

    @Test
    void shouldCancelTheFrontReceive()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(64);
        m.post(false, b, 0, 32, UNSPEC, 0, 0, 9, 0);
        assertEquals(0, m.cancel(9));
        assertTrue(sink.error[0]);
        assertEquals(Errno.FI_ECANCELED, sink.errno[0]);
        assertEquals(9, sink.context[0]);
        assertEquals(0, m.postedCount());
        assertEquals(-Errno.FI_ENOENT, m.cancel(9));

        assertTrue(deliver(m, false, 0, payload(4, 1)));
        assertEquals(1, sink.count, "nothing takes the message now: it waits as unexpected");
        assertEquals(1, m.unexpectedCount());
    }

    @Test
    void shouldCancelTheOldestOfTwoReceivesWithOneContext()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(64);
        m.post(true, b, 0, 16, UNSPEC, 1, 0, 9, 0);
        m.post(false, b, 16, 16, UNSPEC, 0, 0, 9, 0);
        assertEquals(0, m.cancel(9));
        assertEquals(Flags.FI_RECV | Flags.FI_TAGGED, sink.cqFlags[0], "the tagged one was posted first");
        assertEquals(0, m.cancel(9));
        assertEquals(Flags.FI_RECV | Flags.FI_MSG, sink.cqFlags[1]);
    }

    @Test
    void shouldCountTheFrontReceiveInThePostedLimit()
    {
        final ReceiveMatcher m = matcher(1, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(64);
        assertEquals(0, m.post(true, b, 0, 8, UNSPEC, 4, 0, 1, 0));
        assertEquals(-Errno.FI_EAGAIN, m.post(false, b, 8, 8, UNSPEC, 0, 0, 2, 0));
        assertEquals(-Errno.FI_EAGAIN, m.post(false, b, 8, 8, UNSPEC, 0, 0, 2, 0));
        assertEquals(-Errno.FI_EAGAIN, m.post(true, b, 8, 8, UNSPEC, 4, 0, 2, 0));
        assertEquals(1, m.postedCount());

        assertTrue(deliver(m, true, 4, payload(2, 1)));
        assertEquals(1, sink.context[0]);
        assertEquals(0, m.post(false, b, 8, 8, UNSPEC, 0, 0, 3, 0), "the freed receive makes room");
        assertEquals(-Errno.FI_EAGAIN, m.post(false, b, 16, 8, UNSPEC, 0, 0, 4, 0));
    }

    @Test
    void shouldLeaveTheFrontReceiveForMessagesOfItsKindAndTagOnly()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(64);
        m.post(true, b, 0, 16, UNSPEC, 0x100, 0x0F, 1, 0);
        assertTrue(deliver(m, true, 0x200, payload(3, 2)), "other tag: stored as unexpected");
        assertTrue(deliver(m, false, 0, payload(3, 1)), "untagged message: stored as unexpected");
        assertEquals(0, sink.count);
        assertEquals(2, m.unexpectedCount());

        assertTrue(deliver(m, true, 0x10A, payload(5, 3)));
        assertEquals(1, sink.count);
        assertEquals(1, sink.context[0]);
        assertEquals(0x10A, sink.tag[0]);
        assertEquals(Flags.FI_RECV | Flags.FI_TAGGED, sink.cqFlags[0]);
        assertArrayEquals(payload(5, 3), bytes(b, 0, 5));
    }

    @Test
    void shouldNotTakeAReceiveIntoTheFrontWhileAMessageWaitsForIt()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        assertTrue(deliver(m, false, 0, payload(6, 1)));
        final ByteBuffer b = ByteBuffer.allocate(16);
        m.post(false, b, 0, 16, UNSPEC, 0, 0, 1, 0);
        assertEquals(1, sink.count, "the waiting message completed the receive at its post");
        assertArrayEquals(payload(6, 1), bytes(b, 0, 6));
        assertEquals(0, m.unexpectedCount());
        assertEquals(0, m.postedCount());
    }

    @Test
    void shouldFilterByDirectedSourceWithoutTheFront()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, true);
        resolver.fiAddrBySlot[3] = 40; // SENDER_A
        resolver.fiAddrBySlot[5] = 41; // SENDER_B
        final ByteBuffer b = ByteBuffer.allocate(64);
        m.post(false, b, 0, 16, 41, 0, 0, 1, 0);
        assertTrue(deliver(m, false, 0, payload(3, 1)), "from SENDER_A (40): not for the receive from 41");
        assertEquals(0, sink.count);
        ring.putBytes(0, payload(4, 2));
        assertTrue(m.deliver(SENDER_B, false, 0, 0, 0, ring, 0, 4));
        assertEquals(1, sink.context[0]);
        assertEquals(41, sink.srcAddr[0]);
    }
}
