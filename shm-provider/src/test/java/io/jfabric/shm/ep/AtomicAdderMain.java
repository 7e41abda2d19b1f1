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
import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One of the processes of {@link AtomicEndpointTest}'s contention test, in its own JVM: through its own endpoint,
 * {@code count} fetch-adds of 1 ({@code add}) or compare-swap increments ({@code cas}) of the 64-bit word at
 * {@code addr} under {@code key} of the target {@code address}; every fetched value is checked to be new. Prints
 * {@code result done=<count> retries=<n>}.
 */
public final class AtomicAdderMain
{
    private AtomicAdderMain()
    {
    }

    /**
     * @param args domain, target address, key, addr, count, add|cas.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        hints.caps(Flags.FI_MSG | Flags.FI_ATOMIC);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final long key = Long.parseLong(args[2]);
        final long addr = Long.parseLong(args[3]);
        final int count = Integer.parseInt(args[4]);
        final boolean cas = "cas".equals(args[5]);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr(), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            final long[] out = new long[1];
            if (av.insert(new String[] {args[1]}, 1, out, 0, 0) != 1)
            {
                throw new IllegalStateException("insert " + args[1]);
            }
            final ByteBuffer operand = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
            final ByteBuffer compare = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
            final ByteBuffer result = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
            final CqEntries entries = new CqEntries(1);
            long retries = 0;
            long expected = 0;
            for (int i = 0; i < count; i++)
            {
                if (cas)
                {
                    while (true)
                    {
                        compare.putLong(0, expected);
                        operand.putLong(0, expected + 1);
                        complete(cq, entries, ep.compareAtomic(operand, 0, 1, 0, compare, 0, 0, result, 0, 0, out[0],
                            addr, key, AtomicDatatype.UINT64, AtomicOp.CSWAP, i));
                        final long seen = result.getLong(0);
                        if (seen == expected)
                        {
                            expected++;
                            break;
                        }
                        expected = seen;
                        retries++;
                    }
                }
                else
                {
                    operand.putLong(0, 1);
                    complete(cq, entries, ep.fetchAtomic(operand, 0, 1, 0, result, 0, 0, out[0], addr, key,
                        AtomicDatatype.INT64, AtomicOp.SUM, i));
                    final long seen = result.getLong(0);
                    if (i > 0 && seen <= expected)
                    {
                        throw new IllegalStateException("fetched " + seen + " after " + expected);
                    }
                    expected = seen;
                }
            }
            System.out.println("result done=" + count + " retries=" + retries);
        }
    }

    private static void complete(final CompletionQueue cq, final CqEntries entries, final long rc)
    {
        if (rc != 0)
        {
            throw new IllegalStateException("atomic call: " + rc);
        }
        int n;
        while ((n = cq.read(entries, 1)) == -Errno.FI_EAGAIN)
        {
            Thread.yield(); // an emulated atomic waits for the target's progress, which may share this core
        }
        if (n != 1)
        {
            throw new IllegalStateException("fi_cq_read: " + n);
        }
    }
}
