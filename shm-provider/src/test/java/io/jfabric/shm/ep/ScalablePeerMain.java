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

import java.nio.ByteBuffer;

/**
 * The sender of {@link ScalableEndpointTest}, in a second JVM: opens the named domain, an AV with rx_ctx_bits
 * {@code bits}, inserts the scalable endpoint's {@code address}, and sends {@code count} messages to each receive
 * context {@code 0 .. contexts - 1} through {@code fi_rx_addr}, round robin, each message 8 bytes: the context index
 * it was addressed to (int) and its sequence number for that context (int). Prints {@code result sent=N}.
 */
public final class ScalablePeerMain
{
    private ScalablePeerMain()
    {
    }

    /**
     * @param args domain, address, bits, contexts, count.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final int bits = Integer.parseInt(args[2]);
        final int contexts = Integer.parseInt(args[3]);
        final int count = Integer.parseInt(args[4]);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr().rxCtxBits(bits), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr(), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            final long[] out = new long[1];
            if (av.insert(new String[] {args[1]}, 1, out, 0, 0) != 1)
            {
                throw new IllegalStateException("fi_av_insert of " + args[1] + " failed");
            }
            final ByteBuffer buf = ByteBuffer.allocateDirect(8);
            final CqEntries entries = new CqEntries(16);
            int sent = 0;
            for (int seq = 0; seq < count; seq++)
            {
                for (int c = 0; c < contexts; c++)
                {
                    buf.putInt(0, c).putInt(4, seq);
                    final long dest = AddressVector.rxAddr(out[0], c, bits);
                    long rc;
                    while ((rc = ep.send(buf, 0, 8, 0, dest, 0)) == -Errno.FI_EAGAIN)
                    {
                        cq.read(entries, 16);
                    }
                    if (rc != 0)
                    {
                        throw new IllegalStateException("fi_send to context " + c + ": " + rc);
                    }
                    sent++;
                }
                cq.read(entries, 16);
            }
            while (cq.read(entries, 16) != -Errno.FI_EAGAIN)
            {
                Thread.onSpinWait();
            }
            System.out.println("result sent=" + sent);
        }
    }
}
