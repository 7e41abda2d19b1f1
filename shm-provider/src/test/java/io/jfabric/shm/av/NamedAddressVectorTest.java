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
import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.Domain;
import io.jfabric.EqAttr;
import io.jfabric.EqEntry;
import io.jfabric.EqErrEntry;
import io.jfabric.EqEvent;
import io.jfabric.Errno;
import io.jfabric.EventQueue;
import io.jfabric.Flags;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.testsupport.ChildJvm;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.jfabric.shm.av.AvTestSupport.addr;
import static io.jfabric.shm.av.AvTestSupport.addrs;
import static io.jfabric.shm.av.AvTestSupport.assertErrno;
import static io.jfabric.shm.av.AvTestSupport.info;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Named AVs in their shared files (in one JVM, through separate domain opens), map_addr, FI_READ, header checks,
 * dead claimers, and FI_EVENT inserts.
 */
class NamedAddressVectorTest extends AvDomainTestBase
{
    @Override
    String epCount()
    {
        return "32";
    }

    /** @return the file of this test's domain's AV {@code name}: named for the domain's region. */
    private Path avFile(final String name)
    {
        return root.dir().resolve(AvDescriptor.fileName(DOMAIN, name, ((ShmDomain)domain).region().regionNonce()));
    }

    private AddressVector open(final Domain d, final String name, final long mapAddr, final long flags)
    {
        return d.avOpen(new AvAttr().name(name).count(16).mapAddr(mapAddr).flags(flags), 0);
    }

    /** A named FI_AV_MAP: the type whose fi_addr values are map_addr + index. */
    private AddressVector openMap(final Domain d, final String name, final long mapAddr)
    {
        return d.avOpen(new AvAttr().type(AvType.MAP).name(name).count(16).mapAddr(mapAddr), 0);
    }

    @Test
    void shouldShareEntriesAndFiAddrsBetweenOpensAtTheSameMapAddr()
    {
        try (Domain other = fabric.domain(info(provider, DOMAIN), 0);
            AddressVector first = open(domain, "peers", 0x1000, 0);
            AddressVector second = open(other, "peers", 0x1000, 0))
        {
            assertTrue(Files.isRegularFile(avFile("peers")));
            assertEquals(AvType.TABLE, first.attr().type());
            final long[] a = new long[3];
            assertEquals(3, first.insert(addrs(DOMAIN, 0, 3), 3, a, 0, 0));
            assertArrayEquals(new long[]{ 0, 1, 2 }, a, "FI_AV_TABLE fi_addr values are indices from 0, map_addr " +
                "or not (fi_av(3))");
            final long[] b = new long[1];
            assertEquals(1, second.insert(addrs(DOMAIN, 9, 1), 1, b, 0, 0));
            assertEquals(3, b[0], "indices are shared: the next insert anywhere takes the next index");
            for (int i = 0; i < 3; i++)
            {
                assertEquals(addr(DOMAIN, i), second.lookup(a[i]));
            }
            assertEquals(addr(DOMAIN, 9), first.lookup(b[0]));
            second.remove(new long[]{ a[1] }, 1, 0);
            assertErrno(Errno.FI_EINVAL, () -> first.lookup(a[1]));
            assertEquals(-1, ((ShmAddressVector)first).slotOf(a[1]));
        }
    }

    @Test
    void shouldReturnTheCreatorsMapAddrForZeroAndHonourAnotherOneForAMap()
    {
        try (AddressVector creator = openMap(domain, "peers", 0x7000);
            AddressVector zero = openMap(domain, "peers", 0);
            AddressVector elsewhere = openMap(domain, "peers", 0x9000))
        {
            assertEquals(0x7000, creator.attr().mapAddr());
            assertEquals(0x7000, zero.attr().mapAddr(), "0 on input returns the map_addr in use");
            assertEquals(0x9000, elsewhere.attr().mapAddr());
            final long[] a = new long[1];
            creator.insert(addrs(DOMAIN, 4, 1), 1, a, 0, 0);
            assertEquals(0x7000, a[0]);
            assertEquals(4, ((ShmAddressVector)zero).slotOf(0x7000));
            assertEquals(4, ((ShmAddressVector)elsewhere).slotOf(0x9000), "same index at another base");
            assertErrno(Errno.FI_EINVAL, () -> elsewhere.lookup(0x7000));
        }
        assertErrno(Errno.FI_EINVAL, () -> openMap(domain, "peers", (1L << 32) - 4), "no room below bit 32");
        assertErrno(Errno.FI_EINVAL, () -> openMap(domain, "peers", -16));
        try (AddressVector unnamed = domain.avOpen(new AvAttr().mapAddr(0x5000), 0))
        {
            assertEquals(0, unnamed.attr().mapAddr(), "map_addr is ignored without a name");
        }
    }

