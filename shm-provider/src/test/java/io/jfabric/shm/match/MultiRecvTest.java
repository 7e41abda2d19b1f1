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
import java.util.Arrays;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MultiRecvTest extends MatcherFixture
{
    private static final long UNSPEC = Addresses.FI_ADDR_UNSPEC;
    private static final long MSG_RECV = Flags.FI_RECV | Flags.FI_MSG;

    @Test
    void shouldDefaultMinimumTo16KiB()
    {
        assertEquals(16 * 1024, matcher(4, 4, 4096, false).minMultiRecv());
        assertEquals(ReceiveMatcher.DEFAULT_MIN_MULTI_RECV, matcher(4, 4, 4096, false).minMultiRecv());
    }

    @Test
    void shouldFill64KiBBufferWith1KiBMessagesUntilLessThanMinimumIsLeft()
    {
        final ReceiveMatcher m = matcher(4, 64, 1 << 20, false);
        final ByteBuffer b = ByteBuffer.allocateDirect(64 * 1024);
        assertEquals(0, m.post(false, b, 0, 64 * 1024, UNSPEC, 0, 0, 5, Flags.FI_MULTI_RECV));
        for (int i = 0; i < 60; i++)
        {
            send(m, SENDER_A, false, 0, payload(1024, i));
        }
        assertEquals(49, sink.count, "48 KiB leave exactly 16 KiB (not below the minimum); the 49th releases");
        for (int i = 0; i < 49; i++)
        {
            assertFalse(sink.error[i]);
            assertEquals(5, sink.context[i]);
            assertEquals(1024L * i, sink.bufOffset[i]);
            assertEquals(1024, sink.len[i]);
            assertEquals(Flags.FI_MULTI_RECV, sink.opFlags[i]);
            assertEquals(i == 48 ? MSG_RECV | Flags.FI_MULTI_RECV : MSG_RECV, sink.cqFlags[i], "completion " + i);
            assertArrayEquals(payload(1024, i), bytes(b, 1024 * i, 1024));
        }
        assertEquals(0, m.postedCount());
        assertEquals(11, m.unexpectedCount(), "the rest wait for another receive");
    }

    @Test
    void shouldPackMessagesFromBufferOffsetAndReleaseOnTheMessageThatLeavesTooLittle()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        m.minMultiRecv(300);
        final ByteBuffer b = ByteBuffer.allocate(1100);
        m.post(false, b, 50, 1000, UNSPEC, 0, 0, 1, Flags.FI_MULTI_RECV);
        for (int i = 0; i < 4; i++)
        {
            send(m, SENDER_A, false, 0, payload(200, i));
        }
        assertEquals(4, sink.count);
        for (int i = 0; i < 4; i++)
        {
            assertEquals(50 + 200L * i, sink.bufOffset[i]);
            assertArrayEquals(payload(200, i), bytes(b, 50 + 200 * i, 200));
        }
        assertEquals(MSG_RECV, sink.cqFlags[2]);
        assertEquals(MSG_RECV | Flags.FI_MULTI_RECV, sink.cqFlags[3], "200 left < 300");
        assertEquals(0, m.postedCount());
    }

    @Test
    void shouldKeepBufferWhileSpaceLeftEqualsMinimumAndReleaseWhenFull()
    {
        final ReceiveMatcher m = multiRecv(200, ByteBuffer.allocate(800));
        for (int i = 0; i < 3; i++)
        {
            send(m, SENDER_A, false, 0, payload(200, i));
        }
        assertEquals(MSG_RECV, sink.cqFlags[2], "200 left is not below 200");
        assertEquals(1, m.postedCount());
        send(m, SENDER_A, false, 0, payload(200, 3));
        assertEquals(MSG_RECV | Flags.FI_MULTI_RECV, sink.cqFlags[3]);
        assertEquals(4, sink.count);
    }

    @Test
    void shouldReleaseFullBufferEvenWithZeroMinimum()
    {
        final ReceiveMatcher m = multiRecv(0, ByteBuffer.allocate(100));
        send(m, SENDER_A, false, 0, payload(60, 1));
        send(m, SENDER_A, false, 0, payload(40, 2));
        assertEquals(MSG_RECV | Flags.FI_MULTI_RECV, sink.cqFlags[1]);
        assertEquals(0, m.postedCount());
    }

    @Test
    void shouldSendMessageThatDoesNotFitSpaceLeftToNextReceive()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        m.minMultiRecv(100);
        final ByteBuffer multi = ByteBuffer.allocate(1000);
        final ByteBuffer plain = ByteBuffer.allocate(1000);
        m.post(false, multi, 0, 1000, UNSPEC, 0, 0, 1, Flags.FI_MULTI_RECV);
        m.post(false, plain, 0, 1000, UNSPEC, 0, 0, 2, 0);
        send(m, SENDER_A, false, 0, payload(700, 1));
        send(m, SENDER_A, false, 0, payload(500, 2));
        assertEquals(1, sink.context[0]);
        assertEquals(2, sink.context[1], "500 bytes fit the buffer but not the 300 left in it");
        assertFalse(sink.error[1]);
        assertArrayEquals(payload(500, 2), bytes(plain, 0, 500));
        send(m, SENDER_A, false, 0, payload(250, 3));
        assertEquals(1, sink.context[2]);
        assertEquals(700, sink.bufOffset[2]);
        assertEquals(MSG_RECV | Flags.FI_MULTI_RECV, sink.cqFlags[2], "50 left < 100");
        assertArrayEquals(payload(250, 3), bytes(multi, 700, 250));
    }

    @Test
    void shouldTruncateMessageLargerThanWholeBufferIntoSpaceLeftAndRelease()
    {
        final ByteBuffer b = ByteBuffer.allocate(100);
        final ReceiveMatcher m = multiRecv(10, b);
        send(m, SENDER_A, false, 0, payload(30, 1));
        final byte[] big = payload(500, 2);
        send(m, SENDER_A, false, 0, big);
        assertEquals(2, sink.count);
        assertTrue(sink.error[1]);
        assertEquals(Errno.FI_ETRUNC, sink.errno[1]);
        assertEquals(70, sink.len[1]);
        assertEquals(430, sink.olen[1]);
        assertEquals(30, sink.bufOffset[1]);
        assertEquals(MSG_RECV | Flags.FI_MULTI_RECV, sink.cqFlags[1]);
        assertArrayEquals(Arrays.copyOf(big, 70), bytes(b, 30, 70));
        assertEquals(0, m.postedCount());
    }

    @Test
    void shouldApplyMinimumCapturedWhenBufferWasPosted()
    {
        final ReceiveMatcher m = multiRecv(500, ByteBuffer.allocate(1000));
        m.minMultiRecv(10);
        send(m, SENDER_A, false, 0, payload(501, 1));
        assertEquals(MSG_RECV | Flags.FI_MULTI_RECV, sink.cqFlags[0], "499 left < 500, the minimum at post time");
        assertEquals(10, m.minMultiRecv());
    }

    @Test
    void shouldTakeUnexpectedMessagesThatFitWhenBufferIsPosted()
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        m.minMultiRecv(10);
        send(m, SENDER_A, false, 0, payload(100, 1));
        send(m, SENDER_A, false, 0, payload(100, 2));
        send(m, SENDER_A, false, 0, payload(100, 3));
        final ByteBuffer b = ByteBuffer.allocate(250);
        m.post(false, b, 0, 250, UNSPEC, 0, 0, 1, Flags.FI_MULTI_RECV);
        assertEquals(2, sink.count, "the third does not fit the 50 bytes left");
        assertEquals(0, sink.bufOffset[0]);
        assertEquals(100, sink.bufOffset[1]);
        assertEquals(MSG_RECV, sink.cqFlags[1]);
        assertEquals(1, m.unexpectedCount());
        assertEquals(1, m.postedCount());
        send(m, SENDER_B, false, 0, payload(50, 4));
        assertEquals(200, sink.bufOffset[2]);
        assertEquals(MSG_RECV | Flags.FI_MULTI_RECV, sink.cqFlags[2]);
        assertArrayEquals(payload(100, 2), bytes(b, 100, 100));
        assertArrayEquals(payload(50, 4), bytes(b, 200, 50));
    }

    @Test
    void shouldFlagLastDeliveryToEndWhenBufferIsReleasedWhileMessagesAreStillArriving()
    {
        final ByteBuffer b = ByteBuffer.allocate(300);
        final ReceiveMatcher m = multiRecv(100, b);
        final byte[] pa = payload(100, 1);
        final byte[] pb = payload(150, 2);
        final long a = m.begin(SENDER_A, false, 0, 0, 0, pa.length);
        final long d = m.begin(SENDER_B, false, 0, 0, 0, pb.length);
        assertEquals(1, m.postedCount(), "released (50 left) but held until both end");
        piece(m, d, pb, 0, 150);
        m.end(d);
        assertEquals(100, sink.bufOffset[0]);
        assertEquals(MSG_RECV, sink.cqFlags[0], "the other delivery is still placing into the buffer");
        piece(m, a, pa, 0, 100);
        m.end(a);
        assertEquals(0, sink.bufOffset[1]);
        assertEquals(MSG_RECV | Flags.FI_MULTI_RECV, sink.cqFlags[1]);
        assertEquals(0, m.postedCount());
        assertArrayEquals(pa, bytes(b, 0, 100));
        assertArrayEquals(pb, bytes(b, 100, 150));
        send(m, SENDER_A, false, 0, payload(10, 3));
        assertEquals(1, m.unexpectedCount(), "the released buffer takes nothing more");
    }

    @Test
    void shouldReportCancelledBufferWithReleaseFlag()
    {
        final ReceiveMatcher m = multiRecv(10, ByteBuffer.allocate(100));
        send(m, SENDER_A, false, 0, payload(30, 1));
        assertEquals(0, m.cancel(1));
        assertTrue(sink.error[1]);
        assertEquals(Errno.FI_ECANCELED, sink.errno[1]);
        assertEquals(MSG_RECV | Flags.FI_MULTI_RECV, sink.cqFlags[1]);
        assertEquals(0, m.postedCount());
    }

    @Test
    void shouldMoveReleaseFlagToLastArrivingMessageWhenBufferIsCancelledMeanwhile()
    {
        final ReceiveMatcher m = multiRecv(10, ByteBuffer.allocate(100));
        final long d = m.begin(SENDER_A, false, 0, 0, 0, 20);
        assertEquals(0, m.cancel(1));
        assertEquals(MSG_RECV, sink.cqFlags[0]);
        assertEquals(Errno.FI_ECANCELED, sink.errno[0]);
        piece(m, d, payload(20, 1), 0, 20);
        m.end(d);
        assertEquals(MSG_RECV | Flags.FI_MULTI_RECV, sink.cqFlags[1]);
        assertEquals(20, sink.len[1]);
        assertEquals(0, m.postedCount());
    }

    /** A matcher with one multi-receive buffer posted over all of {@code b} with context 1. */
    private ReceiveMatcher multiRecv(final long min, final ByteBuffer b)
    {
        final ReceiveMatcher m = matcher(4, 8, 4096, false);
        m.minMultiRecv(min);
        assertEquals(0, m.post(false, b, 0, b.capacity(), UNSPEC, 0, 0, 1, Flags.FI_MULTI_RECV));
        return m;
    }
}
