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

import io.jfabric.shm.core.ProcessIdentity;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fi_av_set_user_id against a remove and re-insert of the same index by another process, step by step: the id must
 * go to the publication that was validated, never to the one that replaced it.
 */
class AvTableUserIdTest
{
    private static final byte[] OLD = "fi_shm://h:1/d".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NEW = "fi_shm://h:2/d".getBytes(StandardCharsets.US_ASCII);

    private static AvTable table()
    {
        return AvTable.inMemory(new UnsafeBuffer(new byte[(int)AvDescriptor.fileLength(16)]), 16, "d");
    }

    @Test
    void shouldNotGiveTheUserIdToAnEntryReinsertedAfterValidation()
    {
        final AvTable table = table();
        final int index = table.claim();
        table.publishAddress(index, OLD, 1, 0, -1, -1, 0);
        final AvTable.Entry validated = new AvTable.Entry();
        assertTrue(table.snapshot(index, validated)); // setUserId validated the entry ...

        assertEquals(AvTable.REMOVED, table.remove(index, validated.generation)); // ... another process removes it
        // and re-inserts
        assertEquals(index, table.claim());
        table.publishAddress(index, NEW, 2, 0, 7, -1, 0);

        assertEquals(AvTable.GONE, table.userId(index, validated.generation, 99)); // ... then the id is written
        final AvTable.Entry now = new AvTable.Entry();
        assertTrue(table.snapshot(index, now));
        assertEquals(7, now.userId, "the re-inserted entry keeps its own user id");
        assertEquals(AvTable.SET, table.userId(index, now.generation, 99));
        assertTrue(table.snapshot(index, now));
        assertEquals(99, now.userId, "the publication validated takes it");
        assertEquals(now.generation, AvDescriptor.generation(now.state), "and the updating bit is cleared");
        assertEquals(0, now.state & AvDescriptor.UPDATING);
    }

    @Test
    void shouldRefuseReferencesAndRemovalsAimedAtAReplacedKey()
    {
        final AvTable table = table();
        final int key = table.claim();
        table.publishKey(key, new byte[]{ 1 });
        final AvTable.Entry first = new AvTable.Entry();
        assertTrue(table.snapshot(key, first));
        assertTrue(table.addReference(key, first.generation));
        assertEquals(AvTable.IN_USE, table.remove(key, first.generation), "a referenced key stays");
        assertTrue(table.dropReference(key, first.generation));
        assertEquals(AvTable.REMOVED, table.remove(key, first.generation));

        assertEquals(key, table.claim());
        table.publishKey(key, new byte[]{ 2 });
        assertFalse(table.addReference(key, first.generation), "a late +1 for the removed key fails");
        assertFalse(table.dropReference(key, first.generation), "so does a late -1");
        final AvTable.Entry second = new AvTable.Entry();
        assertTrue(table.snapshot(key, second));
        assertEquals(0, second.references, "the key reusing the index starts and stays at 0");
        assertEquals(AvTable.GONE, table.remove(key, first.generation));
        assertEquals(AvTable.REMOVED, table.remove(key, second.generation));
    }

    @Test
    void shouldRecoverAnUpdatingBitLeftByAProcessThatIsGone()
    {
        final PublishedEntry e = new PublishedEntry();
        e.holdUpdatingBit(goneIdentity());

        assertEquals(AvTable.SET, e.table.userId(e.index, e.validated.generation, 5), "an updater waits past the " +
            "bound, finds the holder gone, clears its bit and writes");
        final AvTable.Entry now = new AvTable.Entry();
        assertTrue(e.table.snapshot(e.index, now));
        assertEquals(5, now.userId);
        assertEquals(e.validated.state, now.state, "same publication, updating bit clear");
        assertEquals(0, e.updater());

        e.holdUpdatingBit(goneIdentity());
        assertEquals(AvTable.REMOVED, e.table.remove(e.index, e.validated.generation), "so does a remover");
        assertEquals(0, e.updater());
        assertEquals(e.index, e.table.claim(), "the entry is usable again");
    }

    @Test
    void shouldRecoverAnUpdatingBitWithNoUpdaterRecorded()
    {
        // The reviewer's case: only the bit, as a layout 2 writer killed between its two atomics left it.
        final PublishedEntry e = new PublishedEntry();
        e.holdUpdatingBit(0);

        assertEquals(AvTable.REMOVED, e.table.remove(e.index, e.validated.generation), "entry can be removed again");
    }

    @Test
    void shouldGiveStuckWhileALiveProcessHoldsTheUpdatingBit()
    {
        final PublishedEntry e = new PublishedEntry();
        e.holdUpdatingBit(ProcessIdentity.self());

        assertEquals(AvTable.STUCK, e.table.remove(e.index, e.validated.generation), "a live holder keeps its bit");
        assertEquals(AvTable.STUCK, e.table.userId(e.index, e.validated.generation, 5));
        final AvTable.Entry now = new AvTable.Entry();
        assertTrue(e.table.snapshot(e.index, now));
        assertEquals(e.validated.state | AvDescriptor.UPDATING, now.state, "nothing was taken from it");
        assertEquals(ProcessIdentity.self(), e.updater());
    }

    /** One address published in a fresh in-memory table, and its validated snapshot. */
    private static final class PublishedEntry
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[(int)AvDescriptor.fileLength(16)]);
        final AvTable table = AvTable.inMemory(buffer, 16, "d");
        final int index = table.claim();
        final AvTable.Entry validated = new AvTable.Entry();

        PublishedEntry()
        {
            table.publishAddress(index, OLD, 1, 0, -1, -1, 0);
            assertTrue(table.snapshot(index, validated));
        }

        /** What an updater killed between setting the updating bit and clearing it leaves behind. */
        void holdUpdatingBit(final long updater)
        {
            buffer.putLongVolatile(AvDescriptor.entryOffset(index) + AvDescriptor.UPDATER_OFFSET, updater);
            buffer.putLongVolatile(AvDescriptor.entryOffset(index) + AvDescriptor.STATE_OFFSET,
                validated.state | AvDescriptor.UPDATING);
        }

        long updater()
        {
            return buffer.getLongVolatile(AvDescriptor.entryOffset(index) + AvDescriptor.UPDATER_OFFSET);
        }
    }

    /** This process's pid with another start time: the identity of a process that had this pid before (reused). */
    private static long goneIdentity()
    {
        final long self = ProcessIdentity.self();
        final long gone = ProcessIdentity.of(ProcessIdentity.pid(self), ProcessIdentity.start(self) + 1);
        assertTrue(ProcessIdentity.isGone(gone), "needs /proc to tell start times apart");
        return gone;
    }
}
