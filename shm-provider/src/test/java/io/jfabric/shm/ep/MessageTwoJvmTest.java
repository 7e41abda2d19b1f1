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
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.MemoryRegion;
import io.jfabric.MessageClaim;
import io.jfabric.MrIov;
import io.jfabric.Msg;
import io.jfabric.ShareableMemory;
import io.jfabric.shm.region.SlotDescriptor;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.jfabric.Flags.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fi_msg(3) between two JVMs over one named domain (issue 5's acceptance list): sizes up to 16 MiB both ways, remote
 * CQ data, a sender not yet in the AV, multi-receive, truncation, cancel, a full peer ring and selective completion.
 * This process's endpoint uses an FI_CQ_FORMAT_DATA queue; the child is an {@link EpPeerMain}.
 */
class MessageTwoJvmTest extends TwoJvmEndpointTestBase
{
    private static final int[] SIZES = { 0, 1, 64, 4096, 64 * 1024, 1 << 20, 16 << 20 };

    @Override
    String domainName()
    {
        return "msg2jvm";
    }

    @Override
    CqFormat format()
    {
        return CqFormat.DATA;
    }

    @Test
    void shouldDeliverEverySizeByteExactInBothDirections()
    {
        for (int k = 0; k < SIZES.length; k++)
        {
            final int size = SIZES[k];
            final long outSeed = 2L * k + 1;
            final long inSeed = 2L * k + 2;

            final ByteBuffer src = ByteBuffer.allocateDirect(Math.max(1, size));
            Pattern.fill(src, 0, size, outSeed);
            final long sendCtx = 100 + k;
            local.retry(() -> local.ep.send(src, 0, size, 0, child, sendCtx));
            child("recv id=1 size=" + size + " seed=" + outSeed);
            final EpSide.Completion sent = local.await(sendCtx);
            assertEquals(FI_SEND | FI_MSG, sent.flags(), "send completion of " + size + " bytes: " + sent);

            final int at = 8;
            final ByteBuffer dst = Pattern.guarded(at + size + 16);
            final long recvCtx = 200 + k;
            local.retry(() -> local.ep.recv(dst, at, size, 0, Addresses.FI_ADDR_UNSPEC, recvCtx));
            child("send id=1 dest=" + localAtChild + " op=send size=" + size + " seed=" + inSeed);
            final EpSide.Completion got = local.await(recvCtx);
            assertEquals(FI_RECV | FI_MSG, got.flags(), "receive of " + size + " bytes: " + got);
            assertEquals(size, got.len(), "receive of " + size + " bytes: " + got);
            assertEquals(at, got.bufOffset(), "receive of " + size + " bytes: " + got);
            assertNull(Pattern.check(dst, at, size, inSeed), "receive of " + size + " bytes");
            assertNull(Pattern.checkGuard(dst, 0, at), "receive of " + size + " bytes");
            assertNull(Pattern.checkGuard(dst, at + size, 16), "receive of " + size + " bytes");
        }
    }

    @Test
    void shouldMoveLargeMessagesFromShareableMemoryByRendezvousByteExactInBothDirections()
    {
        final int[] sizes = { 64 * 1024, 1 << 20, 16 << 20 };
        for (int k = 0; k < sizes.length; k++)
        {
            final int size = sizes[k];
            final long outSeed = 40L + 2 * k;
            final long inSeed = 41L + 2 * k;
            try (ShareableMemory memory = domain.allocShareable(size);
                MemoryRegion mr = domain.mrRegv(new MrIov[] { MrIov.of(memory, 0, size) }, FI_SEND, 0, 4000 + k, 0, 0))
            {
                final ByteBuffer src = memory.buffer();
                Pattern.fill(src, 0, size, outSeed);
                final long before = local.pathCount(domain, SlotDescriptor.STAT_RENDEZVOUS_OFFSET);
                final long sendCtx = 110 + k;
                local.retry(() -> local.ep.send(src, 0, size, mr.desc(), child, sendCtx));
                child("recv id=1 size=" + size + " seed=" + outSeed);
                assertEquals(FI_SEND | FI_MSG, local.await(sendCtx).flags());
                assertEquals(before + 1, local.pathCount(domain, SlotDescriptor.STAT_RENDEZVOUS_OFFSET),
                    "a send of " + size + " bytes from registered shareable memory went by rendezvous");
            }

            final ByteBuffer dst = Pattern.guarded(size + 16);
            local.recv(dst, Addresses.FI_ADDR_UNSPEC, 210 + k);
            final long before = Long.parseLong(
                child("stat id=1 offset=" + SlotDescriptor.STAT_RENDEZVOUS_OFFSET).get("value"));
            child("send id=1 dest=" + localAtChild + " op=send mem=shareable size=" + size + " seed=" + inSeed);
            final EpSide.Completion got = local.await(210 + k);
            assertEquals(size + 16, dst.capacity());
            assertEquals(size, got.len(), got.toString());
            assertNull(Pattern.check(dst, 0, size, inSeed), "rendezvous receive of " + size + " bytes");
            assertNull(Pattern.checkGuard(dst, size, 16));
            assertEquals(before + 1, Long.parseLong(
                child("stat id=1 offset=" + SlotDescriptor.STAT_RENDEZVOUS_OFFSET).get("value")),
                "the child's send of " + size + " bytes from shareable memory went by rendezvous");
        }
    }

    @Test
    void shouldReportSenddataAndInjectdataWithExactFlagsAndDataInADataFormatCq()
    {
        assertEquals(CqFormat.DATA, local.cq.attr().format());
        final ByteBuffer a = Pattern.guarded(64);
        final ByteBuffer b = Pattern.guarded(64);
        final ByteBuffer c = Pattern.guarded(64);
        local.recv(a, Addresses.FI_ADDR_UNSPEC, 301);
        local.recv(b, Addresses.FI_ADDR_UNSPEC, 302);
        local.recv(c, Addresses.FI_ADDR_UNSPEC, 303);
        child("send id=1 dest=" + localAtChild + " op=senddata size=48 seed=21 data=0x1122334455667700");
        child("send id=1 dest=" + localAtChild + " op=injectdata size=48 seed=22 data=0x7eadbeef00000001");
        child("send id=1 dest=" + localAtChild + " op=send size=48 seed=23");

        final EpSide.Completion withData = local.await(301);
        assertEquals(FI_MSG | FI_RECV | FI_REMOTE_CQ_DATA, withData.flags(), withData.toString());
        assertEquals(0x1122334455667700L, withData.data(), withData.toString());
        assertEquals(48, withData.len());
        assertNull(Pattern.check(a, 0, 48, 21));

        final EpSide.Completion injected = local.await(302);
        assertEquals(FI_MSG | FI_RECV | FI_REMOTE_CQ_DATA, injected.flags(), injected.toString());
        assertEquals(0x7eadbeef00000001L, injected.data(), injected.toString());
        assertEquals(48, injected.len());
        assertNull(Pattern.check(b, 0, 48, 22));

        final EpSide.Completion plain = local.await(303);
        assertEquals(FI_MSG | FI_RECV, plain.flags(), "a send without data has no FI_REMOTE_CQ_DATA: " + plain);
        assertNull(Pattern.check(c, 0, 48, 23));
    }

    @Test
    void shouldReportASenderMissingFromTheAvAsNotAvailableThenAttributeItOnceInserted()
    {
        final String strangerAddr = openChild(2);
        final long localAtStranger = Long.parseLong(peer.call("insert id=2 addr=" + local.name).get("fi"));

        final ByteBuffer first = Pattern.guarded(100);
        local.recv(first, Addresses.FI_ADDR_UNSPEC, 501);
        child("send id=2 dest=" + localAtStranger + " op=send size=100 seed=51");
        final EpSide.Completion unknown = local.await(501);
        assertEquals(Addresses.FI_ADDR_NOTAVAIL, unknown.srcAddr(), "sender not in the AV: " + unknown);
        assertNull(Pattern.check(first, 0, 100, 51));

        final long stranger = local.insert(strangerAddr);
        final ByteBuffer directed = Pattern.guarded(100);
        local.recv(directed, stranger, 502);
        child("send id=1 dest=" + localAtChild + " op=send size=100 seed=52");
        local.progressFor(100);
        assertFalse(local.seen(502), "the receive directed at the inserted sender took another sender's message: " +
            local.log());
        child("send id=2 dest=" + localAtStranger + " op=send size=100 seed=53");
        final EpSide.Completion known = local.await(502);
        assertEquals(stranger, known.srcAddr(), "the inserted sender's next message: " + known);
        assertNull(Pattern.check(directed, 0, 100, 53), "the directed receive took the inserted sender's message");

        final ByteBuffer other = Pattern.guarded(100);
        local.recv(other, Addresses.FI_ADDR_UNSPEC, 503);
        final EpSide.Completion fromChild = local.await(503);
        assertEquals(child, fromChild.srcAddr(), fromChild.toString());
        assertNull(Pattern.check(other, 0, 100, 52));
    }

    @Test
    void shouldFillAMultiRecvBufferAndFlagItsReleaseOnce()
    {
        final int base = 128;
        final int space = 8192;
        final int size = 1000;
        local.ep.setOpt(Endpoint.FI_OPT_MIN_MULTI_RECV, size);
        assertEquals(size, local.ep.getOpt(Endpoint.FI_OPT_MIN_MULTI_RECV));
        final ByteBuffer buf = Pattern.guarded(base + space + 16);
        final Msg msg = new Msg(1).set(buf, base, space, 0);
        msg.context = 601;
        local.retry(() -> local.ep.recvmsg(msg, FI_MULTI_RECV));
        final ByteBuffer next = Pattern.guarded(size);
        local.recv(next, Addresses.FI_ADDR_UNSPEC, 602);

        child("send id=1 dest=" + localAtChild + " op=send size=" + size + " count=9 seed=60");
        final EpSide.Completion ninth = local.await(602);
        assertEquals(size, ninth.len());
        assertNull(Pattern.check(next, 0, size, 68), "the message after the released buffer went to the next receive");

        // 8 messages leave 192 bytes < FI_OPT_MIN_MULTI_RECV, so the buffer is released after the 8th.
        final List<EpSide.Completion> entries = local.drain(601, 50);
        final List<EpSide.Completion> messages = new ArrayList<>();
        int released = 0;
        for (int i = 0; i < entries.size(); i++)
        {
            final EpSide.Completion e = entries.get(i);
            if ((e.flags() & FI_MULTI_RECV) != 0)
            {
                released++;
                assertEquals(entries.size() - 1, i, "FI_MULTI_RECV is on the last entry of the buffer: " + entries);
            }
            if (e.len() > 0 || (e.flags() & FI_MULTI_RECV) == 0)
            {
                messages.add(e);
            }
        }
        assertEquals(1, released, "exactly one entry releases the buffer: " + entries);
        assertEquals(8, messages.size(), "messages placed in the buffer: " + entries);
        for (int k = 0; k < messages.size(); k++)
        {
            final EpSide.Completion e = messages.get(k);
            assertEquals(size, e.len(), e.toString());
            assertEquals(base + (long)k * size, e.bufOffset(), "message " + k + " is placed contiguously: " + e);
            assertEquals(FI_RECV | FI_MSG, e.flags() & ~FI_MULTI_RECV, e.toString());
            assertNull(Pattern.check(buf, base + k * size, size, 60 + k), "message " + k);
        }
        assertNull(Pattern.checkGuard(buf, 0, base));
        assertNull(Pattern.checkGuard(buf, base + 8 * size, space - 8 * size + 16));
    }

    @Test
    void shouldCompleteAnOverlongMessageWithEtruncAndBothLengths()
    {
        final ByteBuffer buf = Pattern.guarded(1016);
        local.retry(() -> local.ep.recv(buf, 0, 600, 0, Addresses.FI_ADDR_UNSPEC, 701));
        child("send id=1 dest=" + localAtChild + " op=send size=1000 seed=70");
        final EpSide.ErrCompletion e = local.awaitError(701);
        assertEquals(Errno.FI_ETRUNC, e.err(), e.toString());
        assertEquals(600, e.len(), "len is what was placed: " + e);
        assertEquals(400, e.olen(), "olen is what did not fit: " + e);
        assertNull(Pattern.check(buf, 0, 600, 70));
        assertNull(Pattern.checkGuard(buf, 600, 416), "nothing is written past the receive's length");
    }

    @Test
    void shouldCompleteACancelledReceiveWithEcanceledAndLeaveItsBufferAlone()
    {
        final ByteBuffer cancelled = Pattern.guarded(256);
        local.retry(() -> local.ep.recv(cancelled, 0, 256, 0, Addresses.FI_ADDR_UNSPEC, 801));
        assertEquals(0, local.ep.cancel(801));
        final EpSide.ErrCompletion e = local.awaitError(801);
        assertEquals(Errno.FI_ECANCELED, e.err(), e.toString());
        assertEquals(-Errno.FI_ENOENT, local.ep.cancel(801), "nothing left to cancel");

        final ByteBuffer live = Pattern.guarded(256);
        local.recv(live, Addresses.FI_ADDR_UNSPEC, 802);
        child("send id=1 dest=" + localAtChild + " op=send size=256 seed=80");
        assertEquals(256, local.await(802).len());
        assertNull(Pattern.check(live, 0, 256, 80));
        assertNull(Pattern.checkGuard(cancelled, 0, 256), "the cancelled receive's buffer was written");
    }

    @Test
    void shouldReturnEagainWhenPeerRingIsFullAndDeliverEveryMessageOnceInOrderAfterRetries()
    {
        final int size = 64;
        peer.call("pause");
        final ByteBuffer buf = ByteBuffer.allocateDirect(size);
        final int bound = 1 << 20;
        int sent = 0;
        long rc = 0;
        while (sent < bound)
        {
            Pattern.fill(buf, 0, size, sent);
            rc = local.ep.inject(buf, 0, size, child);
            if (rc != 0)
            {
                break;
            }
            sent++;
        }
        assertEquals(-Errno.FI_EAGAIN, rc, "a full ring refuses with FI_EAGAIN, after " + sent + " messages");
        assertTrue(sent > 0, "the ring took some messages first");
        local.progressFor(100);
        assertEquals(-Errno.FI_EAGAIN, local.ep.inject(buf, 0, size, child), "still full while the peer is paused");

        final int total = 3 * sent + 1;
        peer.begin("recv id=1 size=" + size + " count=" + total + " seed=0");
        long eagain = 0;
        for (int s = sent; s < total; s++)
        {
            Pattern.fill(buf, 0, size, s);
            eagain += local.retry(() -> local.ep.inject(buf, 0, size, child));
        }
        final Map<String, String> answer = peer.end(local);
        assertEquals(Integer.toString(total), answer.get("received"), answer.toString());
        assertTrue(eagain > 0, "the sender had to retry while the peer drained");
    }

    @Test
    void shouldWriteCompletionsOnlyForOperationsWithFiCompletionUnderSelectiveCompletion()
    {
        final EpSide selective = openLocal(CqFormat.DATA, BOTH | FI_SELECTIVE_COMPLETION);
        final long childAtSelective = selective.insert(childAddr);
        final long selectiveAtChild = Long.parseLong(peer.call("insert id=1 addr=" + selective.name).get("fi"));

        final Msg msg = new Msg(1);
        for (int k = 0; k < 4; k++)
        {
            final ByteBuffer b = ByteBuffer.allocateDirect(256);
            Pattern.fill(b, 0, 256, 100 + k);
            msg.set(b, 0, 256, 0);
            msg.addr = childAtSelective;
            msg.context = 1001 + k;
            final long flags = k % 2 == 1 ? FI_COMPLETION : 0;
            selective.retry(() -> selective.ep.sendmsg(msg, flags));
        }
        peer.call("recv id=1 size=256 count=4 seed=100", selective);
        assertEquals(FI_SEND | FI_MSG, selective.await(1002).flags());
        assertEquals(FI_SEND | FI_MSG, selective.await(1004).flags());
        selective.progressFor(50);
        assertFalse(selective.seen(1001) || selective.seen(1003), "sends without FI_COMPLETION wrote entries: " +
            selective.log());

        final ByteBuffer quiet = Pattern.guarded(256);
        final ByteBuffer loud = Pattern.guarded(256);
        msg.set(quiet, 0, 256, 0);
        msg.addr = Addresses.FI_ADDR_UNSPEC;
        msg.context = 1011;
        selective.retry(() -> selective.ep.recvmsg(msg, 0));
        msg.set(loud, 0, 256, 0);
        msg.context = 1012;
        selective.retry(() -> selective.ep.recvmsg(msg, FI_COMPLETION));
        peer.call("send id=1 dest=" + selectiveAtChild + " op=send size=256 count=2 seed=110", selective);
        assertEquals(256, selective.await(1012).len());
        selective.progressFor(50);
        assertFalse(selective.seen(1011), "a receive without FI_COMPLETION wrote an entry: " + selective.log());
        assertNull(Pattern.check(quiet, 0, 256, 110), "the receive without a completion still got its message");
        assertNull(Pattern.check(loud, 0, 256, 111));
    }

    @Test
    void shouldDeliverAClaimedAndCommittedMessageAndNothingOfAnAbortedOne()
    {
        final int size = 512;
        final MessageClaim claim = local.ep.messageClaim();
        local.retry(() -> local.ep.claim(child, size, 0, 0, 0));
        assertEquals(size, claim.length());
        Pattern.fill(claim.buffer(), claim.offset(), size, 95);
        assertEquals(0, claim.abort());
        assertEquals(-Errno.FI_EINVAL, claim.commit(), "no claim is open after abort");

        local.retry(() -> local.ep.claim(child, size, 0, 0, 0));
        Pattern.fill(claim.buffer(), claim.offset(), size, 96);
        assertEquals(0, claim.commit());
        child("recv id=1 size=" + size + " seed=96");
    }

    @Test
    void shouldFailASendToAnEndpointThatItsProcessClosedAtTheSender()
    {
        final String goneAddr = openChild(3);
        final long gone = local.insert(goneAddr);
        final ByteBuffer buf = ByteBuffer.allocateDirect(64);
        assertEquals(0, local.ep.inject(buf, 0, 64, gone), "the endpoint is there before it closes");
        closeChild(3);
        final long inject = local.ep.inject(buf, 0, 64, gone);
        assertTrue(inject < 0 && inject != -Errno.FI_EAGAIN,
            "inject to a closed endpoint fails (not FI_EAGAIN, which would be retried for ever): " + inject);
        final long send = local.ep.send(buf, 0, 64, 0, gone, 901);
        assertTrue(send < 0 && send != -Errno.FI_EAGAIN, "send to a closed endpoint fails: " + send);
        local.progressFor(20);
        assertFalse(local.seen(901), "a refused send writes no completion");
        assertNotEquals(gone, child, "the closed endpoint is not the test's partner");
        local.recv(buf, Addresses.FI_ADDR_UNSPEC, 902);
        child("send id=1 dest=" + localAtChild + " op=send size=64 seed=90");
        assertEquals(64, local.await(902).len(), "the endpoint still talks to the live peer");
    }
}
