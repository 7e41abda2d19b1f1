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
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.jfabric.shm.av.AvTestSupport.addrs;
import static io.jfabric.shm.av.AvTestSupport.assertErrno;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Closing a named AV while another thread resolves its addresses on the data path: the reader must see the slot,
 * then -1, and never crash the JVM (the table was unmapped under it before); every call after close is refused.
 */
class AvCloseRaceTest extends AvDomainTestBase
{
    private static final int ROUNDS = 200;

    @Override
    String epCount()
    {
        return "16";
    }

    @Test
    void shouldReturnMinusOneNotCrashWhenTheAvClosesUnderADataPathReader() throws Exception
    {
        final AtomicLong wrong = new AtomicLong();
        for (int round = 0; round < ROUNDS; round++)
        {
            final AddressVector av = domain.avOpen(new AvAttr().name("race" + round).count(16), 0);
            final ShmAddressVector shm = (ShmAddressVector)av;
            final long[] fiAddr = new long[1];
            final int[] status = new int[1];
            assertEquals(1, av.insert(addrs(DOMAIN, 5, 1), 1, fiAddr, io.jfabric.Flags.FI_SYNC_ERR, 0, status),
                "round " + round + " status " + status[0]);
            final CountDownLatch running = new CountDownLatch(1);
            final Thread reader = new Thread(() ->
            {
                running.countDown();
                int slot;
                while ((slot = shm.slotOf(fiAddr[0])) == 5 && shm.incarnationOf(fiAddr[0]) == 0)
                {
                    Thread.onSpinWait();
                }
                if (slot != -1 && slot != 5)
                {
                    wrong.incrementAndGet();
                }
            });
            reader.start();
            assertTrue(running.await(10, TimeUnit.SECONDS));
            av.close();
            reader.join(TimeUnit.SECONDS.toMillis(10));
            assertTrue(!reader.isAlive(), "the reader saw the close");
            assertEquals(-1, shm.slotOf(fiAddr[0]));
            assertEquals(-1, shm.incarnationOf(fiAddr[0]));
            assertErrno(Errno.FI_EBADF, () -> av.lookup(fiAddr[0]));
            assertErrno(Errno.FI_EBADF, () -> av.insert(addrs(DOMAIN, 1, 1), 1, null, 0, 0));
        }
        assertEquals(0, wrong.get(), "a racing reader saw only the slot or -1");
    }
}
