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
import io.jfabric.DomainAttr;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Msg;
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

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 27: a receive posted with FI_AUTH_KEY and an authorization key handle as its source (fi_recvmsg,
 * fi_trecvmsg on an FI_DIRECTED_RECV endpoint) takes messages only from the senders the AV holds within that key
 * (fi_av(3)). The receiver, in this JVM, holds keys alpha and beta and two senders of a second JVM, one inserted
 * with alpha and one with beta, each sending with its key. Before the fix the key handle was taken as a sender's
 * fi_addr: the alpha receive matched nobody and alpha's message went to a later unrestricted receive.
 */
class AuthKeyReceiveTest
{
    private static final String DOMAIN = "keyrecv";

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private ChildJvm senders;
    private Endpoint receiver;
    private CompletionQueue cq;
    private AddressVector av;
    private long alpha;
    private long beta;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(4 * 16);

    @BeforeEach
    void open() throws Exception
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN).authKeySize(DomainAttr.FI_AV_AUTH_KEY);
        hints.caps(Flags.FI_MSG | Flags.FI_TAGGED | Flags.FI_DIRECTED_RECV | Flags.FI_SOURCE);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        final Domain domain = opened.keep(fabric.domain(info, 0));
        av = opened.keep(domain.avOpen(new AvAttr(), 0));
        alpha = av.insertAuthKey("alpha".getBytes(StandardCharsets.US_ASCII), 0);
        beta = av.insertAuthKey("beta".getBytes(StandardCharsets.US_ASCII), 0);
        cq = opened.keep(domain.cqOpen(new CqAttr().format(CqFormat.TAGGED), 0));
        receiver = opened.keep(domain.endpoint(info, 0));
        receiver.bind(av, 0);
        receiver.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        receiver.enable();
        senders = opened.keep(ChildJvm.start(AuthKeySendersMain.class, List.of("jfabric.shm.dir=" + root.dir()),
            DOMAIN, new String(receiver.getname(), StandardCharsets.US_ASCII).trim(), "alpha,beta"));
        final String[] addrs = senders.awaitResult(60).get("addrs").split(",");
        final long[] out = {alpha};
        assertEquals(1, av.insert(new String[] {addrs[0]}, 1, out, Flags.FI_AUTH_KEY, 0));
        out[0] = beta;
        assertEquals(1, av.insert(new String[] {addrs[1]}, 1, out, Flags.FI_AUTH_KEY, 0));
    }

    @AfterEach
    void close() throws Exception
    {
        try
        {
            if (senders != null)
            {
                senders.tell("exit");
                senders.awaitSuccess(60);
            }
            opened.close();
        }
        finally
        {
            root.close();
        }
    }

    @Test
    void shouldGiveAReceiveRestrictedToAKeyOnlyTheMessagesOfSendersWithinThatKey() throws Exception
    {
        assertEquals(0, receiver.recvmsg(msg(0, alpha, 1), Flags.FI_AUTH_KEY), "a receive for alpha's senders");
        assertEquals(0, receiver.recv(buf, 16, 16, 0, Addresses.FI_ADDR_UNSPEC, 2), "a receive for anyone");

        send(1, "from-beta", false);
        assertEquals(2, awaitOne(), "beta's sender is not within alpha: the unrestricted receive takes it");
        send(0, "from-alpha", false);
        assertEquals(1, awaitOne(), "alpha's sender reaches the receive restricted to alpha");
        assertEquals("from-alpha", text(0, "from-alpha".length()));
        assertEquals("from-beta", text(16, "from-beta".length()));
    }

    @Test
    void shouldMatchATaggedReceiveRestrictedToAKeyAgainstStoredMessagesToo() throws Exception
    {
        send(0, "alpha-early", true);
        send(1, "beta-early", true);
        awaitArrival();
        final Msg restricted = msg(0, beta, 3);
        restricted.tag = 7;
        assertEquals(0, receiver.trecvmsg(restricted, Flags.FI_AUTH_KEY), "a tagged receive for beta's senders");
        assertEquals(3, awaitOne(), "beta's stored message, not the older one of alpha's sender");
        assertEquals("beta-early", text(0, "beta-early".length()));
        assertEquals(-Errno.FI_EINVAL, receiver.trecvmsg(msg(16, 12345, 4), Flags.FI_AUTH_KEY),
            "a source that names no key");
    }

    private Msg msg(final int offset, final long src, final long context)
    {
        final Msg m = new Msg(1).set(buf, offset, 16, 0);
        m.addr = src;
        m.context = context;
        return m;
    }

    private void send(final int sender, final String text, final boolean tagged) throws Exception
    {
        senders.tell("send " + sender + " " + text + (tagged ? " tagged" : ""));
        assertEquals("0", senders.awaitResult(60).get("sent"), "the send of sender " + sender);
    }

    /** @return the context of the next completion; fails on an error entry or none within 10 s. */
    private long awaitOne()
    {
        final CqEntries entries = new CqEntries(1);
        final long deadline = System.nanoTime() + 10_000_000_000L;
        int n;
        while ((n = cq.read(entries, 1)) == -Errno.FI_EAGAIN && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
        assertEquals(1, n, "a receive completed");
        return entries.opContext[0];
    }

    /** Progress until both messages sent so far are in the receiver's store: nothing completes meanwhile. */
    private void awaitArrival() throws InterruptedException
    {
        final CqEntries entries = new CqEntries(1);
        for (int i = 0; i < 50; i++)
        {
            assertEquals(-Errno.FI_EAGAIN, cq.read(entries, 1), "no receive is posted");
            Thread.sleep(2);
        }
    }

    private String text(final int offset, final int length)
    {
        final byte[] b = new byte[length];
        buf.get(offset, b);
        return new String(b, StandardCharsets.US_ASCII);
    }
}
