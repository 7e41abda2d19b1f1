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
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.MrMode;
import io.jfabric.Progress;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The target of {@link RmaOrderingTest}, in a second JVM, with automatic progress (the provider's agent serves the
 * emulated requests): {@code size} bytes of a heap buffer registered FI_REMOTE_READ | FI_REMOTE_WRITE with key 7,
 * which no peer can map (the emulated path), and {@code size} bytes of shareable memory with key 11 (the one-sided
 * path). Prints {@code result addr= base= sbase=} (the regions' addresses: their virtual addresses with
 * FI_MR_VIRT_ADDR, else 0) and ends on {@code exit}.
 */
public final class OrderingPeerMain
{
    private OrderingPeerMain()
    {
    }

    /**
     * @param args the domain name and the size.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]).dataProgress(Progress.AUTO);
        final int size = Integer.parseInt(args[1]);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr(), 0);
            ShareableMemory shared = domain.allocShareable(size);
            MemoryRegion heap = domain.mrReg(ByteBuffer.allocate(size), Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE,
                0, 7, 0, 0);
            MemoryRegion one = domain.mrRegv(new MrIov[] {MrIov.of(shared, 0, size)},
                Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE, 0, 11, 0, 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            final boolean virt = (domain.attr().mrMode() & MrMode.FI_MR_VIRT_ADDR) != 0;
            System.out.println("result addr=" + new String(ep.getname(), StandardCharsets.US_ASCII).trim() +
                " base=" + (virt ? heap.baseAddress() : 0) + " sbase=" + (virt ? one.baseAddress() : 0));
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null && !"exit".equals(line.trim()))
            {
                Thread.onSpinWait();
            }
        }
    }
}
