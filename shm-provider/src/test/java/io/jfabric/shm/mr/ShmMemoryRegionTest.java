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
package io.jfabric.shm.mr;

import io.jfabric.MemoryRegion;
import io.jfabric.MrAttr;
import io.jfabric.MrIov;
import io.jfabric.MrMode;
import io.jfabric.ShareableMemory;
import io.jfabric.shm.core.DomainResources;
import io.jfabric.shm.domain.ShmDomain;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static io.jfabric.Errno.*;
import static io.jfabric.Flags.*;
import static io.jfabric.shm.mr.MrTestDomains.assertErrno;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fi_mr(3) registration rules over the shm provider: libfabric's MR test matrix (every access combination by sizes
 * 1 B to 1 MiB, regv with 1..mr_iov_limit entries, regattr), keys, argument checks and close rules.
 */
class ShmMemoryRegionTest
{
    private static final long[] ACCESS_BITS = {FI_SEND, FI_RECV, FI_READ, FI_WRITE, FI_REMOTE_READ, FI_REMOTE_WRITE};
    private static final int MIB = 1 << 20;

    private final MrTestDomains domains = new MrTestDomains();

    @AfterEach
    void tearDown()
    {
        domains.close();
    }

    private static long access(final int combination)
    {
        long access = 0;
        for (int bit = 0; bit < ACCESS_BITS.length; bit++)
        {
            if ((combination & (1 << bit)) != 0)
            {
                access |= ACCESS_BITS[bit];
            }
        }
        return access;
    }

    @Test
    void shouldLetAPeerReadOnlyWithRemoteReadAndWriteOnlyWithRemoteWriteForEveryCombinationAndSize()
    {
        final ShmDomain owner = domains.open("enforce", 0);
        final ShmDomain peer = domains.open("enforce", 0);
        final UnsafeBuffer dst = new UnsafeBuffer(new byte[MIB]);
        final UnsafeBuffer src = new UnsafeBuffer(new byte[MIB]);
        try (ShareableMemory memory = owner.allocShareable(MIB); RemoteMemory remote = peer.remoteMemory())
        {
            final UnsafeBuffer target = new UnsafeBuffer(memory.buffer());
            int checked = 0;
            for (int size = 1; size <= MIB; size <<= 1)
            {
                final int at = MIB - size;
                for (int combination = 0; combination < 1 << ACCESS_BITS.length; combination++)
                {
                    final long access = access(combination);
                    final long key = (long)size * 64 + combination;
                    final byte before = (byte)(0x11 + combination);
                    final byte written = (byte)~before;
                    target.setMemory(at, size, before);
                    src.setMemory(0, size, written);
                    dst.setMemory(0, size, (byte)0);
                    try (MemoryRegion mr = owner.mrRegv(
                        new MrIov[]{MrIov.of(memory, at, size)}, access, 0, key, 0, 0))
                    {
                        final String what = "access 0x" + Long.toHexString(access) + ", " + size + " B";
                        final boolean mayRead = (access & FI_REMOTE_READ) != 0;
                        final boolean mayWrite = (access & FI_REMOTE_WRITE) != 0;
                        assertEquals(mayRead ? 0 : -FI_EACCES, remote.read(key, 0, dst, 0, size), what);
                        assertEquals(mayRead ? before : 0, dst.getByte(0), what);
                        assertEquals(mayRead ? before : 0, dst.getByte(size - 1), what);
                        assertEquals(mayWrite ? 0 : -FI_EACCES, remote.write(key, 0, src, 0, size), what);
                        assertEquals(mayWrite ? written : before, target.getByte(at), what);
                        assertEquals(mayWrite ? written : before, target.getByte(MIB - 1), what);
                        checked++;
                    }
                }
            }
            assertEquals(21 * 64, checked);
        }
    }

    @Test
    void shouldRegisterEveryAccessCombinationForEverySizeFromOneByteToOneMebibyte()
    {
        final ShmDomain domain = domains.open("matrix", 0);
        try (ShareableMemory memory = domain.allocShareable(MIB))
        {
            int registered = 0;
            for (int size = 1; size <= MIB; size <<= 1)
            {
                for (int combination = 0; combination < 1 << ACCESS_BITS.length; combination++)
                {
                    final long access = access(combination);
                    final long key = (long)size * 64 + combination;
                    try (MemoryRegion mr = domain.mrRegv(
                        new MrIov[]{MrIov.of(memory, MIB - size, size)}, access, 0, key, 0, 0))
                    {
                        assertEquals(key, mr.key());
                        assertEquals(size, mr.length());
                        assertEquals(access, mr.access());
                        assertNotEquals(0, mr.desc());
                        registered++;
                    }
                }
            }
            assertEquals(21 * 64, registered);
            assertEquals(0, domain.resources().inUse(DomainResources.Kind.MR));
        }
    }

