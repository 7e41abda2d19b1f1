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

import java.nio.ByteBuffer;

/**
 * Child JVM for {@link LaneRecoveryTest}: sends three messages to the address in {@code args[1]} (domain
 * {@code args[0]}), then claims room for a fourth, writes half of it and halts without committing, as a process that
 * crashes in the middle of a zero-copy send would.
 */
public final class AbandonedClaimPeerMain
{
    private AbandonedClaimPeerMain()
    {
    }

    /**
     * @param args domain name, receiver address.
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
        final ByteBuffer buf = ByteBuffer.allocateDirect(64);
        for (int i = 1; i <= 3; i++)
        {
            buf.putLong(0, i);
            while (ep.inject(buf, 0, 64, dest[0]) != 0)
            {
                Thread.onSpinWait();
            }
        }
        while (ep.claim(dest[0], 64, 0, 0, 0) != 0)
        {
            Thread.onSpinWait();
        }
        ep.messageClaim().buffer().putLong(ep.messageClaim().offset(), 99);
        System.out.println("claimed");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
