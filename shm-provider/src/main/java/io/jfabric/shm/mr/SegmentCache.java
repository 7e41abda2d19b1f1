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
package io.jfabric.shm.mr;

import io.jfabric.shm.core.ProcessIdentity;

/**
 * The peers' segments one {@link RemoteMemory} view has mapped: at most {@link #CAPACITY}, each remembered with its
 * owner's process identity and the key it was last reached through, so a view never pins memory its owners freed.
 * <p>
 * A mapping is dropped (unmapped at once) when the key it was last reached through is rejected ({@link #forget}),
 * when, on a miss, that key no longer resolves to a published entry naming this segment (withdrawn, or re-registered
 * over another segment), when an entry names the same owner and segment number with another nonce (the segment was
 * freed and its name reused: the mapping is of memory nobody registers any more), and, when all slots are still in use, the least recently used one makes room.
 * <p>
 * Not thread safe: owned by its view, whose single thread is the only user of the buffers it hands out. Every
 * method, and so every unmapping (eviction, {@link #forget}, {@link #clear}), runs on that thread inside one of the
 * view's calls, never from {@link RemoteMemory#close()} (which may come from another thread), so unmapping can never
 * pull memory from under a copy.
 */
final class SegmentCache
{
    /** Mappings kept at most per view. */
    static final int CAPACITY = 16;

    private final SegmentOpener opener;
    private final MrTable table;
    private final SegmentFile[] files = new SegmentFile[CAPACITY];
    private final long[] owners = new long[CAPACITY];
    private final long[] lastKeys = new long[CAPACITY];
    private final long[] lastUses = new long[CAPACITY];
    private long clock;
    private int size;

    /**
     * @param opener how a segment is mapped.
     * @param table  the domain's key table (a miss checks the key still names the mapping it would replace).
     */
    SegmentCache(final SegmentOpener opener, final MrTable table)
    {
        this.opener = opener;
        this.table = table;
    }

    /**
     * The mapping of a segment, mapping it (and making room) on a miss.
     *
     * @param key       the key the caller resolved to this segment.
     * @param owner     the owner's {@link ProcessIdentity} (pid and start time, so a segment of an earlier process
     *                  with the same pid and segment number is never taken for this one's).
     * @param segmentId the owner's segment number.
     * @param nonce     the segment's nonce from the key table entry: a cached mapping of the same owner and number
     *                  with another nonce is a freed segment whose name came back, dropped and mapped afresh.
     * @return the segment, or null when its file no longer exists (or holds another segment).
     * @throws io.jfabric.FabricException as {@link SegmentFile#open} does.
     */
    SegmentFile get(final long key, final long owner, final long segmentId, final long nonce)
    {
        for (int i = 0; i < CAPACITY; i++)
        {
            final SegmentFile file = files[i];
            if (file != null && file.segmentId() == segmentId && owners[i] == owner)
            {
                if (file.nonce() == nonce)
                {
                    lastKeys[i] = key;
                    lastUses[i] = ++clock;
                    return file;
                }
                drop(i);
            }
        }
        dropStale();
        final SegmentFile opened = opener.open(owner, segmentId, nonce);
        if (opened != null)
        {
            final int slot = freeSlot();
            files[slot] = opened;
            owners[slot] = owner;
            lastKeys[slot] = key;
            lastUses[slot] = ++clock;
            size++;
        }
        return opened;
    }

    /**
     * Unmap the segments last reached through a key the table just rejected.
     *
     * @param key the key.
     */
    void forget(final long key)
    {
        for (int i = 0; i < CAPACITY; i++)
        {
            if (files[i] != null && lastKeys[i] == key)
            {
                drop(i);
            }
        }
    }

    /** @return segments mapped now. */
    int size()
    {
        return size;
    }

    /** Unmap everything. */
    void clear()
    {
        for (int i = 0; i < CAPACITY; i++)
        {
            if (files[i] != null)
            {
                drop(i);
            }
        }
    }

    private void dropStale()
    {
        for (int i = 0; i < CAPACITY; i++)
        {
            final SegmentFile file = files[i];
            if (file != null && !stillNamedBy(lastKeys[i], owners[i], file))
            {
                drop(i);
            }
        }
    }

    private boolean stillNamedBy(final long key, final long owner, final SegmentFile file)
    {
        final int index = table.find(key);
        if (index < 0)
        {
            return false;
        }
        final long control = table.laControl(index);
        final long segmentId = table.lpSegmentId(index);
        final long nonce = table.lpSegmentNonce(index);
        final long entryOwner = table.lpOwner(index);
        return MrTableDescriptor.state(control) == MrTableDescriptor.STATE_PUBLISHED && table.lvControlUnchanged(index, control) &&
            segmentId == file.segmentId() && nonce == file.nonce() && entryOwner == owner;
    }

    private int freeSlot()
    {
        int oldest = 0;
        for (int i = 0; i < CAPACITY; i++)
        {
            if (files[i] == null)
            {
                return i;
            }
            if (lastUses[i] < lastUses[oldest])
            {
                oldest = i;
            }
        }
        drop(oldest);
        return oldest;
    }

    private void drop(final int slot)
    {
        final SegmentFile file = files[slot];
        files[slot] = null;
        size--;
        file.close();
    }
}
