package io.jfabric.shm.ep;

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;

import java.nio.ByteBuffer;

/**
 * Child JVM for {@link LaneRecoveryTest}: sends one {@code args[2]}-byte message from unregistered memory (so it
 * goes in pieces) to the address in {@code args[1]} (domain {@code args[0]}), progresses for a while so the first
 * pieces fill the receiver's lane, then halts with the rest still queued, as a process that crashes part-way
 * through a large send would. Byte {@code i} of the message is {@link Pattern#at}{@code (5, i)}.
 */
public final class DeadSenderPeerMain
{
    private DeadSenderPeerMain()
    {
    }

    /**
     * @param args domain name, receiver address, message length.
     */
    public static void main(final String[] args)
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
        final Domain domain = fabric.domain(info, 0);
        final AddressVector av = domain.avOpen(new AvAttr(), 0);
        final long[] dest = new long[1];
        av.insert(new String[] { args[1] }, 1, dest, 0, 0);
        final CompletionQueue cq = domain.cqOpen(new CqAttr(), 0);
        final Endpoint ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        final int length = Integer.parseInt(args[2]);
        final ByteBuffer buf = ByteBuffer.allocateDirect(length);
        for (int i = 0; i < length; i++)
        {
            buf.put(i, Pattern.at(5, i));
        }
        final long rc = ep.send(buf, 0, length, 0, dest[0], 1);
        final CqEntries entries = new CqEntries(4);
        final long until = System.nanoTime() + 300_000_000L;
        while (System.nanoTime() < until)
        {
            cq.read(entries, 4); // progress: pieces go out while the receiver's lane has room
        }
        System.out.println("queued " + rc);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
