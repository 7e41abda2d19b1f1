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
import io.jfabric.Domain;
import io.jfabric.DomainAttr;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.core.LocalHost;
import io.jfabric.shm.domain.ShmDomain;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.jfabric.shm.av.AvTestSupport.addr;
import static io.jfabric.shm.av.AvTestSupport.addrs;
import static io.jfabric.shm.av.AvTestSupport.assertErrno;
import static io.jfabric.shm.av.AvTestSupport.info;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fi_av(3) on an unnamed AV, including the cases of libfabric's own AV unit tests with their expected results.
 */
class ShmAddressVectorTest extends AvDomainTestBase
{
    @Override
    String epCount()
    {
        return "64";
    }

    private AddressVector open(final long count)
    {
        return domain.avOpen(new AvAttr().type(AvType.TABLE).count(count), 0);
    }

    @Test
    void shouldOpenAndCloseForEveryPowerOfTwoCountUpToTwoToTheSixteen()
    {
        for (long count = 1; count <= 1 << 16; count <<= 1)
        {
            final AddressVector av = open(count);
            assertEquals(FidClass.AV, av.fidClass());
            assertTrue(av.attr().count() >= count);
            av.close();
        }
    }

    @Test
    void shouldRefuseCountsBeyondTheLimitWithEnosysAndLeaveTheDomainClosable()
    {
        assertErrno(Errno.FI_ENOSYS, () -> open((1 << 16) + 1));
        try (ShmTestRoot small = new ShmTestRoot())
        {
            final ShmProvider limited = small.provider(key -> "av.max.count".equals(key) ? "1024" : null);
            try (Fabric f = limited.fabric(info(limited, DOMAIN).fabricAttr(), 0);
                Domain d = f.domain(info(limited, DOMAIN), 0))
            {
                d.avOpen(new AvAttr().count(1024), 0).close();
                for (long count = 2048; count <= 1 << 16; count <<= 1)
                {
                    final long c = count;
                    assertErrno(Errno.FI_ENOSYS, () -> d.avOpen(new AvAttr().count(c), 0));
                }
            }
        }
    }

    @Test
    void shouldResolveUnspecTypeToTableAndKeepMap()
    {
        try (AddressVector unspec = domain.avOpen(new AvAttr(), 0);
            AddressVector map = domain.avOpen(new AvAttr().type(AvType.MAP), 0))
        {
            assertEquals(AvType.TABLE, unspec.attr().type());
            assertEquals(AvType.MAP, map.attr().type());
            assertEquals(64, unspec.attr().count(), "count 0 takes the domain's ep_cnt");
            final long[] fiAddr = new long[2];
            assertEquals(2, map.insert(addrs(DOMAIN, 0, 2), 2, fiAddr, 0, 0));
            assertArrayEquals(new long[]{ 0, 1 }, fiAddr, "FI_AV_MAP behaves like FI_AV_TABLE");
        }
    }

    @Test
    void shouldRefuseBadOpenAttributes()
    {
        assertErrno(Errno.FI_EINVAL, () -> domain.avOpen(null, 0));
        assertErrno(Errno.FI_EBADFLAGS, () -> domain.avOpen(new AvAttr().flags(Flags.FI_MORE), 0));
        assertErrno(Errno.FI_EINVAL, () -> domain.avOpen(new AvAttr().rxCtxBits(17), 0));
        assertErrno(Errno.FI_EINVAL, () -> domain.avOpen(new AvAttr().count(-1), 0));
        assertErrno(Errno.FI_EINVAL, () -> domain.avOpen(new AvAttr().flags(Flags.FI_READ), 0));
        assertErrno(Errno.FI_EINVAL, () -> domain.avOpen(new AvAttr().name("../etc"), 0));
        assertEquals(0, ((ShmDomain)domain).references(), "failed opens hold no domain reference");
    }

    @Test
    void shouldInsertOneGoodAddressAtIndexZero()
    {
        try (AddressVector av = open(8))
        {
            final long[] fiAddr = { 77 };
            assertEquals(1, av.insert(new String[]{ addr(DOMAIN, 3) }, 1, fiAddr, 0, 0));
            assertEquals(0, fiAddr[0]);
            assertEquals(3, ((ShmAddressVector)av).slotOf(fiAddr[0]));
        }
    }

