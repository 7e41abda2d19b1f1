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
package io.jfabric.shm.rx;

import io.jfabric.Addresses;
import io.jfabric.Flags;
import io.jfabric.shm.av.AuthKeyMembers;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.match.AddressResolver;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;

/**
 * A receive side's view of its senders in its bound AV: a sender (the slot and incarnation its records carry) to
 * its fi_addr (or, with FI_AV_USER_ID, to that entry's user id), and whether the AV holds it within an authorization
 * key. A context of a scalable endpoint is looked up as that endpoint's address slot, which is what the AV holds.
 * <p>
 * Remembers per sender slot the entry it resolved to while the entry's state word is unchanged, and the entry it
 * found within a key while both entries' state words are unchanged; the user id is read each time (fi_av_set_user_id
 * changes it without changing the state word). No allocation.
 * <p>
 * A sender that is a transmit context of a scalable endpoint is reported with that endpoint's address: its slot's
 * context-of word ({@link SlotDescriptor#contextOfOffset}) names the endpoint's address slot. The word is read before
 * the slot's incarnation and trusted only while the incarnation is the sender's ({@link #contextOf}): a slot's next
 * owner bumps the incarnation before it writes or clears the word ({@code EndpointSlots}), so a word read for a
 * message of an earlier owner is never applied to it; and the word is written (or cleared) before the slot's endpoint
 * is enabled, so a receiver that read one of its records sees it.
 * <p>
 * Threads: the receive side's, under its receive guard.
 */
public final class SenderAddresses implements AddressResolver
{
    /** Bits of a sender id above the slot and incarnation: the receiver's tag in a shared receive context. */
    static final int RECEIVER_SHIFT = 48;
    /** The sender id bits that name the sending slot and incarnation. */
    static final long SENDER_BITS = (1L << RECEIVER_SHIFT) - 1;

    private final AtomicBuffer region;
    private final RegionGeometry geometry;
    private final ShmAddressVector av;
    private final boolean avUserIds;
    private final AuthKeyMembers members;
    private final long[] cachedId;
    private final long[] cachedAddr;
    private final long[] cachedState;
    private final long[] keyedId;
    private final long[] keyedKey;
    private final long[] keyedAddr;
    private final long[] keyedState;
    private final long[] keyedKeyState;

    /**
     * @param region   the region.
     * @param geometry its geometry.
     * @param av       the receive side's AV.
     */
    SenderAddresses(final AtomicBuffer region, final RegionGeometry geometry, final ShmAddressVector av)
    {
        final int slots = geometry.slotCount();
        this.region = region;
        this.geometry = geometry;
        this.av = av;
        this.avUserIds = (av.attr().flags() & Flags.FI_AV_USER_ID) != 0;
        members = new AuthKeyMembers(av);
        cachedId = new long[slots];
        cachedAddr = new long[slots];
        cachedState = new long[slots];
        keyedId = new long[slots];
        keyedKey = new long[slots];
        keyedAddr = new long[slots];
        keyedState = new long[slots];
        keyedKeyState = new long[slots];
    }

    @Override
    public long fiAddrOf(final long id)
    {
        final ShmAddressVector a = av;
        final long key = id & SENDER_BITS;
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
        final long fiAddr = find(key, Addresses.FI_ADDR_UNSPEC);
        if (fiAddr == Addresses.FI_ADDR_NOTAVAIL)
        {
            return fiAddr;
        }
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

    @Override
    public boolean isUnderKey(final long id, final long keyHandle)
    {
        final ShmAddressVector a = av;
        final long key = id & SENDER_BITS;
        final int s = (int)(key >>> 32);
        if (s < 0 || s >= cachedId.length)
        {
            return false;
        }
        if (keyedId[s] == key && keyedKey[s] == keyHandle && a.entryState(keyedAddr[s]) == keyedState[s] &&
            a.entryState(keyHandle) == keyedKeyState[s])
        {
            return true;
        }
        final long keyState = a.entryState(keyHandle);
        final long fiAddr = find(key, keyHandle);
        if (fiAddr == Addresses.FI_ADDR_NOTAVAIL)
        {
            return false;
        }
        final long state = a.entryState(fiAddr);
        if (members.isUnderKey(fiAddr, keyHandle) && a.entryState(fiAddr) == state &&
            a.entryState(keyHandle) == keyState)
        {
            keyedId[s] = key;
            keyedKey[s] = keyHandle;
            keyedAddr[s] = fiAddr;
            keyedState[s] = state;
            keyedKeyState[s] = keyState;
        }
        return true;
    }

    @Override
    public boolean isAuthKey(final long keyHandle)
    {
        return members.isKey(keyHandle);
    }

    /**
     * @param id a sender id, as its records carry it.
     * @return whether the AV holds the sender (whatever its user id).
     */
    boolean isKnown(final long id)
    {
        final long key = id & SENDER_BITS;
        final int s = (int)(key >>> 32);
        return s >= 0 && s < cachedId.length && find(key, Addresses.FI_ADDR_UNSPEC) != Addresses.FI_ADDR_NOTAVAIL;
    }

    /**
     * The slot and incarnation of the sender's address: its own, or for a context of a scalable endpoint that
     * endpoint's address slot (what its fi_getname gives).
     *
     * @param id a sender id, as its records carry it.
     * @return {@link SlotDescriptor#slotWord} of the address.
     */
    long addressSlot(final long id)
    {
        final int s = (int)((id & SENDER_BITS) >>> 32);
        final int inc = (int)id;
        final long of = contextOf(region, geometry, s, inc);
        // a context of a scalable endpoint: the AV holds that endpoint's address slot
        return of != 0 ? of : SlotDescriptor.slotWord(s, inc);
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

    /**
     * The first AV entry holding the sender, within the key {@code keyHandle} names unless that is FI_ADDR_UNSPEC.
     *
     * @return its fi_addr, or FI_ADDR_NOTAVAIL.
     */
    private long find(final long key, final long keyHandle)
    {
        final ShmAddressVector a = av;
        final long word = addressSlot(key);
        final int slot = SlotDescriptor.wordSlot(word);
        final long inc = SlotDescriptor.wordIncarnation(word) & 0xFFFF_FFFFL;
        final long base = a.fiAddrBase();
        final int entries = a.entries();
        for (int i = 0; i < entries; i++)
        {
            final long fiAddr = base + i;
            if (a.slotOf(fiAddr) == slot)
            {
                final long gen = a.incarnationOf(fiAddr);
                if ((gen == 0 || gen == inc) &&
                    (keyHandle == Addresses.FI_ADDR_UNSPEC || members.isUnderKey(fiAddr, keyHandle)))
                {
                    return fiAddr;
                }
            }
        }
        return Addresses.FI_ADDR_NOTAVAIL;
    }

    private long userIdOrAddr(final ShmAddressVector a, final long fiAddr)
    {
        return avUserIds ? a.userId(fiAddr) : fiAddr;
    }
}
