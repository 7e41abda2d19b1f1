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
import io.jfabric.Domain;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.jfabric.shm.av.AvTestSupport.addrs;
import static io.jfabric.shm.av.AvTestSupport.assertErrno;
import static io.jfabric.shm.av.AvTestSupport.info;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three child JVMs insert into one named AV (FI_AV_TABLE) at the same time (with insert/remove churn), then every
 * process must see the same table with the same fi_addr for each address, no address lost and no index given twice;
 * the parent's FI_READ opener sees the updates and cannot write. The children open it at three map_addr values (0:
 * the creator's, the creator's, another): a table's fi_addr values are its indices whatever the map_addr (fi_av(3)),
 * so all agree.
 */
class NamedAvMultiProcessTest
{
    private static final String DOMAIN = "orders";
    private static final int PEERS = 3;
    private static final int KEPT = 40;
    private static final int CHURN = 60;
    private static final long MAP_ADDR = 0x40000;
    private static final long OTHER_MAP_ADDR = 0x90000;
    private static final String[] CHILD_MAP_ADDR = { "0", "0x40000", "0x90000" };
    private static final long[] CHILD_MAP_ADDR_IN_USE = { MAP_ADDR, MAP_ADDR, OTHER_MAP_ADDR };
    private static final int ENTRIES = 256;

    @Test
    void shouldGiveEveryProcessTheSameTableAfterConcurrentInsertsFromThreeJvms() throws Exception
    {
        try (ShmTestRoot root = new ShmTestRoot())
        {
            final ShmProvider provider = root.provider();
            try (Fabric fabric = provider.fabric(info(provider, DOMAIN).fabricAttr(), 0);
                Domain domain = fabric.domain(info(provider, DOMAIN), 0);
                AddressVector creator = domain.avOpen(new AvAttr().name("peers").count(ENTRIES).mapAddr(MAP_ADDR), 0);
                AddressVector reader = domain.avOpen(new AvAttr().name("peers").flags(Flags.FI_READ), 0))
            {
                assertEquals(MAP_ADDR, reader.attr().mapAddr());
                final Path gate = Files.createDirectory(root.dir().resolve("gate"));
                final List<ChildJvm> children = new ArrayList<>();
                for (int id = 0; id < PEERS; id++)
                {
                    children.add(ChildJvm.start(AvPeerMain.class, List.of("jfabric.shm.dir=" + root.dir()),
                        DOMAIN, "peers", CHILD_MAP_ADDR[id], String.valueOf(id), String.valueOf(PEERS),
                        String.valueOf(KEPT), String.valueOf(CHURN), gate.toString()));
                }
                awaitFiles(gate, "ready-", PEERS);
                Files.createFile(gate.resolve("go"));

                final ShmAddressVector shmReader = (ShmAddressVector)reader;
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                int seen = 0;
                while (System.nanoTime() < deadline && (seen = validEntries(shmReader)) < PEERS * KEPT)
                {
                    LockSupport.parkNanos(1_000_000);
                }
                awaitFiles(gate, "done-", PEERS);
                seen = validEntries(shmReader);
                assertEquals(PEERS * KEPT, seen, "the FI_READ opener sees every kept entry");
                assertErrno(Errno.FI_EPERM, () -> reader.insert(addrs(DOMAIN, 0, 1), 1, null, 0, 0));
                final Map<Long, String> readerTable = table(shmReader, reader);
                Files.createFile(gate.resolve("exit"));

                final Map<String, Long> kept = new HashMap<>();
                for (int id = 0; id < PEERS; id++)
                {
                    final String output = children.get(id).awaitSuccess(120);
                    final Map<Long, String> childTable = new TreeMap<>();
                    for (final String line : output.split("\n"))
                    {
                        final String[] parts = line.split(" ");
                        if (parts[0].equals("kept"))
                        {
                            assertNull(kept.put(parts[2], Long.parseLong(parts[1])), "inserted once: " + parts[2]);
                        }
                        else if (parts[0].equals("table"))
                        {
                            childTable.put(Long.parseLong(parts[1]), parts[2]);
                        }
                        else if (parts[0].equals("attr"))
                        {
                            assertEquals("mapAddr=" + CHILD_MAP_ADDR_IN_USE[id], parts[1],
                                "the map_addr in use: the creator's for 0, else the child's own");
                        }
                    }
                    assertEquals(readerTable, childTable, "every process sees the same table:\n" + output);
                }
                assertEquals(PEERS * KEPT, kept.size());
                assertEquals(PEERS * KEPT, readerTable.size(), "no entry lost, no temporary one left");
                for (final Map.Entry<String, Long> entry : kept.entrySet())
                {
                    assertEquals(entry.getKey(), readerTable.get(entry.getValue()),
                        "the fi_addr a child got names its address in every process");
                    assertEquals(entry.getKey(), creator.lookup(entry.getValue()));
                    assertTrue(entry.getValue() >= 0 && entry.getValue() < ENTRIES, "a table's fi_addr is its " +
                        "index, not map_addr + index: " + Long.toHexString(entry.getValue()));
                }
            }
        }
    }

    private static int validEntries(final ShmAddressVector av)
    {
        int count = 0;
        for (int i = 0; i < av.entries(); i++)
        {
            if (av.slotOf(i) >= 0) // FI_AV_TABLE: the fi_addr is the index
            {
                count++;
            }
        }
        return count;
    }

    private static Map<Long, String> table(final ShmAddressVector shm, final AddressVector av)
    {
        final Map<Long, String> table = new TreeMap<>();
        for (int i = 0; i < shm.entries(); i++)
        {
            final long a = i; // FI_AV_TABLE: the fi_addr is the index
            if (shm.slotOf(a) >= 0)
            {
                table.put(a, av.lookup(a));
            }
        }
        return table;
    }

    private static void awaitFiles(final Path dir, final String prefix, final int count) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (int i = 0; i < count; i++)
        {
            while (!Files.exists(dir.resolve(prefix + i)))
            {
                assertTrue(System.nanoTime() < deadline, "child " + i + " did not reach " + prefix);
                LockSupport.parkNanos(1_000_000);
            }
        }
    }
}
