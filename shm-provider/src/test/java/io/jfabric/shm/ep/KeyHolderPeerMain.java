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
import io.jfabric.DomainAttr;
import io.jfabric.Endpoint;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The second process of {@link AuthKeyRemoveTest}: opens the named domain with auth_key_size FI_AV_AUTH_KEY and the
 * named AV (whose keys the test inserted), enables an endpoint against it and prints {@code result enabled=1}; on
 * {@code close} closes the endpoint and prints {@code result closed=1}. Ends on {@code exit}.
 */
public final class KeyHolderPeerMain
{
    private KeyHolderPeerMain()
    {
    }

    /**
     * @param args the domain name and the AV name.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]).authKeySize(DomainAttr.FI_AV_AUTH_KEY);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr().name(args[1]), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr(), 0))
        {
            final Endpoint ep = domain.endpoint(info, 0);
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            System.out.println("result enabled=1");
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null && !"exit".equals(line.trim()))
            {
                if ("close".equals(line.trim()))
                {
                    ep.close();
                    System.out.println("result closed=1");
                }
            }
            ep.close();
        }
    }
}
