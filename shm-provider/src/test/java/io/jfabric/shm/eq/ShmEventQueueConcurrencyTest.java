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
import io.jfabric.EqErrEntry;
import io.jfabric.EqEvent;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.WaitObj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many threads posting, one reading: every event and error arrives exactly once, each producer's in order.
 * Contexts encode producer and sequence number as {@code producer << 32 | sequence}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShmEventQueueConcurrencyTest
{
    private static final int PRODUCERS = 4;
    private static final int PER_PRODUCER = 20_000;
    private static final List<String> FAILURES = Collections.synchronizedList(new ArrayList<>());

    private final TestFabricFid fabric = new TestFabricFid();

    @Test
    void shouldDeliverEveryWrittenEventExactlyOnceInProducerOrderThroughASmallQueue() throws Exception
    {
        try (ShmEventQueue eq = open(64))
        {
            final List<Thread> producers = startProducers(eq, (queue, context) ->
            {
                final EqEntry entry = new EqEntry().context(context);
                int result;
                while ((result = queue.write(EqEvent.NOTIFY.value(), entry, 0)) == -Errno.FI_EAGAIN)
                {
                    Thread.onSpinWait();
                }
                assertEquals(1, result);
            });

            final long[] nextSequence = new long[PRODUCERS];
            final EqEntry entry = new EqEntry();
            for (int received = 0; received < PRODUCERS * PER_PRODUCER; received++)
            {
                assertEquals(1, eq.sread(entry, 10_000, 0), "event " + received);
                final int producer = (int)(entry.context() >>> 32);
                final long sequence = entry.context() & 0xFFFF_FFFFL;
                assertEquals(nextSequence[producer], sequence, "producer " + producer + " out of order or duplicated");
                nextSequence[producer]++;
            }

            joinAll(producers);
            assertEquals(-Errno.FI_EAGAIN, eq.read(entry, 0));
            assertFalse(eq.isOverrun());
        }
    }

    @Test
    void shouldDeliverEveryProviderEventAndErrorExactlyOnce() throws Exception
    {
        try (ShmEventQueue eq = open(PRODUCERS * PER_PRODUCER))
        {
            final List<Thread> producers = startProducers(eq, (queue, context) ->
            {
                final int result = (context & 1) == 0 ?
                    queue.postEvent(EqEvent.MR_COMPLETE.value(), fabric, context, 0) :
                    queue.postError(fabric, context, 0, Errno.FI_EIO, 0, null, 0, 0);
                assertEquals(0, result);
            });

            final BitSet[] seen = new BitSet[PRODUCERS];
            for (int i = 0; i < PRODUCERS; i++)
            {
                seen[i] = new BitSet(PER_PRODUCER);
            }
            final EqEntry entry = new EqEntry();
            final EqErrEntry err = new EqErrEntry();
            int received = 0;
            while (received < PRODUCERS * PER_PRODUCER)
            {
                final int result = eq.sread(entry, 10_000, 0);
                final long context;
                if (result == -Errno.FI_EAVAIL)
                {
                    assertEquals(1, eq.readErr(err, 0));
                    context = err.context();
                    assertEquals(1, context & 1, "an event came out of the error queue");
                }
                else
                {
                    assertEquals(1, result, "after " + received);
                    context = entry.context();
                    assertEquals(0, context & 1, "an error came out of the event queue");
                }
                final int producer = (int)(context >>> 32);
                final int sequence = (int)(context & 0xFFFF_FFFFL);
                assertFalse(seen[producer].get(sequence), "duplicate " + producer + "/" + sequence);
                seen[producer].set(sequence);
                received++;
            }

            joinAll(producers);
            for (int i = 0; i < PRODUCERS; i++)
            {
                assertEquals(PER_PRODUCER, seen[i].cardinality(), "producer " + i);
            }
            assertEquals(-Errno.FI_EAGAIN, eq.read(entry, 0));
            assertEquals(-Errno.FI_EAGAIN, eq.readErr(err, 0));
            assertFalse(eq.isOverrun());
        }
    }

    @Test
    void shouldTellTheReaderAboutEveryPostLostToOverrun() throws Exception
    {
        try (ShmEventQueue eq = open(16))
        {
            final int[] lostByProducers = new int[PRODUCERS];
            final List<Thread> producers = startProducers(eq, (queue, context) ->
            {
                final int result = queue.postEvent(EqEvent.MR_COMPLETE.value(), fabric, context, 0);
                if (result == -Errno.FI_EOVERRUN)
                {
                    lostByProducers[(int)(context >>> 32)]++;
                }
                else
                {
                    assertEquals(0, result);
                }
            });
            joinAll(producers);

            final EqEntry entry = new EqEntry();
            int delivered = 0;
            while (eq.read(entry, 0) == 1)
            {
                delivered++;
            }
            final EqErrEntry err = new EqErrEntry();
            assertEquals(1, eq.readErr(err, 0));
            assertEquals(Errno.FI_EOVERRUN, err.err());

            long lost = 0;
            for (final int count : lostByProducers)
            {
                lost += count;
            }
            assertEquals(16, delivered);
            assertEquals(lost, err.data());
            assertEquals(PRODUCERS * PER_PRODUCER, delivered + lost);
        }
    }

    private interface Post
    {
        void post(ShmEventQueue eq, long context);
    }

    private ShmEventQueue open(final int size)
    {
        return new ShmEventQueue(fabric, new EqAttr().size(size).flags(Flags.FI_WRITE).waitObj(WaitObj.UNSPEC), 0,
            TestFabricFid.config(PRODUCERS * PER_PRODUCER, 64));
    }

    private static List<Thread> startProducers(final ShmEventQueue eq, final Post post)
    {
        final CyclicBarrier start = new CyclicBarrier(PRODUCERS);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++)
        {
            final long producer = p;
            final Thread thread = new Thread(() ->
            {
                try
                {
                    start.await();
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException(ex);
                }
                for (long sequence = 0; sequence < PER_PRODUCER; sequence++)
                {
                    post.post(eq, producer << 32 | sequence);
                }
            }, "eq-producer-" + p);
            thread.setUncaughtExceptionHandler((t, ex) -> FAILURES.add(t.getName() + ": " + ex));
            thread.start();
            threads.add(thread);
        }
        return threads;
    }

    private static void joinAll(final List<Thread> threads) throws InterruptedException
    {
        for (final Thread thread : threads)
        {
            thread.join(30_000);
            assertFalse(thread.isAlive(), thread.getName() + " did not finish");
        }
        assertTrue(FAILURES.isEmpty(), FAILURES.toString());
    }
}
