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
package io.jfabric.shm.rma;

import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.mr.LocalRegions;
import io.jfabric.shm.mr.SegmentDescriptor;
import io.jfabric.shm.mr.SegmentFile;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static io.jfabric.shm.lane.LaneRecordDescriptor.*;

/**
 * The target's mappings of its initiators' bounces ({@link EmulatedBounce}): resolves a bounced request's reference
 * ({@link LaneRecordDescriptor#FLAG_BOUNCE}) to the segment's memory, keeping one mapping per initiating slot (an
 * initiator has one bounce at a time; a new one replaces the mapping, which is then unmapped). A mapping left when
 * its initiator goes away is released with this object, by the garbage collector, or at the slot's next bounce.
 * <p>
 * A reference is taken only to a segment of the process that owns the initiating slot (its identity in the slot's
 * owner word), and only for a range inside the segment's data: a damaged or forged request reaches no other
 * process's memory and nothing outside the segment.
 * <p>
 * Receive progress only: the receive guard held.
 */
final class PeerBounces
{
    private final LocalRegions local;
    private final AtomicBuffer region;
    private final RegionGeometry geometry;
    private final SegmentFile[] mapped;
    private int index;

    /**
     * @param local    this endpoint's server of the process's regions (it maps segments).
     * @param region   the domain region.
     * @param geometry its geometry.
     */
    PeerBounces(final LocalRegions local, final AtomicBuffer region, final RegionGeometry geometry)
    {
        this.local = local;
        this.region = region;
        this.geometry = geometry;
        this.mapped = new SegmentFile[geometry.slotCount()];
    }

    /**
     * @param sender  the initiating slot.
     * @param lane    the lane holding the request.
     * @param payload the request's payload: the bounce reference.
     * @param total   bytes the operation moves.
     * @return the segment whose bytes start at {@link #index()}, or null when the reference is not to a live segment
     * of the sender's process with {@code total} bytes at its offset.
     */
    UnsafeBuffer resolve(final int sender, final AtomicBuffer lane, final int payload, final long total)
    {
        final long owner = lane.getLong(payload + BOUNCE_OWNER_OFFSET);
        final long segmentId = lane.getLong(payload + BOUNCE_SEGMENT_OFFSET);
        final long nonce = lane.getLong(payload + BOUNCE_NONCE_OFFSET);
        final long offset = lane.getLong(payload + BOUNCE_DATA_OFFSET);
        if (sender < 0 || sender >= mapped.length || owner == 0 ||
            owner != region.getLongVolatile(SlotDescriptor.ownerOffset(geometry, sender)))
        {
            return null;
        }
        SegmentFile file = mapped[sender];
        if (file == null || file.segmentId() != segmentId || file.nonce() != nonce ||
            file.ownerPid() != ProcessIdentity.pid(owner))
        {
            if (file != null)
            {
                file.close(); // unmaps; the owner's file stays
            }
            file = local.openSegment(owner, segmentId, nonce); // a miss: maps (allocates)
            mapped[sender] = file;
        }
        if (file == null || offset < 0 || total < 0 || offset > file.dataLength() - total)
        {
            return null;
        }
        index = (int)(SegmentDescriptor.DATA_OFFSET + offset);
        return file.buffer();
    }

    /**
     * Forget a sender's mapping whose file faulted (was truncated): left to the garbage collector, not unmapped (an
     * unmap of a faulted mapping gains nothing), and never touched again.
     *
     * @param sender the initiating slot.
     */
    void drop(final int sender)
    {
        mapped[sender] = null; // a later reference maps it anew, which a short file fails
    }

    /** @return where the bytes start in the segment {@link #resolve} returned. */
    int index()
    {
        return index;
    }
}
