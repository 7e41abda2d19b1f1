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
package io.jfabric.shm.av;

import io.jfabric.AddressVector;
import io.jfabric.Addresses;
import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Info;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static io.jfabric.shm.av.AvTestSupport.addr;
import static io.jfabric.shm.av.AvTestSupport.addrs;
import static io.jfabric.shm.av.AvTestSupport.assertErrno;
import static io.jfabric.shm.av.AvTestSupport.info;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fi_av(3): the fi_addr_t values of an FI_AV_TABLE are its indices, 0, 1, 2, ..., named or not and whatever map_addr
 * it was opened at (map_addr is the base of a shared FI_AV_MAP's values only). Every call that hands out or takes an
 * fi_addr uses those values: insert, auth key handles, lookup, remove, user ids, destinations, directed receives and
 * the FI_SOURCE src_addr of completions. The two-JVM side is {@link NamedAvMultiProcessTest}.
 */
class AvTableIndexTest extends AvDomainTestBase
{
    @Override
    String epCount()
    {
        return "32";
    }

    private static AddressVector openTable(final Domain d, final String name, final long mapAddr, final long flags)
    {
        return d.avOpen(new AvAttr().type(AvType.TABLE).name(name).count(16).mapAddr(mapAddr).flags(flags), 0);
    }

    @Test
    void shouldGiveANamedTableAtAMapAddrIndicesFromZeroInEveryOpen()
    {
        try (Domain other = fabric.domain(info(provider, DOMAIN), 0);
            AddressVector creator = openTable(domain, "peers", 0x1000, 0);
            AddressVector elsewhere = openTable(other, "peers", 0x9000, 0);
            AddressVector zero = openTable(other, "peers", 0, 0);
            AddressVector reader = openTable(domain, "peers", 0, Flags.FI_READ))
        {
            assertEquals(0x1000, creator.attr().mapAddr(), "map_addr is still reported back");
            assertEquals(0x9000, elsewhere.attr().mapAddr());
            assertEquals(0x1000, zero.attr().mapAddr(), "0 on input returns the creator's map_addr");

            final long[] a = new long[3];
            assertEquals(3, creator.insert(addrs(DOMAIN, 4, 3), 3, a, 0, 0));
            assertArrayEquals(new long[]{ 0, 1, 2 }, a, "FI_AV_TABLE fi_addr values are indices from 0");
            final long[] b = new long[1];
            assertEquals(1, elsewhere.insert(addrs(DOMAIN, 9, 1), 1, b, 0, 0));
            assertEquals(3, b[0], "another map_addr, the same table: the next index");

            for (final AddressVector av : new AddressVector[]{ creator, elsewhere, zero, reader })
            {
                for (int i = 0; i < 3; i++)
                {
                    assertEquals(addr(DOMAIN, 4 + i), av.lookup(i), "every open resolves index " + i);
                }
                assertEquals(addr(DOMAIN, 9), av.lookup(3));
                final ShmAddressVector shm = (ShmAddressVector)av;
                assertEquals(0, shm.fiAddrBase());
                assertEquals(5, shm.slotOf(1));
                assertEquals(-1, shm.slotOf(AddressVector.groupAddr(1, 1)), "no peer groups: a group id names no entry");
                assertEquals(-1, shm.slotOf(0x1001), "map_addr + index is not an fi_addr of a table");
                assertErrno(Errno.FI_EINVAL, () -> av.lookup(0x1000));
                assertErrno(Errno.FI_EINVAL, () -> av.lookup(0x9001));
            }

            zero.remove(new long[]{ 1 }, 1, 0);
            assertErrno(Errno.FI_EINVAL, () -> creator.lookup(1), "removed through another open, by index");
            assertEquals(-1, ((ShmAddressVector)reader).slotOf(1));
            final long[] c = new long[1];
            assertEquals(1, zero.insert(addrs(DOMAIN, 20, 1), 1, c, 0, 0));
            assertEquals(1, c[0], "the lowest free index is reused");
            assertEquals(addr(DOMAIN, 20), creator.lookup(1));
        }
    }

    @Test
    void shouldAcceptAnyMapAddrForANamedTableSinceItsValuesAreIndices()
    {
        final long mmapLike = 0x7f3a_1c40_0000L; // what a C application passes: an address, far above 2^32
        try (AddressVector av = openTable(domain, "wide", mmapLike, 0);
            AddressVector zero = openTable(domain, "wide", 0, 0))
        {
            assertEquals(mmapLike, av.attr().mapAddr());
            assertEquals(mmapLike, zero.attr().mapAddr());
            final long[] a = new long[2];
            assertEquals(2, av.insert(addrs(DOMAIN, 0, 2), 2, a, 0, 0));
            assertArrayEquals(new long[]{ 0, 1 }, a);
            assertEquals(addr(DOMAIN, 1), zero.lookup(1));
            assertErrno(Errno.FI_EINVAL, () -> domain.avOpen(new AvAttr().type(AvType.MAP).name("wide").count(16), 0),
                "an FI_AV_MAP opener taking the creator's map_addr as its base finds no room below 2^32");
        }
    }

    @Test
    void shouldUseIndicesForAuthKeyHandlesAndUserIdsOfANamedTable()
    {
        try (AddressVector av = keyedDomain().avOpen(new AvAttr().type(AvType.TABLE).name("keyed").count(16)
            .mapAddr(0x2000).flags(Flags.FI_AV_USER_ID), 0))
        {
            final byte[] key = { 7, 7, 7 };
            final long handle = av.insertAuthKey(key, 0);
            assertEquals(0, handle, "an auth key handle is the key's table index");
            final long[] a = { handle, handle };
            assertEquals(2, av.insert(addrs(DOMAIN, 3, 2), 2, a, Flags.FI_AUTH_KEY, 0));
            assertArrayEquals(new long[]{ 1, 2 }, a);
            final byte[] out = new byte[8];
            assertEquals(3, av.lookupAuthKey(1, out));
            assertEquals(7, out[0]);
            assertEquals(3, av.lookupAuthKey(0, out));
            av.setUserId(2, 42, 0);
            assertEquals(42, av.userId(2));
            assertEquals(Addresses.FI_ADDR_NOTAVAIL, av.userId(1));
            assertErrno(Errno.FI_EBUSY, () -> av.remove(new long[]{ 0 }, 1, Flags.FI_AUTH_KEY));
            av.remove(a, 2, 0);
            av.remove(new long[]{ 0 }, 1, Flags.FI_AUTH_KEY);
            assertErrno(Errno.FI_EINVAL, () -> av.lookupAuthKey(0, out));
        }
    }

    @Test
    void shouldReportAndMatchTheTableIndexAsTheSourceOfACompletion()
    {
        final long[] sources = exchange(new AvAttr().type(AvType.TABLE).name("src").count(16).mapAddr(0x4000));
        assertArrayEquals(new long[]{ 0, 1, 2, 2, 1 }, sources, "fi_addr of receiver, sender 1, sender 2, then " +
            "src_addr of the directed receive (sender 2) and of the next one (sender 1): the insert's values");
    }

    @Test
    void shouldKeepMapAddrPlusIndexForANamedMapOnly()
    {
        final long[] sources = exchange(new AvAttr().type(AvType.MAP).name("src").count(16).mapAddr(0x4000));
        assertArrayEquals(new long[]{ 0x4000, 0x4001, 0x4002, 0x4002, 0x4001 }, sources,
            "a named FI_AV_MAP's fi_addr values are map_addr + index, in completions too");
        try (AddressVector unnamed = domain.avOpen(new AvAttr().type(AvType.MAP).mapAddr(0x4000), 0))
        {
            final long[] a = new long[1];
            assertEquals(1, unnamed.insert(addrs(DOMAIN, 0, 1), 1, a, 0, 0));
            assertEquals(0, a[0], "map_addr is ignored without a name");
        }
    }

    /**
     * Open the AV, a receiver and two senders on it, insert the three; post a receive directed at sender 2, let
     * sender 1 then sender 2 send, and read both completions with their source.
     *
     * @return the three inserted fi_addr values, then the src_addr of the two completions, in order.
     */
    private long[] exchange(final AvAttr attr)
    {
        final Info info = info(provider, DOMAIN);
        assertTrue((info.caps() & Flags.FI_DIRECTED_RECV) != 0, "the default caps include FI_DIRECTED_RECV");
        try (AddressVector av = domain.avOpen(attr, 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            CompletionQueue txCq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            Endpoint receiver = domain.endpoint(info, 0);
            Endpoint sender1 = domain.endpoint(info, 0);
            Endpoint sender2 = domain.endpoint(info, 0))
        {
            receiver.bind(av, 0);
            receiver.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            receiver.enable();
            for (final Endpoint ep : new Endpoint[]{ sender1, sender2 })
            {
                ep.bind(av, 0);
                ep.bind(txCq, Flags.FI_TRANSMIT | Flags.FI_RECV);
                ep.enable();
            }
            final long[] fiAddr = new long[3];
            assertEquals(3, av.insert(new String[]{ name(receiver), name(sender1), name(sender2) }, 3, fiAddr, 0, 0));
            final ByteBuffer buf = ByteBuffer.allocateDirect(64);
            final CqEntries entries = new CqEntries(4);
            final long[] result = new long[5];
            System.arraycopy(fiAddr, 0, result, 0, 3);

            assertEquals(0, receiver.recv(buf, 0, 64, 0, fiAddr[2], 1), "directed at sender 2");
            assertEquals(0, sender1.inject(buf, 0, 8, fiAddr[0]));
            assertEquals(0, sender2.inject(buf, 0, 8, fiAddr[0]));
            assertEquals(1, readFromOne(cq, entries));
            assertEquals(1, entries.opContext[0]);
            result[3] = entries.srcAddr[0];
            assertEquals(0, receiver.recv(buf, 0, 64, 0, Addresses.FI_ADDR_UNSPEC, 2));
            assertEquals(1, readFromOne(cq, entries));
            assertEquals(2, entries.opContext[0]);
            result[4] = entries.srcAddr[0];
            return result;
        }
    }

    private static String name(final Endpoint ep)
    {
        return new String(ep.getname(), StandardCharsets.US_ASCII);
    }

    private static int readFromOne(final CompletionQueue cq, final CqEntries entries)
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        int n;
        while ((n = cq.readFrom(entries, 1)) == -Errno.FI_EAGAIN)
        {
            assertTrue(System.nanoTime() < deadline, "no completion within 10 s");
            Thread.onSpinWait();
        }
        return n;
    }
}
