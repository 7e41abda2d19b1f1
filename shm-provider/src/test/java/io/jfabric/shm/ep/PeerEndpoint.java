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
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;

import java.nio.charset.StandardCharsets;

/**
 * The endpoint a peer program of the fault tests ({@link FaultPeerMain}, {@link SelfSendPeerMain}) opens in its
 * second JVM: the named domain (settings from the system properties the test passes), an AV, a CQ of MSG entries
 * bound for transmit and receive, and an endpoint, in the slot of the address given when one is (as fi_setname
 * takes it). Nothing is closed: the program runs until the test kills it or it exits.
 * <p>
 * The program's main thread only.
 */
final class PeerEndpoint
{
    final AddressVector av;
    final CompletionQueue cq;
    final Endpoint ep;

    private PeerEndpoint(final AddressVector av, final CompletionQueue cq, final Endpoint ep)
    {
        this.av = av;
        this.cq = cq;
        this.ep = ep;
    }

    /**
     * @param args the program's arguments: domain name, then optionally the address whose slot to take.
     * @return the enabled endpoint with its AV and CQ.
     */
    static PeerEndpoint open(final String[] args)
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
        final Domain domain = fabric.domain(info, 0);
        final AddressVector av = domain.avOpen(new AvAttr(), 0);
        final CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
        final Endpoint ep = domain.endpoint(info, 0);
        if (args.length > 1)
        {
            ep.setname(args[1].getBytes(StandardCharsets.US_ASCII));
        }
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        return new PeerEndpoint(av, cq, ep);
    }

    /**
     * @return the endpoint's address text (fi_getname).
     */
    String address()
    {
        return new String(ep.getname(), StandardCharsets.US_ASCII);
    }
}
