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

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.MemoryRegion;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;

import org.agrona.concurrent.AtomicBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static io.jfabric.Flags.FI_SEND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The key table's owners are process identities, not pids: a lock or entry left by an earlier process that had this
 * very pid (the container case: pid 1 on every run) is taken over, while this process's own are not. The earlier
 * process is an identity crafted with this pid and another start time.
 */
class MrOwnerLivenessTest
{
    private static final int ENTRIES = 4;

    private final MrTestDomains domains = new MrTestDomains(key -> "mr.count".equals(key) ? "4" : null);
    private final long self = ProcessIdentity.self();
    private final long earlier = ProcessIdentity.of(ProcessIdentity.pid(self), ProcessIdentity.start(self) - 1);

    @AfterEach
    void tearDown()
    {
        domains.close();
    }

    @Test
    void shouldTakeOverTheTableLockHeldByAnEarlierProcessWithThisPid()
    {
        final ShmDomain domain = domains.open("lock", 0);
        final AtomicBuffer region = domain.region().buffer();
        region.putLongVolatile(RegionDescriptor.MR_TABLE_LOCK_OFFSET, earlier);
        try (MemoryRegion mr = domain.mrReg(ByteBuffer.allocateDirect(8), FI_SEND, 0, 9, 0, 0))
        {
            assertEquals(9, mr.key(), "registered without waiting for the lock's timeout");
        }
        assertEquals(0, region.getLongVolatile(RegionDescriptor.MR_TABLE_LOCK_OFFSET), "released after use");
    }

    @Test
    void shouldWithdrawAKeyLeftByAnEarlierProcessWithThisPid()
    {
        final ShmDomain domain = domains.open("entry", 0);
        final MrTable table = new MrTable(domain.region().buffer(), domain.region().geometry());
        publishOwnedBy(domain, table, 31337, earlier);
        try (MemoryRegion mr = domain.mrReg(ByteBuffer.allocateDirect(8), FI_SEND, 0, 31337, 0, 0))
        {
            assertEquals(31337, mr.key());
            final int index = table.find(31337);
            assertEquals(self, table.lpOwner(index));
            assertEquals(ProcessHandle.current().pid(), table.lpOwnerPid(index), "segment files are named by the pid");
        }
    }

    @Test
    void shouldRefuseAKeyHeldByThisProcessAndNameItsPidInTheMessage()
    {
        final ShmDomain domain = domains.open("live", 0);
        final MrTable table = new MrTable(domain.region().buffer(), domain.region().geometry());
        publishOwnedBy(domain, table, 4242, self);
        final FabricException ex = assertThrows(FabricException.class,
            () -> domain.mrReg(ByteBuffer.allocateDirect(8), FI_SEND, 0, 4242, 0, 0));
        assertEquals(Errno.FI_ENOKEY, ex.errno(), ex.getMessage());
        assertTrue(ex.getMessage().contains("by process " + ProcessHandle.current().pid() + " ("), ex.getMessage());
    }

    @Test
    void shouldReclaimEveryEntryOfAnEarlierProcessWithThisPidWhenTheTableIsFull()
    {
        final ShmDomain domain = domains.open("full", 0);
        final MrTable table = new MrTable(domain.region().buffer(), domain.region().geometry());
        assertEquals(ENTRIES, table.entries());
        for (int key = 100; key < 100 + ENTRIES; key++)
        {
            publishOwnedBy(domain, table, key, earlier);
        }
        try (MemoryRegion mr = domain.mrReg(ByteBuffer.allocateDirect(8), FI_SEND, 0, 500, 0, 0))
        {
            assertEquals(500, mr.key());
            for (int key = 100; key < 100 + ENTRIES; key++)
            {
                assertEquals(-1, table.find(key), "key " + key + " withdrawn");
            }
        }
    }

    private static void publishOwnedBy(final ShmDomain domain, final MrTable table, final long key, final long owner)
    {
        final RegionGeometry geometry = domain.region().geometry();
        final int index = table.claim(key, "test");
        table.publish(index);
        domain.region().buffer().putLongVolatile(
            MrTableDescriptor.entryOffset(geometry, index) + MrTableDescriptor.OWNER_OFFSET, owner);
    }
}
