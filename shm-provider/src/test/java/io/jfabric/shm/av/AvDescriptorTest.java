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

import org.agrona.BitUtil;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AvDescriptorTest
{
    @Test
    void shouldLayTheHeaderFieldsOutWithoutOverlapAndWithinTheHeader()
    {
        assertTrue(AvDescriptor.DOMAIN_NAME_OFFSET + AvDescriptor.NAME_CAPACITY <= AvDescriptor.AV_NAME_LENGTH_OFFSET);
        assertTrue(AvDescriptor.AV_NAME_OFFSET + AvDescriptor.AV_NAME_CAPACITY <= AvDescriptor.CHECKSUM_OFFSET);
        assertTrue(AvDescriptor.CHECKSUM_OFFSET + 4 <= AvDescriptor.READY_OFFSET);
        assertTrue(AvDescriptor.GENERATION_OFFSET + 8 <= AvDescriptor.HEADER_LENGTH);
        for (final int shared : new int[]{ AvDescriptor.READY_OFFSET, AvDescriptor.ATTACH_COUNT_OFFSET,
            AvDescriptor.GENERATION_OFFSET })
        {
            assertEquals(0, shared % BitUtil.CACHE_LINE_LENGTH, "fields other processes update own a cache line");
        }
    }

    @Test
    void shouldKeepEntriesAlignedAndTheirFieldsInside()
    {
        assertEquals(0, AvDescriptor.ENTRY_LENGTH % BitUtil.CACHE_LINE_LENGTH);
        assertEquals(0, AvDescriptor.entryOffset(0) % BitUtil.CACHE_LINE_LENGTH);
        assertEquals(AvDescriptor.HEADER_LENGTH + 3 * AvDescriptor.ENTRY_LENGTH, AvDescriptor.entryOffset(3));
        assertTrue(AvDescriptor.AUTH_KEY_GENERATION_OFFSET + 8 <= AvDescriptor.UPDATER_OFFSET);
        assertEquals(0, AvDescriptor.UPDATER_OFFSET % 8, "the updater word is CASed");
        assertTrue(AvDescriptor.UPDATER_OFFSET + 8 <= AvDescriptor.ADDRESS_OFFSET);
        assertEquals(AvDescriptor.ENTRY_LENGTH, AvDescriptor.ADDRESS_OFFSET + AvDescriptor.ADDRESS_CAPACITY);
        assertEquals(AvDescriptor.HEADER_LENGTH + 16L * AvDescriptor.ENTRY_LENGTH, AvDescriptor.fileLength(16));
    }

    @Test
    void shouldSizeTablesFromTheCountRoundedUpToAPowerOfTwoOfAtLeastSixteen()
    {
        assertEquals(16, AvDescriptor.entriesFor(1));
        assertEquals(16, AvDescriptor.entriesFor(16));
        assertEquals(32, AvDescriptor.entriesFor(17));
        assertEquals(1 << 16, AvDescriptor.entriesFor(1 << 16));
    }

    @Test
    void shouldTellStatesApartAndKeepTheClaimerIdentityAndGeneration()
    {
        final long identity = ProcessIdentity.of(ProcessIdentity.PID_MASK, ProcessIdentity.START_MASK);
        final long claimed = AvDescriptor.claimed(identity);
        assertTrue(AvDescriptor.isClaimed(claimed));
        assertFalse(AvDescriptor.isValid(claimed));
        assertEquals(identity, AvDescriptor.claimer(claimed), "the widest identity survives the tag shift");
        final long valid = AvDescriptor.valid(7);
        assertTrue(AvDescriptor.isValid(valid));
        assertEquals(7, AvDescriptor.generation(valid));
        assertEquals(0, AvDescriptor.references(valid));
        final long referenced = valid + 3 * AvDescriptor.REFERENCE + AvDescriptor.UPDATING;
        assertEquals(3, AvDescriptor.references(referenced), "references and the updating bit leave the rest");
        assertEquals(7, AvDescriptor.generation(referenced));
        assertTrue(AvDescriptor.isValid(referenced) && AvDescriptor.isUpdating(referenced));
        final long widest = AvDescriptor.valid(AvDescriptor.GENERATION_MASK) + AvDescriptor.MAX_REFERENCES *
            AvDescriptor.REFERENCE;
        assertEquals(AvDescriptor.GENERATION_MASK, AvDescriptor.generation(widest), "the widest generation fits");
        assertEquals(AvDescriptor.MAX_REFERENCES, AvDescriptor.references(widest));
        assertTrue(AvDescriptor.MAX_REFERENCES >= AvDescriptor.MAX_ENTRIES - 1, "every other entry may reference");
        assertFalse(AvDescriptor.isClaimed(valid));
        assertFalse(AvDescriptor.isValid(AvDescriptor.FREE) || AvDescriptor.isClaimed(AvDescriptor.FREE));
    }
}
