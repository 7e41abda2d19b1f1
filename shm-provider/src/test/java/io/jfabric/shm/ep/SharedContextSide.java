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
import io.jfabric.CqErrEntry;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Fid;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.testsupport.OpenedObjects;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One process's side of fabtests' {@code shared_ctx} (functional/shared_ctx.c with common/shared.c), used by
 * {@link SharedContextTwoJvmTest} in both JVMs: {@link #ENDPOINTS} endpoints opened with
 * {@code ep_attr.tx_ctx_cnt = rx_ctx_cnt = FI_SHARED_CONTEXT}, each binding the AV, one shared transmit context,
 * one shared receive context, one transmit CQ ({@code FI_TRANSMIT}) and one receive CQ ({@code FI_RECV}), all
 * shared, as {@code ft_enable_ep} binds them; receives are posted to the shared receive context; endpoint {@code i}
 * sends to the peer's endpoint {@code i}.
 * <p>
 * How the domain and the shared contexts are opened is the {@link Mode}. Test thread only.
 */
final class SharedContextSide implements AutoCloseable
{
    /** Endpoints per side: fabtests' default ep_cnt. */
    static final int ENDPOINTS = 4;
    private static final int SIZE = 16;

    /** How the domain and the shared contexts are opened. */
    enum Mode
    {
        /** fabtests: the domain from the FI_SHARED_CONTEXT info, the contexts from its tx_attr and rx_attr. */
        FABTESTS(true, true),
        /** The domain from the FI_SHARED_CONTEXT info, the contexts with null attributes. */
        SHARED_DOMAIN(true, false),
        /** The domain from a plain info, the contexts from its tx_attr and rx_attr. */
        INFO_ATTRS(false, true);

        final boolean sharedDomain;
        final boolean infoAttrs;

        Mode(final boolean sharedDomain, final boolean infoAttrs)
        {
            this.sharedDomain = sharedDomain;
            this.infoAttrs = infoAttrs;
        }
    }

    private final OpenedObjects opened = new OpenedObjects();
    private final Endpoint[] endpoints = new Endpoint[ENDPOINTS];
    private final long[] peers = new long[ENDPOINTS];
    private final AddressVector av;
    private final Endpoint srx;
    private final CompletionQueue txCq;
    private final CompletionQueue rxCq;
    private final ByteBuffer rxBuf = ByteBuffer.allocateDirect(SIZE * ENDPOINTS);
    private final ByteBuffer txBuf = ByteBuffer.allocateDirect(SIZE);

    SharedContextSide(final ShmProvider provider, final String domainName, final Mode mode)
    {
        final Info hints = new Info();
        hints.domainAttr().name(domainName);
        hints.caps(Flags.FI_MSG);
        final Info plain = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        hints.epAttr().txCtxCnt(Addresses.FI_SHARED_CONTEXT).rxCtxCnt(Addresses.FI_SHARED_CONTEXT);
        final Info shared = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        if (shared.epAttr().txCtxCnt() != Addresses.FI_SHARED_CONTEXT ||
            shared.epAttr().rxCtxCnt() != Addresses.FI_SHARED_CONTEXT)
        {
            throw new IllegalStateException("getinfo dropped FI_SHARED_CONTEXT: " + shared.epAttr());
        }
        final Info domainInfo = mode.sharedDomain ? shared : plain;
        final Fabric fabric = opened.keep(provider.fabric(domainInfo.fabricAttr(), 0));
        final Domain domain = opened.keep(fabric.domain(domainInfo, 0));
        av = opened.keep(domain.avOpen(new AvAttr().count(ENDPOINTS), 0));
        txCq = opened.keep(domain.cqOpen(new CqAttr(), 0));
        rxCq = opened.keep(domain.cqOpen(new CqAttr(), 0));
        final Fid stx = opened.keep(domain.stxContext(mode.infoAttrs ? domainInfo.txAttr() : null, 0));
        srx = opened.keep(domain.srxContext(mode.infoAttrs ? domainInfo.rxAttr() : null, 0));
        for (int i = 0; i < ENDPOINTS; i++)
        {
            final Endpoint ep = opened.keep(domain.endpoint(shared, 0));
            ep.bind(av, 0);
            ep.bind(stx, 0);
            ep.bind(srx, 0);
            ep.bind(txCq, Flags.FI_TRANSMIT);
            ep.bind(rxCq, Flags.FI_RECV);
            ep.enable();
            endpoints[i] = ep;
        }
    }

    /** @return the endpoints' addresses, joined with '|'. */
    String addresses()
    {
        final StringBuilder sb = new StringBuilder();
        for (final Endpoint ep : endpoints)
        {
            sb.append(sb.length() == 0 ? "" : "|").append(new String(ep.getname(), StandardCharsets.US_ASCII).trim());
        }
        return sb.toString();
    }

    /**
     * Insert the peer's endpoints and post one receive per endpoint to the shared receive context.
     *
     * @param addresses the peer's {@link #addresses()}.
     */
    void connect(final String addresses)
    {
        final String[] each = addresses.split("\\|");
        if (av.insert(each, each.length, peers, 0, 0) != ENDPOINTS)
        {
            throw new IllegalStateException("fi_av_insert of " + addresses);
        }
        for (int i = 0; i < ENDPOINTS; i++)
        {
            check("fi_recv on the shared receive context",
                srx.recv(rxBuf, i * SIZE, SIZE, 0, Addresses.FI_ADDR_UNSPEC, 100 + i));
        }
    }

    /**
     * Endpoint {@code i} sends "{@code side}{@code i}" to the peer's endpoint {@code i}, for each i.
     *
     * @param side the sender's name, one letter.
     */
    void sendAll(final char side)
    {
        final CqEntries entries = new CqEntries(ENDPOINTS);
        for (int i = 0; i < ENDPOINTS; i++)
        {
            txBuf.clear();
            txBuf.put(0, (byte)side).put(1, (byte)('0' + i));
            long rc;
            while ((rc = endpoints[i].send(txBuf, 0, 2, 0, peers[i], 200 + i)) == -Errno.FI_EAGAIN)
            {
                txCq.read(entries, ENDPOINTS);
                rxCq.read(new CqEntries(1), 0);
            }
            check("fi_send from endpoint " + i, rc);
        }
    }

    /**
     * Read both CQs until {@link #ENDPOINTS} sends and receives completed.
     *
     * @param timeoutMs how long to wait.
     * @return the messages received, sorted, joined with ','; "sends=N" or the error appended when not all came.
     */
    String awaitCompletions(final long timeoutMs)
    {
        final List<String> received = new ArrayList<>();
        final CqEntries entries = new CqEntries(ENDPOINTS);
        int sends = 0;
        final long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while ((received.size() < ENDPOINTS || sends < ENDPOINTS) && System.nanoTime() < deadline)
        {
            final int s = txCq.read(entries, ENDPOINTS);
            if (s > 0)
            {
                sends += s;
            }
            else if (s != -Errno.FI_EAGAIN)
            {
                return "tx cq: " + error(txCq, s);
            }
            final int r = rxCq.read(entries, ENDPOINTS);
            if (r > 0)
            {
                for (int i = 0; i < r; i++)
                {
                    final int at = (int)entries.opContext[i] - 100;
                    received.add(new String(new byte[] {rxBuf.get(at * SIZE), rxBuf.get(at * SIZE + 1)},
                        StandardCharsets.US_ASCII));
                }
            }
            else if (r != -Errno.FI_EAGAIN)
            {
                return "rx cq: " + error(rxCq, r);
            }
        }
        Collections.sort(received);
        return String.join(",", received) + (sends == ENDPOINTS ? "" : ";sends=" + sends);
    }

    private static String error(final CompletionQueue cq, final int rc)
    {
        if (rc != -Errno.FI_EAVAIL)
        {
            return Integer.toString(rc);
        }
        final CqErrEntry err = new CqErrEntry();
        cq.readErr(err, 0);
        return "error " + Errno.name(err.err);
    }

    private static void check(final String what, final long rc)
    {
        if (rc != 0)
        {
            throw new IllegalStateException(what + ": " + rc);
        }
    }

    @Override
    public void close() throws Exception
    {
        opened.close();
    }
}
