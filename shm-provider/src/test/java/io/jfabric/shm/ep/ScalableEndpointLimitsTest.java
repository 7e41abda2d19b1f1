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
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 27: every context limit getinfo reports can be opened in a domain with the default settings, because each
 * context and each shared receive context holds one of the domain's endpoint slots: max_ep_tx_ctx and max_ep_rx_ctx
 * together (a scalable endpoint with both at the maximum, one CQ per context as fabtests' scalable_ep binds them,
 * every context used), max_ep_srx_ctx endpoints on one shared receive context and max_ep_stx_ctx on one shared
 * transmit context; and two processes each open a scalable endpoint of 4 + 4 contexts in one default domain and send
 * to each other's receive contexts.
 */
class ScalableEndpointLimitsTest
{
    private static final String DOMAIN = "limits";

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private ShmProvider provider;
    private ChildJvm child;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        provider = root.provider();
    }

    @AfterEach
    void close() throws Exception
    {
        try
        {
            if (child != null)
            {
                child.close();
            }
            opened.close();
        }
        finally
        {
            root.close();
        }
    }

    private Info defaults()
    {
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN);
        return provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
    }

    @Test
    void shouldOpenAndUseAScalableEndpointWithTheMostContextsGetinfoReports() throws Exception
    {
        final Info info = defaults();
        final int maxTx = (int)info.domainAttr().maxEpTxCtx();
        final int maxRx = (int)info.domainAttr().maxEpRxCtx();
        assertEquals(maxTx, maxRx);
        assertTrue(maxTx >= 4, "fabtests' scalable_ep runs with at least 4 contexts: " + maxTx);
        try (ScalableSide sep = new ScalableSide(provider, DOMAIN, maxTx, maxRx))
        {
            sep.sendToEachContext(sep.address(), 'A');
            final StringBuilder expected = new StringBuilder();
            for (int i = 0; i < maxRx; i++)
            {
                expected.append(i == 0 ? "" : ",").append(String.format("%02d:A%02d", i, i));
            }
            assertEquals(expected.toString(), sep.awaitCompletions(30_000),
                "each transmit context reached the receive context of its number");
        }
        final Info above = info.copy();
        above.epAttr().txCtxCnt(maxTx + 1).rxCtxCnt(1);
        final Domain domain = domain(info);
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class,
            () -> domain.scalableEndpoint(above, 0)).errno(), "one context above the reported maximum");
        above.domainAttr().maxEpTxCtx(0).maxEpRxCtx(0);
        assertEquals(Errno.FI_ENODATA, assertThrows(FabricException.class,
            () -> provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, above)).errno(),
            "getinfo matches no tx_ctx_cnt above max_ep_tx_ctx");
    }

    @Test
    void shouldServeMaxEpSrxCtxEndpointsFromOneSharedReceiveContext()
    {
        final Info info = defaults();
        final int endpoints = (int)info.domainAttr().maxEpSrxCtx();
        assertTrue(endpoints > 1, "endpoints may share a receive context: " + endpoints);
        final Domain domain = domain(info);
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        final CompletionQueue cq = opened.keep(domain.cqOpen(new CqAttr().size(4 * endpoints).format(CqFormat.MSG), 0));
        final Endpoint srx = opened.keep(domain.srxContext(null, 0));
        final Info shared = info.copy();
        shared.epAttr().rxCtxCnt(Addresses.FI_SHARED_CONTEXT);
        final Endpoint[] eps = new Endpoint[endpoints];
        for (int i = 0; i < endpoints; i++)
        {
            eps[i] = opened.keep(domain.endpoint(shared, 0));
            eps[i].bind(av, 0);
            eps[i].bind(srx, 0);
            eps[i].bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            eps[i].enable();
        }
        assertRingOfSends(av, eps, srx, cq);
    }

    @Test
    void shouldLetMaxEpStxCtxEndpointsShareOneTransmitContext()
    {
        final Info info = defaults();
        final int endpoints = (int)info.domainAttr().maxEpStxCtx();
        assertEquals(info.domainAttr().epCnt(), endpoints);
        final Domain domain = domain(info);
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        final CompletionQueue cq = opened.keep(domain.cqOpen(new CqAttr().size(4 * endpoints).format(CqFormat.MSG), 0));
        final Fid stx = opened.keep(domain.stxContext(null, 0));
        final Info shared = info.copy();
        shared.epAttr().txCtxCnt(Addresses.FI_SHARED_CONTEXT);
        final Endpoint[] eps = new Endpoint[endpoints];
        for (int i = 0; i < endpoints; i++)
        {
            eps[i] = opened.keep(domain.endpoint(shared, 0));
            eps[i].bind(av, 0);
            eps[i].bind(stx, 0);
            eps[i].bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            eps[i].enable();
        }
        assertRingOfSends(av, eps, null, cq);
    }

    @Test
    void shouldLetTwoProcessesEachOpenAFourByFourScalableEndpointInADefaultDomain() throws Exception
    {
        child = ChildJvm.start(ScalableSidePeerMain.class, List.of("jfabric.shm.dir=" + root.dir()), DOMAIN, "4");
        final Map<String, String> ready = child.awaitResult(60);
        assertEquals(null, ready.get("error"), "the second process's scalable endpoint");
        final String childAddress = ready.get("addr");
        assertNotNull(childAddress, child.output());
        try (ScalableSide local = new ScalableSide(provider, DOMAIN, 4, 4))
        {
            child.tell("peer " + local.address());
            local.sendToEachContext(childAddress, 'A');
            assertEquals("00:B00,01:B01,02:B02,03:B03", local.awaitCompletions(30_000), "what this JVM received");
            assertEquals("00:A00,01:A01,02:A02,03:A03", child.awaitResult(60).get("got"),
                "what the second JVM received");
            child.tell("exit");
            child.awaitSuccess(60);
        }
    }

    private Domain domain(final Info info)
    {
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        return opened.keep(fabric.domain(info, 0));
    }

    /**
     * Endpoint i sends its number to endpoint i + 1 (the last to the first); every message arrives: through
     * {@code srx} when given (receives posted there), else through each endpoint's own receive.
     */
    private static void assertRingOfSends(
        final AddressVector av, final Endpoint[] eps, final Endpoint srx, final CompletionQueue cq)
    {
        final int n = eps.length;
        final long[] addr = new long[n];
        final String[] names = new String[n];
        for (int i = 0; i < n; i++)
        {
            names[i] = new String(eps[i].getname(), StandardCharsets.US_ASCII).trim();
        }
        assertEquals(n, av.insert(names, n, addr, 0, 0));
        final ByteBuffer in = ByteBuffer.allocateDirect(4 * n);
        final ByteBuffer out = ByteBuffer.allocateDirect(4 * n);
        for (int i = 0; i < n; i++)
        {
            final Endpoint receiver = srx != null ? srx : eps[i];
            assertEquals(0, receiver.recv(in, 4 * i, 4, 0, Addresses.FI_ADDR_UNSPEC, 1000 + i));
        }
        for (int i = 0; i < n; i++)
        {
            out.putInt(4 * i, i);
            assertEquals(0, eps[i].send(out, 4 * i, 4, 0, addr[(i + 1) % n], i));
        }
        final CqEntries entries = new CqEntries(n);
        final boolean[] seen = new boolean[n];
        int receives = 0;
        int sends = 0;
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while ((receives < n || sends < n) && System.nanoTime() < deadline)
        {
            final int got = cq.read(entries, n);
            for (int k = 0; k < got; k++)
            {
                if ((entries.flags[k] & Flags.FI_RECV) != 0)
                {
                    final int sender = in.getInt(4 * (int)(entries.opContext[k] - 1000));
                    assertTrue(!seen[sender], "message of endpoint " + sender + " twice");
                    seen[sender] = true;
                    receives++;
                }
                else
                {
                    sends++;
                }
            }
            assertTrue(got > 0 || got == -Errno.FI_EAGAIN, "fi_cq_read: " + got);
        }
        assertEquals(n, receives, "messages received of " + n + " endpoints");
        assertEquals(n, sends, "sends completed");
    }
}