    @Test
    void shouldInsertWithoutAnFiAddrArray()
    {
        try (AddressVector av = open(8))
        {
            assertEquals(2, av.insert(addrs(DOMAIN, 0, 2), 2, null, 0, 0));
            assertEquals(addr(DOMAIN, 1), av.lookup(1));
        }
    }

    @Test
    void shouldAccumulateIndicesAcrossInsertsInStages()
    {
        try (AddressVector av = open(32))
        {
            final long[] all = new long[12];
            int done = 0;
            for (final int stage : new int[]{ 1, 2, 4, 5 })
            {
                final long[] fiAddr = new long[stage];
                assertEquals(stage, av.insert(addrs(DOMAIN, done, stage), stage, fiAddr, Flags.FI_MORE, 0));
                System.arraycopy(fiAddr, 0, all, done, stage);
                done += stage;
            }
            for (int i = 0; i < done; i++)
            {
                assertEquals(i, all[i]);
                assertEquals(addr(DOMAIN, i), av.lookup(all[i]));
            }
        }
    }

    @Test
    void shouldLookUpTheSameBytesTruncatingAndReportingTheNeededLength()
    {
        try (AddressVector av = open(8))
        {
            final String text = "fi_shm://localhost:5/" + DOMAIN + "?gen=9";
            final long[] fiAddr = new long[1];
            av.insert(new String[]{ text }, 1, fiAddr, 0, 0);
            final byte[] whole = new byte[200];
            final int needed = av.lookup(fiAddr[0], whole);
            assertEquals(text.length() + 1, needed);
            assertEquals(text, new String(whole, 0, needed - 1, StandardCharsets.US_ASCII));
            assertEquals(0, whole[needed - 1]);
            final byte[] small = new byte[6];
            assertEquals(needed, av.lookup(fiAddr[0], small));
            assertEquals("fi_shm", new String(small, StandardCharsets.US_ASCII));
            assertEquals(9, ((ShmAddressVector)av).incarnationOf(fiAddr[0]));
        }
    }

    @Test
    void shouldRemoveEveryIndexAndReuseTheLowest()
    {
        try (AddressVector av = open(16))
        {
            final long[] fiAddr = new long[8];
            assertEquals(8, av.insert(addrs(DOMAIN, 0, 8), 8, fiAddr, 0, 0));
            for (final long a : fiAddr)
            {
                av.remove(new long[]{ a }, 1, 0);
                assertErrno(Errno.FI_EINVAL, () -> av.lookup(a));
                assertEquals(-1, ((ShmAddressVector)av).slotOf(a));
            }
            final long[] again = new long[1];
            assertEquals(1, av.insert(new String[]{ addr(DOMAIN, 0) }, 1, again, 0, 0));
            assertEquals(0, again[0], "remove then re-insert of the same address works, at the lowest index");
        }
    }

    @Test
    void shouldThrowSayingWhyWhenNoAddressIsInsertedWithoutSyncErr()
    {
        try (AddressVector av = open(8))
        {
            final long[] fiAddr = { 5 };
            final FabricException ex = assertThrows(FabricException.class,
                () -> av.insert(new String[]{ "not an address" }, 1, fiAddr, 0, 0));
            assertEquals(Errno.FI_EINVAL, ex.errno());
            assertTrue(ex.getMessage().startsWith("fi_av_insert: address 0 \"not an address\" is not an shm address"),
                ex.getMessage());
            assertEquals(Addresses.FI_ADDR_NOTAVAIL, fiAddr[0]);
        }
    }

