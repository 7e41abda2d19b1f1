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
import io.jfabric.Addresses;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.TxAttr;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shared contexts (fi_endpoint(3) "SHARED CONTEXTS"): endpoints opened with FI_SHARED_CONTEXT bind a shared transmit
 * or receive context; sends and receive completions go to each endpoint's own CQ.
 */
class SharedContextTest
{
    private static final String DOMAIN = "shared";

    private ShmTestRoot root;
    private Fabric fabric;
    private Domain domain;
    private Info info;
    private AddressVector av;
    private final List<Fid> opened = new ArrayList<>();

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN);
        info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        av = keep(domain.avOpen(new AvAttr(), 0));
    }

    @AfterEach
    void close()
    {
        try
        {
            final List<Fid> left = new ArrayList<>(opened);
            while (!left.isEmpty())
            {
                final int before = left.size();
                left.removeIf(f ->
                {
                    try
                    {
                        f.close();
                        return true;
                    }
                    catch (final FabricException ex)
                    {
                        return false;
                    }
                });
                if (left.size() == before)
                {
                    left.get(0).close();
                }
            }
        }
        finally
        {
            TwoJvmEndpointTestBase.closeDomain(domain, fabric, root);
        }
    }

    private <T extends Fid> T keep(final T fid)
    {
        opened.add(0, fid);
        return fid;
    }

    private CompletionQueue cq()
    {
        return keep(domain.cqOpen(new CqAttr().format(CqFormat.TAGGED), 0));
    }

    private Info sharedInfo(final boolean tx, final boolean rx)
    {
        final Info i = info.copy();
        i.epAttr().txCtxCnt(tx ? Addresses.FI_SHARED_CONTEXT : 1).rxCtxCnt(rx ? Addresses.FI_SHARED_CONTEXT : 1);
        return i;
    }

    private long insert(final Endpoint ep)
    {
        final long[] out = new long[1];
        assertEquals(1, av.insert(new String[] {new String(ep.getname(), StandardCharsets.US_ASCII).trim()}, 1, out,
            0, 0));
        return out[0];
    }

    private static int await(final CompletionQueue cq, final CqEntries entries, final CompletionQueue... progress)
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        int n;
        while ((n = cq.read(entries, entries.capacity())) == -Errno.FI_EAGAIN && System.nanoTime() < deadline)
        {
            for (final CompletionQueue other : progress)
            {
                other.read(new CqEntries(1), 0);
            }
        }
        return n;
    }

    @Test
    void shouldLetTwoEndpointsSendThroughOneSharedTransmitContextEachCompletingToItsOwnCq()
    {
        final TxAttr asked = new TxAttr().size(64);
        final Fid stx = keep(domain.stxContext(asked, 7));
        assertEquals(FidClass.STX_CTX, stx.fidClass());
        assertEquals(64, asked.size(), "the size in force comes back");
        assertEquals(Flags.FI_SEND, asked.caps() & Flags.FI_SEND);
        final Endpoint receiver = keep(domain.endpoint(info, 0));
        final CompletionQueue rxCq = cq();
        receiver.bind(av, 0);
        receiver.bind(rxCq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        receiver.enable();
        final long to = insert(receiver);
        final Endpoint[] senders = new Endpoint[2];
        final CompletionQueue[] cqs = new CompletionQueue[2];
        for (int i = 0; i < 2; i++)
        {
            senders[i] = keep(domain.endpoint(sharedInfo(true, false), 0));
            assertEquals(Addresses.FI_SHARED_CONTEXT, senders[i].info().epAttr().txCtxCnt());
            cqs[i] = cq();
            senders[i].bind(av, 0);
            senders[i].bind(cqs[i], Flags.FI_TRANSMIT | Flags.FI_RECV);
            senders[i].bind(stx, 0);
            senders[i].enable();
        }
        final ByteBuffer buf = ByteBuffer.allocateDirect(16);
        for (int i = 0; i < 2; i++)
        {
            assertEquals(0, receiver.recv(buf, 8 * i, 8, 0, Addresses.FI_ADDR_UNSPEC, 10 + i));
        }
        assertEquals(0, senders[0].send(buf, 0, 8, 0, to, 100));
        assertEquals(0, senders[1].send(buf, 0, 8, 0, to, 101));
        final CqEntries entries = new CqEntries(4);
        for (int i = 0; i < 2; i++)
        {
            assertEquals(1, await(cqs[i], entries), "sender " + i + "'s completion is in its own CQ");
            assertEquals(100 + i, entries.opContext[0]);
        }
        int received = 0;
        while (received < 2)
        {
            final int n = await(rxCq, entries);
            assertEquals(true, n > 0, "receive completions: " + n);
            received += n;
        }
        assertEquals(Errno.FI_EBUSY, assertThrows(FabricException.class, stx::close).errno());
    }

    @Test
    void shouldRefuseMisusedSharedTransmitContexts()
    {
        final Fid stx = keep(domain.stxContext(null, 0));
        final Endpoint plain = keep(domain.endpoint(info, 0));
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class, () -> plain.bind(stx, 0)).errno(),
            "an endpoint opened without FI_SHARED_CONTEXT has its own transmit context");
        final Endpoint shared = keep(domain.endpoint(sharedInfo(true, false), 0));
        final CompletionQueue cq = cq();
        shared.bind(av, 0);
        shared.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        final FabricException noStx = assertThrows(FabricException.class, shared::enable);
        assertEquals(Errno.FI_EINVAL, noStx.errno(), "FI_SHARED_CONTEXT without a bound shared context");
        assertTrue(noStx.getMessage().startsWith("fi_enable: the endpoint (slot ") &&
            noStx.getMessage().contains("tx_ctx_cnt FI_SHARED_CONTEXT but no fi_stx_context is bound to it"),
            "the message names the endpoint that lacks it: " + noStx.getMessage());
        assertEquals(Errno.FI_EBADFLAGS, assertThrows(FabricException.class, () -> shared.bind(stx, 1)).errno());
        shared.bind(stx, 0);
        final Fid second = keep(domain.stxContext(null, 0));
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class, () -> shared.bind(second, 0)).errno(),
            "one shared transmit context per endpoint");
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class,
            () -> domain.stxContext(new TxAttr().caps(Flags.FI_HMEM), 0)).errno());
        shared.enable();
    }

    @Test
    void shouldMatchASharedTransmitContextHintAndReportIt()
    {
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN);
        hints.epAttr().txCtxCnt(Addresses.FI_SHARED_CONTEXT);
        final Info shared = root.provider().getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        assertEquals(Addresses.FI_SHARED_CONTEXT, shared.epAttr().txCtxCnt());
        assertEquals(true, shared.domainAttr().maxEpStxCtx() > 1, "endpoints that may share one");
    }

    @Test
    void shouldServeThreeEndpointsFromOneSharedReceiveContextCompletingToEachEndpointsCq()
    {
        final Endpoint srx = keep(domain.srxContext(null, 0));
        assertEquals(FidClass.SRX_CTX, srx.fidClass());
        final Endpoint[] eps = new Endpoint[3];
        final CompletionQueue[] cqs = new CompletionQueue[3];
        final long[] addr = new long[3];
        for (int i = 0; i < 3; i++)
        {
            eps[i] = keep(domain.endpoint(sharedInfo(false, true), 0));
            cqs[i] = cq();
            eps[i].bind(av, 0);
            eps[i].bind(cqs[i], Flags.FI_TRANSMIT | Flags.FI_RECV);
            eps[i].bind(srx, 0);
            eps[i].enable();
            addr[i] = insert(eps[i]);
        }
        final Endpoint sender = keep(domain.endpoint(info, 0));
        final CompletionQueue txCq = cq();
        sender.bind(av, 0);
        sender.bind(txCq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        sender.enable();
        final ByteBuffer out = ByteBuffer.allocateDirect(8);
        final ByteBuffer in = ByteBuffer.allocateDirect(8 * 12);
        // three receives posted first, for a message to each endpoint
        for (int k = 0; k < 3; k++)
        {
            assertEquals(0, srx.trecv(in, 8 * k, 8, 0, Addresses.FI_ADDR_UNSPEC, 0, -1L, k));
        }
        for (int i = 0; i < 3; i++)
        {
            out.putInt(0, i);
            assertEquals(0, sender.tsend(out, 0, 4, 0, addr[i], 100 + i, 0));
        }
        final CqEntries entries = new CqEntries(4);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(1, await(cqs[i], entries, txCq), "endpoint " + i + "'s CQ has its message");
            assertEquals(100 + i, entries.tag[0]);
            assertEquals(i, in.getInt(8 * (int)entries.opContext[0]));
        }
        // then messages first (unexpected, held by the shared context), receives posted after
        for (int i = 2; i >= 0; i--)
        {
            out.putInt(0, 10 + i);
            assertEquals(0, sender.tsend(out, 0, 4, 0, addr[i], 200 + i, 0));
        }
        for (int i = 0; i < 3; i++)
        {
            cqs[i].read(entries, 0);
        }
        for (int k = 3; k < 6; k++)
        {
            assertEquals(0, srx.trecv(in, 8 * k, 8, 0, Addresses.FI_ADDR_UNSPEC, 0, -1L, k));
        }
        for (int i = 0; i < 3; i++)
        {
            assertEquals(1, await(cqs[i], entries, txCq), "endpoint " + i + "'s CQ has its second message");
            assertEquals(200 + i, entries.tag[0]);
            assertEquals(10 + i, in.getInt(8 * (int)entries.opContext[0]));
        }
        assertEquals(-Errno.FI_ENOSYS, srx.send(out, 0, 4, 0, addr[0], 0), "a receive context does not send");
        assertEquals(Errno.FI_EBUSY, assertThrows(FabricException.class, srx::close).errno());
    }

    @Test
    void shouldRefuseMisusedSharedReceiveContexts()
    {
        final Endpoint srx = keep(domain.srxContext(null, 0));
        final Endpoint plain = keep(domain.endpoint(info, 0));
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class, () -> plain.bind(srx, 0)).errno());
        final Endpoint shared = keep(domain.endpoint(sharedInfo(false, true), 0));
        final CompletionQueue cq = cq();
        shared.bind(av, 0);
        shared.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class, shared::enable).errno(),
            "rx_ctx_cnt FI_SHARED_CONTEXT without a bound shared receive context");
        shared.bind(srx, 0);
        shared.enable();
        final AddressVector otherAv = keep(domain.avOpen(new AvAttr(), 0));
        final Endpoint second = keep(domain.endpoint(sharedInfo(false, true), 0));
        second.bind(otherAv, 0);
        second.bind(cq(), Flags.FI_TRANSMIT | Flags.FI_RECV);
        second.bind(srx, 0);
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class, second::enable).errno(),
            "endpoints sharing a receive context share their AV");
    }
}
