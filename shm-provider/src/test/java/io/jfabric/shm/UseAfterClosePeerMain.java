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
package io.jfabric.shm;

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
import io.jfabric.MessageClaim;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Misuse after close, in a JVM of its own (on the code before the fix these crashed it with SIGSEGV): writes
 * through a shareable memory's view after the memory closed, and through a zero-copy claim's buffer past the claim,
 * after its commit, and after the endpoint and the domain closed. Prints {@code result ...} with what each write
 * did, and exits 0 if the JVM is still there to do so.
 */
public final class UseAfterClosePeerMain
{
    private UseAfterClosePeerMain()
    {
    }

    /**
     * @param args the domain name.
     */
    public static void main(final String[] args)
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
        final Domain domain = fabric.domain(info, 0);

        final ShareableMemory memory = domain.allocShareable(1 << 20);
        final ByteBuffer view = memory.buffer();
        view.putLong(0, 1);
        memory.close();
        view.putLong(8, 2);
        System.out.println("result shareable=" + (view.getLong(0) + view.getLong(8)));

        final AddressVector av = domain.avOpen(new AvAttr(), 0);
        final CompletionQueue cq = domain.cqOpen(new CqAttr(), 0);
        final Endpoint ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        final long[] self = new long[1];
        av.insert(new String[] { new String(ep.getname(), StandardCharsets.US_ASCII) }, 1, self, 0, 0);
        if (ep.claim(self[0], 64, 0, 0, 0) != 0)
        {
            throw new IllegalStateException("claim failed");
        }
        final MessageClaim claim = ep.messageClaim();
        final ByteBuffer claimed = claim.buffer();
        claimed.putLong(claim.offset(), 3);
        final String past = attempt(() -> claimed.putLong(claim.offset() + claim.length(), 4));
        claim.commit();
        final String afterCommit = attempt(() -> claimed.putLong(claim.offset(), 5));
        ep.close();
        cq.close();
        av.close();
        domain.close();
        fabric.close();
        claimed.limit(claimed.capacity()); // an application that insists
        claimed.putLong(0, 6);
        System.out.println("result past=" + past + " aftercommit=" + afterCommit + " afterclose=" +
            claimed.getLong(0));
    }

    private static String attempt(final Runnable write)
    {
        try
        {
            write.run();
            return "written";
        }
        catch (final IndexOutOfBoundsException ex)
        {
            return "refused";
        }
    }
}
