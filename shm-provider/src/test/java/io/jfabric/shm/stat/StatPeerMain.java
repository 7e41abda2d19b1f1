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
package io.jfabric.shm.stat;

import io.jfabric.AddressVector;
import io.jfabric.Addresses;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The second process of a live domain for the stat tests: opens an endpoint in the domain (root and sizes from
 * {@code jfabric.shm.*} system properties), sends {@link #PARKED} messages of {@link #PARKED_LENGTH} bytes to the
 * address given (whose owner never reads them, so they stay in its lane), prints {@code result addr=<its address>},
 * then sends to itself and receives, one message a millisecond, until killed, so its send counts keep moving.
 * <p>
 * Arguments: the domain's name, the peer's address.
 */
public final class StatPeerMain
{
    /** Messages sent to the peer and left in its lane. */
    public static final int PARKED = 3;
    /** Their length. */
    public static final int PARKED_LENGTH = 100;

    private StatPeerMain()
    {
    }

    /**
     * @param args the domain's name, the peer's address.
     */
    public static void main(final String[] args)
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        hints.fabricAttr().provName("shm");
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
        final Domain domain = fabric.domain(info, 0);
        final Side side = Side.open(domain, info);
        final long peer = side.insert(args[1]);
        final long self = side.insert(side.name);
        final ByteBuffer out = ByteBuffer.allocateDirect(PARKED_LENGTH);
        final ByteBuffer in = ByteBuffer.allocateDirect(PARKED_LENGTH);
        for (int i = 0; i < PARKED; i++)
        {
            side.send(out, PARKED_LENGTH, peer);
            side.await(1);
        }
        System.out.println("result addr=" + side.name);
        System.out.flush();
        while (true)
        {
            side.ep.recv(in, 0, PARKED_LENGTH, 0, Addresses.FI_ADDR_UNSPEC, 1);
            side.send(out, 64, self);
            side.await(2);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /**
     * An enabled endpoint with its own AV and CQ, manual progress. One thread.
     */
    static final class Side
    {
        final AddressVector av;
        final CompletionQueue cq;
        final Endpoint ep;
        final String name;
        private final CqEntries entries = new CqEntries(16);
        private final CqErrEntry err = new CqErrEntry();

        private Side(final AddressVector av, final CompletionQueue cq, final Endpoint ep)
        {
            this.av = av;
            this.cq = cq;
            this.ep = ep;
            this.name = new String(ep.getname(), StandardCharsets.US_ASCII);
        }

        static Side open(final Domain domain, final Info info)
        {
            final AddressVector av = domain.avOpen(new AvAttr(), 0);
            final CompletionQueue cq = domain.cqOpen(new CqAttr(), 0);
            final Endpoint ep = domain.endpoint(info, 0);
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            return new Side(av, cq, ep);
        }

        long insert(final String address)
        {
            final long[] fiAddr = new long[1];
            av.insert(new String[] {address}, 1, fiAddr, 0, 0);
            return fiAddr[0];
        }

        void send(final ByteBuffer buffer, final int length, final long dest)
        {
            long rc;
            while ((rc = ep.send(buffer, 0, length, 0, dest, 2)) == -Errno.FI_EAGAIN)
            {
                cq.read(entries, entries.capacity());
            }
            if (rc != 0)
            {
                throw new IllegalStateException("send: " + Errno.strerror((int)-rc));
            }
        }

        void await(final int completions)
        {
            int done = 0;
            while (done < completions)
            {
                final int n = cq.read(entries, entries.capacity());
                if (n > 0)
                {
                    done += n;
                }
                else if (n == -Errno.FI_EAVAIL)
                {
                    cq.readErr(err, 0);
                    throw new IllegalStateException("completion error " + Errno.strerror(err.err));
                }
            }
        }

        List<AutoCloseable> closeables()
        {
            return List.of(ep, cq, av);
        }
    }
}
