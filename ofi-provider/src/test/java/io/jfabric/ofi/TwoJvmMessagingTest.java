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
package io.jfabric.ofi;

import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Msg;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Messages between two JVMs over tcp;ofi_rxm on 127.0.0.1: every send form of fi_msg(3) and fi_tagged(3) (send,
 * inject, senddata, injectdata, sendv, sendmsg with FI_REMOTE_CQ_DATA, and their tagged twins) from 1 byte to
 * 16 MiB (inject up to inject_size) to a {@link PeerMain} {@code echo} peer, which sends each back; the bytes, the
 * length, the tag and the remote CQ data must come back unchanged.
 */
@NeedsLibfabric
class TwoJvmMessagingTest
{
    private static final int[] SIZES = {1, 2, 63, 64, 65, 4096, 65_536, 1 << 20, 16 << 20};
    private static Tcp.Node node;
    private static PeerJvm peer;
    private static long to;
    private static final ByteBuffer OUT = ByteBuffer.allocateDirect(16 << 20);
    private static final ByteBuffer IN = ByteBuffer.allocateDirect(16 << 20);
    private static final ByteBuffer HEAP = ByteBuffer.allocate(64);

    /** Every send form under test. */
    enum Form
    {
        SEND, INJECT, SENDDATA, INJECTDATA, SENDV, SENDMSG, TSEND, TINJECT, TSENDDATA, TINJECTDATA, TSENDV, TSENDMSG,
        INJECT_HEAP, TINJECT_HEAP
    }

