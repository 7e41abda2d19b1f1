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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeekClaimDiscardTest extends MatcherFixture
{
    private static final long UNSPEC = Addresses.FI_ADDR_UNSPEC;
    private static final long TAGGED_RECV = Flags.FI_RECV | Flags.FI_TAGGED;

    @Test
    void shouldReportEnomsgWhenPeekFindsNothing()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        send(m, SENDER_A, true, 1, payload(4, 1));
        assertEquals(0, m.post(true, ByteBuffer.allocate(8), 0, 8, UNSPEC, 2, 0, 9, Flags.FI_PEEK));
        assertEquals(1, sink.count);
        assertTrue(sink.error[0]);
        assertEquals(Errno.FI_ENOMSG, sink.errno[0]);
        assertEquals(9, sink.context[0]);
        assertEquals(0, m.postedCount(), "a peek never stays posted");
        assertEquals(1, m.unexpectedCount());
    }

    @Test
    void shouldNotFindMessagesArrivingAfterPeek()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        m.post(true, ByteBuffer.allocate(8), 0, 8, UNSPEC, 1, 0, 1, Flags.FI_PEEK);
        send(m, SENDER_A, true, 1, payload(4, 1));
        assertEquals(1, sink.count);
        assertEquals(Errno.FI_ENOMSG, sink.errno[0]);
        assertEquals(1, m.unexpectedCount(), "the later message waits for a receive");
    }

    @Test
    void shouldReportMessageMetadataOnPeekWithoutCopyingOrConsumingIt()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        resolver.fiAddrBySlot[3] = 33;
        send(m, SENDER_A, true, 0x1234, 0xD0D0L, Flags.FI_REMOTE_CQ_DATA, payload(40, 1));
        final ByteBuffer b = ByteBuffer.allocate(64);
        m.post(true, b, 0, 64, UNSPEC, 0x1200, 0xFF, 9, Flags.FI_PEEK);
        assertFalse(sink.error[0]);
        assertEquals(TAGGED_RECV | Flags.FI_PEEK | Flags.FI_REMOTE_CQ_DATA, sink.cqFlags[0]);
        assertEquals(40, sink.len[0], "the message's length");
        assertEquals(0x1234, sink.tag[0]);
        assertEquals(0xD0D0L, sink.data[0]);
        assertEquals(33, sink.srcAddr[0]);
        assertEquals(RecvCompletionSink.NO_BUFFER, sink.bufOffset[0]);
        assertEquals(0, b.get(0), "no data copied");
        assertEquals(1, m.unexpectedCount());
        m.post(true, b, 0, 64, UNSPEC, 0x1234, 0, 10, 0);
        assertEquals(10, sink.context[1]);
        assertArrayEquals(payload(40, 1), bytes(b, 0, 40));
    }

    @Test
    void shouldPeekMessageStillArriving()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        final long d = m.begin(SENDER_A, true, 5, 0, 0, 100);
        m.post(true, null, 0, 0, UNSPEC, 5, 0, 9, Flags.FI_PEEK);
        assertFalse(sink.error[0]);
        assertEquals(100, sink.len[0]);
        piece(m, d, payload(100, 1), 0, 100);
        m.end(d);
        assertEquals(1, sink.count);
    }

    @Test
    void shouldHideClaimedMessageFromOtherReceivesAndGiveItToPairedClaim()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        send(m, SENDER_A, true, 7, payload(20, 1));
        send(m, SENDER_A, true, 7, payload(20, 2));
        m.post(true, null, 0, 0, UNSPEC, 7, 0, 100, Flags.FI_PEEK | Flags.FI_CLAIM);
        assertEquals(TAGGED_RECV | Flags.FI_PEEK | Flags.FI_CLAIM, sink.cqFlags[0]);
        m.post(true, null, 0, 0, UNSPEC, 7, 0, 101, Flags.FI_PEEK);
        assertEquals(20, sink.len[1], "the peek sees the second message, not the claimed first");
        final ByteBuffer other = ByteBuffer.allocate(32);
        m.post(true, other, 0, 32, UNSPEC, 7, 0, 102, 0);
        assertArrayEquals(payload(20, 2), bytes(other, 0, 20), "a plain receive skips the claimed message");
        m.post(true, null, 0, 0, UNSPEC, 7, 0, 103, Flags.FI_PEEK);
        assertEquals(Errno.FI_ENOMSG, sink.errno[3], "only a claimed message is left");
        final ByteBuffer mine = ByteBuffer.allocate(32);
        assertEquals(0, m.post(true, mine, 4, 28, UNSPEC, 0, 0, 100, Flags.FI_CLAIM));
        assertFalse(sink.error[4]);
        assertEquals(100, sink.context[4]);
        assertEquals(TAGGED_RECV | Flags.FI_CLAIM, sink.cqFlags[4]);
        assertEquals(4, sink.bufOffset[4]);
        assertEquals(7, sink.tag[4]);
        assertArrayEquals(payload(20, 1), bytes(mine, 4, 20));
        assertEquals(0, m.unexpectedCount());
        assertEquals(0, m.postedCount());
    }

    @Test
    void shouldCompleteClaimOfMessageStillArrivingWhenItEnds()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        final byte[] p = payload(300, 3);
        final long d = m.begin(SENDER_A, true, 7, 0, 0, p.length);
        piece(m, d, p, 0, 100);
        m.post(true, null, 0, 0, UNSPEC, 7, 0, 100, Flags.FI_PEEK | Flags.FI_CLAIM);
        final ByteBuffer b = ByteBuffer.allocateDirect(300);
        m.post(true, b, 0, 300, UNSPEC, 0, 0, 100, Flags.FI_CLAIM);
        assertEquals(1, sink.count);
        piece(m, d, p, 100, 200);
        m.end(d);
        assertEquals(2, sink.count);
        assertEquals(TAGGED_RECV | Flags.FI_CLAIM, sink.cqFlags[1]);
        assertEquals(300, sink.len[1]);
        assertArrayEquals(p, bytes(b, 0, 300));
    }

    @Test
    void shouldRejectClaimOfContextThatClaimedNothing()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        send(m, SENDER_A, true, 7, payload(20, 1));
        assertEquals(-Errno.FI_EINVAL, m.post(true, ByteBuffer.allocate(32), 0, 32, UNSPEC, 7, 0, 5, Flags.FI_CLAIM));
        assertEquals(-Errno.FI_EINVAL, m.post(true, null, 0, 0, UNSPEC, 7, 0, 5, Flags.FI_CLAIM | Flags.FI_DISCARD));
        assertEquals(0, sink.count);
        assertEquals(0, m.postedCount());
        assertEquals(1, m.unexpectedCount());
    }

    @Test
    void shouldDiscardPeekedMessage()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        send(m, SENDER_A, true, 7, payload(20, 1));
        send(m, SENDER_A, true, 7, payload(30, 2));
        m.post(true, null, 0, 0, UNSPEC, 7, 0, 1, Flags.FI_PEEK | Flags.FI_DISCARD);
        assertFalse(sink.error[0]);
        assertEquals(20, sink.len[0]);
        assertEquals(1, m.unexpectedCount());
        assertEquals(30, m.unexpectedBytesInUse());
        final ByteBuffer b = ByteBuffer.allocate(64);
        m.post(true, b, 0, 64, UNSPEC, 7, 0, 2, 0);
        assertEquals(30, sink.len[1], "the discarded message is gone");
    }

    @Test
    void shouldDiscardClaimedMessage()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        send(m, SENDER_A, true, 7, 0x99L, Flags.FI_REMOTE_CQ_DATA, payload(20, 1));
        m.post(true, null, 0, 0, UNSPEC, 7, 0, 100, Flags.FI_PEEK | Flags.FI_CLAIM);
        assertEquals(0, m.post(true, null, 0, 5, UNSPEC, 0, 0, 100, Flags.FI_CLAIM | Flags.FI_DISCARD),
            "buffers are ignored with FI_DISCARD");
        assertFalse(sink.error[1]);
        assertEquals(0, sink.len[1]);
        assertEquals(TAGGED_RECV | Flags.FI_CLAIM | Flags.FI_REMOTE_CQ_DATA, sink.cqFlags[1]);
        assertEquals(0, m.unexpectedCount());
        assertEquals(0, m.unexpectedBytesInUse());
    }

    @Test
    void shouldDropRestOfDiscardedMessageStillArrivingAndFreeItAtEnd()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        final long d = m.begin(SENDER_A, true, 7, 0, 0, 200);
        piece(m, d, payload(200, 1), 0, 50);
        m.post(true, null, 0, 0, UNSPEC, 7, 0, 1, Flags.FI_PEEK | Flags.FI_DISCARD);
        assertEquals(200, sink.len[0]);
        m.post(true, ByteBuffer.allocate(256), 0, 256, UNSPEC, 7, 0, 2, 0);
        assertEquals(1, sink.count, "the discarded message matches nothing");
        assertEquals(1, m.unexpectedCount(), "held until its delivery ends");
        piece(m, d, payload(200, 1), 50, 150);
        m.end(d);
        assertEquals(0, m.unexpectedCount());
        assertEquals(0, m.unexpectedBytesInUse());
        assertEquals(1, m.postedCount());
    }

    @Test
    void shouldPeekOnlyFromDirectedSource()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, true);
        resolver.fiAddrBySlot[3] = 10;
        resolver.fiAddrBySlot[5] = 20;
        send(m, SENDER_A, true, 7, payload(11, 1));
        send(m, SENDER_B, true, 7, payload(22, 2));
        m.post(true, null, 0, 0, 20, 7, 0, 1, Flags.FI_PEEK);
        assertEquals(22, sink.len[0]);
        assertEquals(20, sink.srcAddr[0]);
    }
}
