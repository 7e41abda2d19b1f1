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

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fi_av_set_user_id (the updating-bit protocol of {@link AvDescriptor}) against remove and re-insert of the same
 * entry, at once: one thread sets the user id of whatever publication it validated to that publication's own
 * generation, the other removes the entry and publishes it again (a fresh generation, user id unset). An entry may
 * then only ever hold "unset" or its own generation; any other value is an id meant for a previous occupant. With
 * both participants alive nobody may get {@link AvTable#STUCK}.
 */
class AvUserIdRaceTest
{
    private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long UNSET = -1;
    private static final byte[] ADDRESS = "fi_shm://h:1/d".getBytes(StandardCharsets.US_ASCII);

    @Test
    void shouldNeverLeaveAUserIdMeantForAPreviousOccupantNorGetStuckWithLiveParticipants() throws Exception
    {
        final AvTable table = AvTable.inMemory(new UnsafeBuffer(new byte[(int)AvDescriptor.fileLength(16)]), 16, "d");
        final int index = table.claim();
        table.publishAddress(index, ADDRESS, 1, 0, UNSET, -1, 0);
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong set = new AtomicLong();
        final AtomicLong gone = new AtomicLong();
        final AtomicLong reinserted = new AtomicLong();
        final AtomicLong stuck = new AtomicLong();
        final AtomicLong foreign = new AtomicLong();
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try
        {
            final Future<?> setter = pool.submit(() ->
            {
                final AvTable.Entry entry = new AvTable.Entry();
                while (!stop.get())
                {
                    if (!table.snapshot(index, entry))
                    {
                        continue;
                    }
                    checkOwnId(entry, foreign);
                    final int result = table.userId(index, entry.generation, entry.generation);
                    (result == AvTable.SET ? set : result == AvTable.GONE ? gone : stuck).incrementAndGet();
                }
                return null;
            });
            final Future<?> churner = pool.submit(() ->
            {
                final AvTable.Entry entry = new AvTable.Entry();
                while (!stop.get())
                {
                    assertTrue(table.snapshot(index, entry), "only this thread removes, and it re-publishes");
                    checkOwnId(entry, foreign);
                    final int result = table.remove(index, entry.generation);
                    if (result != AvTable.REMOVED)
                    {
                        stuck.incrementAndGet();
                        continue;
                    }
                    assertEquals(index, table.claim(), "the lowest free entry is the one just removed");
                    table.publishAddress(index, ADDRESS, 1, 0, UNSET, -1, 0);
                    reinserted.incrementAndGet();
                }
                return null;
            });
            // On until the setter both set an id and lost a race to a re-insert.
            AvTestSupport.raceUntilProgress(RUN_NANOS, () -> set.get() > 0 && gone.get() > 0 && reinserted.get() > 0,
                stop, setter, churner);
        }
        finally
        {
            stop.set(true);
            pool.shutdownNow();
        }
        final String progress = set.get() + " ids set, " + gone.get() + " lost to a re-insert, " + reinserted.get() +
            " re-inserts";
        assertTrue(set.get() > 0 && gone.get() > 0 && reinserted.get() > 0, "both sides raced: " + progress);
        assertEquals(0, stuck.get(), "STUCK with live participants: " + progress);
        final AvTable.Entry last = new AvTable.Entry();
        assertTrue(table.snapshot(index, last));
        checkOwnId(last, foreign);
        assertEquals(0, foreign.get(), "entries seen holding an id meant for a previous occupant: " + progress);
        assertEquals(0, last.state & AvDescriptor.UPDATING, "no updating bit left behind");
    }

    private static void checkOwnId(final AvTable.Entry entry, final AtomicLong foreign)
    {
        if (entry.userId != UNSET && entry.userId != entry.generation)
        {
            foreign.incrementAndGet();
        }
    }
}
