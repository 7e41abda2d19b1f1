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
package io.jfabric.shm.cntr;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.RegionGeometry;

import org.agrona.concurrent.AtomicBuffer;

import static io.jfabric.shm.cntr.CounterTableDescriptor.*;

/**
 * The domain region's counter table (entries laid out by {@link CounterTableDescriptor}): claims and frees entries
 * and updates counts. Counts are atomic across processes, so a peer's remote write event raises the owner's counter.
 * <p>
 * Threads: any; claims are CAS, counts are atomic.
 */
public final class CounterTable
{
    private static final boolean BROKEN_CLAIM = BrokenVariant.active("cntr.claim-plain");

    private final AtomicBuffer region;
    private final RegionGeometry geometry;

    /**
     * @param region   the mapped region.
     * @param geometry its geometry.
     */
    public CounterTable(final AtomicBuffer region, final RegionGeometry geometry)
    {
        this.region = region;
        this.geometry = geometry;
    }

    /** @return entries in the table: valid indexes are {@code [0, entries())}. */
    public int entries()
    {
        return geometry.counterEntries();
    }

    private boolean claimOwner(final int ownerOffset, final long owner, final long self)
    {
        if (BROKEN_CLAIM)
        {
            region.putLongVolatile(ownerOffset, self);
            return true;
        }
        return region.compareAndSetLong(ownerOffset, owner, self);
    }

    /**
     * Claim a free entry, zeroing its counts: a CAS of its owner word from 0 to this process's identity. When no entry
     * is free, an entry whose owner is gone ({@link ProcessIdentity#isGone}: exited, or its pid now names another
     * process) is taken over with a CAS of the owner word from that identity to this one, so two claimers never get
     * the same entry and an entry is never taken from a claimer half-way through its claim.
     *
     * @param operation the call, for messages.
     * @return the entry index.
     * @throws FabricException {@link Errno#FI_ENOSPC} when every entry is in use.
     */
    public int claim(final String operation)
    {
        final long self = ProcessIdentity.self();
        final int entries = geometry.counterEntries();
        for (int pass = 0; pass < 2; pass++)
        {
            for (int index = 0; index < entries; index++)
            {
                final int offset = entryOffset(geometry, index);
                final long owner = region.getLongVolatile(offset + OWNER_OFFSET);
                final boolean claimable = owner == 0 || (pass == 1 && ProcessIdentity.isGone(owner));
                if (claimable && claimOwner(offset + OWNER_OFFSET, owner, self))
                {
                    region.putLongVolatile(offset + VALUE_OFFSET, 0);
                    region.putLongVolatile(offset + ERROR_OFFSET, 0);
                    region.putIntVolatile(offset + STATE_OFFSET, STATE_IN_USE);
                    return index;
                }
            }
        }
        throw new FabricException(Errno.FI_ENOSPC, operation + ": the domain's counter table is full (" + entries +
            " entries, jfabric.shm.cntr.count); close counters or raise the setting");
    }

    /**
     * @param index an entry this process claimed.
     */
    public void free(final int index)
    {
        final int offset = entryOffset(geometry, index);
        region.putIntVolatile(offset + STATE_OFFSET, STATE_FREE);
        region.putLongRelease(offset + OWNER_OFFSET, 0);
    }

    /**
     * @param index entry.
     * @return its owner's {@link ProcessIdentity}, 0 when free.
     */
    public long owner(final int index)
    {
        return region.getLongVolatile(entryOffset(geometry, index) + OWNER_OFFSET);
    }

    /**
     * @param index entry.
     * @return offset of its success count.
     */
    public int valueOffset(final int index)
    {
        return entryOffset(geometry, index) + VALUE_OFFSET;
    }

    /**
     * @param index entry.
     * @return offset of its error count.
     */
    public int errorOffset(final int index)
    {
        return entryOffset(geometry, index) + ERROR_OFFSET;
    }

    /**
     * Add one event, from the data path of any process.
     *
     * @param index entry.
     * @param delta amount.
     */
    public void add(final int index, final long delta)
    {
        region.getAndAddLong(valueOffset(index), delta);
    }

    /** @return the region buffer the counts live in. */
    public AtomicBuffer buffer()
    {
        return region;
    }
}
