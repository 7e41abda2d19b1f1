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

import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.SlotDescriptor;

import java.util.List;

/**
 * One endpoint slot of a domain region as sampled ({@code SlotDescriptor}): who holds it, in which state and
 * incarnation, its heartbeat and address, its rings (the receive lanes in use, the transmit-context ring, the
 * completion ring numbered like it) and its per-path send counts. Values read while the slot changes may be stale
 * or from two moments, never torn within one field. Immutable; any thread.
 */
public final class SlotStat
{
    private final int slot;
    private final int state;
    private final long owner;
    private final boolean ownerAlive;
    private final int incarnation;
    private final long heartbeatMs;
    private final String address;
    private final long cqOwner;
    private final boolean cqOwnerAlive;
    private final PathCounts sends;
    private final long damaged;
    private final List<RingStat> lanes;
    private final RingStat transmitRing;
    private final RingStat completionRing;

    /**
     * @param slot           the slot's index.
     * @param state          its state word ({@code SlotDescriptor.STATE_*}).
     * @param owner          its owner's {@link ProcessIdentity}, 0 when none.
     * @param ownerAlive     whether the owner was alive.
     * @param incarnation    its incarnation.
     * @param heartbeatMs    its heartbeat, epoch ms (written at enable and close).
     * @param address        the endpoint's address ({@code fi_getname}), or null when no endpoint holds the slot.
     * @param cqOwner        the {@link ProcessIdentity} whose completion queue uses the slot's completion ring, 0.
     * @param cqOwnerAlive   whether that process was alive.
     * @param sends          the per-path send counts.
     * @param damaged        the damaged records its receive lanes dropped.
     * @param lanes          the receive lanes in use or ever written, by sending slot.
     * @param transmitRing   the transmit-context ring.
     * @param completionRing the completion ring.
     */
    public SlotStat(
        final int slot,
        final int state,
        final long owner,
        final boolean ownerAlive,
        final int incarnation,
        final long heartbeatMs,
        final String address,
        final long cqOwner,
        final boolean cqOwnerAlive,
        final PathCounts sends,
        final long damaged,
        final List<RingStat> lanes,
        final RingStat transmitRing,
        final RingStat completionRing)
    {
        this.slot = slot;
        this.state = state;
        this.owner = owner;
        this.ownerAlive = ownerAlive;
        this.incarnation = incarnation;
        this.heartbeatMs = heartbeatMs;
        this.address = address;
        this.cqOwner = cqOwner;
        this.cqOwnerAlive = cqOwnerAlive;
        this.sends = sends;
        this.damaged = damaged;
        this.lanes = List.copyOf(lanes);
        this.transmitRing = transmitRing;
        this.completionRing = completionRing;
    }

    /** @return the slot's index. */
    public int slot()
    {
        return slot;
    }

    /** @return the state word: {@code SlotDescriptor.STATE_FREE}, {@code STATE_CLAIMED} or {@code STATE_ACTIVE}. */
    public int state()
    {
        return state;
    }

    /** @return the state's name: FREE, CLAIMED (opened), ACTIVE (enabled), or UNKNOWN(n) for another value. */
    public String stateName()
    {
        switch (state)
        {
            case SlotDescriptor.STATE_FREE:
                return "FREE";
            case SlotDescriptor.STATE_CLAIMED:
                return "CLAIMED";
            case SlotDescriptor.STATE_ACTIVE:
                return "ACTIVE";
            default:
                return "UNKNOWN(" + state + ")";
        }
    }

    /** @return true when an endpoint holds the slot (an owner, or a state other than FREE). */
    public boolean hasEndpoint()
    {
        return owner != 0 || state != SlotDescriptor.STATE_FREE;
    }

    /** @return the owner's {@link ProcessIdentity}, 0 when none. */
    public long owner()
    {
        return owner;
    }

    /** @return the owner's pid, 0 when none. */
    public long ownerPid()
    {
        return ProcessIdentity.pid(owner);
    }

    /** @return whether the owner was alive when sampled (false when there is none). */
    public boolean ownerAlive()
    {
        return ownerAlive;
    }

    /** @return the incarnation: +1 at every claim of the slot. */
    public int incarnation()
    {
        return incarnation;
    }

    /** @return the heartbeat, epoch ms: when the endpoint was enabled or last closed; 0 never. */
    public long heartbeatMs()
    {
        return heartbeatMs;
    }

    /** @return the endpoint's address as {@code fi_getname} prints it, or null when the slot has no endpoint. */
    public String address()
    {
        return address;
    }

    /** @return the {@link ProcessIdentity} whose completion queue uses this slot's completion ring, 0 when none. */
    public long cqOwner()
    {
        return cqOwner;
    }

    /** @return whether that process was alive when sampled (false when there is none). */
    public boolean cqOwnerAlive()
    {
        return cqOwnerAlive;
    }

    /** @return how the endpoint's sends travelled, counted since it was enabled. */
    public PathCounts sends()
    {
        return sends;
    }

    /** @return the damaged records its receive lanes dropped (see docs/RELIABILITY.md), counted since enable. */
    public long damaged()
    {
        return damaged;
    }

    /** @return the receive lanes in use or ever written, by sending slot (lanes never used are left out). */
    public List<RingStat> lanes()
    {
        return lanes;
    }

    /** @return the transmit-context ring. */
    public RingStat transmitRing()
    {
        return transmitRing;
    }

    /** @return the completion ring numbered like the slot. */
    public RingStat completionRing()
    {
        return completionRing;
    }

    @Override
    public String toString()
    {
        return "slot " + slot + " " + stateName() + " gen " + incarnation + " " +
            (owner == 0 ? "no owner" : ProcessIdentity.describe(owner) + (ownerAlive ? " live" : " gone")) +
            (address == null ? "" : " " + address) + " " + sends;
    }
}
