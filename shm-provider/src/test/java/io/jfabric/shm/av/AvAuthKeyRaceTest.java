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
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One thread inserting addresses with an authorization key and removing them, another removing that key and
 * inserting a new one, at once: an address must never be live while its key is removed (or replaced by a key
 * reusing the index), and once both stop every key's reference count is exactly its addresses.
 */
class AvAuthKeyRaceTest extends AvDomainTestBase
{
    private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(2);

    @Override
    String epCount()
    {
        return "64";
    }

    @Test
    void shouldNeverLeaveALiveAddressOnARemovedAuthKey() throws Exception
    {
        try (AddressVector av = keyedDomain().avOpen(new AvAttr().count(16), 0))
        {
            final AvTable table = ((ShmAddressVector)av).table();
            final AtomicLong keyHandle = new AtomicLong(av.insertAuthKey(new byte[]{ 1 }, 0));
            final AtomicBoolean stop = new AtomicBoolean();
            final AtomicLong dangling = new AtomicLong();
            final AtomicLong inserted = new AtomicLong();
            final AtomicLong keysRemoved = new AtomicLong();
            final ExecutorService pool = Executors.newFixedThreadPool(2);
            try
            {
                final Future<?> inserter = pool.submit(() ->
                {
                    final long[] fiAddr = new long[1];
                    final AvTable.Entry address = new AvTable.Entry();
                    final AvTable.Entry key = new AvTable.Entry();
                    while (!stop.get())
                    {
                        fiAddr[0] = keyHandle.get();
                        if (av.insert(AvTestSupport.addrs(DOMAIN, 3, 1), 1, fiAddr, Flags.FI_AUTH_KEY, 0) == 1)
                        {
                            inserted.incrementAndGet();
                            final int index = (int)fiAddr[0];
                            if (!table.snapshot(index, address) || !table.snapshot((int)address.authKey, key) ||
                                key.kind != AvDescriptor.KIND_AUTH_KEY || key.references < 1 ||
                                key.generation != address.authKeyGeneration)
                            {
                                dangling.incrementAndGet();
                            }
                            av.remove(fiAddr, 1, 0);
                        }
                    }
                    return null;
                });
                final Future<?> remover = pool.submit(() ->
                {
                    byte next = 2;
                    while (!stop.get())
                    {
                        try
                        {
                            av.remove(new long[]{ keyHandle.get() }, 1, Flags.FI_AUTH_KEY);
                            keysRemoved.incrementAndGet();
                            keyHandle.set(av.insertAuthKey(new byte[]{ next++ }, 0));
                        }
                        catch (final FabricException ex)
                        {
                            assertEquals(Errno.FI_EBUSY, ex.errno(), ex.getMessage());
                        }
                    }
                    return null;
                });
                AvTestSupport.raceUntilProgress(RUN_NANOS, () -> inserted.get() > 0 && keysRemoved.get() > 0, stop,
                    inserter, remover);
            }
            finally
            {
                stop.set(true);
                pool.shutdownNow();
            }
            assertTrue(inserted.get() > 0 && keysRemoved.get() > 0,
                "both sides ran: " + inserted.get() + " inserts, " + keysRemoved.get() + " key removals");
            assertEquals(0, dangling.get(), "addresses live on a removed key, of " + inserted.get());
            final AvTable.Entry entry = new AvTable.Entry();
            for (int i = 0; i < table.entryCount(); i++)
            {
                if (table.snapshot(i, entry))
                {
                    assertEquals(AvDescriptor.KIND_AUTH_KEY, entry.kind, "only the last key is left, at " + i);
                    assertEquals(0, entry.references, "no stale reference on the key at " + i);
                }
            }
            av.remove(new long[]{ keyHandle.get() }, 1, Flags.FI_AUTH_KEY);
        }
    }
}