    @Test
    void shouldRefuseAnAddressOfAnotherDomainNamingBothDomains()
    {
        try (AddressVector av = open(8))
        {
            final String other = addr("other", 0);
            final FabricException ex = assertThrows(FabricException.class,
                () -> av.insert(new String[]{ other }, 1, new long[1], 0, 0));
            assertEquals(Errno.FI_EADDRNOTAVAIL, ex.errno());
            assertTrue(ex.getMessage().contains("address 0 \"" + other + "\" is an endpoint of domain 'other', and " +
                "this AV's domain is '" + DOMAIN + "': an endpoint is reached only from its own domain"),
                ex.getMessage());

            final int[] status = new int[1];
            assertEquals(0, av.insert(new String[]{ other }, 1, new long[1], Flags.FI_SYNC_ERR, 0, status),
                "with FI_SYNC_ERR the status says it");
            assertEquals(Errno.FI_EADDRNOTAVAIL, status[0]);
            final long[] two = new long[2];
            assertEquals(1, av.insert(new String[]{ addr(DOMAIN, 0), other }, 2, two, 0, 0),
                "a partial insert returns its count, as fi_av_insert does");
            assertEquals(Addresses.FI_ADDR_NOTAVAIL, two[1]);
        }
    }

    @Test
    void shouldReturnOneAndNotavailInTheSecondSlotForAGoodAndABadAddress()
    {
        try (AddressVector av = open(8))
        {
            final long[] fiAddr = new long[2];
            assertEquals(1, av.insert(new String[]{ addr(DOMAIN, 0), "fi_shm://" }, 2, fiAddr, 0, 0));
            assertEquals(0, fiAddr[0]);
            assertEquals(Addresses.FI_ADDR_NOTAVAIL, fiAddr[1]);
        }
    }

    @Test
    void shouldWriteEachStatusUnderSyncErr()
    {
        try (AddressVector av = open(8))
        {
            final long[] fiAddr = new long[2];
            final int[] status = { -7, -7 };
            assertEquals(1, av.insert(new String[]{ addr(DOMAIN, 0), "garbage" }, 2, fiAddr, Flags.FI_SYNC_ERR, 0,
                status));
            assertEquals(0, status[0]);
            assertNotEquals(0, status[1]);
            assertEquals(Errno.FI_EINVAL, status[1]);
            assertEquals(Addresses.FI_ADDR_NOTAVAIL, fiAddr[1]);
            assertErrno(Errno.FI_EINVAL, () -> av.insert(addrs(DOMAIN, 0, 2), 2, null, Flags.FI_SYNC_ERR, 0, null));
        }
    }

    @Test
    void shouldRefuseOtherHostsAndDomainsAsLocalCommOnly()
    {
        try (AddressVector av = open(8))
        {
            final String[] foreign = {
                ShmAddress.format("some-other-host.example", 1, DOMAIN, 0),
                ShmAddress.format(LocalHost.name(), 1, "payments", 0),
                ShmAddress.format(LocalHost.name(), 64, DOMAIN, 0),
                addr(DOMAIN, 63)
            };
            final long[] fiAddr = new long[4];
            final int[] status = new int[4];
            assertEquals(1, av.insert(foreign, 4, fiAddr, Flags.FI_SYNC_ERR, 0, status));
            assertArrayEquals(new int[]{ Errno.FI_EADDRNOTAVAIL, Errno.FI_EADDRNOTAVAIL, Errno.FI_EINVAL, 0 }, status);
            assertEquals(Addresses.FI_ADDR_NOTAVAIL, fiAddr[0]);
            assertEquals(0, fiAddr[3]);
        }
    }

    @Test
    void shouldRefuseUnknownInsertFlags()
    {
        try (AddressVector av = open(8))
        {
            assertErrno(Errno.FI_EBADFLAGS, () -> av.insert(addrs(DOMAIN, 0, 1), 1, null, Flags.FI_READ, 0));
            assertErrno(Errno.FI_EINVAL, () -> av.lookup(0));
        }
    }

    @Test
    void shouldRefuseLookupOfNAndNPlus32AndAllOnesAndARemovedIndex()
    {
        try (AddressVector av = open(8))
        {
            final int n = 4;
            final long[] fiAddr = new long[n];
            assertEquals(n, av.insert(addrs(DOMAIN, 0, n), n, fiAddr, 0, 0));
            assertErrno(Errno.FI_EINVAL, () -> av.lookup(n, new byte[64]));
            assertErrno(Errno.FI_EINVAL, () -> av.lookup(n + 32, new byte[64]));
            assertErrno(Errno.FI_EINVAL, () -> av.lookup(-1L, new byte[64]));
            av.remove(new long[]{ fiAddr[1] }, 1, 0);
            assertErrno(Errno.FI_EINVAL, () -> av.lookup(fiAddr[1], new byte[64]));
            assertEquals(addr(DOMAIN, 2), av.lookup(fiAddr[2]));
        }
    }

