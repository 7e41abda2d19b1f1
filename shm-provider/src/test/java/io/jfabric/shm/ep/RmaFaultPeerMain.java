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
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.MrAttr;
import io.jfabric.MrIov;
import io.jfabric.MrMode;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The target of {@link RmaFaultTest}, in a second JVM: opens the named domain (with the domain authorization key
 * {@code key=K}, or {@code none}), an endpoint with an AV and a CQ, and prints {@code result addr=<address>}. It then
 * registers, closes and inspects regions, each over its own shareable memory (its own segment file), one command a
 * line, each answered by one {@code result} line:
 * <ul>
 *   <li>{@code reg KEY SIZE [AUTHKEY]}: allocate SIZE bytes of shareable memory and register them for remote read
 *   and write with the requested key KEY (fi_mr_regattr; with AUTHKEY as the region's own auth_key, else the
 *   domain's): {@code result key=<its key> base=<the address a peer names its first byte by>};</li>
 *   <li>{@code fill KEY B}: fill the region's memory with byte B;</li>
 *   <li>{@code crc KEY OFF LEN}: {@code result crc=<CRC32C of that range>};</li>
 *   <li>{@code word KEY OFF}: {@code result word=<the native-order 64-bit word there>};</li>
 *   <li>{@code close-mr KEY}: close the region (its memory stays allocated): {@code result closed=KEY};</li>
 *   <li>{@code free KEY}: free the memory of a closed region (its segment file is deleted);</li>
 *   <li>{@code cq MILLIS}: read the CQ for that long: {@code result count=N} (completions and errors);</li>
 *   <li>{@code exit}: close everything and end.</li>
 * </ul>
 * Regions and memory are looked up by the key the command names (the requested key).
 */
public final class RmaFaultPeerMain
{
    private RmaFaultPeerMain()
    {
    }

    /**
     * @param args domain name, key mode ({@code key=K} or {@code none}).
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        if (args[1].startsWith("key="))
        {
            hints.domainAttr().authKey(args[1].substring(4).getBytes(StandardCharsets.US_ASCII));
        }
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Map<Long, ShareableMemory> memories = new HashMap<>();
        final Map<Long, MemoryRegion> regions = new HashMap<>();
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            // fi_mr(3): with FI_MR_VIRT_ADDR a target address is the registrant's address, else an offset
            final boolean virt = (domain.attr().mrMode() & MrMode.FI_MR_VIRT_ADDR) != 0;
            System.out.println("result addr=" + new String(ep.getname(), StandardCharsets.US_ASCII).trim());
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            final CqEntries entries = new CqEntries(4);
            String line;
            while ((line = in.readLine()) != null && !"exit".equals(line.trim()))
            {
                final String[] w = line.trim().split(" ");
                final long key = w.length > 1 ? Long.parseLong(w[1]) : 0;
                switch (w[0])
                {
                    case "reg":
                    {
                        final int size = Integer.parseInt(w[2]);
                        final ShareableMemory memory = domain.allocShareable(size);
                        final MrAttr attr = new MrAttr().iov(MrIov.of(memory, 0, size))
                            .access(Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE).requestedKey(key);
                        if (w.length > 3)
                        {
                            attr.authKey(w[3].getBytes(StandardCharsets.US_ASCII));
                        }
                        final MemoryRegion mr = domain.mrRegAttr(attr, 0);
                        memories.put(key, memory);
                        regions.put(key, mr);
                        System.out.println("result key=" + mr.key() + " base=" + (virt ? mr.baseAddress() : 0));
                        break;
                    }
                    case "fill":
                    {
                        final ByteBuffer bytes = memories.get(key).buffer();
                        final byte value = (byte)Integer.parseInt(w[2]);
                        for (int i = 0; i < bytes.capacity(); i++)
                        {
                            bytes.put(i, value);
                        }
                        System.out.println("result filled=" + key);
                        break;
                    }
                    case "crc":
                    {
                        final int offset = Integer.parseInt(w[2]);
                        final CRC32C crc = new CRC32C();
                        crc.update(memories.get(key).buffer().duplicate().position(offset)
                            .limit(offset + Integer.parseInt(w[3])));
                        System.out.println("result crc=" + crc.getValue());
                        break;
                    }
                    case "word":
                        System.out.println("result word=" + memories.get(key).buffer().duplicate()
                            .order(ByteOrder.nativeOrder()).getLong(Integer.parseInt(w[2])));
                        break;
                    case "close-mr":
                        regions.remove(key).close();
                        System.out.println("result closed=" + key);
                        break;
                    case "free":
                        memories.remove(key).close();
                        System.out.println("result freed=" + key);
                        break;
                    case "cq":
                    {
                        final long until = System.nanoTime() + key * 1_000_000L;
                        int n = 0;
                        while (System.nanoTime() < until)
                        {
                            final int r = cq.read(entries, 1);
                            if (r == 1)
                            {
                                n++;
                            }
                            else if (r == -Errno.FI_EAVAIL)
                            {
                                n++;
                                cq.readErr(new io.jfabric.CqErrEntry(), 0);
                            }
                        }
                        System.out.println("result count=" + n);
                        break;
                    }
                    default:
                        System.out.println("result unknown=" + w[0]);
                }
            }
            for (final MemoryRegion mr : regions.values())
            {
                mr.close();
            }
            for (final ShareableMemory memory : memories.values())
            {
                memory.close();
            }
        }
    }
}
