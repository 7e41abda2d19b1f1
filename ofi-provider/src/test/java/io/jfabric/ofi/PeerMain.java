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

import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.MemoryRegion;
import io.jfabric.Msg;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The second JVM of the two-JVM tests over tcp;ofi_rxm on 127.0.0.1. Prints {@code ADDR <hex>} (its getname), reads
 * the test's {@code ADDR <hex>} from stdin, then runs one mode:
 * <ul>
 *   <li>{@code echo}: every message (untagged or tagged, up to 16 MiB) is sent back with the same bytes, tag and
 *   remote CQ data; an empty message with data 0xDEAD ends it.</li>
 *   <li>{@code multirecv n}: one FI_MULTI_RECV buffer of 64 KiB takes n messages; each completion printed as
 *   {@code MR <len> <bufOffset> <flags hex> <first byte>}.</li>
 *   <li>{@code target}: a 16 MiB direct buffer registered for remote read and write ({@code MR <key> <base>}), the CQ
 *   progressed and printed ({@code CQ <flags hex> <len> <data>}), and stdin commands {@code DUMP off len},
 *   {@code SET off hex}, {@code EXIT}.</li>
 *   <li>{@code stream}: receives forever and sends 64 KiB messages back as fast as it can, for the SIGKILL test.</li>
 * </ul>
 * Any failure prints {@code FAIL <reason>} and exits 1.
 */
public final class PeerMain
{
    private static final int BIG = 16 << 20;

    private PeerMain()
    {
    }

