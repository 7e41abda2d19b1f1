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

class ReceiveMatcherTest extends MatcherFixture
{
    private static final long UNSPEC = Addresses.FI_ADDR_UNSPEC;

    @Test
    void shouldMatchPostedReceivesInPostOrder()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer first = ByteBuffer.allocate(64);
        final ByteBuffer second = ByteBuffer.allocateDirect(64);
        assertEquals(0, m.post(false, first, 0, 64, UNSPEC, 0, 0, 11, Flags.FI_COMPLETION));
        assertEquals(0, m.post(false, second, 0, 64, UNSPEC, 0, 0, 22, 0));
        send(m, SENDER_A, false, 0, payload(10, 1));
        send(m, SENDER_A, false, 0, payload(20, 2));

        assertEquals(2, sink.count);
        assertEquals(11, sink.context[0]);
        assertEquals(Flags.FI_COMPLETION, sink.opFlags[0]);
        assertEquals(10, sink.len[0]);
        assertEquals(22, sink.context[1]);
        assertEquals(0, sink.opFlags[1]);
        assertEquals(20, sink.len[1]);
        assertArrayEquals(payload(10, 1), bytes(first, 0, 10));
        assertArrayEquals(payload(20, 2), bytes(second, 0, 20));
        assertEquals(0, m.postedCount());
    }

    @Test
    void shouldMatchTaggedReceivesInPostOrderSkippingOtherTags()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(256);
        m.post(true, b, 0, 64, UNSPEC, 0x10, 0, 1, 0);
        m.post(true, b, 64, 64, UNSPEC, 0x20, 0, 2, 0);
        m.post(true, b, 128, 64, UNSPEC, 0x20, 0, 3, 0);
        send(m, SENDER_A, true, 0x20, payload(5, 1));
        send(m, SENDER_A, true, 0x20, payload(5, 2));

        assertEquals(2, sink.count);
        assertEquals(2, sink.context[0]);
        assertEquals(64, sink.bufOffset[0]);
        assertEquals(0x20, sink.tag[0]);
        assertEquals(3, sink.context[1]);
        assertEquals(128, sink.bufOffset[1]);
        assertEquals(1, m.postedCount(), "the receive for tag 0x10 is still posted");
    }

    @Test
    void shouldMatchTagIgnoringMaskedBitsOnly()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(64);
        m.post(true, b, 0, 64, UNSPEC, 0xAB00, 0x00FF, 1, 0);
        send(m, SENDER_A, true, 0xAC42, payload(1, 1));
        assertEquals(0, sink.count, "bit outside the ignore mask differs");
        assertEquals(1, m.unexpectedCount());
        send(m, SENDER_A, true, 0xAB42, payload(1, 2));
        assertEquals(1, sink.count);
        assertEquals(0xAB42, sink.tag[0]);
        assertEquals(Flags.FI_RECV | Flags.FI_TAGGED, sink.cqFlags[0]);
    }

    @Test
    void shouldNeverMatchTaggedMessagesWithUntaggedReceivesNorTheReverse()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        m.post(false, ByteBuffer.allocate(8), 0, 8, UNSPEC, 0, 0, 1, 0);
        m.post(true, ByteBuffer.allocate(8), 0, 8, UNSPEC, 0, -1L, 2, 0);
        send(m, SENDER_A, true, 5, payload(3, 1));
        assertEquals(2, sink.context[0], "tagged message goes to the tagged receive posted later");
        assertEquals(Flags.FI_RECV | Flags.FI_TAGGED, sink.cqFlags[0]);
        send(m, SENDER_A, false, 0, payload(3, 2));
        assertEquals(1, sink.context[1]);
        assertEquals(Flags.FI_RECV | Flags.FI_MSG, sink.cqFlags[1]);
        assertEquals(0, sink.tag[1], "untagged completions carry tag 0");
    }

    @Test
    void shouldMatchUnexpectedMessagesInArrivalOrder()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        send(m, SENDER_A, false, 0, payload(4, 1));
        send(m, SENDER_B, false, 0, payload(6, 2));
        assertEquals(2, m.unexpectedCount());
        assertEquals(10, m.unexpectedBytesInUse());
        final ByteBuffer b1 = ByteBuffer.allocate(16);
        final ByteBuffer b2 = ByteBuffer.allocate(16);
        m.post(false, b1, 3, 13, UNSPEC, 0, 0, 1, 0);
        assertEquals(1, sink.count, "completed during the post");
        assertEquals(4, sink.len[0]);
        assertEquals(3, sink.bufOffset[0]);
        assertArrayEquals(payload(4, 1), bytes(b1, 3, 4));
        m.post(false, b2, 0, 16, UNSPEC, 0, 0, 2, 0);
        assertEquals(6, sink.len[1]);
        assertArrayEquals(payload(6, 2), bytes(b2, 0, 6));
        assertEquals(0, m.unexpectedCount());
        assertEquals(0, m.unexpectedBytesInUse());
        assertEquals(0, m.postedCount());
    }

    @Test
    void shouldGiveMessageStillArrivingToReceivePostedMeanwhileAndCompleteWhenItEnds()
    {
        final ReceiveMatcher m = matcher(8, 8, 1 << 16, false);
        final byte[] p = payload(1000, 9);
        final long d = m.begin(SENDER_A, true, 77, 0, 0, p.length);
        piece(m, d, p, 0, 300);
        assertEquals(1, m.unexpectedCount());
        final ByteBuffer b = ByteBuffer.allocateDirect(2000);
        assertEquals(0, m.post(true, b, 100, 1900, UNSPEC, 77, 0, 5, 0));
        assertEquals(0, sink.count, "no completion before the message ends");
        assertEquals(0, m.unexpectedCount(), "the store let go of it");
        piece(m, d, p, 300, 700);
        assertEquals(0, sink.count);
        m.end(d);
        assertEquals(1, sink.count);
        assertFalse(sink.error[0]);
        assertEquals(1000, sink.len[0]);
        assertEquals(100, sink.bufOffset[0]);
        assertArrayEquals(p, bytes(b, 100, 1000));
    }

    @Test
    void shouldCompleteAReceiveInErrorWhenItsDeliveryIsAbortedPartWay()
    {
        final ReceiveMatcher m = matcher(8, 8, 1 << 16, false);
        final ByteBuffer b = ByteBuffer.allocateDirect(2000);
        assertEquals(0, m.post(false, b, 0, 2000, UNSPEC, 0, 0, 5, 0));
        final byte[] p = payload(1000, 9);
        final long d = m.begin(SENDER_A, false, 0, 0, 0, p.length);
        piece(m, d, p, 0, 300);
        assertEquals(0, sink.count);
        m.abort(d, Errno.FI_EIO);
        assertEquals(1, sink.count);
        assertTrue(sink.error[0]);
        assertEquals(Errno.FI_EIO, sink.errno[0]);
        assertEquals(5, sink.context[0]);
        assertEquals(300, sink.len[0], "the bytes that arrived");
        assertEquals(700, sink.olen[0], "the bytes that never came");
        assertArrayEquals(java.util.Arrays.copyOf(p, 300), bytes(b, 0, 300));
        assertEquals(0, m.postedCount());
        m.end(d);
        assertEquals(1, sink.count, "an aborted delivery ends once");
    }

    @Test
    void shouldDropAnUnexpectedMessageWhoseDeliveryIsAborted()
    {
        final ReceiveMatcher m = matcher(8, 8, 1 << 16, false);
        final byte[] p = payload(1000, 9);
        final long d = m.begin(SENDER_A, true, 77, 0, 0, p.length);
        piece(m, d, p, 0, 300);
        assertEquals(1, m.unexpectedCount());
        m.abort(d, Errno.FI_EIO);
        assertEquals(0, m.unexpectedCount());
        assertEquals(0, m.unexpectedBytesInUse());
        assertEquals(0, sink.count, "nobody asked for it: no completion");
        final ByteBuffer b = ByteBuffer.allocateDirect(2000);
        assertEquals(0, m.post(true, b, 0, 2000, UNSPEC, 77, 0, 6, 0));
        assertEquals(0, sink.count, "a later receive does not get the half message");
        assertEquals(1, m.postedCount());
    }

    @Test
    void shouldTruncateLongMessageReportingPlacedAndDroppedBytes()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(64);
        m.post(false, b, 8, 40, UNSPEC, 0, 0, 9, 0);
        final byte[] p = payload(100, 3);
        send(m, SENDER_A, false, 0, p);
        assertTrue(sink.error[0]);
        assertEquals(Errno.FI_ETRUNC, sink.errno[0]);
        assertEquals(40, sink.len[0]);
        assertEquals(60, sink.olen[0]);
        assertEquals(8, sink.bufOffset[0]);
        assertArrayEquals(java.util.Arrays.copyOf(p, 40), bytes(b, 8, 40));
        assertEquals(0, b.get(48), "nothing written past the receive");
    }

    @Test
    void shouldTruncateUnexpectedMessageTakenByShortReceive()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final byte[] p = payload(300, 4);
        send(m, SENDER_A, true, 1, p);
        final ByteBuffer b = ByteBuffer.allocate(100);
        m.post(true, b, 0, 100, UNSPEC, 1, 0, 9, 0);
        assertEquals(Errno.FI_ETRUNC, sink.errno[0]);
        assertEquals(100, sink.len[0]);
        assertEquals(200, sink.olen[0]);
        assertArrayEquals(java.util.Arrays.copyOf(p, 100), bytes(b, 0, 100));
    }

    @Test
    void shouldCompleteZeroLengthMessagesPostedAndUnexpected()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        m.post(false, null, 0, 0, UNSPEC, 0, 0, 1, 0);
        final long d = m.begin(SENDER_A, false, 0, 0, 0, 0);
        m.end(d);
        send(m, SENDER_A, false, 0, new byte[0]);
        assertEquals(1, m.unexpectedCount());
        assertEquals(0, m.unexpectedBytesInUse());
        m.post(false, ByteBuffer.allocate(4), 0, 4, UNSPEC, 0, 0, 2, 0);
        assertEquals(2, sink.count);
        assertFalse(sink.error[0]);
        assertEquals(0, sink.len[0]);
        assertFalse(sink.error[1]);
        assertEquals(0, sink.len[1]);
        assertEquals(2, sink.context[1]);
    }

    @Test
    void shouldScatterMessageAcrossIovEntriesInOrder()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer a = ByteBuffer.allocate(32);
        final ByteBuffer b = ByteBuffer.allocateDirect(32);
        final ByteBuffer c = ByteBuffer.allocate(32);
        final ByteBuffer[] iov = { a, b, c };
        final int[] off = { 2, 0, 10 };
        final int[] len = { 5, 7, 20 };
        assertEquals(0, m.post(false, iov, off, len, 3, UNSPEC, 0, 0, 4, 0));
        iov[0] = ByteBuffer.allocate(32);
        off[0] = 20;
        len[0] = 1;
        final byte[] p = payload(30, 5);
        final long d = m.begin(SENDER_A, false, 0, 0, 0, p.length);
        piece(m, d, p, 0, 3);
        piece(m, d, p, 3, 6);
        piece(m, d, p, 9, 21);
        m.end(d);
        assertEquals(30, sink.len[0]);
        assertEquals(2, sink.bufOffset[0], "the first buffer's start, not the caller's later change");
        assertArrayEquals(java.util.Arrays.copyOfRange(p, 0, 5), bytes(a, 2, 5));
        assertArrayEquals(java.util.Arrays.copyOfRange(p, 5, 12), bytes(b, 0, 7));
        assertArrayEquals(java.util.Arrays.copyOfRange(p, 12, 30), bytes(c, 10, 18));
    }

    @Test
    void shouldFillIovFromUnexpectedStoreAcrossBlockBoundaries()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final byte[] p = payload(1000, 6);
        send(m, SENDER_A, false, 0, p);
        final ByteBuffer a = ByteBuffer.allocate(333);
        final ByteBuffer b = ByteBuffer.allocateDirect(700);
        m.post(false, new ByteBuffer[] { a, b }, new int[] { 0, 0 }, new int[] { 333, 700 }, 2, UNSPEC, 0, 0, 1, 0);
        assertEquals(1000, sink.len[0]);
        assertArrayEquals(java.util.Arrays.copyOfRange(p, 0, 333), bytes(a, 0, 333));
        assertArrayEquals(java.util.Arrays.copyOfRange(p, 333, 1000), bytes(b, 0, 667));
    }

    @Test
    void shouldReportRemoteCqDataAndItsFlag()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        m.post(false, ByteBuffer.allocate(8), 0, 8, UNSPEC, 0, 0, 1, 0);
        m.post(true, ByteBuffer.allocate(8), 0, 8, UNSPEC, 3, 0, 2, 0);
        send(m, SENDER_A, false, 0, 0xDA7AL, Flags.FI_REMOTE_CQ_DATA, payload(2, 1));
        send(m, SENDER_A, true, 3, 0x5EL, Flags.FI_REMOTE_CQ_DATA, payload(2, 1));
        assertEquals(Flags.FI_MSG | Flags.FI_RECV | Flags.FI_REMOTE_CQ_DATA, sink.cqFlags[0]);
        assertEquals(0xDA7AL, sink.data[0]);
        assertEquals(Flags.FI_TAGGED | Flags.FI_RECV | Flags.FI_REMOTE_CQ_DATA, sink.cqFlags[1]);
        assertEquals(0x5EL, sink.data[1]);
    }

    @Test
    void shouldResolveSourceWhenCompletingSoALaterAvInsertMakesMessageAttributable()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        send(m, SENDER_A, false, 0, payload(2, 1));
        resolver.fiAddrBySlot[3] = 42;
        m.post(false, ByteBuffer.allocate(8), 0, 8, UNSPEC, 0, 0, 1, 0);
        assertEquals(42, sink.srcAddr[0]);
        m.post(false, ByteBuffer.allocate(8), 0, 8, UNSPEC, 0, 0, 2, 0);
        send(m, SENDER_B, false, 0, payload(2, 1));
        assertEquals(Addresses.FI_ADDR_NOTAVAIL, sink.srcAddr[1], "a sender not in the AV");
    }

    @Test
    void shouldMatchDirectedReceiveOnlyFromItsSource()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, true);
        resolver.fiAddrBySlot[3] = 10;
        resolver.fiAddrBySlot[5] = 20;
        m.post(true, ByteBuffer.allocate(8), 0, 8, 20, 1, 0, 1, 0);
        send(m, SENDER_A, true, 1, payload(2, 1));
        assertEquals(0, sink.count, "sender A is fi_addr 10");
        send(m, SENDER_B, true, 1, payload(2, 2));
        assertEquals(1, sink.context[0]);
        assertEquals(20, sink.srcAddr[0]);
        m.post(true, ByteBuffer.allocate(8), 0, 8, UNSPEC, 1, 0, 2, 0);
        assertEquals(10, sink.srcAddr[1], "FI_ADDR_UNSPEC takes A's stored message");
    }

    @Test
    void shouldMatchAnAuthKeyReceiveWithAnySenderTheAvHoldsWithinThatKey()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, true);
        final long alpha = TableResolver.KEY_HANDLES;
        final long beta = TableResolver.KEY_HANDLES + 1;
        resolver.fiAddrBySlot[3] = 10;
        resolver.fiAddrBySlot[5] = 20;
        resolver.keyBySlot[3] = beta;
        resolver.keyBySlot[5] = alpha;
        m.post(false, ByteBuffer.allocate(8), 0, 8, alpha, 0, 0, 1, Flags.FI_AUTH_KEY);
        m.post(false, ByteBuffer.allocate(8), 0, 8, UNSPEC, 0, 0, 2, 0);
        send(m, SENDER_A, false, 0, payload(2, 1));
        assertEquals(1, sink.count);
        assertEquals(2, sink.context[0], "sender A is within beta: the unrestricted receive takes it");
        send(m, SENDER_B, false, 0, payload(2, 2));
        assertEquals(1, sink.context[1], "sender B is within alpha");
        assertEquals(20, sink.srcAddr[1], "reported by its fi_addr, not the key handle");

        send(m, SENDER_A, true, 7, payload(2, 3));
        send(m, SENDER_B, true, 7, payload(2, 4));
        m.post(true, ByteBuffer.allocate(8), 0, 8, alpha, 7, 0, 3, Flags.FI_AUTH_KEY);
        assertEquals(3, sink.count, "an unexpected message of a sender within alpha, not the older one of A");
        assertEquals(20, sink.srcAddr[2]);
        assertEquals(-Errno.FI_EINVAL, m.post(false, ByteBuffer.allocate(8), 0, 8, 10, 0, 0, 4, Flags.FI_AUTH_KEY),
            "an address is no key handle");
    }

    @Test
    void shouldPeekOnlyForSendersWithinTheKeyOfAnAuthKeyPeek()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, true);
        final long alpha = TableResolver.KEY_HANDLES;
        resolver.fiAddrBySlot[3] = 10;
        resolver.keyBySlot[3] = TableResolver.KEY_HANDLES + 1;
        send(m, SENDER_A, true, 7, payload(2, 1));
        m.post(true, null, 0, 0, alpha, 7, 0, 1, Flags.FI_PEEK | Flags.FI_AUTH_KEY);
        assertEquals(Errno.FI_ENOMSG, sink.errno[0], "A is not within alpha");
        resolver.keyBySlot[3] = alpha;
        m.post(true, null, 0, 0, alpha, 7, 0, 2, Flags.FI_PEEK | Flags.FI_AUTH_KEY);
        assertEquals(2, sink.count);
        assertEquals(false, sink.error[1], "found once A is within alpha");
    }

    @Test
    void shouldReevaluateSourceOfUnexpectedMessageAtMatchTime()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, true);
        send(m, SENDER_A, false, 0, payload(2, 1));
        m.post(false, ByteBuffer.allocate(8), 0, 8, 10, 0, 0, 1, 0);
        assertEquals(0, sink.count, "sender not yet in the AV");
        resolver.fiAddrBySlot[3] = 10;
        m.post(false, ByteBuffer.allocate(8), 0, 8, 10, 0, 0, 2, 0);
        assertEquals(1, sink.count);
        assertEquals(2, sink.context[0]);
        assertEquals(10, sink.srcAddr[0]);
    }

    @Test
    void shouldIgnoreSourceAddressWithoutDirectedRecv()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        m.post(false, ByteBuffer.allocate(8), 0, 8, 99, 0, 0, 1, 0);
        send(m, SENDER_A, false, 0, payload(2, 1));
        assertEquals(1, sink.count);
        assertEquals(1, resolver.calls, "resolved once, for the completion only");
    }

    @Test
    void shouldCancelFirstPendingReceiveWithContext()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(64);
        m.post(true, b, 0, 8, UNSPEC, 1, 0, 7, 0);
        m.post(false, b, 16, 8, UNSPEC, 0, 0, 7, 0);
        m.post(false, b, 32, 8, UNSPEC, 0, 0, 8, 0);
        assertEquals(0, m.cancel(7));
        assertTrue(sink.error[0]);
        assertEquals(Errno.FI_ECANCELED, sink.errno[0]);
        assertEquals(7, sink.context[0]);
        assertEquals(Flags.FI_RECV | Flags.FI_TAGGED, sink.cqFlags[0], "the tagged one was posted first");
        assertEquals(0, m.cancel(7));
        assertEquals(Flags.FI_RECV | Flags.FI_MSG, sink.cqFlags[1]);
        assertEquals(16, sink.bufOffset[1]);
        assertEquals(-Errno.FI_ENOENT, m.cancel(7));
        assertEquals(1, m.postedCount());
        send(m, SENDER_A, false, 0, payload(3, 1));
        assertEquals(8, sink.context[2], "cancelled receives no longer match");
    }

    @Test
    void shouldNameTheSenderOfEachMessageCompletionAndNoSenderForACancel()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(64);
        m.post(false, b, 0, 8, UNSPEC, 0, 0, 1, 0);
        ring.putBytes(0, payload(4, 1));
        assertTrue(m.deliver(SENDER_A, false, 0, 0, 0, ring, 0, 4), "taken by the front receive");
        send(m, SENDER_B, false, 0, payload(4, 2));
        m.post(false, b, 8, 8, UNSPEC, 0, 0, 2, 0);
        m.post(false, b, 16, 2, UNSPEC, 0, 0, 3, 0);
        send(m, SENDER_A, false, 0, payload(4, 3));
        m.post(false, b, 24, 8, UNSPEC, 0, 0, 4, 0);
        assertEquals(0, m.cancel(4));

        assertEquals(4, sink.count);
        assertEquals(SENDER_A, sink.senderId[0], "a whole message into the front receive");
        assertEquals(SENDER_B, sink.senderId[1], "a stored unexpected message taken by a post");
        assertTrue(sink.error[2]);
        assertEquals(Errno.FI_ETRUNC, sink.errno[2]);
        assertEquals(SENDER_A, sink.senderId[2], "the error completion of a message delivered through begin");
        assertTrue(sink.error[3]);
        assertEquals(Errno.FI_ECANCELED, sink.errno[3]);
        assertEquals(RecvCompletionSink.NO_SENDER, sink.senderId[3], "a cancel is about no message");
    }

    @Test
    void shouldNotCancelReceiveAlreadyMatchedToMessageInProgress()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        m.post(false, ByteBuffer.allocate(8), 0, 8, UNSPEC, 0, 0, 7, 0);
        final long d = m.begin(SENDER_A, false, 0, 0, 0, 4);
        assertEquals(-Errno.FI_ENOENT, m.cancel(7));
        piece(m, d, payload(4, 1), 0, 4);
        m.end(d);
        assertFalse(sink.error[0]);
        assertEquals(4, sink.len[0]);
    }

    @Test
    void shouldReturnEagainWhenPostedCapacityIsReached()
    {
        final ReceiveMatcher m = matcher(2, 8, 4096, false);
        assertEquals(0, m.post(false, ByteBuffer.allocate(8), 0, 8, UNSPEC, 0, 0, 1, 0));
        assertEquals(0, m.post(true, ByteBuffer.allocate(8), 0, 8, UNSPEC, 0, 0, 2, 0));
        assertEquals(-Errno.FI_EAGAIN, m.post(false, ByteBuffer.allocate(8), 0, 8, UNSPEC, 0, 0, 3, 0));
        assertEquals(2, m.postedCount());
        send(m, SENDER_A, false, 0, payload(1, 1));
        assertEquals(0, m.post(false, ByteBuffer.allocate(8), 0, 8, UNSPEC, 0, 0, 3, 0));
    }

    @Test
    void shouldReturnEinvalForBadArguments()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        final ByteBuffer b = ByteBuffer.allocate(8);
        assertEquals(-Errno.FI_EINVAL, m.post(false, null, 0, 1, UNSPEC, 0, 0, 1, 0), "null buffer");
        assertEquals(-Errno.FI_EINVAL, m.post(false, b, 0, -1, UNSPEC, 0, 0, 1, 0), "negative length");
        assertEquals(-Errno.FI_EINVAL, m.post(false, b, -1, 2, UNSPEC, 0, 0, 1, 0), "negative offset");
        assertEquals(-Errno.FI_EINVAL, m.post(false, b, 4, 5, UNSPEC, 0, 0, 1, 0), "past the capacity");
        assertEquals(-Errno.FI_EINVAL, m.post(false, b.asReadOnlyBuffer(), 0, 8, UNSPEC, 0, 0, 1, 0), "read-only");
        assertEquals(-Errno.FI_EINVAL, m.post(true, b, 0, 8, UNSPEC, 0, 0, 1, Flags.FI_MULTI_RECV), "tagged multi");
        assertEquals(-Errno.FI_EINVAL, m.post(false, b, 0, 8, UNSPEC, 0, 0, 1, Flags.FI_PEEK), "untagged peek");
        assertEquals(-Errno.FI_EINVAL, m.post(true, b, 0, 8, UNSPEC, 0, 0, 1, Flags.FI_DISCARD), "discard alone");
        final ByteBuffer[] iov = { b, b, b, b, b };
        final int[] off = new int[5];
        final int[] len = { 1, 1, 1, 1, 1 };
        assertEquals(-Errno.FI_EINVAL, m.post(false, iov, off, len, 5, UNSPEC, 0, 0, 1, 0), "iovCount > limit");
        assertEquals(-Errno.FI_EINVAL, m.post(false, iov, off, len, -1, UNSPEC, 0, 0, 1, 0), "negative iovCount");
        assertEquals(-Errno.FI_EINVAL, m.post(false, null, null, null, 1, UNSPEC, 0, 0, 1, 0), "null arrays");
        assertEquals(-Errno.FI_EINVAL,
            m.post(false, iov, off, len, 2, UNSPEC, 0, 0, 1, Flags.FI_MULTI_RECV), "multi-recv over two iovs");
        assertEquals(0, m.postedCount());
        assertEquals(0, sink.count);
        assertEquals(0, m.post(false, iov, off, len, 4, UNSPEC, 0, 0, 1, 0));
    }

    @Test
    void shouldIgnoreWritesAndEndsOfUnknownDeliveries()
    {
        final ReceiveMatcher m = matcher(8, 8, 4096, false);
        m.write(ReceiveMatcher.DELIVERY_NONE, ring, 0, 4);
        m.end(3);
        m.end(Long.MAX_VALUE);
        assertEquals(0, sink.count);
        assertEquals(0, m.unexpectedCount());
    }

    @Test
    void shouldRejectLimitsOutOfRangeNamingThem()
    {
        final io.jfabric.FabricException e = org.junit.jupiter.api.Assertions.assertThrows(
            io.jfabric.FabricException.class, () -> matcher(0, 8, 4096, false));
        assertEquals(Errno.FI_EINVAL, e.errno());
        assertTrue(e.getMessage().startsWith("fi_enable: "), e.getMessage());
        assertTrue(e.getMessage().contains("posted=0"), e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(
            io.jfabric.FabricException.class, () -> matcher(8, 8, -1, false));
        org.junit.jupiter.api.Assertions.assertThrows(
            io.jfabric.FabricException.class, () -> new ReceiveMatcher(8, 8, 64, false, null, sink));
    }
}
