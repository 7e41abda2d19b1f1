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

import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.MemoryRegion;
import io.jfabric.MessageClaim;
import io.jfabric.MrIov;
import io.jfabric.Msg;
import io.jfabric.Progress;
import io.jfabric.ShareableMemory;
import io.jfabric.Threading;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.function.LongSupplier;

import static io.jfabric.Addresses.FI_ADDR_UNSPEC;
import static io.jfabric.Flags.FI_DELIVERY_COMPLETE;
import static io.jfabric.Flags.FI_MSG;
import static io.jfabric.Flags.FI_RECV;
import static io.jfabric.Flags.FI_REMOTE_CQ_DATA;
import static io.jfabric.Flags.FI_SEND;
import static io.jfabric.Flags.FI_TAGGED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every send path with {@code jfabric.shm.checksum=true} (issue 26, item 3): whole messages, pieces, rendezvous,
 * delivery-complete sends, injects, tagged and data sends and zero-copy claims, each at the sizes around a lane
 * record's limit and far beyond, arrive byte-exact, no call throws and no record is taken for damaged. Before the
 * fix the inline limit left no room for the checksum: a send of 9,000 B (a first piece of 8,160 B of payload) asked
 * the lane for a 8,200-byte body of the 8,192 it allows, the IllegalArgumentException came out of {@code send}, and
 * every CQ read after it threw the same (the endpoint was wedged).
 */
class ChecksumSendPathsTest
{
    private static final int[] SIZES =
        { 0, 1, 4096, 8163, 8164, 8165, 8168, 8169, 9000, 16_384, 65_536, 200_000, 1 << 20 };

    private EndpointPair pair;
    private final CqEntries entries = new CqEntries(1);
    private final CqErrEntry err = new CqErrEntry();
    private long seed = 1;

    @BeforeEach
    void open()
    {
        pair = new EndpointPair(Progress.MANUAL, Threading.DOMAIN, new CqAttr().format(CqFormat.TAGGED),
            key -> "checksum".equals(key) ? "true" : "inject.size".equals(key) ? "65536" : null);
    }

    @AfterEach
    void close()
    {
        pair.close();
    }

    @Test
    void shouldSendEverySizeWholeAndInPieces()
    {
        for (final int size : SIZES)
        {
            transfer(size, false, src -> pair.a.send(src, 0, size, 0, pair.addrB, 1));
            transfer(size, true, src -> pair.a.tsend(src, 0, size, 0, pair.addrB, 9, 1));
            transfer(size, false, src -> pair.a.senddata(src, 0, size, 0, 77, pair.addrB, 1));
        }
        assertNoneDamaged();
    }

    @Test
    void shouldSendEverySizeWithDeliveryComplete()
    {
        for (final int size : SIZES)
        {
            transfer(size, false, src ->
            {
                final Msg msg = new Msg(1);
                msg.iov[0] = src;
                msg.iovOffset[0] = 0;
                msg.iovLength[0] = size;
                msg.iovCount = 1;
                msg.addr = pair.addrB;
                msg.context = 1;
                return pair.a.sendmsg(msg, FI_DELIVERY_COMPLETE);
            });
        }
        assertNoneDamaged();
    }

    @Test
    void shouldSendByRendezvous()
    {
        for (final int size : new int[] { 2048, 8165, 9000, 1 << 20 })
        {
            try (ShareableMemory memory = pair.domain.allocShareable(size);
                MemoryRegion mr = pair.domain.mrRegv(new MrIov[] { MrIov.of(memory, 0, size) }, FI_SEND, 0, 0, 0, 0))
            {
                final long before = stat(SlotDescriptor.STAT_RENDEZVOUS_OFFSET);
                transfer(memory.buffer(), size, false, true, src -> pair.a.send(src, 0, size, mr.desc(), pair.addrB, 1));
                assertEquals(before + 1, stat(SlotDescriptor.STAT_RENDEZVOUS_OFFSET), size + " B by rendezvous");
            }
        }
        assertNoneDamaged();
    }