    /**
     * @param args the mode and its arguments.
     */
    public static void main(final String[] args) throws Exception
    {
        final BlockingQueue<String> commands = new LinkedBlockingQueue<>();
        final Thread stdin = new Thread(() ->
        {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = r.readLine()) != null)
                {
                    commands.add(line);
                }
            }
            catch (final Exception ignored)
            {
                // test ended
            }
            commands.add("EOF");
        }, "stdin");
        stdin.setDaemon(true);
        stdin.start();
        try (Tcp.Node node = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED).enable())
        {
            System.out.println("ADDR " + HexFormat.of().formatHex(node.ep.getname()));
            final String addr = commands.take();
            if (!addr.startsWith("ADDR "))
            {
                throw new IllegalStateException("expected ADDR, got " + addr);
            }
            final long peer = node.insert(HexFormat.of().parseHex(addr.substring(5)));
            switch (args[0])
            {
                case "echo" -> echo(node, peer);
                case "multirecv" -> multiRecv(node, Integer.parseInt(args[1]));
                case "target" -> target(node, commands);
                case "stream" -> stream(node, peer);
                default -> throw new IllegalArgumentException(args[0]);
            }
        }
        catch (final Throwable t)
        {
            System.out.println("FAIL " + t);
            t.printStackTrace();
            System.exit(1);
        }
        System.out.println("BYE");
        System.exit(0);
    }

    private static void echo(final Tcp.Node node, final long peer)
    {
        final ByteBuffer untagged = ByteBuffer.allocateDirect(BIG);
        final ByteBuffer tagged = ByteBuffer.allocateDirect(BIG);
        final ByteBuffer out = ByteBuffer.allocateDirect(BIG);
        check(node.ep.recv(untagged, 0, BIG, 0, -1L, 1), "recv");
        check(node.ep.trecv(tagged, 0, BIG, 0, -1L, 0, -1L, 2), "trecv");
        System.out.println("READY");
        while (true)
        {
            final int n = read(node);
            for (int i = 0; i < n; i++)
            {
                final long ctx = node.entries.opContext[i];
                if (ctx != 1 && ctx != 2)
                {
                    continue;
                }
                final long flags = node.entries.flags[i];
                final int len = (int)node.entries.len[i];
                final long data = node.entries.data[i];
                final long tag = node.entries.tag[i];
                final boolean withData = (flags & Flags.FI_REMOTE_CQ_DATA) != 0;
                if (len == 0 && withData && data == 0xDEAD)
                {
                    cancel(node, ctx == 1 ? 2 : 1);
                    return;
                }
                final ByteBuffer in = ctx == 1 ? untagged : tagged;
                out.put(0, in, 0, len);
                long rc;
                do
                {
                    rc = ctx == 1 ?
                        (withData ? node.ep.senddata(out, 0, len, 0, data, peer, 3) :
                            node.ep.send(out, 0, len, 0, peer, 3)) :
                        (withData ? node.ep.tsenddata(out, 0, len, 0, data, peer, tag, 3) :
                            node.ep.tsend(out, 0, len, 0, peer, tag, 3));
                    if (rc == -Errno.FI_EAGAIN)
                    {
                        read(node);
                    }
                }
                while (rc == -Errno.FI_EAGAIN);
                check(rc, "echo send");
                waitFor(node, 3);
                check(ctx == 1 ? node.ep.recv(untagged, 0, BIG, 0, -1L, 1) :
                    node.ep.trecv(tagged, 0, BIG, 0, -1L, 0, -1L, 2), "repost");
            }
        }
    }

    private static void multiRecv(final Tcp.Node node, final int n)
    {
        final ByteBuffer buf = ByteBuffer.allocateDirect(64 << 10);
        final Msg msg = new Msg(1).set(buf, 0, 64 << 10, 0);
        msg.context = 9;
        check(node.ep.recvmsg(msg, Flags.FI_MULTI_RECV), "recvmsg FI_MULTI_RECV");
        System.out.println("READY");
        int got = 0;
        while (got < n)
        {
            final int r = read(node);
            for (int i = 0; i < r; i++)
            {
                final long len = node.entries.len[i];
                final long off = node.entries.bufOffset[i];
                if ((node.entries.flags[i] & Flags.FI_RECV) != 0 && len > 0)
                {
                    got++;
                }
                System.out.println("MR " + len + " " + off + " " + Long.toHexString(node.entries.flags[i]) + " " +
                    (len > 0 ? buf.get((int)off) : -1) + " " + node.entries.opContext[i]);
            }
        }
        cancel(node, 9);
    }

    private static void target(final Tcp.Node node, final BlockingQueue<String> commands) throws Exception
    {
        final ByteBuffer region = ByteBuffer.allocateDirect(BIG);
        final MemoryRegion mr = node.domain.mrReg(region, Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE, 0, 7, 0, 0);
        node.extra.add(mr);
        System.out.println("MR " + mr.key() + " " + mr.baseAddress());
        while (true)
        {
            final int n = node.cq.read(node.entries, 16);
            for (int i = 0; i < n; i++)
            {
                System.out.println("CQ " + Long.toHexString(node.entries.flags[i]) + " " + node.entries.len[i] + " " +
                    node.entries.data[i]);
            }
            final String command = commands.poll();
            if (command == null)
            {
                continue;
            }
            final String[] words = command.split(" ");
            switch (words[0])
            {
                case "DUMP" ->
                {
                    final byte[] bytes = new byte[Integer.parseInt(words[2])];
                    region.get(Integer.parseInt(words[1]), bytes);
                    System.out.println("DATA " + HexFormat.of().formatHex(bytes));
                }
                case "SET" ->
                {
                    region.put(Integer.parseInt(words[1]), HexFormat.of().parseHex(words[2]));
                    System.out.println("OK");
                }
                case "EXIT", "EOF" ->
                {
                    return;
                }
                default -> throw new IllegalArgumentException(command);
            }
        }
    }

    private static void stream(final Tcp.Node node, final long peer)
    {
        final ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
        final ByteBuffer out = ByteBuffer.allocateDirect(64 << 10);
        for (int i = 0; i < 8; i++)
        {
            check(node.ep.recv(in, 0, 1 << 20, 0, -1L, 100 + i), "recv");
        }
        System.out.println("STREAMING");
        long sent = 0;
        while (true)
        {
            final long rc = node.ep.send(out, 0, 64 << 10, 0, peer, 5);
            if (rc == 0)
            {
                sent++;
            }
            final int n = node.cq.read(node.entries, 16);
            for (int i = 0; i < n; i++)
            {
                if (node.entries.opContext[i] >= 100)
                {
                    check(node.ep.recv(in, 0, 1 << 20, 0, -1L, node.entries.opContext[i]), "repost");
                }
            }
            if (n == -Errno.FI_EAVAIL)
            {
                node.cq.readErr(new CqErrEntry(), 0);
            }
            if (sent == 64)
            {
                System.out.println("SENT 64");
            }
        }
    }

    /** Cancel a posted receive and read its FI_ECANCELED completion, so that the endpoint may close. */
    static void cancel(final Tcp.Node node, final long context)
    {
        check(node.ep.cancel(context), "cancel");
        final CqErrEntry err = new CqErrEntry(256);
        while (true)
        {
            final int rc = node.cq.read(node.entries, 16);
            if (rc == -Errno.FI_EAVAIL)
            {
                node.cq.readErr(err, 0);
                if (err.opContext == context && err.err == Errno.FI_ECANCELED)
                {
                    return;
                }
                throw new IllegalStateException("completion error " + err);
            }
        }
    }

    private static int read(final Tcp.Node node)
    {
        final int rc = node.cq.read(node.entries, 16);
        if (rc == -Errno.FI_EAVAIL)
        {
            final CqErrEntry err = new CqErrEntry(256);
            node.cq.readErr(err, 0);
            throw new IllegalStateException("completion error " + err);
        }
        return Math.max(rc, 0);
    }

    private static void waitFor(final Tcp.Node node, final long context)
    {
        while (true)
        {
            final int n = read(node);
            for (int i = 0; i < n; i++)
            {
                if (node.entries.opContext[i] == context)
                {
                    return;
                }
            }
        }
    }

    private static void check(final long rc, final String what)
    {
        if (rc != 0)
        {
            throw new IllegalStateException(what + ": " + Errno.name((int)-rc));
        }
    }
}