    @BeforeAll
    static void start() throws Exception
    {
        node = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED).enable();
        peer = new PeerJvm(PeerMain.class.getName(), "echo");
        to = node.insert(peer.address());
        peer.sendAddress(node.ep.getname());
        peer.expect("READY", 60_000);
    }

    @AfterAll
    static void stop() throws Exception
    {
        if (peer != null)
        {
            long rc;
            while ((rc = node.ep.senddata(OUT, 0, 0, 0, 0xDEAD, to, 99)) == -Errno.FI_EAGAIN)
            {
                node.cq.read(node.entries, 1);
            }
            assertEquals(0, rc);
            node.await(1, 30_000);
            peer.expect("BYE", 30_000);
            assertEquals(0, peer.waitFor(30_000));
            peer.close();
        }
        if (node != null)
        {
            node.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Form.class)
    void shouldEchoEveryFormAtEverySize(final Form form) throws Exception
    {
        final long injectSize = node.info.txAttr().injectSize();
        int checked = 0;
        for (final int size : SIZES)
        {
            final boolean inject = form.name().contains("INJECT");
            if (inject && size > injectSize)
            {
                continue;
            }
            roundTrip(form, size);
            checked++;
        }
        assertTrue(checked >= 2, form + ": " + checked + " sizes");
    }

    @Test
    void shouldRefuseHeapBuffersWhereLibfabricKeepsTheAddress()
    {
        assertEquals(-Errno.FI_EINVAL, node.ep.send(HEAP, 0, 8, 0, to, 1));
        assertEquals(-Errno.FI_EINVAL, node.ep.recv(HEAP, 0, 8, 0, -1L, 1));
        assertEquals(-Errno.FI_EINVAL, node.ep.tsend(HEAP, 0, 8, 0, to, 1, 1));
        assertEquals(-Errno.FI_EINVAL, node.ep.recv(IN.asReadOnlyBuffer(), 0, 8, 0, -1L, 1));
        assertEquals(-Errno.FI_EINVAL, node.ep.send(OUT, OUT.capacity() - 4, 8, 0, to, 1));
        assertEquals(-Errno.FI_EINVAL, node.ep.send(OUT, -1, 8, 0, to, 1));
        assertEquals(0, ((io.jfabric.ofi.ep.OfiEndpoint)node.ep).inFlightTotal());
    }

    private static void roundTrip(final Form form, final int size) throws Exception
    {
        final long tag = 0x5A5A0000L + size;
        final long data = 0xC0FFEE00L + size;
        final ByteBuffer src = form.name().endsWith("HEAP") ? ByteBuffer.allocate(size) : OUT;
        for (int i = 0; i < size; i++)
        {
            src.put(i, (byte)(i * 31 + size));
        }
        final boolean tagged = form.name().startsWith("T");
        final boolean withData = form.name().contains("DATA") || form == Form.SENDMSG || form == Form.TSENDMSG;
        assertEquals(0, tagged ? node.ep.trecv(IN, 0, IN.capacity(), 0, -1L, tag, 0, 20) :
            node.ep.recv(IN, 0, IN.capacity(), 0, -1L, 20));
        final Msg msg = new Msg(3);
        final int a = size / 3;
        final int b = size / 3;
        msg.set(src, 0, a, 0);
        msg.iov[1] = src;
        msg.iovOffset[1] = a;
        msg.iovLength[1] = b;
        msg.iov[2] = src;
        msg.iovOffset[2] = a + b;
        msg.iovLength[2] = size - a - b;
        msg.iovCount = 3;
        msg.addr = to;
        msg.context = 10;
        msg.data = data;
        msg.tag = tag;
        long rc;
        do
        {
            rc = switch (form)
            {
                case SEND -> node.ep.send(src, 0, size, 0, to, 10);
                case INJECT, INJECT_HEAP -> node.ep.inject(src, 0, size, to);
                case SENDDATA -> node.ep.senddata(src, 0, size, 0, data, to, 10);
                case INJECTDATA -> node.ep.injectdata(src, 0, size, data, to);
                case SENDV -> node.ep.sendv(msg, to, 10);
                case SENDMSG -> node.ep.sendmsg(msg, Flags.FI_REMOTE_CQ_DATA | Flags.FI_COMPLETION);
                case TSEND -> node.ep.tsend(src, 0, size, 0, to, tag, 10);
                case TINJECT, TINJECT_HEAP -> node.ep.tinject(src, 0, size, to, tag);
                case TSENDDATA -> node.ep.tsenddata(src, 0, size, 0, data, to, tag, 10);
                case TINJECTDATA -> node.ep.tinjectdata(src, 0, size, data, to, tag);
                case TSENDV -> node.ep.tsendv(msg, to, tag, 10);
                case TSENDMSG -> node.ep.tsendmsg(msg, Flags.FI_REMOTE_CQ_DATA | Flags.FI_COMPLETION);
            };
            if (rc == -Errno.FI_EAGAIN)
            {
                node.cq.read(node.entries, 1);
            }
        }
        while (rc == -Errno.FI_EAGAIN);
        assertEquals(0, rc, form + " " + size + ": " + Errno.name((int)-rc));
        final boolean completes = !form.name().contains("INJECT");
        boolean sent = !completes;
        boolean received = false;
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (!(sent && received))
        {
            final int n = node.cq.read(node.entries, 8);
            assertTrue(n > 0 || n == -Errno.FI_EAGAIN, () -> form + " " + size + ": cq " + Errno.name(-n));
            for (int i = 0; i < n; i++)
            {
                if (node.entries.opContext[i] == 10)
                {
                    sent = true;
                }
                else if (node.entries.opContext[i] == 20)
                {
                    received = true;
                    assertEquals(size, node.entries.len[i], form + " " + size + " len");
                    assertEquals(0, node.entries.bufOffset[i], form + " " + size + " buf");
                    if (tagged)
                    {
                        assertEquals(tag, node.entries.tag[i], form + " tag");
                        assertTrue((node.entries.flags[i] & Flags.FI_TAGGED) != 0, form + " FI_TAGGED");
                    }
                    assertEquals(withData, (node.entries.flags[i] & Flags.FI_REMOTE_CQ_DATA) != 0, form + " data flag");
                    if (withData)
                    {
                        assertEquals(data, node.entries.data[i], form + " data");
                    }
                }
            }
            assertTrue(System.nanoTime() < deadline, form + " " + size + ": no echo within 60 s");
        }
        for (int i = 0; i < size; i++)
        {
            if (IN.get(i) != src.get(i))
            {
                throw new AssertionError(form + " " + size + ": byte " + i + " differs");
            }
        }
    }
}
