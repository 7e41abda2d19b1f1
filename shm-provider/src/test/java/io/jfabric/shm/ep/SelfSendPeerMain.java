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
import io.jfabric.CompletionQueue;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.Endpoint;
import io.jfabric.Errno;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * An endpoint that talks to itself, as the README's quick start does, in a second JVM of {@code SelfSendKillTest}:
 * opens the named domain and an endpoint (in the slot of the address given, when one is), inserts its own address
 * into its AV, prints {@code result addr=<its address>} and obeys its standard input:
 * <ul>
 *   <li>{@code claim}: claim a 64-byte record in its own lane (zero copy) and leave it open, as a process that
 *   crashes before it commits would; print {@code result claimed=RC};</li>
 *   <li>{@code stream SIZE}: send itself SIZE-byte messages for ever (a receive posted for each, the CQ read until
 *   both completions); print {@code result streaming=1} once the first one arrived. The test SIGKILLs it meanwhile,
 *   mostly in the middle of a record, as sending is mostly copying;</li>
 *   <li>{@code inject COUNT SIZE}: post COUNT receives, inject COUNT messages to itself and read the CQ for up to 10 s
 *   or until all arrived; print {@code result delivered=N injected=M errors=E last=RC} (M the injects that returned 0,
 *   E the receives that completed in error, RC the last inject's return);</li>
 *   <li>{@code exit}: end.</li>
 * </ul>
 */
public final class SelfSendPeerMain
{
    private SelfSendPeerMain()
    {
    }

    /**
     * @param args domain name, then optionally the address whose slot to take.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final PeerEndpoint peer = PeerEndpoint.open(args);
        final AddressVector av = peer.av;
        final CompletionQueue cq = peer.cq;
        final Endpoint ep = peer.ep;
        final String addr = peer.address();
        final long[] self = new long[1];
        av.insert(new String[] { addr }, 1, self, 0, 0);
        System.out.println("result addr=" + addr);
        System.out.flush();

        final CqEntries entries = new CqEntries(16);
        final CqErrEntry err = new CqErrEntry();
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null)
        {
            final String[] words = line.trim().split(" ");
            if ("claim".equals(words[0]))
            {
                final long rc = ep.claim(self[0], 64, 0, 0, 0);
                if (rc == 0)
                {
                    ep.messageClaim().buffer().putLong(ep.messageClaim().offset(), 99);
                }
                System.out.println("result claimed=" + rc);
                System.out.flush();
            }
            else if ("stream".equals(words[0]))
            {
                stream(ep, cq, self[0], Integer.parseInt(words[1]), entries, err);
            }
            else if ("inject".equals(words[0]))
            {
                inject(ep, cq, self[0], Integer.parseInt(words[1]), Integer.parseInt(words[2]), entries, err);
            }
            else if ("exit".equals(words[0]))
            {
                return;
            }
        }
    }

    private static void stream(
        final Endpoint ep, final CompletionQueue cq, final long self, final int size, final CqEntries entries,
        final CqErrEntry err)
    {
        final ByteBuffer src = ByteBuffer.allocateDirect(size);
        final ByteBuffer dst = ByteBuffer.allocateDirect(size);
        for (long i = 0; ; i++)
        {
            check(ep.recv(dst, 0, size, 0, Addresses.FI_ADDR_UNSPEC, 1), "recv");
            src.putLong(0, i);
            long rc;
            while ((rc = ep.send(src, 0, size, 0, self, 2)) == -Errno.FI_EAGAIN)
            {
                readCounting(cq, entries, err);
            }
            check(rc, "send");
            int done = 0;
            while (done < 2)
            {
                done += readCounting(cq, entries, err);
            }
            if (i == 0)
            {
                System.out.println("result streaming=1");
                System.out.flush();
            }
        }
    }

    private static void inject(
        final Endpoint ep, final CompletionQueue cq, final long self, final int count, final int size,
        final CqEntries entries, final CqErrEntry err)
    {
        final ByteBuffer dst = ByteBuffer.allocateDirect(count * size);
        for (int i = 0; i < count; i++)
        {
            check(ep.recv(dst, i * size, size, 0, Addresses.FI_ADDR_UNSPEC, 100 + i), "recv");
        }
        final ByteBuffer src = ByteBuffer.allocateDirect(size);
        int injected = 0;
        long last = 0;
        int delivered = 0;
        int errors = 0;
        final long deadline = System.nanoTime() + 10_000_000_000L;
        for (int i = 0; i < count; i++)
        {
            src.putLong(0, i);
            while ((last = ep.inject(src, 0, size, self)) == -Errno.FI_EAGAIN && System.nanoTime() < deadline)
            {
                delivered += readCounting(cq, entries, err);
            }
            if (last == 0)
            {
                injected++;
            }
        }
        while (delivered + errors < injected && System.nanoTime() < deadline)
        {
            final int n = cq.read(entries, entries.capacity());
            if (n > 0)
            {
                delivered += n;
            }
            else if (n == -Errno.FI_EAVAIL && cq.readErr(err, 0) == 1)
            {
                errors++;
            }
        }
        System.out.println("result delivered=" + delivered + " injected=" + injected + " errors=" + errors +
            " last=" + last);
        System.out.flush();
    }

    private static int readCounting(final CompletionQueue cq, final CqEntries entries, final CqErrEntry err)
    {
        final int n = cq.read(entries, entries.capacity());
        if (n == -Errno.FI_EAVAIL)
        {
            cq.readErr(err, 0);
            throw new IllegalStateException("error completion " + Errno.name(err.err));
        }
        return Math.max(n, 0);
    }

    private static void check(final long rc, final String what)
    {
        if (rc != 0)
        {
            throw new IllegalStateException(what + " returned " + rc);
        }
    }
}
