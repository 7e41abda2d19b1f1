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
import java.util.ArrayList;
import java.util.List;

/**
 * The receiving endpoint of the fault tests, in a second JVM: opens the named domain (settings from the system
 * properties the test passes), an endpoint (in a given slot when an address is given, as fi_setname takes it) and
 * prints {@code result addr=<its address>}. It then reads its CQ only when told, so until then it never drains its
 * lanes, and obeys its standard input:
 * <ul>
 *   <li>{@code recv CONTEXT SIZE}: post an untagged receive of SIZE bytes;</li>
 *   <li>{@code poll MILLIS}: read the CQ for that long, printing {@code result ctx=C len=L err=E first=F} for each
 *   completion (err 0 for a success; first: the first 8 bytes placed, as a long) and then
 *   {@code result polled=N};</li>
 *   <li>{@code send ADDRESS FIRST COUNT SIZE}: insert ADDRESS into its AV and send COUNT messages of SIZE bytes,
 *   whose first 8 bytes are FIRST, FIRST + 1, ... (each retried on FI_EAGAIN for up to 10 s), then print
 *   {@code result sent=N last=RC};</li>
 *   <li>{@code claim ADDRESS VALUE}: insert ADDRESS into its AV, claim a 64-byte record in its lane (zero copy,
 *   retried on FI_EAGAIN for up to 10 s), write VALUE into the record's first 8 bytes and leave the claim open, as
 *   a process that crashes before it commits would; print {@code result claimed=RC}. Later sends to ADDRESS go into
 *   the lane behind the open record;</li>
 *   <li>{@code exit}: end.</li>
 * </ul>
 * The test SIGKILLs or SIGSTOPs it whenever it wants.
 */
public final class FaultPeerMain
{
    private FaultPeerMain()
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
        System.out.println("result addr=" + peer.address());
        System.out.flush();

        final List<ByteBuffer> buffers = new ArrayList<>();
        final CqEntries entries = new CqEntries(1);
        final CqErrEntry err = new CqErrEntry();
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null)
        {
            final String[] words = line.trim().split(" ");
            if ("recv".equals(words[0]))
            {
                final int context = Integer.parseInt(words[1]);
                final ByteBuffer buf = ByteBuffer.allocateDirect(Integer.parseInt(words[2]));
                while (buffers.size() <= context)
                {
                    buffers.add(null);
                }
                buffers.set(context, buf);
                final long rc = ep.recv(buf, 0, buf.capacity(), 0, Addresses.FI_ADDR_UNSPEC, context);
                if (rc != 0)
                {
                    throw new IllegalStateException("recv returned " + rc);
                }
            }
            else if ("poll".equals(words[0]))
            {
                final long deadline = System.nanoTime() + Long.parseLong(words[1]) * 1_000_000L;
                int polled = 0;
                while (System.nanoTime() < deadline)
                {
                    final int n = cq.read(entries, 1);
                    if (n == 1)
                    {
                        report((int)entries.opContext[0], entries.len[0], 0, buffers);
                        polled++;
                    }
                    else if (n == -Errno.FI_EAVAIL && cq.readErr(err, 0) == 1)
                    {
                        report((int)err.opContext, err.len, err.err, buffers);
                        polled++;
                    }
                }
                System.out.println("result polled=" + polled);
                System.out.flush();
            }
            else if ("send".equals(words[0]))
            {
                final long[] dest = new long[1];
                av.insert(new String[] { words[1] }, 1, dest, 0, 0);
                final long first = Long.parseLong(words[2]);
                final int count = Integer.parseInt(words[3]);
                final int size = Integer.parseInt(words[4]);
                final ByteBuffer src = ByteBuffer.allocateDirect(Math.max(8, size));
                int sent = 0;
                long rc = 0;
                for (int i = 0; i < count; i++)
                {
                    src.putLong(0, first + i);
                    final long deadline = System.nanoTime() + 10_000_000_000L;
                    while ((rc = ep.send(src, 0, size, 0, dest[0], first + i)) == -Errno.FI_EAGAIN &&
                        System.nanoTime() < deadline)
                    {
                        cq.read(entries, 1);
                    }
                    if (rc != 0)
                    {
                        break;
                    }
                    sent++;
                }
                System.out.println("result sent=" + sent + " last=" + rc);
                System.out.flush();
            }
            else if ("claim".equals(words[0]))
            {
                final long[] dest = new long[1];
                av.insert(new String[] { words[1] }, 1, dest, 0, 0);
                final long deadline = System.nanoTime() + 10_000_000_000L;
                long rc;
                while ((rc = ep.claim(dest[0], 64, 0, 0, 0)) == -Errno.FI_EAGAIN && System.nanoTime() < deadline)
                {
                    cq.read(entries, 1);
                }
                if (rc == 0)
                {
                    ep.messageClaim().buffer().putLong(ep.messageClaim().offset(), Long.parseLong(words[2]));
                }
                System.out.println("result claimed=" + rc);
                System.out.flush();
            }
            else if ("exit".equals(words[0]))
            {
                return;
            }
        }
    }

    private static void report(final int context, final long len, final int errno, final List<ByteBuffer> buffers)
    {
        final ByteBuffer buf = context < buffers.size() ? buffers.get(context) : null;
        final long first = buf != null && buf.capacity() >= 8 && len >= 8 ? buf.getLong(0) : -1;
        System.out.println("result ctx=" + context + " len=" + len + " err=" + errno + " first=" + first);
        System.out.flush();
    }
}