    @Test
    void shouldInjectAndClaimUpToTheInjectSize()
    {
        final int limit = ((ShmEndpoint)pair.a).inlineLimit();
        assertEquals(8164, limit, "the checksum takes 4 bytes of the 64 KiB lane's record");
        for (final int size : new int[] { 0, 1, 4096, limit - 1, limit })
        {
            final ByteBuffer src = ByteBuffer.allocateDirect(Math.max(1, size));
            transfer(src, size, false, false, b -> pair.a.inject(b, 0, size, pair.addrB));
            transfer(src, size, true, false, b ->
            {
                final long rc = pair.a.claim(pair.addrB, size, 9, 0, FI_TAGGED);
                if (rc != 0)
                {
                    return rc;
                }
                final MessageClaim claim = pair.a.messageClaim();
                claim.buffer().put(claim.offset(), b, 0, size);
                return claim.commit();
            });
        }
        assertEquals(-Errno.FI_EMSGSIZE, pair.a.inject(ByteBuffer.allocateDirect(limit + 1), 0, limit + 1, pair.addrB));
        assertEquals(-Errno.FI_EINVAL, pair.a.claim(pair.addrB, limit + 1, 0, 0, 0));
        assertNoneDamaged();
    }

    private void transfer(final int size, final boolean tagged, final Sender send)
    {
        transfer(ByteBuffer.allocateDirect(Math.max(1, size)), size, tagged, true, send);
    }

    /**
     * Post a receive at b, make the send at a, and wait for the receive's completion and, when {@code completes}, the
     * send's; the bytes must arrive exactly.
     */
    private void transfer(
        final ByteBuffer src, final int size, final boolean tagged, final boolean completes, final Sender send)
    {
        final long s = seed++;
        Pattern.fill(src, 0, size, s);
        final ByteBuffer dst = Pattern.guarded(size + 16);
        assertEquals(0, tagged ? pair.b.trecv(dst, 0, size, 0, FI_ADDR_UNSPEC, 9, 0, 2) :
            pair.b.recv(dst, 0, size, 0, FI_ADDR_UNSPEC, 2));
        final long deadline = System.nanoTime() + 10_000_000_000L;
        long rc;
        while ((rc = send.send(src)) == -Errno.FI_EAGAIN)
        {
            assertTrue(System.nanoTime() < deadline, "a send of " + size + " B accepted within 10 s");
            progress();
        }
        assertEquals(0, rc, "send of " + size + " B");
        boolean received = false;
        boolean sent = false;
        while (!received || !sent && completes)
        {
            assertTrue(System.nanoTime() < deadline, "a send of " + size + " B completed within 10 s");
            final int n = pair.cqB.read(entries, 1);
            if (n == 1)
            {
                assertEquals(2, entries.opContext[0]);
                assertEquals(size, entries.len[0], "received length");
                assertEquals(FI_RECV | (tagged ? FI_TAGGED : FI_MSG), entries.flags[0] & ~FI_REMOTE_CQ_DATA);
                received = true;
            }
            failOnError(n);
            final int m = pair.cqA.read(entries, 1);
            if (m == 1)
            {
                assertEquals(1, entries.opContext[0]);
                assertEquals(FI_SEND, entries.flags[0] & FI_SEND);
                sent = true;
            }
            failOnError(m);
        }
        assertNull(Pattern.check(dst, 0, size, s), size + " B arrived byte-exact");
        assertNull(Pattern.checkGuard(dst, size, 16));
    }

    private void failOnError(final int n)
    {
        if (n == -Errno.FI_EAVAIL)
        {
            pair.cqA.readErr(err, 0);
            pair.cqB.readErr(err, 0);
            throw new AssertionError("an operation completed in error: " + Errno.name(err.err));
        }
        assertTrue(n == 1 || n == -Errno.FI_EAGAIN, "cq read returned " + n);
    }

    private void progress()
    {
        assertTrue(pair.cqA.read(entries, 1) == -Errno.FI_EAGAIN, "nothing completes before the send is accepted");
        assertTrue(pair.cqB.read(entries, 1) == -Errno.FI_EAGAIN, "nothing completes before the send is accepted");
    }

    private long stat(final int offset)
    {
        final ShmDomain domain = (ShmDomain)pair.domain;
        final RegionGeometry g = domain.region().geometry();
        return domain.region().buffer().getLongVolatile(
            SlotDescriptor.statOffset(g, ((ShmEndpoint)pair.a).slot(), offset));
    }

    private void assertNoneDamaged()
    {
        final ShmDomain domain = (ShmDomain)pair.domain;
        final RegionGeometry g = domain.region().geometry();
        assertEquals(0, domain.region().buffer().getLongVolatile(
            SlotDescriptor.statOffset(g, ((ShmEndpoint)pair.b).slot(), SlotDescriptor.STAT_DAMAGED_OFFSET)),
            "no record was taken for damaged");
    }

    /** One send attempt. */
    @FunctionalInterface
    private interface Sender
    {
        long send(ByteBuffer src);
    }
}