    @Test
    void shouldRefuseRemoveOfNPlus1AndNPlus32AndAllOnesAndTwiceAndAVectorHoldingARemovedAddress()
    {
        try (AddressVector av = open(8))
        {
            final int n = 4;
            final long[] fiAddr = new long[n];
            assertEquals(n, av.insert(addrs(DOMAIN, 0, n), n, fiAddr, 0, 0));
            assertErrno(Errno.FI_EINVAL, () -> av.remove(new long[]{ n + 1 }, 1, 0));
            assertErrno(Errno.FI_EINVAL, () -> av.remove(new long[]{ n + 32 }, 1, 0));
            assertErrno(Errno.FI_EINVAL, () -> av.remove(new long[]{ -1L }, 1, 0));
            av.remove(new long[]{ fiAddr[0] }, 1, 0);
            assertErrno(Errno.FI_EINVAL, () -> av.remove(new long[]{ fiAddr[0] }, 1, 0));
            assertErrno(Errno.FI_EINVAL, () -> av.remove(new long[]{ fiAddr[1], fiAddr[0], fiAddr[2] }, 3, 0));
            assertEquals(addr(DOMAIN, 1), av.lookup(fiAddr[1]), "a refused vector changes nothing");
            assertEquals(addr(DOMAIN, 2), av.lookup(fiAddr[2]));
            assertErrno(Errno.FI_EBADFLAGS, () -> av.remove(new long[]{ fiAddr[1] }, 1, Flags.FI_MORE));
        }
    }

    @Test
    void shouldPrintTheCanonicalAddressWithStraddr()
    {
        try (AddressVector av = open(8))
        {
            final String text = ShmAddress.format(LocalHost.name(), 3, DOMAIN, 2);
            assertEquals(text, av.straddr(text));
            final byte[] buf = new byte[10];
            assertEquals(text.length() + 1, av.straddr(text, buf));
            assertEquals(text.substring(0, 10), new String(buf, StandardCharsets.US_ASCII));
            assertErrno(Errno.FI_EINVAL, () -> av.straddr("fi_shm://x:01/orders"));
        }
    }

    @Test
    void shouldInsertByNodeAndServiceAndByAddressStringNode()
    {
        try (AddressVector av = open(8))
        {
            final long[] fiAddr = new long[1];
            assertEquals(1, av.insertsvc("localhost", "7", fiAddr, 0, 0, null));
            assertEquals(7, ((ShmAddressVector)av).slotOf(fiAddr[0]));
            assertEquals(1, av.insertsvc(LocalHost.name(), "8/" + DOMAIN + "?gen=3", fiAddr, 0, 0, null));
            assertEquals(3, ((ShmAddressVector)av).incarnationOf(fiAddr[0]));
            assertEquals(1, av.insertsvc(addr(DOMAIN, 9), null, fiAddr, 0, 0, null));
            assertEquals(9, ((ShmAddressVector)av).slotOf(fiAddr[0]));
            final int[] status = new int[1];
            assertEquals(0, av.insertsvc("far-away.example", "1", fiAddr, Flags.FI_SYNC_ERR, 0, status));
            assertEquals(Errno.FI_EADDRNOTAVAIL, status[0]);
            assertEquals(Addresses.FI_ADDR_NOTAVAIL, fiAddr[0]);
        }
    }

