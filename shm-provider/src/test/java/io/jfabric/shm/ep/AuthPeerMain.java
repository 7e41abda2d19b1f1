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
import io.jfabric.Domain;
import io.jfabric.DomainAttr;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The receiver of {@link AuthKeyTest}, in a second JVM: opens the named domain with an authorization key
 * ({@code key=K}: the domain's auth_key), keys from its AV ({@code avkeys=K1,K2}: a domain with auth_key_size
 * FI_AV_AUTH_KEY whose AV gets those keys before the endpoint is enabled) or none ({@code none}), each also as
 * {@code oldapi-MODE} with getinfo and the fabric at API version 1.4 (which ignores keys), prints
 * {@code result addr=<its address>}, keeps receives posted, and on {@code count MILLIS} reads its CQ for that long
 * and prints {@code result received=N}: the messages that reached it since the last count. {@code exit} ends it.
 */
public final class AuthPeerMain
{
    private AuthPeerMain()
    {
    }

    /**
     * @param args the domain name and the key mode.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        // "oldapi-MODE": the same, with getinfo and the fabric at API version 1.4, which ignores keys
        final boolean oldApi = args[1].startsWith("oldapi-");
        final String mode = oldApi ? args[1].substring(7) : args[1];
        if (mode.startsWith("key="))
        {
            hints.domainAttr().authKey(mode.substring(4).getBytes(StandardCharsets.US_ASCII));
        }
        else if (mode.startsWith("avkeys="))
        {
            hints.domainAttr().authKeySize(DomainAttr.FI_AV_AUTH_KEY);
        }
        final Info info = Fabrics.getInfo(oldApi ? Versions.version(1, 4) : Versions.FI_CURRENT_VERSION, null, null, 0,
            hints).get(0);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr(), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            if (mode.startsWith("avkeys="))
            {
                for (final String key : mode.substring(7).split(","))
                {
                    av.insertAuthKey(key.getBytes(StandardCharsets.US_ASCII), 0);
                }
            }
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            final ByteBuffer buf = ByteBuffer.allocateDirect(64);
            for (int i = 0; i < 16; i++)
            {
                ep.recv(buf, 0, 64, 0, Addresses.FI_ADDR_UNSPEC, i);
            }
            System.out.println("result addr=" + new String(ep.getname(), StandardCharsets.US_ASCII).trim());
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            final CqEntries entries = new CqEntries(16);
            String line;
            while ((line = in.readLine()) != null && !"exit".equals(line.trim()))
            {
                final long until = System.nanoTime() + Long.parseLong(line.trim().split(" ")[1]) * 1_000_000L;
                int received = 0;
                while (System.nanoTime() < until)
                {
                    final int n = cq.read(entries, 16);
                    if (n > 0)
                    {
                        received += n;
                        for (int i = 0; i < n; i++)
                        {
                            ep.recv(buf, 0, 64, 0, Addresses.FI_ADDR_UNSPEC, i);
                        }
                    }
                    else if (n != -Errno.FI_EAGAIN)
                    {
                        throw new IllegalStateException("fi_cq_read: " + n);
                    }
                }
                System.out.println("result received=" + received);
            }
        }
    }
}
