package io.jfabric.shm.match;

import io.jfabric.Addresses;
import java.util.Arrays;

/** An {@link AddressResolver} over a table indexed by sender slot that tests fill in, like AV inserts would. */
final class TableResolver implements AddressResolver
{
    final long[] fiAddrBySlot = new long[64];
    int calls;

    TableResolver()
    {
        Arrays.fill(fiAddrBySlot, Addresses.FI_ADDR_NOTAVAIL);
    }

    static long senderId(final int slot, final int incarnation)
    {
        return ((long)slot << 32) | (incarnation & 0xFFFF_FFFFL);
    }

    @Override
    public long fiAddrOf(final long senderId)
    {
        calls++;
        return fiAddrBySlot[(int)(senderId >>> 32)];
    }
}
