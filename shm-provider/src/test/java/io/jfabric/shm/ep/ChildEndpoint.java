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
import io.jfabric.Versions;

/**
 * What a crash-test child JVM opens before it misbehaves: the named domain (through {@link Fabrics}, so the
 * provider's settings come from the system properties the test passes), an AV holding the receiver, one CQ and an
 * enabled endpoint bound to both. Nothing is closed: the child halts.
 */
final class ChildEndpoint
{
    final Endpoint ep;
    final CompletionQueue cq;
    final long dest;

    /**
     * @param domainName the domain.
     * @param receiver   the receiver's address (getname, US-ASCII).
     */
    ChildEndpoint(final String domainName, final String receiver)
    {
        final Info hints = new Info();
        hints.domainAttr().name(domainName);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
        final Domain domain = fabric.domain(info, 0);
        final AddressVector av = domain.avOpen(new AvAttr(), 0);
        final long[] out = new long[1];
        av.insert(new String[] { receiver }, 1, out, 0, 0);
        dest = out[0];
        cq = domain.cqOpen(new CqAttr(), 0);
        ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
    }
}
