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
package io.jfabric.shm.liveness;

import io.jfabric.Fid;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.eq.DamageReports;
import io.jfabric.shm.eq.ShmEventQueue;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;

/**
 * The heartbeat of an enabled endpoint's slot, and the watch over the words of its header that only the endpoint
 * writes while it is enabled ({@link SlotDescriptor}): owner, incarnation, state, the context-of word, the
 * authorization key count and digests, the remote access counter words, and the receive context count and entries
 * (none: those are a scalable endpoint's address slot's, which is not an endpoint's). Any process of the same user can write them;
 * one changed would make senders take the endpoint for gone, another incarnation, a scalable endpoint or one that
 * accepts no key, for good. Every tick it writes the heartbeat and compares the rest with what the endpoint published
 * at its enable; a changed word is written back and reported on the endpoint's EQ (FI_EIO, the slot as data; at most
 * one event every {@link DamageReports#INTERVAL_MS}). The owner word is written back only while no live process holds
 * it (a CAS), so a slot another process took in between is left to it, and reported.
 * <p>
 * The heartbeat thread's ({@link Heartbeats}); made at enable, unregistered at close before the slot is released.
 */
public final class SlotHeaderWatch implements Heartbeats.Task
{
    private final AtomicBuffer region;
    private final int slot;
    private final int heartbeatOffset;
    private final int ownerOffset;
    private final int incarnationOffset;
    private final int stateOffset;
    private final int contextOfOffset;
    private final int authCountOffset;
    private final int[] authDigestOffsets;
    private final int rxContextCountOffset;
    private final int[] rxContextOffsets;
    private final int readCounterOffset;
    private final int writeCounterOffset;
    private final long owner;
    private final int incarnation;
    private final long contextOf;
    private final int authCount;
    private final long[] authDigests;
    private final int readCounter;
    private final int writeCounter;
    private final ShmEventQueue eq;
    private final Fid endpoint;
    private final DamageReports reports;
    /** Whether the slot went ACTIVE (the watch is registered right before): only then are the words checked. */
    private boolean armed;

    /**
     * Take the header's words as the endpoint published them (all but its state, which becomes ACTIVE right after)
     * and write the heartbeat. Control path, at enable.
     *
     * @param region   the domain region.
     * @param geometry its geometry.
     * @param slot     the endpoint's slot.
     * @param eq       the endpoint's EQ, or null.
     * @param endpoint the endpoint.
     */
    public SlotHeaderWatch(
        final AtomicBuffer region, final RegionGeometry geometry, final int slot, final ShmEventQueue eq,
        final Fid endpoint)
    {
        this.region = region;
        this.slot = slot;
        this.eq = eq;
        this.endpoint = endpoint;
        heartbeatOffset = SlotDescriptor.heartbeatOffset(geometry, slot);
        ownerOffset = SlotDescriptor.ownerOffset(geometry, slot);
        incarnationOffset = SlotDescriptor.incarnationOffset(geometry, slot);
        stateOffset = SlotDescriptor.stateOffset(geometry, slot);
        contextOfOffset = SlotDescriptor.contextOfOffset(geometry, slot);
        authCountOffset = SlotDescriptor.authCountOffset(geometry, slot);
        authDigestOffsets = new int[SlotDescriptor.MAX_AUTH_DIGESTS];
        authDigests = new long[SlotDescriptor.MAX_AUTH_DIGESTS];
        for (int i = 0; i < authDigestOffsets.length; i++)
        {
            authDigestOffsets[i] = SlotDescriptor.authDigestOffset(geometry, slot, i);
            authDigests[i] = region.getLongVolatile(authDigestOffsets[i]);
        }
        rxContextCountOffset = SlotDescriptor.rxContextCountOffset(geometry, slot);
        rxContextOffsets = new int[SlotDescriptor.MAX_EP_CONTEXTS];
        for (int i = 0; i < rxContextOffsets.length; i++)
        {
            rxContextOffsets[i] = SlotDescriptor.rxContextOffset(geometry, slot, i);
        }
        readCounterOffset = SlotDescriptor.remoteCounterOffset(geometry, slot, false);
        writeCounterOffset = SlotDescriptor.remoteCounterOffset(geometry, slot, true);
        owner = region.getLongVolatile(ownerOffset);
        incarnation = region.getIntVolatile(incarnationOffset);
        contextOf = region.getLongVolatile(contextOfOffset);
        authCount = region.getIntVolatile(authCountOffset);
        readCounter = region.getIntVolatile(readCounterOffset);
        writeCounter = region.getIntVolatile(writeCounterOffset);
        reports = new DamageReports("damaged header of slot ", geometry.slotCount());
        region.putLongOrdered(heartbeatOffset, System.currentTimeMillis());
    }

    @Override
    public void onTick(final long nowMs)
    {
        final AtomicBuffer r = region;
        r.putLongOrdered(heartbeatOffset, nowMs);
        if (!armed)
        {
            armed = r.getIntVolatile(stateOffset) == SlotDescriptor.STATE_ACTIVE; // registered just before ACTIVE
            return;
        }
        if (r.getIntVolatile(incarnationOffset) != incarnation || r.getIntVolatile(stateOffset) !=
            SlotDescriptor.STATE_ACTIVE || r.getLongVolatile(contextOfOffset) != contextOf ||
            r.getIntVolatile(authCountOffset) != authCount || r.getIntVolatile(readCounterOffset) != readCounter ||
            r.getIntVolatile(writeCounterOffset) != writeCounter || r.getLongVolatile(ownerOffset) != owner ||
            r.getIntVolatile(rxContextCountOffset) != 0 || !digestsKept())
        {
            restore(nowMs);
        }
    }

    private boolean digestsKept()
    {
        for (int i = 0; i < authDigests.length; i++)
        {
            if (region.getLong(authDigestOffsets[i]) != authDigests[i])
            {
                return false;
            }
        }
        return true;
    }

    /** Write back what changed, and report it. Error path (allocates). */
    private void restore(final long nowMs)
    {
        final AtomicBuffer r = region;
        final long foundOwner = r.getLongVolatile(ownerOffset);
        String taken = "";
        if (foundOwner != owner)
        {
            if (foundOwner == 0 || ProcessIdentity.isGone(foundOwner))
            {
                r.compareAndSetLong(ownerOffset, foundOwner, owner);
            }
            else
            {
                taken = "; its owner word names another live process (" + foundOwner + "): left to it";
            }
        }
        for (int i = 0; i < authDigests.length; i++)
        {
            r.putLong(authDigestOffsets[i], authDigests[i]);
        }
        r.putIntOrdered(authCountOffset, authCount);
        for (final int entry : rxContextOffsets)
        {
            r.putLongOrdered(entry, 0);
        }
        r.putIntOrdered(rxContextCountOffset, 0);
        r.putIntOrdered(readCounterOffset, readCounter);
        r.putIntOrdered(writeCounterOffset, writeCounter);
        r.putLongOrdered(contextOfOffset, contextOf);
        r.putIntOrdered(incarnationOffset, incarnation);
        r.putIntOrdered(stateOffset, SlotDescriptor.STATE_ACTIVE);
        reports.report(eq, endpoint, endpoint.context(), slot,
            "words the enabled endpoint published were overwritten; written back" + taken, nowMs);
    }
}
