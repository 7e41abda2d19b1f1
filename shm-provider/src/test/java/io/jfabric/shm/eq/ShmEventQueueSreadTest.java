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
package io.jfabric.shm.eq;

import io.jfabric.EqAttr;
import io.jfabric.EqEntry;
import io.jfabric.EqEvent;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.WaitObj;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ShmEventQueueSreadTest
{
    private static final int NOTIFY = EqEvent.NOTIFY.value();

    private final TestFabricFid fabric = new TestFabricFid();
    private ShmEventQueue eq = open(WaitObj.UNSPEC);
    private final EqEntry entry = new EqEntry();

    @AfterEach
    void close()
    {
        eq.close();
    }

    @Test
    void shouldReturnEnosysFromSreadWithWaitNone()
    {
        eq.close();
        eq = open(WaitObj.NONE);
        eq.write(NOTIFY, entry, 0);

        assertEquals(-Errno.FI_ENOSYS, eq.sread(entry, 0, 0));
        assertEquals(1, eq.read(entry, 0), "the refused sread consumed nothing");
    }

    @ParameterizedTest
    @EnumSource(value = WaitObj.class, names = { "UNSPEC", "MUTEX_COND", "YIELD" })
    void shouldReturnEagainWhenTheTimeoutExpires(final WaitObj waitObj)
    {
        // eq_test.c eq_wait_fd_sread: a timed sread on an empty EQ returns -FI_EAGAIN after about the timeout.
        eq.close();
        eq = open(waitObj);

        final long start = System.nanoTime();
        final int result = eq.sread(entry, 300, 0);
        final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertEquals(-Errno.FI_EAGAIN, result);
        assertTrue(elapsedMs >= 290 && elapsedMs < 10_000, "slept " + elapsedMs + " ms for a 300 ms timeout");
    }

    @Test
    void shouldReturnEagainAtOnceWithAZeroTimeout()
    {
        assertEquals(-Errno.FI_EAGAIN, eq.sread(entry, 0, 0));
    }

    @Test
    void shouldReturnAQueuedEventWithoutWaiting()
    {
        eq.write(NOTIFY, entry.fid(eq).context(11), 0);
        entry.clear();

        final long start = System.nanoTime();
        assertEquals(1, eq.sread(entry, 60_000, 0));
        final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertEquals(NOTIFY, entry.event());
        assertEquals(11, entry.context());
        // Far below the timeout: it did not wait for it (a loaded CI machine may still take a while to get here).
        assertTrue(elapsedMs < 30_000, "waited " + elapsedMs + " ms with an event queued");
    }

    @Test
    void shouldLeaveAnEventPeekedBySreadForTheNextSread()
    {
        // eq_test.c eq_wait_sread_peek.
        eq.write(NOTIFY, entry, 0);
        assertEquals(1, eq.sread(entry, 2000, 0));

        eq.write(NOTIFY, entry, 0);
        assertEquals(1, eq.sread(entry, 2000, Flags.FI_PEEK));
        assertEquals(1, eq.sread(entry, 2000, 0));
        assertEquals(-Errno.FI_EAGAIN, eq.read(entry, 0));
    }

    @ParameterizedTest
    @EnumSource(value = WaitObj.class, names = { "UNSPEC", "MUTEX_COND", "YIELD" })
    void shouldWakeOnAnEventPostedFromAnotherThread(final WaitObj waitObj) throws Exception
    {
        eq.close();
        eq = open(waitObj);
        final EqEntry received = new EqEntry();

        final CompletableFuture<Integer> reader = CompletableFuture.supplyAsync(() -> eq.sread(received, -1, 0));
        Thread.sleep(100);
        assertFalse(reader.isDone(), "sread returned before anything was posted");

        assertEquals(0, eq.postEvent(EqEvent.AV_COMPLETE.value(), fabric, 21, 3));

        assertEquals(1, reader.get(10, TimeUnit.SECONDS));
        assertEquals(EqEvent.AV_COMPLETE.value(), received.event());
        assertEquals(21, received.context());
        assertEquals(3, received.data());
    }

    @Test
    void shouldWakeOnAnApplicationWriteWithinTheTimeout() throws Exception
    {
        final EqEntry received = new EqEntry();
        final CompletableFuture<Integer> reader = CompletableFuture.supplyAsync(() -> eq.sread(received, 20_000, 0));
        Thread.sleep(100);

        final long start = System.nanoTime();
        eq.write(NOTIFY, new EqEntry().context(5), 0);

        assertEquals(1, reader.get(10, TimeUnit.SECONDS));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5_000);
        assertEquals(5, received.context());
    }

    @Test
    void shouldWakeWithEavailWhenAnErrorIsPosted() throws Exception
    {
        final EqEntry received = new EqEntry();
        final CompletableFuture<Integer> reader = CompletableFuture.supplyAsync(() -> eq.sread(received, -1, 0));
        Thread.sleep(100);

        eq.postError(fabric, 0, 0, Errno.FI_EIO, 0, "async failure");

        assertEquals(-Errno.FI_EAVAIL, reader.get(10, TimeUnit.SECONDS));
    }

    @Test
    void shouldReturnEbadfFromAnSreadBlockedWhenTheQueueCloses() throws Exception
    {
        final EqEntry received = new EqEntry();
        final CompletableFuture<Integer> reader = CompletableFuture.supplyAsync(() -> eq.sread(received, -1, 0));
        Thread.sleep(100);
        assertFalse(reader.isDone());

        eq.close();

        assertEquals(-Errno.FI_EBADF, reader.get(10, TimeUnit.SECONDS));
    }

    @Test
    void shouldReturnEagainAndKeepTheInterruptWhenTheWaitingThreadIsInterrupted() throws Exception
    {
        final AtomicBoolean interruptKept = new AtomicBoolean();
        final int[] result = new int[1];
        final Thread reader = new Thread(() ->
        {
            result[0] = eq.sread(new EqEntry(), -1, 0);
            interruptKept.set(Thread.currentThread().isInterrupted());
        });
        reader.start();
        Thread.sleep(100);

        reader.interrupt();
        reader.join(10_000);

        assertFalse(reader.isAlive());
        assertEquals(-Errno.FI_EAGAIN, result[0]);
        assertTrue(interruptKept.get());
    }

    @Test
    void shouldReturnAQueuedEventEvenWhenAlreadyInterrupted()
    {
        eq.write(NOTIFY, entry.context(3), 0);
        Thread.currentThread().interrupt();
        try
        {
            assertEquals(1, eq.sread(entry, -1, 0));
            assertEquals(-Errno.FI_EAGAIN, eq.sread(entry, -1, 0));
            assertTrue(Thread.currentThread().isInterrupted());
        }
        finally
        {
            Thread.interrupted();
        }
    }

    private ShmEventQueue open(final WaitObj waitObj)
    {
        return new ShmEventQueue(fabric, new EqAttr().size(16).flags(Flags.FI_WRITE).waitObj(waitObj), 0,
            TestFabricFid.config(64, 64));
    }
}
