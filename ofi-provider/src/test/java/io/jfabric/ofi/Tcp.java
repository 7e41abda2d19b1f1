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

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.EpType;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Threading;
import io.jfabric.Versions;

import java.util.ArrayList;
import java.util.List;

/**
 * Test scaffolding over {@code tcp;ofi_rxm} on 127.0.0.1 only: an info for the loopback domain, and a
 * {@link Node} (fabric, domain, AV, one CQ for both directions, one enabled endpoint) closed in the right order.
 */
final class Tcp
{
    static final long CAPS = Flags.FI_MSG | Flags.FI_TAGGED | Flags.FI_RMA | Flags.FI_ATOMIC;

    private Tcp()
    {
    }

    /**
     * @param caps      the capabilities wanted.
     * @param threading the threading model wanted, or null for the provider's default.
     * @return the first tcp;ofi_rxm info whose source address is 127.0.0.1 (port 0: the endpoint picks one).
     */
    static Info info(final long caps, final Threading threading)
    {
        final Info hints = new Info().caps(caps);
        hints.epAttr().type(EpType.RDM);
        hints.fabricAttr().provName("tcp");
        hints.domainAttr().name("lo");
        if (threading != null)
        {
            hints.domainAttr().threading(threading);
        }
        final List<Info> infos = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, "127.0.0.1", "0", Flags.FI_SOURCE,
            hints);
        return infos.get(0);
    }

    /** One endpoint with everything it needs. */
    static final class Node implements AutoCloseable
    {
        final Info info;
        final Fabric fabric;
        final Domain domain;
        final AddressVector av;
        final CompletionQueue cq;
        final Endpoint ep;
        final CqEntries entries = new CqEntries(64);
        final List<AutoCloseable> extra = new ArrayList<>();

        Node(final long caps, final Threading threading, final CqFormat format)
        {
            info = info(caps, threading);
            fabric = Fabrics.fabric(info.fabricAttr(), 0);
            domain = fabric.domain(info, 0);
            av = domain.avOpen(new AvAttr().type(AvType.TABLE), 0);
            cq = domain.cqOpen(new CqAttr().format(format).size(1024), 0);
            ep = domain.endpoint(info, 0);
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        }

        Node enable()
        {
            ep.enable();
            return this;
        }

        long insert(final byte[] address)
        {
            final long[] fiAddr = new long[1];
            av.insert(new byte[][] {address}, 1, fiAddr, 0, 0, null);
            return fiAddr[0];
        }

        /**
         * Read the CQ until {@code n} entries are in, or fail after the deadline.
         *
         * @return the entries' contexts in order.
         */
        long[] await(final int n, final long timeoutMs)
        {
            final long[] contexts = new long[n];
            int got = 0;
            final long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
            while (got < n)
            {
                final int rc = cq.read(entries, Math.min(64, n - got));
                if (rc > 0)
                {
                    for (int i = 0; i < rc; i++)
                    {
                        contexts[got + i] = entries.opContext[i];
                    }
                    got += rc;
                }
                else if (rc == -Errno.FI_EAVAIL)
                {
                    final CqErrEntry err = new CqErrEntry(256);
                    cq.readErr(err, 0);
                    throw new AssertionError("completion error: " + err + " " + cq.strerror(err.provErrno,
                        java.util.Arrays.copyOf(err.errData, err.errDataSize)));
                }
                else if (rc != -Errno.FI_EAGAIN)
                {
                    throw new AssertionError("cq read: " + Errno.name(-rc));
                }
                if (System.nanoTime() > deadline)
                {
                    throw new AssertionError("only " + got + " of " + n + " completions within " + timeoutMs + " ms");
                }
            }
            return contexts;
        }

        @Override
        public void close() throws Exception
        {
            ep.close();
            for (int i = extra.size() - 1; i >= 0; i--)
            {
                extra.get(i).close();
            }
            av.close();
            cq.close();
            domain.close();
            fabric.close();
        }
    }
}
