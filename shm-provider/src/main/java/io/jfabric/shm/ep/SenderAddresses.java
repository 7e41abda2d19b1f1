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

import io.jfabric.Addresses;
import io.jfabric.Flags;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.match.AddressResolver;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;

/**
 * Maps a sender to its fi_addr in a receive context's AV (or, with FI_AV_USER_ID, to that entry's user id),
 * remembering per sender slot which entry it is while the entry's state word is unchanged. The user id is read each
 * time: fi_av_set_user_id changes it without changing the state word.
 * <p>
 * A sender that is a transmit context of a scalable endpoint is reported with that endpoint's address: its slot's
 * context-of word ({@link SlotDescriptor#contextOfOffset}) names the endpoint's address slot. The word is read before
 * the slot's incarnation and trusted only while the incarnation is the sender's: a slot's next owner bumps the
 * incarnation before it writes or clears the word ({@code EndpointSlots}), so a word read for a message of an earlier
 * owner is never applied to it; and the word is written (or cleared) before the slot's endpoint is enabled, so a
 * receiver that read one of its records sees it.
 * <p>
 * Threads: the receive context's (receive guard held).
 */
public final class SenderAddresses implements AddressResolver
{
    private final AtomicBuffer region;
    private final RegionGeometry geometry;
    private final ShmAddressVector av;
    private final boolean userIds;
    private final long senderBits;
    private final long[] cachedId;
    private final long[] cachedAddr;
    private final long[] cachedState;

    /**
     * @param region     the domain region.
     * @param geometry   its geometry.
     * @param av         the receive context's AV.
     * @param senderBits the bits of a sender id that name its slot (high 32) and incarnation (low 32).
     */
    SenderAddresses(
        final AtomicBuffer region, final RegionGeometry geometry, final ShmAddressVector av, final long senderBits)
    {
        this.region = region;
        this.geometry = geometry;
        this.av = av;
        this.userIds = (av.attr().flags() & Flags.FI_AV_USER_ID) != 0;
        this.senderBits = senderBits;
        final int slots = geometry.slotCount();
        cachedId = new long[slots];
        cachedAddr = new long[slots];
        cachedState = new long[slots];
    }

    @Override
    public long fiAddrOf(final long id)
    {
        final ShmAddressVector a = av;
        final long key = id & senderBits;
        final int s = (int)(key >>> 32);
        if (s < 0 || s >= cachedId.length)
        {
            return Addresses.FI_ADDR_NOTAVAIL;
        }
        final long cached = cachedAddr[s];
        if (cachedId[s] == key && cached != Addresses.FI_ADDR_NOTAVAIL && a.entryState(cached) == cachedState[s])
        {
            return userIdOrAddr(a, cached);
        }
        int slot = s;
        long inc = key & 0xFFFF_FFFFL;
        final long of = contextOf(region, geometry, s, (int)inc);
        if (of != 0)
        {
            // a context of a scalable endpoint: the AV holds that endpoint's address slot
            slot = SlotDescriptor.wordSlot(of);
            inc = SlotDescriptor.wordIncarnation(of) & 0xFFFF_FFFFL;
        }
        final long base = a.fiAddrBase();
        final int entries = a.entries();
        for (int i = 0; i < entries; i++)
        {
            final long fiAddr = base + i;
            if (a.slotOf(fiAddr) == slot)
            {
                final long gen = a.incarnationOf(fiAddr);
                if (gen == 0 || gen == inc)
                {
                    final long state = a.entryState(fiAddr);
                    final long result = userIdOrAddr(a, fiAddr);
                    if (a.entryState(fiAddr) == state)
                    {
                        cachedId[s] = key;
                        cachedAddr[s] = fiAddr;
                        cachedState[s] = state;
                    }
                    return result;
                }
            }
        }
        return Addresses.FI_ADDR_NOTAVAIL;
    }

    /**
     * The context-of word of a sender's slot while the slot still holds the sender's incarnation: the word first,
     * then the incarnation (see the class comment). Receive guard held (any thread: it only reads).
     *
     * @param region      the domain region.
     * @param geometry    its geometry.
     * @param s           the sending slot.
     * @param incarnation the sender's incarnation, as its record named it.
     * @return the word ({@link SlotDescriptor#slotWord} of a scalable endpoint's address slot), or 0.
     */
    public static long contextOf(
        final AtomicBuffer region, final RegionGeometry geometry, final int s, final int incarnation)
    {
        final long of = region.getLongVolatile(SlotDescriptor.contextOfOffset(geometry, s));
        return of != 0 && region.getIntVolatile(SlotDescriptor.incarnationOffset(geometry, s)) == incarnation ? of : 0;
    }

    private long userIdOrAddr(final ShmAddressVector a, final long fiAddr)
    {
        return userIds ? a.userId(fiAddr) : fiAddr;
    }
}
