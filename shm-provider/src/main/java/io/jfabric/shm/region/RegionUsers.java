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
package io.jfabric.shm.region;

import io.jfabric.shm.core.ProcessIdentity;

import org.agrona.concurrent.AtomicBuffer;

import static io.jfabric.shm.region.RegionDescriptor.REMOVER_OFFSET;
import static io.jfabric.shm.region.RegionDescriptor.USER_TABLE_ENTRIES;
import static io.jfabric.shm.region.RegionDescriptor.userEntryOffset;

/**
 * Flyweight over a region header's user table and remover word (layout in {@link RegionDescriptor}): which processes
 * have the region open now, so a region is removed ({@code jfabric clean}) only once every one of them is gone, and
 * never while a process is opening it.
 * <p>
 * The protocol, in which each side's first access is a CAS (a full fence) and its second a volatile read, so of an
 * opener and a remover racing at least one sees the other:
 * <ul>
 *   <li>attach ({@code RegionFile}, every open): CAS a free entry (0; when none is free, an entry whose process is
 *   gone) to the opener's {@link ProcessIdentity}, then read the remover word. 0: attached. Otherwise the region is
 *   being removed: give the entry back and open again once the remover is done, or is gone.</li>
 *   <li>remove ({@link RegionRemoval}): CAS the remover word from 0 (or from a remover that is gone) to the
 *   remover's identity, then read every entry. An entry of a live process: CAS the word back to 0, the region is in
 *   use. None: nobody has it open and nobody can attach any more (the word stays set for good), so the file may be
 *   unlinked.</li>
 *   <li>detach (close): CAS the entry from the identity back to 0.</li>
 * </ul>
 * An entry left by a process that died with the region open stays until that process is judged gone
 * ({@link ProcessIdentity#isGone}: pid and start time); it never makes a region look used for ever, and a full table
 * reuses such entries.
 * <p>
 * The buffer may be the mapped header or a private {@code read(2)} copy (for a judgement that changes nothing).
 * Threads: any thread of any process mapping the region.
 */
public final class RegionUsers
{
    private final AtomicBuffer buffer;

    /**
     * @param header the region's first {@link RegionDescriptor#HEADER_LENGTH} bytes, or more.
     */
    public RegionUsers(final AtomicBuffer header)
    {
        if (header.capacity() < RegionDescriptor.HEADER_LENGTH)
        {
            throw new IllegalArgumentException("buffer of " + header.capacity() + " bytes cannot hold the " +
                RegionDescriptor.HEADER_LENGTH + " byte region header");
        }
        this.buffer = header;
    }

    /**
     * Take a user table entry for a process: a free one, else one whose process is gone.
     *
     * @param identity the process.
     * @return the entry's index, or -1 when every entry belongs to a live process.
     */
    public int claim(final long identity)
    {
        for (int i = 0; i < USER_TABLE_ENTRIES; i++)
        {
            final int offset = userEntryOffset(i);
            if (buffer.getLongVolatile(offset) == 0 && buffer.compareAndSetLong(offset, 0, identity))
            {
                return i;
            }
        }
        for (int i = 0; i < USER_TABLE_ENTRIES; i++)
        {
            final int offset = userEntryOffset(i);
            final long user = buffer.getLongVolatile(offset);
            if (user != 0 && ProcessIdentity.isGone(user) && buffer.compareAndSetLong(offset, user, identity))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * Give an entry back.
     *
     * @param index    from {@link #claim}.
     * @param identity the process that claimed it.
     */
    public void release(final int index, final long identity)
    {
        buffer.compareAndSetLong(userEntryOffset(index), identity, 0);
    }

    /**
     * @return the remover word (a volatile read): 0, or the identity of a process removing the region.
     */
    public long remover()
    {
        return buffer.getLongVolatile(REMOVER_OFFSET);
    }

    /**
     * CAS the remover word.
     *
     * @param expected what it must hold.
     * @param remover  what it is to hold: a remover's identity, or 0.
     * @return true when it was set.
     */
    public boolean compareAndSetRemover(final long expected, final long remover)
    {
        return buffer.compareAndSetLong(REMOVER_OFFSET, expected, remover);
    }

    /**
     * @param index a user table entry, in {@code [0, USER_TABLE_ENTRIES)}.
     * @return what it holds now (a volatile read): 0 when free, else the identity of a process that opened the
     * region (alive or not).
     */
    public long user(final int index)
    {
        return buffer.getLongVolatile(userEntryOffset(index));
    }

    /**
     * @return the identity of a live process that has the region open (volatile reads), or 0 when there is none.
     */
    public long liveUser()
    {
        for (int i = 0; i < USER_TABLE_ENTRIES; i++)
        {
            final long user = buffer.getLongVolatile(userEntryOffset(i));
            if (user != 0 && !ProcessIdentity.isGone(user))
            {
                return user;
            }
        }
        return 0;
    }

    /**
     * @param identity a process.
     * @return how many entries it holds now.
     */
    public int entriesOf(final long identity)
    {
        int count = 0;
        for (int i = 0; i < USER_TABLE_ENTRIES; i++)
        {
            if (buffer.getLongVolatile(userEntryOffset(i)) == identity)
            {
                count++;
            }
        }
        return count;
    }
}