    @Test
    void shouldInsertSymmetricRangesNodeByNodeWithTheNumericSuffixRule()
    {
        try (AddressVector av = open(16))
        {
            final long[] fiAddr = new long[4];
            final int[] status = new int[4];
            assertEquals(4, av.insertsym("127.0.0.1", 2, "5", 2, fiAddr, Flags.FI_SYNC_ERR, 0, status),
                "127.0.0.1 and 127.0.0.2 are both this host's loopback");
            assertArrayEquals(new long[]{ 0, 1, 2, 3 }, fiAddr);
            assertEquals("fi_shm://127.0.0.1:5/" + DOMAIN, av.lookup(0));
            assertEquals("fi_shm://127.0.0.1:6/" + DOMAIN, av.lookup(1));
            assertEquals("fi_shm://127.0.0.2:5/" + DOMAIN, av.lookup(2));
            assertEquals("fi_shm://127.0.0.2:6/" + DOMAIN, av.lookup(3));

            final long[] hosts = new long[4];
            final int[] hostStatus = new int[4];
            assertEquals(0, av.insertsym("host10", 2, "0", 2, hosts, Flags.FI_SYNC_ERR, 0, hostStatus));
            assertArrayEquals(new int[]{ Errno.FI_EADDRNOTAVAIL, Errno.FI_EADDRNOTAVAIL, Errno.FI_EADDRNOTAVAIL,
                Errno.FI_EADDRNOTAVAIL }, hostStatus, "host10, host11 are not this host");
            assertErrno(Errno.FI_EINVAL, () -> av.insertsym("localhost", 2, "0", 1, null, 0, 0, null));
            assertEquals(3, av.insertsym("localhost", 1, "10", 3, null, 0, 0, null));
        }
    }

    @Test
    void shouldRefuseAnInsertsymOfMoreAddressesThanTheTableHoldsBeforeMakingThem()
    {
        try (AddressVector av = domain.avOpen(new AvAttr().count(16), 0))
        {
            final FabricException huge = assertThrows(FabricException.class,
                () -> av.insertsym("host1", 46_340, "0", 46_340, null, 0, 0, null));
            assertEquals(Errno.FI_EINVAL, huge.errno());
            assertTrue(huge.getMessage().contains("46340 nodes x 46340 services = 2147395600 addresses, more than " +
                "the AV's table holds (16 entries)"), huge.getMessage());
            assertErrno(Errno.FI_EINVAL, () -> av.insertsym("localhost", 1, "0", 17, null, 0, 0, null));

            assertEquals(16, av.insertsym("localhost", 1, "0", 16, null, 0, 0, null), "a table's worth still goes in");
        }
    }

    @Test
    void shouldEncodeRxAndGroupAddresses()
    {
        assertEquals((3L << 62) | 5, AddressVector.rxAddr(5, 3, 2));
        assertEquals(5, AddressVector.rxAddr(5, 3, 0));
        assertEquals((7L << 32) | 5, AddressVector.groupAddr(5, 7), "fi_group_addr: group id << 32 | fi_addr");
        assertEquals(0xFFFF_FFFF_0000_0005L, AddressVector.groupAddr(5, -1), "the group id is unsigned 32 bits");
        try (AddressVector av = domain.avOpen(new AvAttr().rxCtxBits(2), 0))
        {
            final long[] fiAddr = new long[1];
            av.insert(new String[]{ addr(DOMAIN, 11) }, 1, fiAddr, 0, 0);
            final ShmAddressVector shm = (ShmAddressVector)av;
            assertEquals(11, shm.slotOf(AddressVector.rxAddr(fiAddr[0], 1, 2)));
            assertEquals(1, shm.rxIndexOf(AddressVector.rxAddr(fiAddr[0], 1, 2)), "the top rx_ctx_bits name a context");
            assertEquals(0, shm.rxIndexOf(fiAddr[0]));
            assertEquals(-1, shm.slotOf(AddressVector.groupAddr(fiAddr[0], 9)),
                "shm offers no peer groups: an fi_addr with a group id names no entry");
            assertErrno(Errno.FI_EINVAL, () -> av.lookup(AddressVector.groupAddr(fiAddr[0], 9)));
        }
    }

