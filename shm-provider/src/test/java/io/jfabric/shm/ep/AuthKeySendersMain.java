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
 * The senders of {@link AuthKeyReceiveTest}, in a second JVM: in the named domain, opened with auth_key_size
 * FI_AV_AUTH_KEY, one endpoint per key given, each with an AV of its own that holds that key and the receiver's
 * address inserted with FI_AUTH_KEY against it, so each endpoint sends with its one key. Prints
 * {@code result addrs=A1,A2,...}; on {@code send I TEXT} endpoint I sends TEXT (tagged with tag 7 when the line ends
 * with {@code tagged}) and prints {@code result sent=RC}. Ends on {@code exit}.
 */
public final class AuthKeySendersMain
{
    private AuthKeySendersMain()
    {
    }

    /**
     * @param args the domain name, the receiver's address, the keys (comma separated).
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]).authKeySize(DomainAttr.FI_AV_AUTH_KEY);
        final String[] keys = args[2].split(",");
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr(), 0))
        {
            final Endpoint[] eps = new Endpoint[keys.length];
            final AddressVector[] avs = new AddressVector[keys.length];
            final long[] dest = new long[keys.length];
            final StringBuilder addrs = new StringBuilder();
            for (int i = 0; i < keys.length; i++)
            {
                avs[i] = domain.avOpen(new AvAttr(), 0);
                final long[] out = {avs[i].insertAuthKey(keys[i].getBytes(StandardCharsets.US_ASCII), 0)};
                if (avs[i].insert(new String[] {args[1]}, 1, out, Flags.FI_AUTH_KEY, 0) != 1)
                {
                    throw new IllegalStateException("fi_av_insert of " + args[1] + " with key " + keys[i]);
                }
                dest[i] = out[0];
                eps[i] = domain.endpoint(info, 0);
                eps[i].bind(avs[i], 0);
                eps[i].bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
                eps[i].enable();
                addrs.append(i == 0 ? "" : ",").append(new String(eps[i].getname(), StandardCharsets.US_ASCII).trim());
            }
            System.out.println("result addrs=" + addrs);
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            final ByteBuffer buf = ByteBuffer.allocateDirect(64);
            final CqEntries entries = new CqEntries(8);
            String line;
            while ((line = in.readLine()) != null && !"exit".equals(line.trim()))
            {
                final String[] words = line.trim().split(" ");
                final int i = Integer.parseInt(words[1]);
                final byte[] text = words[2].getBytes(StandardCharsets.US_ASCII);
                buf.clear();
                buf.put(text);
                final boolean tagged = words.length > 3 && "tagged".equals(words[3]);
                long rc;
                while ((rc = tagged ? eps[i].tsend(buf, 0, text.length, 0, dest[i], 7, 0) :
                    eps[i].send(buf, 0, text.length, 0, dest[i], 0)) == -Errno.FI_EAGAIN)
                {
                    cq.read(entries, 8);
                }
                System.out.println("result sent=" + rc);
                cq.read(entries, 8);
            }
            for (int i = keys.length - 1; i >= 0; i--)
            {
                eps[i].close();
                avs[i].close();
            }
        }
    }
}
