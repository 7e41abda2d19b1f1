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
package io.jfabric.shm.stat;

import io.jfabric.shm.av.ShmAddress;
import io.jfabric.shm.core.LocalHost;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.SpscLaneDescriptor;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.RegionUsers;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the users and slots of one sample of a {@link RegionImage}: every field read with a volatile load through
 * the descriptors, nothing written. A process's liveness is asked once per sample ({@link ProcessIdentity#isGone} reads
 * {@code /proc}).
 * <p>
 * One per sample; the sampling thread only.
 */
final class DomainSampler
{
    private final RegionImage image;
    private final AtomicBuffer region;
    private final RegionGeometry geometry;
    private final Map<Long, Boolean> alive = new HashMap<>();

    DomainSampler(final RegionImage image)
    {
        this.image = image;
        this.region = image.buffer();
        this.geometry = image.geometry();
    }

    /**
     * @return the region's users, each with whether its process is alive.
     */
    List<RegionUser> users()
    {
        final RegionUsers users = new RegionUsers(region);
        final List<RegionUser> userList = new ArrayList<>();
        for (int i = 0; i < RegionDescriptor.USER_TABLE_ENTRIES; i++)
        {
            final long user = users.user(i);
            if (user != 0)
            {
                userList.add(new RegionUser(i, user, isAlive(user)));
            }
        }
        return userList;
    }

    /**
     * @return the identity of the process removing the region, or 0.
     */
    long remover()
    {
        return new RegionUsers(region).remover();
    }

    /**
     * @param domainName the region's domain (the slots' addresses name it).
     * @return the slots that have an endpoint or a completion ring owner.
     */
    List<SlotStat> slots(final String domainName)
    {
        final List<SlotStat> slots = new ArrayList<>();
        for (int slot = 0; slot < geometry.slotCount(); slot++)
        {
            final SlotStat stat = slot(slot, domainName);
            if (null != stat)
            {
                slots.add(stat);
            }
        }
        return slots;
    }

    /** @return the slot's snapshot, or null when it has no endpoint and its completion ring no owner. */
    private SlotStat slot(final int slot, final String domainName)
    {
        final long owner = region.getLongVolatile(SlotDescriptor.ownerOffset(geometry, slot));
        final int state = region.getIntVolatile(SlotDescriptor.stateOffset(geometry, slot));
        final long cqOwner = region.getLongVolatile(SlotDescriptor.cqOwnerOffset(geometry, slot));
        if (owner == 0 && state == SlotDescriptor.STATE_FREE && cqOwner == 0)
        {
            return null;
        }
        final int incarnation = region.getIntVolatile(SlotDescriptor.incarnationOffset(geometry, slot));
        final boolean endpoint = owner != 0 || state != SlotDescriptor.STATE_FREE;
        final List<RingStat> lanes = new ArrayList<>();
        for (int sender = 0; sender < geometry.slotCount(); sender++)
        {
            final long stamp = region.getLongVolatile(SlotDescriptor.laneOwnerOffset(geometry, slot, sender));
            final RingStat lane = ring(RingStat.Kind.LANE, sender, SlotDescriptor.senderIncarnation(stamp),
                RegionDescriptor.laneOffset(geometry, slot, sender), geometry.rxRingBytes());
            if (stamp != 0 || lane.producerPosition() != 0)
            {
                lanes.add(lane);
            }
        }
        return new SlotStat(
            slot,
            state,
            owner,
            owner != 0 && isAlive(owner),
            incarnation,
            region.getLongVolatile(SlotDescriptor.heartbeatOffset(geometry, slot)),
            endpoint ? ShmAddress.format(LocalHost.name(), slot, domainName, incarnation) : null,
            cqOwner,
            cqOwner != 0 && isAlive(cqOwner),
            new PathCounts(
                stat(slot, SlotDescriptor.STAT_INLINE_OFFSET),
                stat(slot, SlotDescriptor.STAT_QUEUED_OFFSET),
                stat(slot, SlotDescriptor.STAT_SEGMENTED_OFFSET),
                stat(slot, SlotDescriptor.STAT_RENDEZVOUS_OFFSET),
                stat(slot, SlotDescriptor.STAT_CLAIMED_OFFSET)),
            stat(slot, SlotDescriptor.STAT_DAMAGED_OFFSET),
            lanes,
            ring(RingStat.Kind.TRANSMIT, -1, 0, RegionDescriptor.txRingOffset(geometry, slot), geometry.txRingBytes()),
            ring(RingStat.Kind.COMPLETION, -1, 0, RegionDescriptor.cqRingOffset(geometry, slot),
                geometry.cqRingBytes()));
    }

    private long stat(final int slot, final int statOffset)
    {
        return region.getLongVolatile(SlotDescriptor.statOffset(geometry, slot, statOffset));
    }

    /**
     * Head first, then tail: the tail only grows, so the tail read is never behind the head read. A lane is an
     * {@code SpscLane} ({@link SpscLaneDescriptor}'s trailer); the transmit and completion rings are Agrona's
     * ({@code RingBufferDescriptor}'s trailer).
     */
    private RingStat ring(
        final RingStat.Kind kind, final int sender, final int senderIncarnation, final int offset, final int capacity)
    {
        final boolean lane = kind == RingStat.Kind.LANE;
        final int trailer = offset + capacity;
        final long head = region.getLongVolatile(lane ? offset + SpscLaneDescriptor.consumerPositionOffset(capacity) :
            trailer + RingBufferDescriptor.HEAD_POSITION_OFFSET);
        final long tail = region.getLongVolatile(lane ? offset + SpscLaneDescriptor.producerPositionOffset(capacity) :
            trailer + RingBufferDescriptor.TAIL_POSITION_OFFSET);
        return new RingStat(kind, sender, senderIncarnation, capacity, tail, head);
    }

    private boolean isAlive(final long identity)
    {
        return alive.computeIfAbsent(identity, id -> !ProcessIdentity.isGone(id));
    }
}