    @Test
    void shouldInsertLookUpAndRemoveAuthorizationKeys()
    {
        try (AddressVector av = keyedDomain().avOpen(new AvAttr().type(AvType.TABLE).count(8), 0))
        {
            assertErrno(Errno.FI_EINVAL, () -> av.insertAuthKey(new byte[0], 0));
            assertErrno(Errno.FI_EINVAL, () -> av.insertAuthKey(new byte[65], 0));
            assertErrno(Errno.FI_EBADFLAGS, () -> av.insertAuthKey(new byte[8], Flags.FI_MORE));
            final byte[] key = "job-42".getBytes(StandardCharsets.US_ASCII);
            final long handle = av.insertAuthKey(key, 0);

            final long[] fiAddr = { handle, handle };
            assertEquals(2, av.insert(addrs(DOMAIN, 0, 2), 2, fiAddr, Flags.FI_AUTH_KEY, 0));
            assertNotEquals(handle, fiAddr[0]);
            final byte[] out = new byte[3];
            assertEquals(key.length, av.lookupAuthKey(fiAddr[1], out), "an address reports its key's size");
            assertEquals("job", new String(out, StandardCharsets.US_ASCII), "truncated to the buffer");
            final byte[] whole = new byte[64];
            assertEquals(key.length, av.lookupAuthKey(handle, whole));
            assertArrayEquals(key, Arrays.copyOf(whole, key.length));

            assertErrno(Errno.FI_EINVAL, () -> av.lookup(handle), "a key handle is not an address");
            assertErrno(Errno.FI_EINVAL, () -> av.remove(new long[]{ handle }, 1, 0), "keys need FI_AUTH_KEY");
            assertErrno(Errno.FI_EBUSY, () -> av.remove(new long[]{ handle }, 1, Flags.FI_AUTH_KEY));
            av.remove(fiAddr, 2, 0);
            av.remove(new long[]{ handle }, 1, Flags.FI_AUTH_KEY);
            assertErrno(Errno.FI_EINVAL, () -> av.lookupAuthKey(handle, whole));

            final long[] plain = new long[1];
            av.insert(addrs(DOMAIN, 5, 1), 1, plain, 0, 0);
            assertErrno(Errno.FI_ENOKEY, () -> av.lookupAuthKey(plain[0], whole));
            final long[] stale = { handle };
            final int[] status = new int[1];
            assertEquals(0, av.insert(addrs(DOMAIN, 6, 1), 1, stale, Flags.FI_AUTH_KEY | Flags.FI_SYNC_ERR, 0,
                status));
            assertEquals(Errno.FI_EINVAL, status[0], "a removed key handle does not insert");
        }
    }

    @Test
    void shouldKeepUserIdsPerInsertOnAnAvWithoutUserIdMode()
    {
        try (AddressVector av = open(8))
        {
            final long[] fiAddr = { 1000, 2000 };
            assertEquals(2, av.insert(addrs(DOMAIN, 0, 2), 2, fiAddr, Flags.FI_AV_USER_ID, 0));
            assertArrayEquals(new long[]{ 0, 1 }, fiAddr, "the output is still the fi_addr");
            assertEquals(1000, av.userId(0));
            assertEquals(2000, av.userId(1));
            assertErrno(Errno.FI_EINVAL, () -> av.insert(addrs(DOMAIN, 2, 1), 1, null, Flags.FI_AV_USER_ID, 0));
            assertErrno(Errno.FI_EINVAL, () -> av.setUserId(0, 5, 0), "set_user_id needs FI_AV_USER_ID at open");
        }
    }

    @Test
    void shouldAcceptFiAvAuthKeyDomainsAndReportTheModeBack()
    {
        final Info info = AvTestSupport.keyedInfo(provider, DOMAIN);
        assertEquals(DomainAttr.FI_AV_AUTH_KEY, info.domainAttr().authKeySize(), "getinfo reports it back");
        assertEquals(DomainAttr.FI_AV_AUTH_KEY, keyedDomain().attr().authKeySize(), "so does the domain");
        assertEquals(0, domain.attr().authKeySize());
        assertTrue(info.domainAttr().toString().contains("auth_key_size: 18446744073709551615"),
            "fi_tostr prints SIZE_MAX as libfabric's %zu does");
    }

