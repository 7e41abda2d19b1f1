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
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.RxAttr;
import io.jfabric.ScalableEndpoint;
import io.jfabric.Threading;
import io.jfabric.TxAttr;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scalable endpoints (fi_endpoint(3)): receive contexts a sender names with fi_rx_addr, across two JVMs; transmit
 * contexts driven by their own threads under FI_THREAD_FID; the source address of a transmit context's sends; and
 * the control-path rules (indices, FI_EBUSY, capabilities per direction).
 */
class ScalableEndpointTest
{
    private static final String DOMAIN = "sep";

    private ShmTestRoot root;
    private Fabric fabric;
    private Domain domain;
    private final List<AutoCloseable> opened = new ArrayList<>();

    private Info open(final Threading threading)
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN).threading(threading);
        hints.epAttr().txCtxCnt(4).rxCtxCnt(4);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        return info;
    }

    private <T extends AutoCloseable> T keep(final T object)
    {
        opened.add(0, object);
        return object;
    }

    @AfterEach
    void closeAll() throws Exception
    {
        try
        {
            // close what nothing else holds first, until all are closed (contexts, then endpoints, then CQs, AV)
            final List<AutoCloseable> left = new ArrayList<>(opened);
            FabricException last = null;
            while (!left.isEmpty())
            {
                final int before = left.size();
                for (final java.util.Iterator<AutoCloseable> it = left.iterator(); it.hasNext(); )
                {
                    try
                    {
                        it.next().close();
                        it.remove();
                    }
                    catch (final FabricException ex)
                    {
                        last = ex;
                    }
                }
                if (left.size() == before)
                {
                    throw last;
                }
            }
        }
        finally
        {
            TwoJvmEndpointTestBase.closeDomain(domain, fabric, root);
        }
    }

    private CompletionQueue cq()
    {
        return keep(domain.cqOpen(new CqAttr().format(CqFormat.TAGGED), 0));
    }

    private static Info plain(final Info info)
    {
        final Info copy = info.copy();
        copy.epAttr().txCtxCnt(1).rxCtxCnt(1);
        return copy;
    }

    @Test
    void shouldDeliverEveryMessageToTheReceiveContextItsRxAddrNamesAcrossTwoJvms() throws Exception
    {
        final Info info = open(Threading.SAFE);
        final AddressVector av = keep(domain.avOpen(new AvAttr(), 0));
        final ScalableEndpoint sep = keep(domain.scalableEndpoint(info, 0));
        assertEquals(4, sep.info().epAttr().rxCtxCnt());
        sep.bind(av, 0);
        final int contexts = 4;
        final int perContext = 2_000;
        final Endpoint[] rx = new Endpoint[contexts];
        final CompletionQueue[] cqs = new CompletionQueue[contexts];
        final ByteBuffer[] bufs = new ByteBuffer[contexts];
        for (int c = 0; c < contexts; c++)
        {
            rx[c] = keep(sep.rxContext(c, null, 0));
            assertEquals(FidClass.RX_CTX, rx[c].fidClass());
            cqs[c] = cq();
            rx[c].bind(cqs[c], Flags.FI_RECV);
            rx[c].enable();
            bufs[c] = ByteBuffer.allocateDirect(8 * 64);
            for (int i = 0; i < 64; i++)
            {
                assertEquals(0, rx[c].recv(bufs[c], 8 * i, 8, 0, Addresses.FI_ADDR_UNSPEC, i));
            }
        }
        sep.enable();
        final String address = new String(sep.getname(), StandardCharsets.US_ASCII).trim();
        assertArrayEquals(sep.getname(), rx[2].getname(), "a context has its scalable endpoint's address");

        final ChildJvm sender = ChildJvm.start(ScalablePeerMain.class, List.of("jfabric.shm.dir=" + root.dir()),
            DOMAIN, address, "2", Integer.toString(contexts), Integer.toString(perContext));
        final int[] received = new int[contexts];
        final CqEntries entries = new CqEntries(16);
        final long deadline = System.nanoTime() + 120_000_000_000L;
        int total = 0;
        while (total < contexts * perContext && System.nanoTime() < deadline)
        {
            for (int c = 0; c < contexts; c++)
            {
                final int n = cqs[c].read(entries, 16);
                for (int i = 0; i < n; i++)
                {
                    final int slot = (int)entries.opContext[i];
                    final int addressedTo = bufs[c].getInt(8 * slot);
                    final int seq = bufs[c].getInt(8 * slot + 4);
                    assertEquals(c, addressedTo, "a message addressed to context " + addressedTo + " landed in " + c);
                    assertEquals(received[c], seq, "context " + c + " received out of order");
                    received[c]++;
                    total++;
                    assertEquals(0, rx[c].recv(bufs[c], 8 * slot, 8, 0, Addresses.FI_ADDR_UNSPEC, slot));
                }
            }
        }
        assertEquals("" + contexts * perContext, sender.awaitResult(60).get("sent"));
        for (int c = 0; c < contexts; c++)
        {
            assertEquals(perContext, received[c], "messages received by context " + c);
        }
    }

    @Test
    void shouldSendFromFourTransmitContextsOnFourThreadsUnderThreadFid() throws Exception
    {
        final Info info = open(Threading.FID);
        final AddressVector av = keep(domain.avOpen(new AvAttr(), 0));
        final ScalableEndpoint sep = keep(domain.scalableEndpoint(info, 0));
        sep.bind(av, 0);
        final Endpoint receiver = keep(domain.endpoint(plain(info), 0));
        final CompletionQueue rxCq = cq();
        receiver.bind(av, 0);
        receiver.bind(rxCq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        receiver.enable();
        final long[] to = new long[1];
        assertEquals(1, av.insert(new String[] {new String(receiver.getname(), StandardCharsets.US_ASCII).trim()},
            1, to, 0, 0));
        final int threads = 4;
        final int perThread = 20_000;
        final Endpoint[] tx = new Endpoint[threads];
        final CompletionQueue[] txCqs = new CompletionQueue[threads];
        for (int t = 0; t < threads; t++)
        {
            tx[t] = keep(sep.txContext(t, null, 0));
            assertEquals(FidClass.TX_CTX, tx[t].fidClass());
            txCqs[t] = cq();
            tx[t].bind(txCqs[t], Flags.FI_TRANSMIT);
            tx[t].enable();
        }
        sep.enable();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            final int id = t;
            final Thread thread = new Thread(() ->
            {
                try
                {
                    final ByteBuffer buf = ByteBuffer.allocateDirect(8);
                    final CqEntries done = new CqEntries(64);
                    for (int seq = 0; seq < perThread; seq++)
                    {
                        buf.putInt(0, id).putInt(4, seq);
                        long rc;
                        while ((rc = tx[id].tsend(buf, 0, 8, 0, to[0], id, seq)) == -Errno.FI_EAGAIN)
                        {
                            txCqs[id].read(done, 64);
                        }
                        if (rc != 0)
                        {
                            throw new IllegalStateException("tsend: " + rc);
                        }
                        txCqs[id].read(done, 64);
                    }
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                }
            }, "tx-context-" + t);
            senders.add(thread);
            thread.start();
        }
        final int[] next = new int[threads];
        final ByteBuffer rbuf = ByteBuffer.allocateDirect(8 * 32);
        for (int i = 0; i < 32; i++)
        {
            assertEquals(0, receiver.trecv(rbuf, 8 * i, 8, 0, Addresses.FI_ADDR_UNSPEC, 0, -1L, i));
        }
        final CqEntries entries = new CqEntries(32);
        int total = 0;
        final long deadline = System.nanoTime() + 120_000_000_000L;
        while (total < threads * perThread && System.nanoTime() < deadline && failure.get() == null)
        {
            final int n = rxCq.read(entries, 32);
            for (int i = 0; i < n; i++)
            {
                if ((entries.flags[i] & Flags.FI_RECV) == 0)
                {
                    continue;
                }
                final int slot = (int)entries.opContext[i];
                final int id = rbuf.getInt(8 * slot);
                assertEquals(id, (int)entries.tag[i]);
                assertEquals(next[id], rbuf.getInt(8 * slot + 4), "transmit context " + id + " out of order");
                next[id]++;
                total++;
                assertEquals(0, receiver.trecv(rbuf, 8 * slot, 8, 0, Addresses.FI_ADDR_UNSPEC, 0, -1L, slot));
            }
        }
        for (final Thread thread : senders)
        {
            thread.join(60_000);
        }
        assertNull(failure.get());
        for (int t = 0; t < threads; t++)
        {
            assertEquals(perThread, next[t], "messages of transmit context " + t);
        }
    }

    @Test
    void shouldReportTheScalableEndpointAsTheSourceOfItsTransmitContextsSends()
    {
        final Info info = open(Threading.SAFE);
        info.caps(info.caps() | Flags.FI_SOURCE);
        final AddressVector av = keep(domain.avOpen(new AvAttr(), 0));
        final ScalableEndpoint sep = keep(domain.scalableEndpoint(info, 0));
        sep.bind(av, 0);
        final Endpoint tx = keep(sep.txContext(3, new TxAttr(), 0));
        final CompletionQueue txCq = cq();
        tx.bind(txCq, Flags.FI_TRANSMIT);
        tx.enable();
        sep.enable();
        final Endpoint receiver = keep(domain.endpoint(plain(info), 0));
        final CompletionQueue rxCq = cq();
        receiver.bind(av, 0);
        receiver.bind(rxCq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        receiver.enable();
        final long[] addrs = new long[2];
        assertEquals(2, av.insert(new String[] {
            new String(receiver.getname(), StandardCharsets.US_ASCII).trim(),
            new String(sep.getname(), StandardCharsets.US_ASCII).trim()}, 2, addrs, 0, 0));
        final ByteBuffer buf = ByteBuffer.allocateDirect(8);
        assertEquals(0, receiver.recv(buf, 0, 8, 0, Addresses.FI_ADDR_UNSPEC, 7));
        assertEquals(0, tx.send(buf, 0, 8, 0, addrs[0], 1));
        final CqEntries entries = new CqEntries(4);
        int n;
        while ((n = rxCq.readFrom(entries, 4)) == -Errno.FI_EAGAIN)
        {
            txCq.read(entries, 4);
        }
        assertEquals(1, n);
        assertEquals(7, entries.opContext[0]);
        assertEquals(addrs[1], entries.srcAddr[0], "the source is the scalable endpoint's fi_addr");
    }

    @Test
    void shouldKeepSendsToAReceiveContextWaitingUntilItIsEnabledAndRefuseAnIndexItDoesNotHave()
    {
        final Info info = open(Threading.SAFE);
        final AddressVector av = keep(domain.avOpen(new AvAttr().rxCtxBits(8), 0));
        final ScalableEndpoint sep = keep(domain.scalableEndpoint(info, 0));
        sep.bind(av, 0);
        final Endpoint rx1 = keep(sep.rxContext(1, new RxAttr(), 0));
        final CompletionQueue rxCq = cq();
        rx1.bind(rxCq, Flags.FI_RECV);
        sep.enable();
        final Endpoint sender = keep(domain.endpoint(plain(info), 0));
        final CompletionQueue txCq = cq();
        sender.bind(av, 0);
        sender.bind(txCq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        sender.enable();
        final long[] addr = new long[1];
        assertEquals(1, av.insert(new String[] {new String(sep.getname(), StandardCharsets.US_ASCII).trim()}, 1,
            addr, 0, 0));
        final ByteBuffer buf = ByteBuffer.allocateDirect(8);
        final long toContext1 = AddressVector.rxAddr(addr[0], 1, 8);
        assertEquals(-Errno.FI_EAGAIN, sender.send(buf, 0, 8, 0, toContext1, 0), "context 1 is not enabled yet");
        assertEquals(-Errno.FI_EINVAL, sender.send(buf, 0, 8, 0, AddressVector.rxAddr(addr[0], 4, 8), 0),
            "the endpoint has 4 receive contexts");
        assertEquals(-Errno.FI_EINVAL, sender.send(buf, 0, 8, 0, AddressVector.groupAddr(addr[0], 1), 0),
            "shm offers no peer groups: a group id names no address");
        rx1.enable();
        assertEquals(0, rx1.recv(buf, 0, 8, 0, Addresses.FI_ADDR_UNSPEC, 5));
        assertEquals(0, sender.send(buf, 0, 8, 0, toContext1, 0));
        final CqEntries entries = new CqEntries(4);
        int n;
        while ((n = rxCq.read(entries, 4)) == -Errno.FI_EAGAIN)
        {
            txCq.read(entries, 4);
        }
        assertEquals(1, n);
        assertEquals(5, entries.opContext[0]);
        assertEquals(-Errno.FI_EAGAIN, sender.send(buf, 0, 8, 0, addr[0], 0), "context 0 was never opened");

        // a damaged receive context count (another process's word) must not make a sender read past the entries
        final io.jfabric.shm.domain.ShmDomain shm = (io.jfabric.shm.domain.ShmDomain)domain;
        final int countOffset = io.jfabric.shm.region.SlotDescriptor.rxContextCountOffset(shm.region().geometry(),
            ((io.jfabric.shm.ep.ShmScalableEndpoint)sep).slot());
        shm.region().buffer().putIntVolatile(countOffset, 1_000_000);
        assertEquals(-Errno.FI_EINVAL, sender.send(buf, 0, 8, 0, AddressVector.rxAddr(addr[0], 200, 8), 0),
            "an index past the entries, whatever the count word says");
        shm.region().buffer().putIntVolatile(countOffset, 16);
    }

    @Test
    void shouldRefuseBadContextCallsWithLibfabricErrnos()
    {
        final Info info = open(Threading.SAFE);
        final AddressVector av = keep(domain.avOpen(new AvAttr(), 0));
        final ScalableEndpoint sep = domain.scalableEndpoint(info, 0);
        assertEquals(Errno.FI_ENOAV, assertThrows(FabricException.class, () -> sep.txContext(0, null, 0)).errno());
        sep.bind(av, 0);
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class, () -> sep.txContext(4, null, 0)).errno());
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class, () -> sep.rxContext(-1, null, 0)).errno());
        final Endpoint tx = sep.txContext(0, null, 0);
        assertEquals(Errno.FI_EBUSY, assertThrows(FabricException.class, () -> sep.txContext(0, null, 0)).errno());
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class,
            () -> sep.rxContext(0, new RxAttr().caps(Flags.FI_RECV | Flags.FI_HMEM), 0)).errno());
        final RxAttr asked = new RxAttr();
        final Endpoint rx = sep.rxContext(0, asked, 0);
        assertEquals(Flags.FI_RECV, asked.caps() & (Flags.FI_RECV | Flags.FI_SEND), "the caps in force come back");
        final CompletionQueue cq = cq();
        tx.bind(cq, Flags.FI_TRANSMIT);
        tx.enable();
        rx.bind(cq, Flags.FI_RECV);
        rx.enable();
        final ByteBuffer buf = ByteBuffer.allocateDirect(8);
        assertEquals(-Errno.FI_ENOSYS, tx.recv(buf, 0, 8, 0, Addresses.FI_ADDR_UNSPEC, 0), "a transmit context");
        assertEquals(-Errno.FI_ENOSYS, rx.send(buf, 0, 8, 0, 0, 0), "a receive context");
        assertEquals(Errno.FI_EBUSY, assertThrows(FabricException.class, sep::close).errno());
        tx.close();
        rx.close();
        sep.close();
        final Info two = info.copy();
        two.epAttr().txCtxCnt(2);
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class, () -> domain.endpoint(two, 0)).errno());
        final Info many = info.copy();
        many.epAttr().rxCtxCnt(info.domainAttr().maxEpRxCtx() + 1);
        assertEquals(Errno.FI_EINVAL,
            assertThrows(FabricException.class, () -> domain.scalableEndpoint(many, 0)).errno());
        assertTrue(info.domainAttr().maxEpRxCtx() >= 4 && info.domainAttr().maxEpTxCtx() >= 4);
        assertTrue((info.caps() & Flags.FI_NAMED_RX_CTX) != 0);
    }

    @Test
    void shouldMatchContextCountsUpToSixteenAndReportThemOnOutput()
    {
        root = new ShmTestRoot();
        // 33 slots: a scalable endpoint of 16 + 16 contexts and its address slot (ScalableEndpointLimitsTest has
        // the default configuration's maxima)
        final ShmProvider provider = root.provider(key -> "ep.count".equals(key) ? "33" : null);
        final Info hints = new Info();
        hints.epAttr().txCtxCnt(16).rxCtxCnt(3);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        assertEquals(16, info.epAttr().txCtxCnt());
        assertEquals(3, info.epAttr().rxCtxCnt());
        assertEquals(16, info.domainAttr().maxEpTxCtx());
        assertEquals(16, info.domainAttr().maxEpRxCtx());
        hints.epAttr().rxCtxCnt(17);
        assertEquals(Errno.FI_ENODATA, assertThrows(FabricException.class,
            () -> provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints)).errno());
        final Info none = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, new Info()).get(0);
        assertEquals(1, none.epAttr().txCtxCnt(), "without a hint, an endpoint's one context of each kind");
        final Info large = root.provider(key -> "ep.count".equals(key) ? "64" : null)
            .getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, new Info()).get(0);
        assertEquals(16, large.domainAttr().maxEpTxCtx(), "at most the 16 context entries of an address slot");
        assertEquals(63, large.domainAttr().maxEpSrxCtx());
    }
}
