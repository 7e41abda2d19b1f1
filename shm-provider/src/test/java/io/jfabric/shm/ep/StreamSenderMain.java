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

import io.jfabric.CompletionQueue;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.Endpoint;
import io.jfabric.Errno;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The sender of {@code DamagedLiveLaneTest}, in a second JVM: opens the named domain and an endpoint, prints
 * {@code result addr=<its address>}, then sends messages of SIZE bytes to the address given for ever, as fast as
 * they are taken: message n carries n in its first and its last 8 bytes and {@link Pattern} bytes of seed n
 * between them (the pattern depends on the seed's low 16 bits only: the second copy of n makes a change anywhere in
 * n show, as one changed byte cannot change both copies). A send
 * refused with -FI_EAGAIN is retried after a CQ read; one refused otherwise is counted and the next one sent. Every
 * 100 ms it prints {@code result sent=N refused=R last=RC}. Runs until killed.
 */
public final class StreamSenderMain
{
    private StreamSenderMain()
    {
    }

    /**
     * @param args domain name, receiver address, message size.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final ChildEndpoint child = new ChildEndpoint(args[0], args[1]);
        final Endpoint ep = child.ep;
        final CompletionQueue cq = child.cq;
        System.out.println("result addr=" + new String(ep.getname(), StandardCharsets.US_ASCII));
        System.out.flush();
        final long[] dest = { child.dest };
        final int size = Integer.parseInt(args[2]);
        final ByteBuffer src = ByteBuffer.allocateDirect(size);
        final CqEntries entries = new CqEntries(64);
        final CqErrEntry err = new CqErrEntry();
        long sent = 0;
        long refused = 0;
        long last = 0;
        long reportAt = System.nanoTime();
        for (long n = 0; ; n++)
        {
            Pattern.fill(src, 8, size - 16, n);
            src.putLong(0, n);
            src.putLong(size - 8, n);
            while ((last = ep.send(src, 0, size, 0, dest[0], n)) == -Errno.FI_EAGAIN)
            {
                drain(cq, entries, err);
                reportAt = report(reportAt, sent, refused, last);
            }
            if (last == 0)
            {
                sent++;
            }
            else
            {
                refused++;
            }
            drain(cq, entries, err);
            reportAt = report(reportAt, sent, refused, last);
        }
    }

    private static void drain(final CompletionQueue cq, final CqEntries entries, final CqErrEntry err)
    {
        if (cq.read(entries, entries.capacity()) == -Errno.FI_EAVAIL)
        {
            cq.readErr(err, 0);
        }
    }

    private static long report(final long reportAt, final long sent, final long refused, final long last)
    {
        final long now = System.nanoTime();
        if (now - reportAt < 100_000_000L)
        {
            return reportAt;
        }
        System.out.println("result sent=" + sent + " refused=" + refused + " last=" + last);
        System.out.flush();
        return now;
    }
}
