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

import io.jfabric.Addresses;
import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.Info;
import io.jfabric.Msg;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static io.jfabric.Flags.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fi_tagged(3) between two JVMs over one named domain (issue 5's acceptance list): tag and ignore matching,
 * FI_PEEK (absent and present), FI_PEEK|FI_CLAIM then FI_CLAIM, FI_DISCARD, a directed receive that takes only its
 * source, and 1024 unexpected messages received in reverse tag order. This process's endpoint uses an
 * FI_CQ_FORMAT_TAGGED queue and was opened with the default caps, which include FI_DIRECTED_RECV.
 */
class TaggedTwoJvmTest extends TwoJvmEndpointTestBase
{
    private long nextPeekContext = 70_000;

    @Override
    String domainName()
    {
        return "tag2jvm";
    }

    @Override
    CqFormat format()
    {
        return CqFormat.TAGGED;
    }

    private String tsend(final long tag, final long seed, final int size)
    {
        return "send id=1 dest=" + localAtChild + " op=tsend size=" + size + " tag=" + tag + " seed=" + seed;
    }

    private void trecv(final ByteBuffer buf, final int len, final long src, final long tag, final long ignore,
        final long context)
    {
        local.retry(() -> local.ep.trecv(buf, 0, len, 0, src, tag, ignore, context));
    }

    @Test
    void shouldMatchTagsUnderTheIgnoreMaskInPostOrder()
    {
        assertTrue((info.caps() & FI_TAGGED) != 0);
        final ByteBuffer b1 = Pattern.guarded(64);
        final ByteBuffer b2 = Pattern.guarded(64);
        trecv(b1, 64, Addresses.FI_ADDR_UNSPEC, 0x1234_0000L, 0xFFFFL, 101);
        trecv(b2, 64, Addresses.FI_ADDR_UNSPEC, 0xABL, 0, 102);
        child(tsend(0x5555_0000_0001L, 11, 64));
        child(tsend(0x1234_00AAL, 12, 64));
        child(tsend(0xABL, 13, 64));
        child(tsend(0x1234_00BBL, 14, 64));

        final EpSide.Completion first = local.await(101);
        assertEquals(FI_RECV | FI_TAGGED, first.flags(), first.toString());
        assertEquals(0x1234_00AAL, first.tag(), "the ignore mask lets 0x123400AA match 0x12340000/0xFFFF: " + first);
        assertNull(Pattern.check(b1, 0, 64, 12));
        final EpSide.Completion second = local.await(102);
        assertEquals(0xABL, second.tag(), second.toString());
        assertNull(Pattern.check(b2, 0, 64, 13));

        final ByteBuffer b3 = Pattern.guarded(64);
        trecv(b3, 64, Addresses.FI_ADDR_UNSPEC, 0x5555_0000_0000L, 0xFFL, 103);
        final EpSide.Completion third = local.await(103);
        assertEquals(0x5555_0000_0001L, third.tag(), "the message no posted receive matched waited: " + third);
        assertNull(Pattern.check(b3, 0, 64, 11));
        final ByteBuffer b4 = Pattern.guarded(64);
        trecv(b4, 64, Addresses.FI_ADDR_UNSPEC, 0x1234_FFFFL, 0xFFFFL, 104);
        final EpSide.Completion fourth = local.await(104);
        assertEquals(0x1234_00BBL, fourth.tag(), fourth.toString());
        assertNull(Pattern.check(b4, 0, 64, 14));
    }

    @Test
    void shouldCompleteAPeekOfAnAbsentTagWithEnomsg()
    {
        final Msg msg = new Msg(1).set(Pattern.guarded(64), 0, 64, 0);
        msg.tag = 0xDEAD_0000_0000L;
        msg.context = 201;
        local.retry(() -> local.ep.trecvmsg(msg, FI_PEEK));
        final EpSide.ErrCompletion e = local.awaitError(201);
        assertEquals(Errno.FI_ENOMSG, e.err(), e.toString());
        assertNull(Pattern.checkGuard(msg.iov[0], 0, 64), "a failed peek writes nothing");
    }

    /** Peek (with {@code extraFlags}) until the message with {@code tag} has arrived; returns the peek's entry. */
    private EpSide.Completion peekUntilFound(final long tag, final long extraFlags, final long context, final int len)
    {
        final Msg msg = new Msg(1).set(ByteBuffer.allocateDirect(len), 0, len, 0);
        msg.tag = tag;
        final long deadline = System.currentTimeMillis() + EpSide.TIMEOUT_MS;
        while (true)
        {
            final long attempt = extraFlags == 0 ? nextPeekContext++ : context;
            msg.context = attempt;
            local.retry(() -> local.ep.trecvmsg(msg, FI_PEEK | extraFlags));
            final long until = System.currentTimeMillis() + 1000;
            while (!local.seen(attempt) && System.currentTimeMillis() < until)
            {
                local.pump();
            }
            final EpSide.Completion found = local.take(attempt);
            if (found != null)
            {
                return found;
            }
            final EpSide.ErrCompletion e = local.takeError(attempt);
            if (e != null)
            {
                assertEquals(Errno.FI_ENOMSG, e.err(), "a peek fails only with FI_ENOMSG: " + e);
            }
            assertTrue(System.currentTimeMillis() < deadline, "the peek never found tag 0x" + Long.toHexString(tag) +
                "; " + local.log());
            local.progressFor(5);
        }
    }

    @Test
    void shouldFindAPeekedMessageAndLeaveItForAReceive()
    {
        child(tsend(0x3000, 31, 200));
        final EpSide.Completion peek = peekUntilFound(0x3000, 0, 0, 200);
        assertEquals(200, peek.len(), "the peek reports the message's length: " + peek);
        assertEquals(0x3000, peek.tag(), peek.toString());
        assertEquals(FI_RECV | FI_TAGGED | FI_PEEK, peek.flags(), peek.toString());

        final ByteBuffer buf = Pattern.guarded(216);
        trecv(buf, 200, Addresses.FI_ADDR_UNSPEC, 0x3000, 0, 301);
        final EpSide.Completion got = local.await(301);
        assertEquals(200, got.len());
        assertNull(Pattern.check(buf, 0, 200, 31), "a plain peek leaves the message for a receive");
        assertNull(Pattern.checkGuard(buf, 200, 16));
    }

    @Test
    void shouldDeliverAClaimedMessageOnlyToTheClaimingReceive()
    {
        child(tsend(0x4000, 41, 128));
        final EpSide.Completion claimed = peekUntilFound(0x4000, FI_CLAIM, 401, 128);
        assertEquals(0x4000, claimed.tag(), claimed.toString());
        assertEquals(FI_RECV | FI_TAGGED | FI_PEEK | FI_CLAIM, claimed.flags(), claimed.toString());
        child(tsend(0x4000, 42, 128));

        final ByteBuffer other = Pattern.guarded(128);
        trecv(other, 128, Addresses.FI_ADDR_UNSPEC, 0x4000, 0, 402);
        local.await(402);
        assertNull(Pattern.check(other, 0, 128, 42), "a claimed message is invisible to other receives");

        final ByteBuffer mine = Pattern.guarded(128);
        final Msg msg = new Msg(1).set(mine, 0, 128, 0);
        msg.tag = 0x4000;
        msg.context = 401;
        local.retry(() -> local.ep.trecvmsg(msg, FI_CLAIM));
        final EpSide.Completion got = local.await(401);
        assertEquals(128, got.len());
        assertEquals(0x4000, got.tag());
        assertEquals(FI_RECV | FI_TAGGED | FI_CLAIM, got.flags(), got.toString());
        assertNull(Pattern.check(mine, 0, 128, 41), "the FI_CLAIM receive gets the claimed message");
    }

    @Test
    void shouldDiscardAPeekedOrClaimedMessage()
    {
        child(tsend(0x5000, 51, 64));
        peekUntilFound(0x5000, FI_DISCARD, 501, 64);
        final Msg probe = new Msg(1).set(Pattern.guarded(64), 0, 64, 0);
        probe.tag = 0x5000;
        probe.context = 502;
        local.retry(() -> local.ep.trecvmsg(probe, FI_PEEK));
        assertEquals(Errno.FI_ENOMSG, local.awaitError(502).err(), "FI_PEEK|FI_DISCARD removed the message");

        child(tsend(0x5001, 53, 64));
        peekUntilFound(0x5001, FI_CLAIM, 503, 64);
        final Msg discard = new Msg(1).set(Pattern.guarded(64), 0, 64, 0);
        discard.tag = 0x5001;
        discard.context = 503;
        local.retry(() -> local.ep.trecvmsg(discard, FI_CLAIM | FI_DISCARD));
        local.await(503);
        assertNull(Pattern.checkGuard(discard.iov[0], 0, 64), "a discard copies nothing");
        probe.tag = 0x5001;
        probe.context = 504;
        local.retry(() -> local.ep.trecvmsg(probe, FI_PEEK));
        assertEquals(Errno.FI_ENOMSG, local.awaitError(504).err(), "FI_CLAIM|FI_DISCARD removed the message");
    }

    @Test
    void shouldLetADirectedReceiveTakeOnlyItsSource()
    {
        assertTrue((info.caps() & FI_DIRECTED_RECV) != 0, "the endpoint has FI_DIRECTED_RECV");
        final EpSide neighbour = openLocal(CqFormat.TAGGED, BOTH);
        final long neighbourAtLocal = local.insert(neighbour.name);
        final long localAtNeighbour = neighbour.insert(local.name);

        final ByteBuffer directed = Pattern.guarded(64);
        trecv(directed, 64, child, 0x6000, 0, 601);
        final ByteBuffer n = ByteBuffer.allocateDirect(64);
        Pattern.fill(n, 0, 64, 61);
        neighbour.retry(() -> neighbour.ep.tsend(n, 0, 64, 0, localAtNeighbour, 0x6000, 6011));
        neighbour.await(6011);
        local.progressFor(100);
        assertFalse(local.seen(601), "the receive directed at the child took the neighbour's message: " +
            local.log());

        child(tsend(0x6000, 62, 64));
        final EpSide.Completion got = local.await(601);
        assertEquals(child, got.srcAddr(), got.toString());
        assertNull(Pattern.check(directed, 0, 64, 62));

        final ByteBuffer any = Pattern.guarded(64);
        trecv(any, 64, Addresses.FI_ADDR_UNSPEC, 0x6000, 0, 602);
        final EpSide.Completion rest = local.await(602);
        assertEquals(neighbourAtLocal, rest.srcAddr(), rest.toString());
        assertNull(Pattern.check(any, 0, 64, 61));
    }

    @Test
    void shouldIgnoreTheSourceOfAReceiveOnAnEndpointWithoutFiDirectedRecv()
    {
        final Info undirected = info.copy();
        undirected.caps(info.caps() & ~FI_DIRECTED_RECV);
        undirected.rxAttr().caps(info.rxAttr().caps() & ~FI_DIRECTED_RECV);
        final EpSide any = openLocal(undirected, CqFormat.TAGGED, BOTH);
        final long childAtAny = any.insert(childAddr);
        final long localAtAny = any.insert(local.name);

        final ByteBuffer buf = Pattern.guarded(64);
        any.retry(() -> any.ep.trecv(buf, 0, 64, 0, childAtAny, 0x6100, 0, 611));
        final ByteBuffer n = ByteBuffer.allocateDirect(64);
        Pattern.fill(n, 0, 64, 63);
        final long anyAtLocal = local.insert(any.name);
        local.retry(() -> local.ep.tsend(n, 0, 64, 0, anyAtLocal, 0x6100, 6111));
        local.await(6111);
        final EpSide.Completion got = any.await(611);
        assertEquals(localAtAny, got.srcAddr(), "without FI_DIRECTED_RECV the named source is ignored: " + got);
        assertNull(Pattern.check(buf, 0, 64, 63));
    }

    @Test
    void shouldMatch1024UnexpectedMessagesWithReceivesPostedInReverseTagOrder()
    {
        final int count = 1024;
        final int size = 200;
        final long base = 0x7_0000_0000L;
        child("send id=1 dest=" + localAtChild + " op=tsend size=" + size + " count=" + count + " tag=" + base +
            " tagstep=1 seed=0");
        peekUntilFound(base + count - 1, 0, 0, size);

        final ByteBuffer buf = ByteBuffer.allocateDirect(size + 16);
        for (int i = count - 1; i >= 0; i--)
        {
            Pattern.guard(buf);
            final long context = 100_000 + i;
            trecv(buf, size, Addresses.FI_ADDR_UNSPEC, base + i, 0, context);
            final EpSide.Completion c = local.await(context);
            assertEquals(base + i, c.tag(), c.toString());
            assertEquals(size, c.len(), c.toString());
            assertNull(Pattern.check(buf, 0, size, i), "message with tag base+" + i);
            assertNull(Pattern.checkGuard(buf, size, 16));
        }
    }

    @Test
    void shouldReportTaggedRemoteCqDataWithExactFlags()
    {
        final ByteBuffer buf = Pattern.guarded(64);
        trecv(buf, 64, Addresses.FI_ADDR_UNSPEC, 0x8000, 0, 801);
        child("send id=1 dest=" + localAtChild + " op=tsenddata size=64 tag=0x8000 seed=81 data=0x55aa");
        final EpSide.Completion c = local.await(801);
        assertEquals(FI_TAGGED | FI_RECV | FI_REMOTE_CQ_DATA, c.flags(), c.toString());
        assertEquals(0x55aa, c.data());
        assertEquals(0x8000, c.tag());
        assertNull(Pattern.check(buf, 0, 64, 81));
    }
}
