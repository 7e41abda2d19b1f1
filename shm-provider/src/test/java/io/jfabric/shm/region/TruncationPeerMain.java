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
package io.jfabric.shm.region;

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.EqAttr;
import io.jfabric.EqErrEntry;
import io.jfabric.EventQueue;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A JVM of {@link RegionTruncationTest}: opens the named domain (settings from the system properties the test
 * passes) with an event queue bound, prints {@code result addr=<its address>}, reads its peer's address from
 * standard input and ping-pongs with it ({@link TruncationPing}; the initiator sends first) until the domain
 * fails; then prints
 * {@code result call=C rc=RC rounds=N eq=E}, E being the err of the domain's event queue error (0 for none within
 * a second), closes everything and prints {@code result closed=yes}. It exits 0 only if nothing threw: an
 * {@link InternalError} escaping a call ends it with a stack trace and status 1.
 */
public final class TruncationPeerMain
{
    private TruncationPeerMain()
    {
    }

    /**
     * @param args the domain name, then {@code initiator} or {@code responder}.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final TruncationPing.Outcome outcome;
        final int eqErr;
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            EventQueue eq = fabric.eqOpen(new EqAttr().size(16), 0);
            Domain domain = fabric.domain(info, 0))
        {
            domain.bind(eq, 0);
            try (AddressVector av = domain.avOpen(new AvAttr(), 0);
                CompletionQueue cq = domain.cqOpen(new CqAttr(), 0);
                Endpoint ep = domain.endpoint(info, 0))
            {
                ep.bind(av, 0);
                ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
                ep.enable();
                System.out.println("result addr=" + new String(ep.getname(), StandardCharsets.US_ASCII).trim());
                final BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in,
                    StandardCharsets.US_ASCII));
                final long[] out = new long[1];
                av.insert(new String[] { stdin.readLine().trim() }, 1, out, 0, 0);
                System.out.println("result pinging=yes");
                outcome = TruncationPing.run(ep, cq, out[0], "initiator".equals(args[1]), new long[1]);
                eqErr = RegionTruncationTest.awaitEqError(eq, new EqErrEntry(512));
            }
        }
        System.out.println("result " + outcome + " eq=" + eqErr);
        System.out.println("result closed=yes");
    }
}
