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

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MessageClaim;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.OpenedObjects;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.jfabric.Addresses.FI_ADDR_UNSPEC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A zero-copy claim kept past its endpoint's close (issue 26, item 6). The application claims a record in a peer's
 * lane, fills it, and closes the endpoint before committing; then commits (or aborts) through the claim it kept.
 * fi_close discards the endpoint's outstanding operations, so the claim was cancelled: the commit answers
 * -FI_ECANCELED and nothing is delivered, and the lane flows on for whoever sends next, also when another endpoint
 * has taken the closed one's slot meanwhile and after the domain is closed. Before the fix the commit returned 0 and
 * the message arrived; with the slot taken again it threw IllegalStateException, after the domain's close
 * IndexOutOfBoundsException.
 */
class ClaimOutlivesEndpointTest
{
    private static final int LENGTH = 64;

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private Info info;
    private Domain domain;
    private AddressVector av;
    private CompletionQueue cqA;
    private CompletionQueue cqB;
    private ShmEndpoint a;
    private Endpoint b;
    private long addrB;
    private final List<Long> received = new ArrayList<>();

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name("claims");
        info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        domain = opened.keep(fabric.domain(info, 0));
        av = opened.keep(domain.avOpen(new AvAttr(), 0));
        cqA = opened.keep(domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0));
        cqB = opened.keep(domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0));
        b = endpoint(cqB);
        a = (ShmEndpoint)endpoint(cqA);
        final long[] out = new long[1];
        av.insert(new String[] { new String(b.getname(), StandardCharsets.US_ASCII) }, 1, out, 0, 0);
        addrB = out[0];
    }

    @AfterEach
    void close() throws Exception
    {
        opened.close();
        root.close();
    }

    @Test
    void shouldCancelAClaimOfAClosedEndpointAndDeliverNothing()
    {
        final MessageClaim claim = claimAndFill(7);
        a.close();

        assertEquals(-Errno.FI_ECANCELED, claim.commit(), "close discarded the claim");
        assertEquals(-Errno.FI_EBADF, claim.commit(), "and then the endpoint is closed");
        assertEquals(-Errno.FI_EBADF, claim.abort());
        assertEquals(0, claim.buffer().limit(), "the view reaches no lane any more");

        final Endpoint c = endpoint(cqA);
        sendAndReceive(c, 8);
        assertEquals(List.of(8L), received, "the next sender's message arrives, the claimed one never");
    }

    @Test
    void shouldCancelAClaimWhoseSlotAnotherEndpointTook()
    {
        final int slot = a.slot();
        final MessageClaim claim = claimAndFill(7);
        a.close();
        final ShmEndpoint c = (ShmEndpoint)endpoint(cqA);
        assertEquals(slot, c.slot(), "the new endpoint took the closed one's slot, and its lanes");
        sendAndReceive(c, 8);

        assertEquals(-Errno.FI_ECANCELED, claim.commit());
        assertEquals(-Errno.FI_EBADF, claim.abort());
        sendAndReceive(c, 9);
        assertEquals(List.of(8L, 9L), received, "nothing of the old claim arrives, before or after its commit");
    }

    @Test
    void shouldCancelAClaimAfterTheDomainClosed() throws Exception
    {
        final MessageClaim claim = claimAndFill(7);
        final ByteBuffer view = claim.buffer();
        a.close();
        opened.close();

        assertEquals(-Errno.FI_ECANCELED, claim.commit());
        assertEquals(-Errno.FI_EBADF, claim.commit());
        assertEquals(-Errno.FI_EBADF, claim.abort());
        assertEquals(0, view.limit());
    }

    @Test
    void shouldAbortAClaimOfAClosedEndpointWithTheSameAnswer()
    {
        final MessageClaim claim = claimAndFill(7);
        a.close();

        assertEquals(-Errno.FI_ECANCELED, claim.abort());
        assertEquals(-Errno.FI_EBADF, claim.abort());
    }

    private Endpoint endpoint(final CompletionQueue cq)
    {
        final Endpoint ep = opened.keep(domain.endpoint(info, 0));
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        return ep;
    }

    private MessageClaim claimAndFill(final long value)
    {
        assertEquals(0, a.claim(addrB, LENGTH, 0, 0, 0));
        final MessageClaim claim = a.messageClaim();
        claim.buffer().putLong(claim.offset(), value);
        return claim;
    }

    /** Send {@code value} from {@code from} to b, then read b's CQ for what arrives within half a second. */
    private void sendAndReceive(final Endpoint from, final long value)
    {
        final ByteBuffer src = ByteBuffer.allocateDirect(LENGTH);
        src.putLong(0, value);
        final CqEntries entries = new CqEntries(4);
        final long deadline = System.nanoTime() + 10_000_000_000L;
        long rc;
        while ((rc = from.inject(src, 0, LENGTH, addrB)) == -Errno.FI_EAGAIN)
        {
            assertTrue(System.nanoTime() < deadline, "b frees the lane of the closed endpoint's slot");
            cqB.read(entries, 4);
        }
        assertEquals(0, rc);
        final ByteBuffer[] into = { ByteBuffer.allocateDirect(LENGTH), ByteBuffer.allocateDirect(LENGTH) };
        for (int i = 0; i < into.length; i++)
        {
            assertEquals(0, b.recv(into[i], 0, LENGTH, 0, FI_ADDR_UNSPEC, i));
        }
        final long until = System.nanoTime() + 500_000_000L;
        while (System.nanoTime() < until)
        {
            final int n = cqB.read(entries, 4);
            assertTrue(n > 0 || n == -Errno.FI_EAGAIN, "cq read " + n);
            for (int i = 0; i < n; i++)
            {
                received.add(into[(int)entries.opContext[i]].getLong(0));
            }
        }
        final CqErrEntry err = new CqErrEntry();
        for (int i = 0; i < into.length; i++)
        {
            if (b.cancel(i) == 0)
            {
                int n;
                while ((n = cqB.read(entries, 4)) != -Errno.FI_EAVAIL)
                {
                    assertEquals(-Errno.FI_EAGAIN, n);
                }
                assertEquals(1, cqB.readErr(err, 0));
                assertEquals(Errno.FI_ECANCELED, err.err);
            }
        }
    }
}