    @Test
    void shouldRefuseAuthKeysWithoutFiAvAuthKeyAndPerInsertUserIdsWithIt()
    {
        try (AddressVector plain = open(8);
            AddressVector keyed = keyedDomain().avOpen(new AvAttr().count(8), 0))
        {
            assertErrno(Errno.FI_EINVAL, () -> plain.insertAuthKey(new byte[]{ 1 }, 0),
                "fi_av_insert_auth_key requires a domain opened with FI_AV_AUTH_KEY");
            assertErrno(Errno.FI_EINVAL, () -> plain.insert(addrs(DOMAIN, 1, 1), 1, new long[]{ 0 },
                Flags.FI_AUTH_KEY, 0));
            assertErrno(Errno.FI_EINVAL, () -> keyed.insert(addrs(DOMAIN, 1, 1), 1, new long[]{ 5 },
                Flags.FI_AV_USER_ID, 0), "per insert FI_AV_USER_ID is invalid on an FI_AV_AUTH_KEY domain");
            final long[] userIds = { 5 };
            assertEquals(1, plain.insert(addrs(DOMAIN, 1, 1), 1, userIds, Flags.FI_AV_USER_ID, 0));
            assertEquals(5, plain.userId(userIds[0]), "but valid on other domains");
            final long key = keyed.insertAuthKey(new byte[]{ 1 }, 0);
            final long[] fiAddr = { key };
            assertEquals(1, keyed.insert(addrs(DOMAIN, 2, 1), 1, fiAddr, Flags.FI_AUTH_KEY, 0));
        }
    }

    @Test
    void shouldDefaultUserIdsToNotavailAndSetThemWithUserIdMode()
    {
        try (AddressVector av = keyedDomain().avOpen(new AvAttr().flags(Flags.FI_AV_USER_ID), 0))
        {
            final long[] fiAddr = new long[1];
            av.insert(addrs(DOMAIN, 0, 1), 1, fiAddr, 0, 0);
            assertEquals(Addresses.FI_ADDR_NOTAVAIL, av.userId(fiAddr[0]));
            av.setUserId(fiAddr[0], 0xABCL, 0);
            assertEquals(0xABCL, av.userId(fiAddr[0]));
            assertErrno(Errno.FI_EINVAL, () -> av.insert(addrs(DOMAIN, 1, 1), 1, new long[]{ 1 },
                Flags.FI_AV_USER_ID, 0), "per insert FI_AV_USER_ID is invalid with FI_AV_USER_ID at open");
            assertErrno(Errno.FI_EINVAL, () -> av.setUserId(5, 1, 0));
            final long key = av.insertAuthKey(new byte[]{ 1 }, 0);
            assertErrno(Errno.FI_EINVAL, () -> av.setUserId(key, 1, 0));
            av.setUserId(key, 77, Flags.FI_AUTH_KEY);
            assertEquals(77, av.userId(key));
        }
    }

    @Test
    void shouldRefuseCloseWhileRetainedAndReleaseTheDomain()
    {
        final AddressVector av = open(8);
        assertErrno(Errno.FI_EBUSY, domain::close);
        ((ShmAddressVector)av).retain("fi_ep_bind");
        assertErrno(Errno.FI_EBUSY, av::close);
        ((ShmAddressVector)av).release();
        av.close();
        av.close();
        assertErrno(Errno.FI_EBADF, () -> av.lookup(0));
        assertEquals(-1, ((ShmAddressVector)av).slotOf(0));
    }

    @Test
    void shouldFillTheTableAndReportEnospc()
    {
        try (AddressVector av = open(16))
        {
            final int[] status = new int[17];
            assertEquals(16, av.insert(addrs(DOMAIN, 0, 17), 17, null, Flags.FI_SYNC_ERR, 0, status));
            assertEquals(Errno.FI_ENOSPC, status[16]);
        }
    }

    @Test
    void shouldResolveFiAddrToSlotWithoutAllocating()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        try (AddressVector av = open(8))
        {
            final ShmAddressVector shm = (ShmAddressVector)av;
            final long[] fiAddr = new long[3];
            av.insert(addrs(DOMAIN, 4, 3), 3, fiAddr, 0, 0);
            long sum = resolve(shm, fiAddr);
            final long before = threads.getCurrentThreadAllocatedBytes();
            sum += resolve(shm, fiAddr);
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(2 * 10_000L * (4 + 5 + 6 - 1 - 1), sum, "slots 4, 5, 6, incarnation 0, two misses");
            assertEquals(0, allocated, "slotOf and incarnationOf allocate nothing");
        }
    }

    private static long resolve(final ShmAddressVector av, final long[] fiAddr)
    {
        long sum = 0;
        for (int i = 0; i < 10_000; i++)
        {
            for (final long a : fiAddr)
            {
                sum += av.slotOf(a) + av.incarnationOf(a);
            }
            sum += av.slotOf(-1L) + av.slotOf(fiAddr[2] + 1);
        }
        return sum;
    }
}
