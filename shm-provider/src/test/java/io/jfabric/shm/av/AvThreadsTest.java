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
import io.jfabric.shm.core.LocalHost;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Threads of one process inserting and removing in one AV at once (the same lock-free code processes use): every
 * kept address ends at its own index, nothing is lost, nothing temporary is left.
 */
class AvThreadsTest extends AvDomainTestBase
{
    private static final int THREADS = 4;
    private static final int KEPT = 100;

    @Override
    String epCount()
    {
        return "64";
    }

    @Test
    void shouldKeepEveryAddressOnceWhenThreadsInsertAndRemoveTogether() throws Exception
    {
        try (AddressVector av = domain.avOpen(new AvAttr().count(512), 0))
        {
            final CyclicBarrier start = new CyclicBarrier(THREADS);
            final ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            final Map<Long, String> kept = new HashMap<>();
            try
            {
                final Future<?>[] futures = new Future<?>[THREADS];
                final List<Map<Long, String>> results = new ArrayList<>();
                for (int t = 0; t < THREADS; t++)
                {
                    final int id = t;
                    results.add(new HashMap<>());
                    futures[t] = pool.submit(() ->
                    {
                        start.await();
                        final long[] fiAddr = new long[1];
                        for (int j = 0; j < KEPT; j++)
                        {
                            final String address = ShmAddress.format(LocalHost.name(), j % 64, DOMAIN, id * 1000L + j + 1);
                            assertEquals(1, av.insert(new String[]{ address }, 1, fiAddr, 0, 0));
                            results.get(id).put(fiAddr[0], address);
                            final String temp = ShmAddress.format(LocalHost.name(), 1, DOMAIN, 900_000L + id * 1000L + j);
                            assertEquals(1, av.insert(new String[]{ temp }, 1, fiAddr, 0, 0));
                            assertEquals(temp, av.lookup(fiAddr[0]));
                            av.remove(fiAddr, 1, 0);
                        }
                        return null;
                    });
                }
                for (int t = 0; t < THREADS; t++)
                {
                    futures[t].get(60, TimeUnit.SECONDS);
                    for (final Map.Entry<Long, String> e : results.get(t).entrySet())
                    {
                        assertNull(kept.put(e.getKey(), e.getValue()), "index given twice: " + e.getKey());
                    }
                }
            }
            finally
            {
                pool.shutdownNow();
            }
            assertEquals(THREADS * KEPT, kept.size());
            final ShmAddressVector shm = (ShmAddressVector)av;
            int valid = 0;
            for (int i = 0; i < shm.entries(); i++)
            {
                if (shm.slotOf(i) >= 0)
                {
                    valid++;
                    assertEquals(kept.get((long)i), av.lookup(i));
                }
            }
            assertEquals(THREADS * KEPT, valid, "no temporary entry left, none lost");
        }
    }
}
