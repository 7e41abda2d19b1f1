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
package io.jfabric.shm.av;

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.core.LocalHost;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * One process of the multi-JVM named AV test: opens the domain and the named AV (type UNSPEC: FI_AV_TABLE) at a
 * map_addr through the public API, waits for the start gate file, then inserts {@code kept} addresses of its own
 * (incarnation {@code id * 1000 + j + 1}) interleaved with {@code churn} insert + remove pairs of temporary ones,
 * prints what it got ({@code kept <fi_addr> <address>}), marks itself done, waits until every peer is done and prints the whole table
 * as it sees it ({@code table <fi_addr> <address>}).
 * <p>
 * Arguments: domain, AV name, map_addr, id, peers, kept, churn, gate directory.
 */
public final class AvPeerMain
{
    private AvPeerMain()
    {
    }

    /**
     * @param args see the class description.
     * @throws Exception on any failure (the parent sees the exit code and output).
     */
    public static void main(final String[] args) throws Exception
    {
        final String domainName = args[0];
        final String avName = args[1];
        final long mapAddr = Long.decode(args[2]);
        final int id = Integer.parseInt(args[3]);
        final int peers = Integer.parseInt(args[4]);
        final int kept = Integer.parseInt(args[5]);
        final int churn = Integer.parseInt(args[6]);
        final Path gate = Path.of(args[7]);

        final Info hints = new Info();
        hints.domainAttr().name(domainName);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr().name(avName).mapAddr(mapAddr).count(256), 0))
        {
            final StringBuilder out = new StringBuilder();
            Files.createFile(gate.resolve("ready-" + id));
            while (!Files.exists(gate.resolve("go")))
            {
                LockSupport.parkNanos(100_000);
            }
            final long[] fiAddr = new long[1];
            final int slots = 16; // the default ep.count: the region's slots
            for (int j = 0, t = 0; j < kept || t < churn; j++)
            {
                if (j < kept)
                {
                    final String address = ShmAddress.format(LocalHost.name(), j % slots, domainName,
                        id * 1000L + j + 1);
                    check(av.insert(new String[]{ address }, 1, fiAddr, 0, 0) == 1, "insert " + address);
                    out.append("kept ").append(fiAddr[0]).append(' ').append(address).append('\n');
                }
                for (int k = 0; k < 2 && t < churn; k++, t++)
                {
                    final String temp = ShmAddress.format(LocalHost.name(), t % slots, domainName,
                        900_000L + id * 10_000L + t);
                    check(av.insert(new String[]{ temp }, 1, fiAddr, 0, 0) == 1, "insert " + temp);
                    check(av.lookup(fiAddr[0]).equals(temp), "lookup of my own " + temp);
                    av.remove(fiAddr, 1, 0);
                }
            }
            Files.createFile(gate.resolve("done-" + id));
            for (int p = 0; p < peers; p++)
            {
                while (!Files.exists(gate.resolve("done-" + p)))
                {
                    LockSupport.parkNanos(100_000);
                }
            }
            final ShmAddressVector shm = (ShmAddressVector)av;
            for (int i = 0; i < shm.entries(); i++)
            {
                final long a = i; // FI_AV_TABLE (UNSPEC resolves to it): the fi_addr is the index, whatever map_addr
                if (shm.slotOf(a) >= 0)
                {
                    out.append("table ").append(a).append(' ').append(av.lookup(a)).append('\n');
                }
            }
            System.out.print(out);
            System.out.println("attr mapAddr=" + av.attr().mapAddr());
            // Stay until the parent has read the table through its FI_READ opener too.
            while (!Files.exists(gate.resolve("exit")))
            {
                LockSupport.parkNanos(1_000_000);
            }
        }
    }

    private static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException("failed: " + what);
        }
    }
}