    @Test
    void shouldRegisterLocalAccessCombinationsOverHeapAndDirectBuffersOfEverySize()
    {
        final ShmDomain domain = domains.open("local", 0);
        for (int size = 1; size <= MIB; size <<= 1)
        {
            final ByteBuffer direct = ByteBuffer.allocateDirect(size);
            final ByteBuffer heap = ByteBuffer.allocate(size);
            for (int combination = 0; combination < 16; combination++)
            {
                final long access = access(combination);
                try (MemoryRegion d = domain.mrReg(direct, access, 0, 1, 0, 0);
                    MemoryRegion h = domain.mrReg(heap, access, 0, 2, 0, 0))
                {
                    assertEquals(size, d.length());
                    assertEquals(size, h.length());
                }
            }
        }
    }

    /**
     * Remote access to memory no other process can map is served by emulation (the target's progress performs it),
     * so registration accepts it; an application's one-sided view still cannot reach such memory (FI_EACCES), and
     * peers may not be let write a read-only buffer.
     */
    @Test
    void shouldAcceptRemoteAccessToLocalOnlyMemoryButNotWritesToAReadOnlyBuffer()
    {
        final ShmDomain domain = domains.open("heap", 0);
        try (MemoryRegion heap = domain.mrReg(ByteBuffer.allocate(64), FI_REMOTE_READ, 0, 1, 0, 0);
            MemoryRegion direct = domain.mrReg(ByteBuffer.allocateDirect(64), FI_REMOTE_WRITE, 0, 2, 0, 0);
            MemoryRegion array = domain.mrRegv(new MrIov[]{MrIov.of(new byte[8], 0, 8),
                MrIov.of(ByteBuffer.allocate(8))}, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 3, 0, 0);
            RemoteMemory remote = domain.remoteMemory())
        {
            assertEquals(16, array.length());
            final UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
            assertEquals(-FI_EACCES, remote.read(1, 0, dst, 0, 8), "an application's view maps segments only");
            assertEquals(-FI_EACCES, remote.write(2, 0, dst, 0, 8));
        }
        assertErrno(FI_EACCES, () -> domain.mrReg(ByteBuffer.allocate(64).asReadOnlyBuffer(), FI_REMOTE_WRITE, 0, 4,
            0, 0));
        try (MemoryRegion readOnly = domain.mrReg(ByteBuffer.allocate(64).asReadOnlyBuffer(), FI_REMOTE_READ, 0, 5,
            0, 0))
        {
            assertEquals(64, readOnly.length());
        }
        assertEquals(0, domain.resources().inUse(DomainResources.Kind.MR), "a refused registration takes nothing");
    }

    @Test
    void shouldRegisterOneToIovLimitEntriesWithRegv()
    {
        final ShmDomain domain = domains.open("regv", 0);
        final int limit = (int)domain.attr().mrIovLimit();
        assertEquals(8, limit);
        try (ShareableMemory memory = domain.allocShareable(64 * 1024))
        {
            for (int count = 1; count <= limit; count++)
            {
                final MrIov[] local = new MrIov[count];
                final MrIov[] shared = new MrIov[count];
                for (int i = 0; i < count; i++)
                {
                    local[i] = MrIov.of(ByteBuffer.allocateDirect(100 + i));
                    shared[i] = MrIov.of(memory, 1000L * i, 1000);
                }
                try (MemoryRegion l = domain.mrRegv(local, FI_SEND | FI_RECV, 0, 10 + count, 0, 0);
                    MemoryRegion s = domain.mrRegv(shared, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 100 + count, 0, 0))
                {
                    assertEquals(100L * count + count * (count - 1) / 2, l.length());
                    assertEquals(1000L * count, s.length());
                }
            }
            final MrIov[] tooMany = new MrIov[limit + 1];
            for (int i = 0; i < tooMany.length; i++)
            {
                tooMany[i] = MrIov.of(memory, i, 1);
            }
            assertErrno(FI_EINVAL, () -> domain.mrRegv(tooMany, FI_SEND, 0, 1, 0, 0));
            assertErrno(FI_EINVAL, () -> domain.mrRegv(new MrIov[0], FI_SEND, 0, 1, 0, 0));
            assertErrno(FI_EINVAL, () -> domain.mrRegv(new MrIov[]{MrIov.of(memory, 0, 10), MrIov.of(memory, 20, 10)},
                FI_REMOTE_READ, 0, 1, 0, 0));
        }
    }

