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
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.ScalableEndpoint;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.testsupport.OpenedObjects;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One process's scalable endpoint set up as fabtests' {@code scalable_ep} sets it up (functional/scalable_ep.c): an
 * AV with enough rx_ctx_bits for the receive contexts, bound to the scalable endpoint; each transmit context with a
 * CQ of its own bound FI_TRANSMIT and each receive context with one bound FI_RECV, enabled, then the scalable
 * endpoint; one receive posted per receive context. Used by {@link ScalableEndpointLimitsTest} in both JVMs.
 * <p>
 * Test thread only.
 */
final class ScalableSide implements AutoCloseable
{
    private static final int SIZE = 8;

    private final OpenedObjects opened = new OpenedObjects();
    private final AddressVector av;
    private final ScalableEndpoint sep;
    private final Endpoint[] tx;
    private final Endpoint[] rx;
    private final CompletionQueue[] txCq;
    private final CompletionQueue[] rxCq;
    private final int bits;
    private final ByteBuffer rxBuf;
    private final ByteBuffer txBuf = ByteBuffer.allocateDirect(SIZE);

    /**
     * @param provider   the provider.
     * @param domainName the named domain.
     * @param txCount    transmit contexts.
     * @param rxCount    receive contexts.
     */
    ScalableSide(final ShmProvider provider, final String domainName, final int txCount, final int rxCount)
    {
        final Info hints = new Info();
        hints.domainAttr().name(domainName);
        hints.epAttr().txCtxCnt(txCount).rxCtxCnt(rxCount);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        final Domain domain = opened.keep(fabric.domain(info, 0));
        bits = 32 - Integer.numberOfLeadingZeros(rxCount);
        av = opened.keep(domain.avOpen(new AvAttr().rxCtxBits(bits), 0));
        sep = opened.keep(domain.scalableEndpoint(info, 0));
        sep.bind(av, 0);
        tx = new Endpoint[txCount];
        rx = new Endpoint[rxCount];
        txCq = new CompletionQueue[txCount];
        rxCq = new CompletionQueue[rxCount];
        rxBuf = ByteBuffer.allocateDirect(SIZE * rxCount);
        for (int i = 0; i < txCount; i++)
        {
            txCq[i] = opened.keep(domain.cqOpen(new CqAttr(), 0));
            tx[i] = opened.keep(sep.txContext(i, null, 0));
            tx[i].bind(txCq[i], Flags.FI_TRANSMIT);
            tx[i].enable();
        }
        for (int i = 0; i < rxCount; i++)
        {
            rxCq[i] = opened.keep(domain.cqOpen(new CqAttr(), 0));
            rx[i] = opened.keep(sep.rxContext(i, null, 0));
            rx[i].bind(rxCq[i], Flags.FI_RECV);
            rx[i].enable();
        }
        sep.enable();
        for (int i = 0; i < rxCount; i++)
        {
            check("fi_recv on receive context " + i, rx[i].recv(rxBuf, i * SIZE, SIZE, 0, Addresses.FI_ADDR_UNSPEC, i));
        }
    }

    /** @return the scalable endpoint's address. */
    String address()
    {
        return new String(sep.getname(), StandardCharsets.US_ASCII).trim();
    }

    /**
     * Transmit context {@code i} sends "{@code side}{@code i}" to receive context {@code i} of the scalable endpoint
     * at {@code address}, which has as many receive contexts as this one has transmit contexts.
     *
     * @param address the peer's address.
     * @param side    the sender's name, one letter.
     */
    void sendToEachContext(final String address, final char side)
    {
        final long[] peer = new long[1];
        if (av.insert(new String[] {address}, 1, peer, 0, 0) != 1)
        {
            throw new IllegalStateException("fi_av_insert of " + address);
        }
        final CqEntries entries = new CqEntries(1);
        for (int i = 0; i < tx.length; i++)
        {
            txBuf.put(0, (byte)side).put(1, (byte)('0' + i / 10)).put(2, (byte)('0' + i % 10));
            final long dest = AddressVector.rxAddr(peer[0], i, bits);
            long rc;
            while ((rc = tx[i].send(txBuf, 0, 3, 0, dest, 100 + i)) == -Errno.FI_EAGAIN)
            {
                txCq[i].read(entries, 1);
            }
            check("fi_send from transmit context " + i, rc);
        }
    }

    /**
     * Read every CQ until each receive context received its message and each transmit context's send completed.
     *
     * @param timeoutMs how long to wait.
     * @return "c:m" per receive context c that received m, sorted, joined with ','; ";sends=N" appended when not all
     * sends completed.
     */
    String awaitCompletions(final long timeoutMs)
    {
        final List<String> received = new ArrayList<>();
        final boolean[] got = new boolean[rx.length];
        final boolean[] sent = new boolean[tx.length];
        int sends = 0;
        final CqEntries entries = new CqEntries(1);
        final long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while ((received.size() < rx.length || sends < tx.length) && System.nanoTime() < deadline)
        {
            for (int i = 0; i < rx.length; i++)
            {
                if (!got[i] && rxCq[i].read(entries, 1) == 1)
                {
                    got[i] = true;
                    final byte[] m = new byte[3];
                    rxBuf.get(i * SIZE, m);
                    received.add(String.format("%02d", i) + ":" + new String(m, StandardCharsets.US_ASCII));
                }
            }
            for (int i = 0; i < tx.length; i++)
            {
                if (!sent[i] && txCq[i].read(entries, 1) == 1)
                {
                    sent[i] = true;
                    sends++;
                }
            }
        }
        Collections.sort(received);
        return String.join(",", received) + (sends == tx.length ? "" : ";sends=" + sends);
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
