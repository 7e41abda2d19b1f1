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
import io.jfabric.CqErrEntry;
import io.jfabric.Domain;
import io.jfabric.DomainAttr;
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
import java.nio.charset.StandardCharsets;

/**
 * A target in its own JVM, in a domain without a key, whose regions carry their own authorization keys
 * (fi_mr_regattr auth_key): shareable memory (one-sided) keyed alpha (key 21), beta (22) and none (25), heap memory
 * (emulated) keyed alpha (23) and beta (24). Its endpoint is programmed with {@code ep_attr.auth_key} alpha, so
 * initiators using alpha may send it emulated requests; a progress thread serves them. With a second argument
 * {@code av} the domain is opened with FI_AV_AUTH_KEY instead: its AV holds alpha and beta, which its endpoint
 * accepts, and the regions take their keys as fi_mr_auth_key (25 the key of an address inserted with alpha). Prints
 * {@code result addr=<address> <key>=<the region's address 0, or its base with FI_MR_VIRT_ADDR> ...}, then
 * answers {@code byte <key> <offset>} with {@code result value=<byte>} until {@code exit}.
 */
public final class KeyedRegionsPeerMain
{
    private static volatile boolean stop;

    private KeyedRegionsPeerMain()
    {
    }

    /**
     * @param args the domain name.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final boolean avKeys = args.length > 1 && "av".equals(args[1]);
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        if (avKeys)
        {
            hints.domainAttr().authKeySize(DomainAttr.FI_AV_AUTH_KEY);
        }
        hints.caps(Flags.FI_MSG | Flags.FI_RMA | Flags.FI_ATOMIC);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        if (!avKeys)
        {
            info.epAttr().authKey(bytes("alpha"));
        }
        final ByteBuffer alphaHeap = ByteBuffer.allocate(4096);
        final ByteBuffer betaHeap = ByteBuffer.allocate(4096);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr(), 0);
            ShareableMemory shared = domain.allocShareable(3 * 4096);
            Endpoint ep = domain.endpoint(info, 0);
            Keys keys = new Keys(domain, av, avKeys, ep);
            MemoryRegion alpha = keys.keyed(MrIov.of(shared, 0, 4096), 21, "alpha");
            MemoryRegion beta = keys.keyed(MrIov.of(shared, 4096, 4096), 22, "beta");
            MemoryRegion none = keys.keyed(MrIov.of(shared, 8192, 4096), 25, null);
            MemoryRegion alphaLocal = keys.keyed(MrIov.of(alphaHeap), 23, "alpha");
            MemoryRegion betaLocal = keys.keyed(MrIov.of(betaHeap), 24, "beta"))
        {
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            final Thread progress = new Thread(() -> progress(cq), "peer-progress");
            progress.setDaemon(true);
            progress.start();
            final boolean virt = (domain.attr().mrMode() & MrMode.FI_MR_VIRT_ADDR) != 0;
            System.out.println("result addr=" + new String(ep.getname(), StandardCharsets.US_ASCII).trim() +
                " 21=" + (virt ? alpha.baseAddress() : 0) + " 22=" + (virt ? beta.baseAddress() : 0) +
                " 25=" + (virt ? none.baseAddress() : 0) + " 23=" + (virt ? alphaLocal.baseAddress() : 0) +
                " 24=" + (virt ? betaLocal.baseAddress() : 0));
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null && !"exit".equals(line.trim()))
            {
                final String[] w = line.trim().split(" ");
                final int offset = Integer.parseInt(w[2]);
                final int value;
                switch (w[1])
                {
                    case "21":
                        value = shared.buffer().get(offset);
                        break;
                    case "22":
                        value = shared.buffer().get(4096 + offset);
                        break;
                    case "25":
                        value = shared.buffer().get(8192 + offset);
                        break;
                    case "23":
                        value = alphaHeap.get(offset);
                        break;
                    default:
                        value = betaHeap.get(offset);
                }
                System.out.println("result value=" + value);
            }
            stop = true;
            progress.join(10_000);
        }
    }

    /**
     * How regions get their keys: as bytes, or in an FI_AV_AUTH_KEY domain as fi_mr_auth_key, an AV key handle with
     * FI_AUTH_KEY (alpha, beta) or, for the region without a key of its own (25), this endpoint's address inserted
     * with alpha, whose key the region takes.
     */
    private static final class Keys implements AutoCloseable
    {
        private final Domain domain;
        private final AddressVector av;
        private final long alpha;
        private final long beta;
        private final long selfWithAlpha;

        Keys(final Domain domain, final AddressVector av, final boolean avKeys, final Endpoint ep)
        {
            this.domain = domain;
            this.av = avKeys ? av : null;
            alpha = avKeys ? av.insertAuthKey(bytes("alpha"), 0) : 0;
            beta = avKeys ? av.insertAuthKey(bytes("beta"), 0) : 0;
            final long[] self = {alpha};
            if (avKeys)
            {
                av.insert(new String[] {new String(ep.getname(), StandardCharsets.US_ASCII).trim()}, 1, self,
                    Flags.FI_AUTH_KEY, 0);
            }
            selfWithAlpha = self[0];
        }

        MemoryRegion keyed(final MrIov iov, final long key, final String authKey)
        {
            final MrAttr attr = new MrAttr().iov(iov).access(Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE)
                .requestedKey(key);
            if (av == null)
            {
                return domain.mrRegAttr(attr.authKey(authKey == null ? null : bytes(authKey)), 0);
            }
            if (authKey == null)
            {
                return domain.mrRegAttr(attr.authKey(av, selfWithAlpha), 0);
            }
            return domain.mrRegAttr(attr.authKey(av, "alpha".equals(authKey) ? alpha : beta), Flags.FI_AUTH_KEY);
        }

        @Override
        public void close()
        {
        }
    }

    private static byte[] bytes(final String key)
    {
        return key.getBytes(StandardCharsets.US_ASCII);
    }

    private static void progress(final CompletionQueue cq)
    {
        final CqEntries entries = new CqEntries(16);
        final CqErrEntry err = new CqErrEntry();
        while (!stop)
        {
            final int n = cq.read(entries, 16);
            if (n == -Errno.FI_EAVAIL)
            {
                cq.readErr(err, 0);
            }
            else if (n == -Errno.FI_EAGAIN)
            {
                Thread.yield();
            }
        }
    }
}
