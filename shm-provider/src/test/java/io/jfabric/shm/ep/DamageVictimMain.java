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
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.EqAttr;
import io.jfabric.EqErrEntry;
import io.jfabric.Errno;
import io.jfabric.EventQueue;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Msg;
import io.jfabric.Versions;
import io.jfabric.shm.cq.ShmCompletionQueue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One of two peers of {@code OutsideLaneDamageTest}, in a second JVM (run with Agrona's bounds checks off, as
 * {@code bin/jfabric} runs): opens the named domain, an endpoint with a CQ and an EQ (also bound to the domain),
 * prints {@code result addr=<address> slot=<slot> ring=<its CQ's ring number>}, reads the peer's address from its
 * standard input, and then runs until killed:
 * <ul>
 *   <li>{@code sender}: sends 64-byte messages numbered 0, 1, 2... with FI_DELIVERY_COMPLETE (each acknowledged
 *   through this endpoint's transmit ring), one at a time: the next when the last completed (or failed);</li>
 *   <li>{@code receiver}: keeps 16 receives posted; a message whose number is not above the last one's is a
 *   duplicate.</li>
 * </ul>
 * Both read their CQ and EQ all the time and print every 100 ms {@code result done=D failed=F zeroErr=Z dups=U
 * eq=E refused=R}: operations completed well, completed in error, error entries with err 0, duplicates, EQ error
 * events, calls refused with an errno other than FI_EAGAIN. An exception out of any call ends the process with a
 * stack trace (the test sees it).
 */
public final class DamageVictimMain
{
    private static final int SIZE = 64;
    private static final int POSTED = 16;

    private DamageVictimMain()
    {
    }

    /**
     * @param args domain name, role (sender or receiver).
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
        final Domain domain = fabric.domain(info, 0);
        final EventQueue eq = fabric.eqOpen(new EqAttr().size(1024), 0);
        domain.bind(eq, 0);
        final AddressVector av = domain.avOpen(new AvAttr(), 0);
        final CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
        final ShmEndpoint ep = (ShmEndpoint)domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.bind(eq, 0);
        ep.enable();
        System.out.println("result addr=" + new String(ep.getname(), StandardCharsets.US_ASCII) + " slot=" +
            ep.slot() + " ring=" + ((ShmCompletionQueue)cq).ringNumber());
        System.out.flush();
        final String peerAddr = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        final long[] peer = new long[1];
        av.insert(new String[] { peerAddr.trim() }, 1, peer, 0, 0);
        new Victim(ep, cq, eq, "sender".equals(args[1]), peer[0]).run();
    }

    /** The loop of either role. */
    private static final class Victim
    {
        private final ShmEndpoint ep;
        private final CompletionQueue cq;
        private final EventQueue eq;
        private final boolean sender;
        private final long peer;
        private final CqEntries entries = new CqEntries(16);
        private final CqErrEntry err = new CqErrEntry();
        private final EqErrEntry eqErr = new EqErrEntry();
        private final ByteBuffer[] buffers = new ByteBuffer[POSTED];
        private final boolean[] unposted = new boolean[POSTED];
        private final ByteBuffer src = ByteBuffer.allocateDirect(SIZE);
        private final Msg msg = new Msg(1);
        private long done;
        private long failed;
        private long zeroErr;
        private long dups;
        private long phantoms;
        private long eqEvents;
        private long refused;
        private long next;
        private final java.util.BitSet seen = new java.util.BitSet();
        private boolean inFlight;

        Victim(final ShmEndpoint ep, final CompletionQueue cq, final EventQueue eq, final boolean sender,
            final long peer)
        {
            this.ep = ep;
            this.cq = cq;
            this.eq = eq;
            this.sender = sender;
            this.peer = peer;
            msg.iov[0] = src;
            msg.iovLength[0] = SIZE;
            msg.iovCount = 1;
            msg.addr = peer;
        }

        void run()
        {
            if (!sender)
            {
                for (int i = 0; i < POSTED; i++)
                {
                    buffers[i] = ByteBuffer.allocateDirect(SIZE);
                    unposted[i] = true;
                }
            }
            long reportAt = System.nanoTime();
            while (true)
            {
                if (sender && !inFlight)
                {
                    send();
                }
                final int n = cq.read(entries, entries.capacity());
                for (int i = 0; i < n; i++)
                {
                    completed((int)entries.opContext[i]);
                }
                if (n == -Errno.FI_EAVAIL && cq.readErr(err, 0) == 1)
                {
                    failed++;
                    zeroErr += err.err == 0 ? 1 : 0;
                    if (err.flags == 0)
                    {
                        lost(); // about no operation: the CQ lost completions (or one of its records was damaged)
                    }
                    else if (sender)
                    {
                        inFlight = false; // a send that failed is done with
                    }
                    else if (err.opContext >= 0 && err.opContext < POSTED)
                    {
                        unposted[(int)err.opContext] = true;
                    }
                }
                for (int i = 0; i < POSTED; i++)
                {
                    if (unposted[i])
                    {
                        post(i);
                    }
                }
                while (eq.readErr(eqErr, 0) == 1)
                {
                    eqEvents++;
                }
                final long now = System.nanoTime();
                if (now - reportAt >= 100_000_000L)
                {
                    reportAt = now;
                    System.out.println("result done=" + done + " failed=" + failed + " zeroErr=" + zeroErr + " dups=" +
                        dups + " phantoms=" + phantoms + " eq=" + eqEvents + " refused=" + refused);
                    System.out.flush();
                }
            }
        }

        /**
         * Completions were lost: which is not known, so a sender sends on, and a receiver cancels its receives (those
         * still posted complete with FI_ECANCELED and are posted again) and posts again those it cannot cancel.
         */
        private void lost()
        {
            if (sender)
            {
                inFlight = false;
                return;
            }
            for (int i = 0; i < POSTED; i++)
            {
                if (!unposted[i] && ep.cancel(i) == -Errno.FI_ENOENT)
                {
                    unposted[i] = true;
                }
            }
        }

        private void send()
        {
            src.putLong(0, next);
            msg.context = 1;
            final long rc = ep.sendmsg(msg, Flags.FI_DELIVERY_COMPLETE);
            if (rc == 0)
            {
                next++;
                inFlight = true;
            }
            else if (rc != -Errno.FI_EAGAIN)
            {
                refused++;
            }
        }

        private void completed(final int context)
        {
            done++;
            if (sender)
            {
                inFlight = false;
                return;
            }
            final long n = buffers[context].getLong(0);
            if (n < 0 || n > Integer.MAX_VALUE)
            {
                phantoms++; // an entry whose context a damaged completion record changed: no message placed there
            }
            else if (seen.get((int)n))
            {
                dups++;
            }
            else
            {
                seen.set((int)n);
            }
            unposted[context] = true;
        }

        private void post(final int i)
        {
            buffers[i].putLong(0, -1);
            final long rc = ep.recv(buffers[i], 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, i);
            if (rc == 0)
            {
                unposted[i] = false;
            }
            else if (rc != -Errno.FI_EAGAIN)
            {
                refused++;
            }
        }
    }
}
