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
package io.jfabric.shm.ep;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;

/**
 * The endpoint slots of a domain region, as every process that maps it shares them: a slot is claimed by a CAS of
 * its owner word ({@link SlotDescriptor}) from 0, or from the identity of a process that is gone, to this
 * process's identity; the claimer then moves the slot's incarnation on and marks it CLAIMED, and gives it back with
 * {@link #release}. A slot is never held by two processes: the CAS decides.
 * <p>
 * Any thread; stateless apart from the region. The JCStress campaign claims slots through this class from two
 * mappings of one region, as two processes do.
 */
public final class EndpointSlots
{
    private static final boolean BROKEN_CLAIM = BrokenVariant.active("slot.claim-plain");
    /**
     * Broken variant: a claim keeps the context-of word a dead owner left (a context of a scalable endpoint), so the
     * slot's next endpoint's sends are reported as that scalable endpoint's. Fails anywhere.
     */
    private static final boolean BROKEN_CONTEXT_OF_KEPT = BrokenVariant.active("slot.context-of-kept");

    private final AtomicBuffer region;
    private final RegionGeometry geometry;

    /**
     * @param region   a domain region (a mapping of its file).
     * @param geometry its geometry.
     */
    public EndpointSlots(final AtomicBuffer region, final RegionGeometry geometry)
    {
        this.region = region;
        this.geometry = geometry;
    }

    /**
     * Claim the lowest free slot, or one given slot.
     *
     * @param wanted a slot to claim, or -1 for the lowest free one.
     * @return the slot claimed (its incarnation moved on, its state CLAIMED), or -1 when none could be.
     */
    public int claim(final int wanted)
    {
        final long self = ProcessIdentity.self();
        final int from = wanted < 0 ? 0 : wanted;
        final int to = wanted < 0 ? geometry.slotCount() : wanted + 1;
        for (int i = from; i < to; i++)
        {
            final int ownerOffset = SlotDescriptor.ownerOffset(geometry, i);
            final long owner = region.getLongVolatile(ownerOffset);
            if ((owner == 0 || ProcessIdentity.isGone(owner)) && claimOwner(ownerOffset, owner, self))
            {
                final int incOffset = SlotDescriptor.incarnationOffset(geometry, i);
                int inc = region.getIntVolatile(incOffset) + 1;
                if (inc <= 0)
                {
                    inc = 1;
                }
                region.putIntOrdered(incOffset, inc);
                clearContextWords(i);
                region.putIntOrdered(SlotDescriptor.stateOffset(geometry, i), SlotDescriptor.STATE_CLAIMED);
                return i;
            }
        }
        return -1;
    }

    /**
     * Claim the lowest free slot for an object being opened. Control path.
     *
     * @param call       the call, for the message.
     * @param domainName the domain's name, for the message.
     * @return the slot claimed.
     * @throws FabricException {@link Errno#FI_ENOSPC} when every slot is held.
     */
    public int claimAny(final String call, final String domainName)
    {
        final int claimed = claim(-1);
        if (claimed < 0)
        {
            throw new FabricException(Errno.FI_ENOSPC, call + ": all " + geometry.slotCount() +
                " endpoint slots of domain '" + domainName + "' are held (raise jfabric.shm.ep.count)");
        }
        return claimed;
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
     * @param slot a slot.
     * @return its incarnation (the claimer's, once it holds the slot).
     */
    public int incarnation(final int slot)
    {
        return region.getIntVolatile(SlotDescriptor.incarnationOffset(geometry, slot));
    }

    /**
     * @param slot a slot.
     * @return its owner word: a process identity, 0 when free.
     */
    public long owner(final int slot)
    {
        return region.getLongVolatile(SlotDescriptor.ownerOffset(geometry, slot));
    }

    /**
     * Give back a slot this process holds: its endpoint's inbound lanes lose their senders, the state goes FREE and
     * the owner word back to 0 (a CAS from this process's identity, so a slot taken over meanwhile is left alone).
     *
     * @param slot the slot.
     */
    public void release(final int slot)
    {
        for (int i = 0; i < geometry.slotCount(); i++)
        {
            region.putLongOrdered(SlotDescriptor.laneOwnerOffset(geometry, slot, i), 0);
        }
        clearContextWords(slot);
        publishRemoteCounters(slot, 0, 0);
        region.putIntOrdered(SlotDescriptor.stateOffset(geometry, slot), SlotDescriptor.STATE_FREE);
        region.putLongOrdered(SlotDescriptor.heartbeatOffset(geometry, slot), System.currentTimeMillis());
        region.compareAndSetLong(SlotDescriptor.ownerOffset(geometry, slot), ProcessIdentity.self(), 0);
    }

    /**
     * Name the counters initiators raise when an RMA or atomic operation on this slot's endpoint succeeds; written
     * before the slot goes ACTIVE and cleared before it goes FREE.
     *
     * @param slot              the slot.
     * @param readCounterPlusOne  counter table index + 1 of the FI_REMOTE_READ counter, 0 for none.
     * @param writeCounterPlusOne counter table index + 1 of the FI_REMOTE_WRITE counter, 0 for none.
     */
    public void publishRemoteCounters(final int slot, final int readCounterPlusOne, final int writeCounterPlusOne)
    {
        region.putIntOrdered(SlotDescriptor.remoteCounterOffset(geometry, slot, false), readCounterPlusOne);
        region.putIntOrdered(SlotDescriptor.remoteCounterOffset(geometry, slot, true), writeCounterPlusOne);
    }

    /**
     * The slot's endpoint is enabled: its lanes take messages from now on (the release store senders acquire). Every
     * word of its header is written before.
     *
     * @param slot a slot this process holds.
     */
    public void activate(final int slot)
    {
        region.putIntOrdered(SlotDescriptor.stateOffset(geometry, slot), SlotDescriptor.STATE_ACTIVE);
    }

    /**
     * The slot's endpoint is a context of a scalable endpoint: its context-of word names that endpoint's address slot,
     * so receivers report its sends with that address. Before {@link #activate}; the claim moved the incarnation on
     * first, so a receiver that reads the word and then the incarnation never applies it to an earlier endpoint's
     * message ({@code SenderAddresses}).
     *
     * @param slot a slot this process holds.
     * @param word {@link SlotDescriptor#slotWord} of the scalable endpoint's address slot.
     */
    public void serveContext(final int slot, final long word)
    {
        region.putLongOrdered(SlotDescriptor.contextOfOffset(geometry, slot), word);
    }

    /**
     * Zero what a scalable endpoint or one of its contexts left in a slot: the context-of word, the receive context
     * count and entries (a slot reclaimed from a dead process may still hold them).
     */
    private void clearContextWords(final int slot)
    {
        if (!BROKEN_CONTEXT_OF_KEPT)
        {
            region.putLongOrdered(SlotDescriptor.contextOfOffset(geometry, slot), 0);
        }
        region.putIntOrdered(SlotDescriptor.rxContextCountOffset(geometry, slot), 0);
        for (int i = 0; i < SlotDescriptor.MAX_EP_CONTEXTS; i++)
        {
            region.putLongOrdered(SlotDescriptor.rxContextOffset(geometry, slot, i), 0);
        }
    }
}