    @Test
    void shouldCreateNothingWhenTheFirstOpenGivesABadMapAddr()
    {
        final Path file = avFile("fresh");
        assertErrno(Errno.FI_EINVAL, () -> openMap(domain, "fresh", (1L << 48) - 4));
        assertErrno(Errno.FI_EINVAL, () -> openMap(domain, "fresh", -16));
        assertTrue(Files.notExists(file), "a rejected map_addr leaves no file behind");
        try (AddressVector av = open(domain, "fresh", 0, 0))
        {
            assertEquals(0, av.attr().mapAddr(), "the next open creates the AV as if nothing had happened");
            final long[] a = new long[1];
            assertEquals(1, av.insert(addrs(DOMAIN, 2, 1), 1, a, 0, 0));
        }
        assertEquals(0, ((io.jfabric.shm.domain.ShmDomain)domain).references(), "failed opens hold no domain reference");
    }

    @Test
    void shouldRefuseAMapAddrWhoseLastFiAddrWouldBeAllOnesInTheLow32BitsForAMap()
    {
        final long lastAllowed = (1L << 32) - 17;
        assertErrno(Errno.FI_EINVAL, () -> openMap(domain, "edge", lastAllowed + 1), "map_addr + 16 entries == 2^32 " +
            "makes the last fi_addr 0xFFFFFFFF, which fi_group_addr(x, 0xFFFFFFFF) turns into FI_ADDR_NOTAVAIL");
        assertTrue(Files.notExists(avFile("edge")));
        try (AddressVector av = openMap(domain, "edge", lastAllowed))
        {
            assertEquals(lastAllowed, av.attr().mapAddr());
            assertEquals(0xFFFF_FFFEL, lastAllowed + av.attr().count() - 1, "the last fi_addr stays below all ones");
        }
    }

    @Test
    void shouldKeepFiAddrsInTheLow32BitsAndResolveGroupAddressesForAMap()
    {
        final long top = (1L << 32) - 17;
        assertErrno(Errno.FI_EINVAL, () -> openMap(domain, "high", top + 1), "16 entries from top + 1 reach 2^32");
        assertTrue(Files.notExists(avFile("high")));
        try (AddressVector av = openMap(domain, "high", top))
        {
            final long[] a = new long[1];
            assertEquals(1, av.insert(addrs(DOMAIN, 6, 1), 1, a, 0, 0));
            assertEquals(top, a[0]);
            final ShmAddressVector shm = (ShmAddressVector)av;
            assertEquals(-1, shm.slotOf(AddressVector.groupAddr(a[0], 3)), "no peer groups: a group id names no entry");
            assertEquals(-1, shm.slotOf(AddressVector.groupAddr(a[0] + 1, 3)), "the low bits still name the entry");
            assertErrno(Errno.FI_EINVAL, () -> openMap(domain, "high", top + 8), "an opener's map_addr is checked " +
                "against the existing table too");
        }
    }

    @Test
    void shouldOpenReadOnlyOnlyAnExistingNamedAvThatSeesUpdatesAndCannotWrite()
    {
        assertErrno(Errno.FI_ENOENT, () -> open(domain, "absent", 0, Flags.FI_READ));
        try (AddressVector writer = open(domain, "peers", 0, 0);
            AddressVector reader = open(domain, "peers", 0, Flags.FI_READ))
        {
            final long[] a = new long[2];
            writer.insert(addrs(DOMAIN, 1, 2), 2, a, 0, 0);
            assertEquals(addr(DOMAIN, 2), reader.lookup(a[1]));
            assertEquals(1, ((ShmAddressVector)reader).slotOf(a[0]));
            assertErrno(Errno.FI_EPERM, () -> reader.insert(addrs(DOMAIN, 5, 1), 1, null, 0, 0));
            assertErrno(Errno.FI_EPERM, () -> reader.remove(a, 1, 0));
            assertErrno(Errno.FI_EPERM, () -> reader.insertAuthKey(new byte[]{ 1 }, 0));
            assertErrno(Errno.FI_EPERM, () -> reader.setUserId(a[0], 1, 0));
            writer.remove(new long[]{ a[0] }, 1, 0);
            assertErrno(Errno.FI_EINVAL, () -> reader.lookup(a[0]));
        }
    }

