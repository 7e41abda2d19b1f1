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
package io.jfabric.shm.region;

import io.jfabric.CompletionQueue;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.Endpoint;
import io.jfabric.Errno;

import java.nio.ByteBuffer;

/**
 * The ping-pong both sides of {@link RegionTruncationTest} run until the domain fails under them: post a receive,
 * inject (the initiator first), read the CQ until the receive completes, again; it stops at the first data-path
 * call that answers anything but success or {@code -FI_EAGAIN}, and says which call and what it answered. An
 * {@link InternalError} (the JVM's form of SIGBUS) is deliberately not caught: it must never reach here.
 */
final class TruncationPing
{
    /** How a ping-pong ended. */
    static final class Outcome
    {
        final String call;
        final long rc;
        final long rounds;
        /** The err of the CQ's error entry when the read said -FI_EAVAIL, else 0. */
        final int cqErr;

        Outcome(final String call, final long rc, final long rounds, final int cqErr)
        {
            this.call = call;
            this.rc = rc;
            this.rounds = rounds;
            this.cqErr = cqErr;
        }

        @Override
        public String toString()
        {
            return "call=" + call + " rc=" + rc + " rounds=" + rounds + " cqerr=" + cqErr;
        }
    }

    private TruncationPing()
    {
    }

    /**
     * @param ep        the enabled endpoint.
     * @param cq        its CQ (transmit and receive; inject makes no transmit completion).
     * @param dest      the peer.
     * @param initiator whether this side sends first.
     * @param rounds    counts round trips, for the test to watch (element 0).
     * @return how it ended.
     */
    static Outcome run(
        final Endpoint ep, final CompletionQueue cq, final long dest, final boolean initiator, final long[] rounds)
    {
        final ByteBuffer in = ByteBuffer.allocateDirect(64);
        final ByteBuffer out = ByteBuffer.allocateDirect(64);
        final CqEntries entries = new CqEntries(4);
        boolean send = initiator;
        while (true)
        {
            final long posted = ep.recv(in, 0, 64, 0, dest, 1);
            if (posted != 0)
            {
                return new Outcome("fi_recv", posted, rounds[0], 0);
            }
            if (send)
            {
                final long sent = inject(ep, out, dest);
                if (sent != 0)
                {
                    return new Outcome("fi_inject", sent, rounds[0], 0);
                }
            }
            int n;
            while ((n = cq.read(entries, 1)) == -Errno.FI_EAGAIN)
            {
                Thread.onSpinWait();
            }
            if (n != 1)
            {
                final CqErrEntry err = new CqErrEntry();
                return new Outcome("fi_cq_read", n, rounds[0], n == -Errno.FI_EAVAIL && cq.readErr(err, 0) == 1 ?
                    err.err : 0);
            }
            rounds[0]++;
            send = true;
        }
    }

    private static long inject(final Endpoint ep, final ByteBuffer out, final long dest)
    {
        long rc;
        while ((rc = ep.inject(out, 0, 64, dest)) == -Errno.FI_EAGAIN)
        {
            Thread.onSpinWait();
        }
        return rc;
    }
}