    @Test
    void shouldRegisterWithRegattrUsingItsKeyAccessAndContext()
    {
        final ShmDomain domain = domains.open("regattr", 0);
        try (ShareableMemory memory = domain.allocShareable(4096);
            MemoryRegion mr = domain.mrRegAttr(new MrAttr().iov(MrIov.of(memory, 0, 4096))
                .access(FI_REMOTE_READ | FI_READ).requestedKey(0xC0DE).context(99), 0))
        {
            assertEquals(0xC0DE, mr.key());
            assertEquals(FI_REMOTE_READ | FI_READ, mr.access());
            assertEquals(99, mr.context());
            assertErrno(FI_EINVAL, () -> domain.mrRegAttr(new MrAttr().iov(MrIov.of(memory, 0, 1)).offset(8), 0));
            // Issue 15: iface is read only with FI_HMEM (fi_mr(3)), which shm never offers: ignored, not refused.
            try (MemoryRegion cuda = domain.mrRegAttr(new MrAttr().iov(MrIov.of(memory, 0, 1)).iface(1), 0))
            {
                assertEquals(1, cuda.length(), "registered as host memory");
            }
            assertErrno(FI_EINVAL, () -> domain.mrRegAttr(null, 0));
        }
    }

    @Test
    void shouldReuseTheSameRequestedKeyForFiveRegisterCloseCycles()
    {
        final ShmDomain domain = domains.open("cycles", 0);
        final ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
        for (int cycle = 0; cycle < 5; cycle++)
        {
            final MemoryRegion mr = domain.mrReg(buffer, FI_SEND | FI_RECV, 0, 0xFEED, 0, cycle);
            assertEquals(0xFEED, mr.key(), "cycle " + cycle);
            mr.close();
        }
    }

    @Test
    void shouldReturnEnokeyForAKeyInUseInThisOrAnotherDomainObject()
    {
        final ShmDomain domain = domains.open("dup", 0);
        final ShmDomain same = domains.open("dup", 0);
        try (MemoryRegion mr = domain.mrReg(ByteBuffer.allocateDirect(64), FI_SEND, 0, 7, 0, 0))
        {
            assertErrno(FI_ENOKEY, () -> domain.mrReg(ByteBuffer.allocateDirect(64), FI_SEND, 0, 7, 0, 0));
            assertErrno(FI_ENOKEY, () -> same.mrReg(ByteBuffer.allocate(64), FI_RECV, 0, 7, 0, 0));
            assertEquals(7, mr.key());
        }
        assertEquals(0, domain.resources().inUse(DomainResources.Kind.MR));
    }

    @Test
    void shouldAcceptEvery64BitRequestedKeyButFiKeyNotavail()
    {
        final ShmDomain domain = domains.open("range", 0);
        final ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        assertErrno(FI_EKEYREJECTED, () -> domain.mrReg(buffer, FI_SEND, 0, MemoryRegion.FI_KEY_NOTAVAIL, 0, 0));
        for (final long key : new long[]{Long.MAX_VALUE, Long.MIN_VALUE, 0x8000_0000_0000_0001L, -2L, 0})
        {
            try (MemoryRegion mr = domain.mrReg(buffer, FI_SEND, 0, key, 0, 0))
            {
                assertEquals(key, mr.key(), Long.toUnsignedString(key) + " is within mr_key_size 8");
            }
        }
    }

    @Test
    void shouldSkipProviderKeysAnApplicationOfTheDomainRequested()
    {
        final ShmDomain requesting = domains.open("skip", 0);
        final ShmDomain providing = domains.open("skip", MrMode.FI_MR_PROV_KEY);
        final ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        try (MemoryRegion taken = requesting.mrReg(buffer, FI_SEND, 0, MrTable.PROVIDER_KEY_BASE, 0, 0);
            MemoryRegion next = requesting.mrReg(buffer, FI_SEND, 0, MrTable.PROVIDER_KEY_BASE + 1, 0, 0);
            MemoryRegion provided = providing.mrReg(buffer, FI_SEND, 0, 0, 0, 0))
        {
            assertEquals(MrTable.PROVIDER_KEY_BASE + 2, provided.key(), "the sequence skips the two keys in use");
            assertEquals(MrTable.PROVIDER_KEY_BASE, taken.key());
            assertEquals(MrTable.PROVIDER_KEY_BASE + 1, next.key());
        }
    }