    @Test
    void shouldNeverOpenTheAvOfAnEarlierRegionOfTheDomain() throws Exception
    {
        final Path earlier;
        try (Domain first = fabric.domain(info(provider, "again"), 0);
            AddressVector av = open(first, "peers", 0, 0))
        {
            av.insert(addrs("again", 0, 2), 2, new long[2], 0, 0);
            try (Stream<Path> files = Files.list(root.dir()))
            {
                earlier = files.filter(f -> f.getFileName().toString().matches("again\\.peers\\..*av"))
                    .findFirst().orElseThrow();
            }
        }
        Files.delete(root.dir().resolve("again.domain")); // Unused now: as jfabric clean would remove it.

        try (Domain second = fabric.domain(info(provider, "again"), 0))
        {
            assertTrue(Files.notExists(earlier), "the next opener of the domain removed the earlier region's AV");
            assertErrno(Errno.FI_ENOENT, () -> open(second, "peers", 0, Flags.FI_READ), "the old AV is not this " +
                "region's");
            try (AddressVector av = open(second, "peers", 0, 0))
            {
                assertErrno(Errno.FI_EINVAL, () -> av.lookup(0), "a new, empty table");
            }
        }
    }

    @Test
    void shouldRefuseDamagedForeignAndOtherDomainFiles() throws Exception
    {
        open(domain, "peers", 0, 0).close();
        final Path file = avFile("peers");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, AvDescriptor.HEADER_LENGTH);
            final UnsafeBuffer header = new UnsafeBuffer(mapped);
            header.putInt(AvDescriptor.DOMAIN_NAME_OFFSET + 2, 'X');
            assertErrno(Errno.FI_ECRC, () -> open(domain, "peers", 0, 0));
            header.putLong(AvDescriptor.MAGIC_OFFSET, 42);
            assertErrno(Errno.FI_EINVAL, () -> open(domain, "peers", 0, 0));
            IoUtil.unmap(mapped);
        }

        open(domain, "copy", 0, 0).close();
        Files.copy(avFile("copy"), avFile("stolen"));
        assertErrno(Errno.FI_EINVAL, () -> open(domain, "stolen", 0, 0));
        Files.write(avFile("short"), new byte[100]);
        assertErrno(Errno.FI_EINVAL, () -> open(domain, "short", 0, 0));
    }

    @Test
    void shouldReclaimAnEntryClaimedByAProcessThatDied() throws Exception
    {
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        try (AddressVector av = open(domain, "peers", 0, 0))
        {
            final Path file = avFile("peers");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
                final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
                buffer.putLongVolatile(AvDescriptor.entryOffset(0) + AvDescriptor.STATE_OFFSET,
                    AvDescriptor.claimed(ProcessIdentity.of(gone.pid(), 0)));
                final long parent = ProcessHandle.current().parent().orElseThrow().pid();
                buffer.putLongVolatile(AvDescriptor.entryOffset(1) + AvDescriptor.STATE_OFFSET,
                    AvDescriptor.claimed(ProcessIdentity.ofLiveProcess(parent)));
                final long[] a = new long[2];
                assertEquals(2, av.insert(addrs(DOMAIN, 0, 2), 2, a, 0, 0));
                assertEquals(0, a[0], "the dead claimer's entry is free again");
                assertEquals(2, a[1], "a live claimer's entry stays claimed");
                IoUtil.unmap(mapped);
            }
        }
    }

    @Test
    void shouldReclaimAnEntryClaimedByAnEarlierProcessWithThisPid() throws Exception
    {
        final long self = ProcessIdentity.self();
        final long earlier = ProcessIdentity.of(ProcessIdentity.pid(self), ProcessIdentity.start(self) - 1);
        try (AddressVector av = open(domain, "reused", 0, 0))
        {
            final Path file = avFile("reused");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
                final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
                final int state = AvDescriptor.entryOffset(0) + AvDescriptor.STATE_OFFSET;
                buffer.putLongVolatile(state, AvDescriptor.claimed(earlier));
                final long[] a = new long[1];
                assertEquals(1, av.insert(addrs(DOMAIN, 0, 1), 1, a, 0, 0));
                assertEquals(0, a[0], "the claim of the process that had this pid before is taken back");
                assertTrue(AvDescriptor.isValid(buffer.getLongVolatile(state)));
                IoUtil.unmap(mapped);
            }
        }
    }

    @Test
    void shouldCompleteFiEventInsertsOnTheBoundQueue()
    {
        try (EventQueue eq = fabric.eqOpen(new EqAttr(), 0);
            AddressVector av = domain.avOpen(new AvAttr().flags(Flags.FI_EVENT), 0))
        {
            assertErrno(Errno.FI_ENOEQ, () -> av.insert(addrs(DOMAIN, 0, 1), 1, null, 0, 5));
            assertErrno(Errno.FI_EBADFLAGS, () -> av.bind(eq, 1));
            assertErrno(Errno.FI_EINVAL, () -> av.bind(null, 0));
            av.bind(eq, 0);
            assertErrno(Errno.FI_EINVAL, () -> av.bind(eq, 0));
            assertErrno(Errno.FI_EBUSY, eq::close);

            final long[] fiAddr = new long[3];
            assertEquals(0, av.insert(new String[]{ addr(DOMAIN, 0), "bad", addr(DOMAIN, 1) }, 3, fiAddr, 0, 99));
            assertEquals(Long.valueOf(-1L), Long.valueOf(fiAddr[1]));
            assertErrno(Errno.FI_EINVAL, () -> av.insert(addrs(DOMAIN, 0, 1), 1, null, Flags.FI_SYNC_ERR, 0,
                new int[1]), "FI_SYNC_ERR is for synchronous AVs");

            final EqEntry entry = new EqEntry();
            assertEquals(-Errno.FI_EAVAIL, eq.read(entry, 0), "the error precedes the completion");
            final EqErrEntry err = new EqErrEntry();
            assertEquals(1, eq.readErr(err, 0));
            assertSame(av, err.fid());
            assertEquals(99, err.context());
            assertEquals(1, err.data(), "the failed address's position");
            assertEquals(Errno.FI_EINVAL, err.err());
            assertTrue(eq.read(entry, 0) > 0);
            assertEquals(EqEvent.AV_COMPLETE.value(), entry.event());
            assertEquals(99, entry.context());
            assertEquals(2, entry.data(), "the count inserted");
            assertEquals(-Errno.FI_EAGAIN, eq.read(entry, 0));

            av.close();
            eq.close();
        }
    }

    @Test
    void shouldGiveEagainWhileAnUpdaterProcessLivesAndRecoverTheEntryOnceItIsKilled() throws Exception
    {
        try (AddressVector av = open(domain, "held", 0, Flags.FI_AV_USER_ID))
        {
            final long[] fiAddr = new long[1];
            assertEquals(1, av.insert(addrs(DOMAIN, 3, 1), 1, fiAddr, 0, 0));
            final Path file = avFile("held");
            final ChildJvm holder = ChildJvm.start(AvUpdaterHolderMain.class, List.of(), file.toString(),
                String.valueOf(fiAddr[0]));
            final ProcessHandle process = ProcessHandle.of(holder.pid()).orElseThrow();
            try
            {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
                {
                    final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
                    final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
                    final int state = AvDescriptor.entryOffset((int)fiAddr[0]) + AvDescriptor.STATE_OFFSET;
                    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (!AvDescriptor.isUpdating(buffer.getLongVolatile(state)) && process.isAlive() &&
                        System.nanoTime() < deadline)
                    {
                        Thread.sleep(5);
                    }
                    assertTrue(AvDescriptor.isUpdating(buffer.getLongVolatile(state)), "the child holds the bit");
                    IoUtil.unmap(mapped);
                }
                finally
                {
                    if (!process.isAlive())
                    {
                        holder.awaitSuccess(1); // Shows what the child printed.
                    }
                }

                assertErrno(Errno.FI_EAGAIN, () -> av.remove(fiAddr, 1, 0), "a live updater keeps the entry");
                assertErrno(Errno.FI_EAGAIN, () -> av.setUserId(fiAddr[0], 7, 0));
            }
            finally
            {
                process.destroyForcibly();
            }
            process.onExit().get(30, TimeUnit.SECONDS);
            av.setUserId(fiAddr[0], 7, 0);
            assertEquals(7, av.userId(fiAddr[0]), "the killed updater's bit was cleared and the id written");
            av.remove(fiAddr, 1, 0);
            assertErrno(Errno.FI_EINVAL, () -> av.lookup(fiAddr[0]), "removed");
        }
    }
}
