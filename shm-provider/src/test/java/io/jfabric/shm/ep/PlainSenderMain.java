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
import io.jfabric.Domain;
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
 * A sender in a second JVM: opens the named domain with the default settings, inserts the {@code receiver}'s
 * address, prints {@code result addr=<its own address>}, and on {@code send TEXT} sends TEXT with remote CQ data
 * 42 and prints {@code result sent=RC}. Ends on {@code exit}.
 */
public final class PlainSenderMain
{
    private PlainSenderMain()
    {
    }

    /**
     * @param args the domain name and the receiver's address.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr(), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            final long[] dest = new long[1];
            if (av.insert(new String[] {args[1]}, 1, dest, 0, 0) != 1)
            {
                throw new IllegalStateException("fi_av_insert of " + args[1]);
            }
            System.out.println("result addr=" + new String(ep.getname(), StandardCharsets.US_ASCII).trim());
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            final ByteBuffer buf = ByteBuffer.allocateDirect(64);
            final CqEntries entries = new CqEntries(8);
            String line;
            while ((line = in.readLine()) != null && !"exit".equals(line.trim()))
            {
                final byte[] text = line.trim().substring(5).getBytes(StandardCharsets.US_ASCII);
                buf.clear();
                buf.put(text);
                long rc;
                while ((rc = ep.senddata(buf, 0, text.length, 0, 42, dest[0], 0)) == -Errno.FI_EAGAIN)
                {
                    cq.read(entries, 8);
                }
                System.out.println("result sent=" + rc);
                cq.read(entries, 8);
            }
        }
    }
}