    @Test
    void shouldPickDistinctProviderKeysIgnoringTheRequestedKeyWithProvKey()
    {
        final ShmDomain domain = domains.open("provkey", MrMode.FI_MR_PROV_KEY);
        final ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        try (MemoryRegion a = domain.mrReg(buffer, FI_SEND, 0, 5, 0, 0);
            MemoryRegion b = domain.mrReg(buffer, FI_SEND, 0, 5, 0, 0))
        {
            assertNotEquals(a.key(), b.key());
            assertTrue(a.key() < 0 && b.key() < 0, "the provider sequence counts up from 2^63");
            assertNotEquals(MemoryRegion.FI_KEY_NOTAVAIL, a.key());
        }
    }

    @Test
    void shouldCheckLengthOffsetFlagsAccessAndBounds()
    {
        final ShmDomain domain = domains.open("args", 0);
        final ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        assertErrno(FI_EINVAL, () -> domain.mrReg(buffer.duplicate().position(64), FI_SEND, 0, 1, 0, 0));
        assertErrno(FI_EINVAL, () -> domain.mrReg(buffer, FI_SEND, 4, 1, 0, 0));
        assertErrno(FI_EBADFLAGS, () -> domain.mrReg(buffer, FI_SEND, 0, 1, FI_RMA_PMEM, 0));
        assertErrno(FI_EBADFLAGS, () -> domain.mrReg(buffer, FI_SEND, 0, 1, FI_REG_MR, 0));
        assertErrno(FI_EINVAL, () -> domain.mrReg(buffer, FI_SEND | FI_TAGGED, 0, 1, 0, 0));
        assertErrno(FI_EINVAL, () -> domain.mrRegv(new MrIov[]{MrIov.of(new byte[8], 4, 8)}, FI_SEND, 0, 1, 0, 0));
        assertErrno(FI_EINVAL, () -> domain.mrReg(null, FI_SEND, 0, 1, 0, 0));
        assertEquals(0, domain.resources().inUse(DomainResources.Kind.MR));
    }

    @Test
    void shouldLimitRegionsToMrCnt()
    {
        final io.jfabric.Info info = domains.info("limit", 0);
        info.domainAttr().mrCnt(2);
        final ShmDomain domain = domains.open(info);
        final ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        try (MemoryRegion a = domain.mrReg(buffer, FI_SEND, 0, 1, 0, 0);
            MemoryRegion b = domain.mrReg(buffer, FI_SEND, 0, 2, 0, 0))
        {
            assertErrno(FI_ENOSPC, () -> domain.mrReg(buffer, FI_SEND, 0, 3, 0, 0));
        }
    }

    @Test
    void shouldKeepTheDomainAndShareableMemoryOpenWhileRegionsUseThem()
    {
        final ShmDomain domain = domains.open("busy", 0);
        final ShareableMemory memory = domain.allocShareable(4096);
        final MemoryRegion mr = domain.mrRegv(new MrIov[]{MrIov.of(memory, 0, 4096)}, FI_REMOTE_READ, 0, 1, 0, 0);
        assertErrno(FI_EBUSY, domain::close);
        assertErrno(FI_EBUSY, memory::close);
        mr.close();
        mr.close();
        assertErrno(FI_EBUSY, domain::close);
        memory.close();
        assertErrno(FI_EBADF, () -> domain.mrRegv(new MrIov[]{MrIov.of(memory, 0, 1)}, FI_SEND, 0, 1, 0, 0));
    }

    @Test
    void shouldReportTheNativeAddressAsBaseAddressAndShareTheBytes()
    {
        final ShmDomain domain = domains.open("virt", MrMode.FI_MR_VIRT_ADDR);
        try (ShareableMemory memory = domain.allocShareable(8192);
            MemoryRegion mr = domain.mrRegv(new MrIov[]{MrIov.of(memory, 100, 200)}, FI_REMOTE_READ, 0, 1, 0, 0);
            MemoryRegion heap = domain.mrReg(ByteBuffer.allocate(16), FI_SEND, 0, 2, 0, 0))
        {
            assertEquals(memory.address() + 100, mr.baseAddress());
            assertEquals(0, heap.baseAddress(), "heap memory has no stable address");
            memory.buffer().put(150, (byte)42);
            assertEquals(42, new UnsafeBuffer(memory.address(), 8192).getByte(150));
            assertEquals(8192, memory.length());
        }
    }
}
