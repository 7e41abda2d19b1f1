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
package io.jfabric.shm.tx;

import io.jfabric.Addresses;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.shm.av.AuthKeys;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.lane.RecordChecksum;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.liveness.PeerLiveness;
import io.jfabric.shm.progress.SpinGuard;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

import static io.jfabric.shm.lane.LaneRecordDescriptor.*;

/**
 * The first floor of a transmit context (see {@link TxContext}): the sending side's destinations. It resolves an
 * fi_addr to the peer slot whose lane this context writes, checks that the receiver incarnation is enabled, alive and
 * accepts this endpoint's authorization key ({@link AuthKeys}), claims the lane into it, and claims and heads a
 * whole-message record there; and it writes a send's completion. {@link TxOneSided} and {@link TxContext} build on
 * it: the three are one object, split by operation family into files as JCTools splits its queues into classes, so
 * that the data path reads every field from {@code this} and through no other object.
 * <p>
 * Threads: the sending side (see {@link TxContext}); {@link #completed} and {@link #sendFlags} either role.
 */
abstract class TxDestinations
{
    /** What {@code connectSlow} returns for a scalable endpoint's address slot: not an errno. */
    private static final int SCALABLE = Integer.MIN_VALUE;

    final AtomicBuffer region;
    final RegionGeometry geometry;
    final int incarnation;
    final ShmAddressVector av;
    final ShmCompletionQueue cq;
    final boolean selective;
    final ShmCounter counter;
    final SpinGuard sendGuard;
    /** FLAG_CHECKSUM when records carry a checksum, else 0. */
    final int checksumFlag;
    /** CHECKSUM_LENGTH when records carry a checksum, else 0. */
    final int checksumLength;
    final RecordChecksum senderChecksum = new RecordChecksum();
    final PendingSends pending;
    boolean closed;

    // ---- the sending side's own: destinations, by AV index and by peer slot
    final SpscLane[] lanes;
    final ByteBuffer[] laneViews;
    final int[] laneOwnerOffset;
    final long[] laneStamp;
    final int[] peerIncarnation;
    private final long[] destState;
    private final int[] destPeer;
    final PeerLiveness senderLiveness;
    private final long authDigest;
    private final boolean authKeysFromAv;
    /** Per AV entry: the lane stamp under which its key was found accepted by the receiver, 0 when not (yet). */
    private final long[] destAuthorized;
    /** Per AV entry: the slot word of the scalable endpoint it names (sends go to its receive contexts), else 0. */
    private final long[] destScalable;

    /**
     * Resolve what the context's parameters give into the sending side's state: one lane per peer slot, the
     * destination tables sized to the AV. Control path.
     *
     * @param p the transmit context's parameters.
     */
    TxDestinations(final TxParams p)
    {
        this.region = p.region;
        this.geometry = p.geometry;
        this.incarnation = p.incarnation;
        this.av = p.av;
        this.cq = p.cq;
        this.selective = p.selective;
        this.counter = p.counter;
        this.sendGuard = p.sendGuard;
        this.authDigest = p.authDigest;
        this.authKeysFromAv = p.authKeysFromAv;
        this.checksumFlag = p.checksum ? FLAG_CHECKSUM : 0;
        this.checksumLength = p.checksum ? CHECKSUM_LENGTH : 0;
        final int n = geometry.slotCount();
        final int laneLength = RegionDescriptor.laneLength(geometry.rxRingBytes());
        lanes = new SpscLane[n];
        laneViews = new ByteBuffer[n];
        laneOwnerOffset = new int[n];
        laneStamp = new long[n];
        peerIncarnation = new int[n];
        final ByteBuffer regionBytes = region.byteBuffer();
        for (int i = 0; i < n; i++)
        {
            final int laneOffset = RegionDescriptor.laneOffset(geometry, i, p.slot);
            lanes[i] = new SpscLane(new UnsafeBuffer(region, laneOffset, laneLength));
            final int at = region.wrapAdjustment() + laneOffset;
            laneViews[i] = regionBytes.duplicate().limit(at + geometry.rxRingBytes()).position(at).slice().limit(0);
            laneOwnerOffset[i] = SlotDescriptor.laneOwnerOffset(geometry, i, p.slot);
        }
        destState = new long[av.entries()];
        destPeer = new int[av.entries()];
        destAuthorized = new long[av.entries()];
        destScalable = new long[av.entries()];
        java.util.Arrays.fill(destState, -1);
        senderLiveness = new PeerLiveness(region, geometry, p.livenessTimeoutMs);
        pending = new PendingSends(p.size, Math.max(1, p.iovLimit), n);
    }

    /**
     * Claim a whole-message (MSG) record in the peer's lane and write its header. Sending side, lane idle.
     *
     * @return the record's body index, or a negated errno: FI_EAGAIN when the lane is full, FI_EHOSTUNREACH when
     * the peer's process is gone.
     */
    final int claimRecord(final int peer, final int len, final long tag, final long data, final int recordFlags)
    {
        final SpscLane lane = lanes[peer];
        final int index = lane.tryClaim(MSG, bodyLength(HEADER_LENGTH + len + checksumLength));
        if (index < 0)
        {
            return senderLiveness.status(peer, peerIncarnation[peer]) != PeerLiveness.ALIVE ? -Errno.FI_EHOSTUNREACH :
                -Errno.FI_EAGAIN;
        }
        final AtomicBuffer b = lane.buffer();
        b.putLong(index + TAG_OFFSET, tag);
        b.putLong(index + DATA_OFFSET, data);
        b.putInt(index + LENGTH_OFFSET, len);
        b.putInt(index + FLAGS_OFFSET, flagsWord(recordFlags | checksumFlag, peerIncarnation[peer]));
        return index;
    }

    /**
     * The sending side's first step of every operation: this context is open, the destination resolves and may be
     * written ({@link #connect}), and its receiver is alive.
     *
     * @return the peer's slot, or a negated errno (FI_EBADF when closed).
     */
    final int reach(final long destAddr)
    {
        if (closed)
        {
            return -Errno.FI_EBADF;
        }
        final int peer = connect(destAddr);
        if (peer >= 0 && senderLiveness.status(peer, peerIncarnation[peer]) != PeerLiveness.ALIVE)
        {
            return -Errno.FI_EHOSTUNREACH;
        }
        return peer;
    }

    /**
     * The first step of a one-sided operation (RMA without remote data, atomics): this context is open, the
     * destination names an enabled, live endpoint of the incarnation the AV recorded. No lane is claimed: the copy
     * goes through the key table, not the peer's lanes, so a peer that holds no lane for this sender (or is slow to
     * free one) does not stop it.
     *
     * @return the peer's slot, or a negated errno: FI_EBADF, FI_EINVAL (unknown destination), FI_EAGAIN (not enabled
     * yet), FI_EHOSTUNREACH.
     */
    final int reachOneSided(final long destAddr)
    {
        if (closed)
        {
            return -Errno.FI_EBADF;
        }
        final ShmAddressVector a = av;
        final int peer = a.indexOf(destAddr) < 0 ? -1 : a.slotOf(destAddr);
        if (peer < 0 || peer >= lanes.length)
        {
            return -Errno.FI_EINVAL;
        }
        final int inc = enabledIncarnation(peer, a.incarnationOf(destAddr));
        return inc < 0 ? inc : peer;
    }

    /**
     * Whether a peer slot holds the enabled, live endpoint a destination names: the one check before any operation
     * reaches it, by lane ({@link #connectSlow}) or one-sidedly ({@link #reachOneSided}). Sending side.
     *
     * @param wantedIncarnation the incarnation the AV recorded for the destination, 0 for any.
     * @return the peer's incarnation (positive), or -FI_EAGAIN (opened but not enabled yet), -FI_EHOSTUNREACH
     * (gone, another incarnation, stopped).
     */
    private int enabledIncarnation(final int peer, final long wantedIncarnation)
    {
        final int peerState = region.getIntVolatile(SlotDescriptor.stateOffset(geometry, peer));
        final int inc = region.getIntVolatile(SlotDescriptor.incarnationOffset(geometry, peer));
        if (peerState == SlotDescriptor.STATE_CLAIMED)
        {
            return wantedIncarnation != 0 && wantedIncarnation != inc ? -Errno.FI_EHOSTUNREACH : -Errno.FI_EAGAIN;
        }
        if (peerState != SlotDescriptor.STATE_ACTIVE || wantedIncarnation > 0 && wantedIncarnation != inc ||
            senderLiveness.status(peer, inc) != PeerLiveness.ALIVE)
        {
            return -Errno.FI_EHOSTUNREACH;
        }
        return inc;
    }

    /**
     * Resolve a destination and make sure this context may write its lane into the peer. Sending side.
     *
     * @return the peer's slot, or a negated errno.
     */
    private int connect(final long destAddr)
    {
        final ShmAddressVector a = av;
        final int index = a.indexOf(destAddr);
        if (index < 0 || index >= destState.length)
        {
            return -Errno.FI_EINVAL;
        }
        final long entry = a.entryStateAt(index);
        int peer = destPeer[index];
        if (entry != destState[index] || entry == -1)
        {
            peer = a.slotOf(destAddr);
            if (peer < 0 || peer >= lanes.length)
            {
                return -Errno.FI_EINVAL;
            }
            destPeer[index] = peer;
            destState[index] = entry;
            destScalable[index] = 0;
            laneStamp[peer] = 0;
        }
        if (destScalable[index] != 0)
        {
            return connectContext(destAddr, index, peer);
        }
        final long stamp = laneStamp[peer];
        if (stamp != 0 && destAuthorized[index] == stamp && region.getLongVolatile(laneOwnerOffset[peer]) == stamp)
        {
            return peer;
        }
        final int connected = connectSlow(peer, a.incarnationOf(destAddr),
            authKeysFromAv ? a.authKeyDigestOf(destAddr) : authDigest);
        if (connected >= 0)
        {
            destAuthorized[index] = laneStamp[peer];
        }
        else if (connected == SCALABLE)
        {
            destScalable[index] = SlotDescriptor.slotWord(peer, peerIncarnation[peer]);
            return connectContext(destAddr, index, peer);
        }
        return connected;
    }

    /**
     * The destination is a scalable endpoint's address slot: find the receive context the fi_addr names
     * (fi_rx_addr) and make sure this context may write its lane. Sending side.
     *
     * @return the context's slot, or a negated errno: -FI_EINVAL for a context index the endpoint does not have,
     * -FI_EAGAIN while that context is not enabled, -FI_EHOSTUNREACH once the scalable endpoint is gone.
     */
    private int connectContext(final long destAddr, final int index, final int base)
    {
        final long baseWord = destScalable[index];
        if (region.getIntVolatile(SlotDescriptor.stateOffset(geometry, base)) != SlotDescriptor.STATE_ACTIVE ||
            region.getIntVolatile(SlotDescriptor.incarnationOffset(geometry, base)) !=
            SlotDescriptor.wordIncarnation(baseWord))
        {
            destScalable[index] = 0;
            destState[index] = -1;
            return -Errno.FI_EHOSTUNREACH;
        }
        final int rxIndex = av.rxIndexOf(destAddr);
        // the count is another process's word: a damaged one must not send the read past the entries
        if (rxIndex >= Math.min(region.getInt(SlotDescriptor.rxContextCountOffset(geometry, base)),
            SlotDescriptor.MAX_EP_CONTEXTS))
        {
            return -Errno.FI_EINVAL;
        }
        final long context = region.getLongVolatile(SlotDescriptor.rxContextOffset(geometry, base, rxIndex));
        final int peer = SlotDescriptor.wordSlot(context);
        if (context == 0 || peer < 0 || peer >= lanes.length)
        {
            return -Errno.FI_EAGAIN;
        }
        final long stamp = laneStamp[peer];
        if (stamp != 0 && destAuthorized[index] == stamp && region.getLongVolatile(laneOwnerOffset[peer]) == stamp)
        {
            return peer;
        }
        final int connected = connectSlow(peer, SlotDescriptor.wordIncarnation(context),
            authKeysFromAv ? av.authKeyDigestOf(destAddr) : authDigest);
        if (connected >= 0)
        {
            destAuthorized[index] = laneStamp[peer];
        }
        return connected == SCALABLE ? -Errno.FI_EINVAL : connected;
    }

    /**
     * Check the receiver incarnation (state, liveness, authorization key) and claim the lane into it. Sending side.
     *
     * @return the peer, or -FI_EAGAIN (not yet enabled, lane still held for an earlier incarnation),
     * -FI_EHOSTUNREACH (gone, another incarnation, stopped), -FI_EACCES (it does not accept this key), or
     * {@link #SCALABLE} when the peer is a scalable endpoint's address slot.
     */
    private int connectSlow(final int peer, final long wantedIncarnation, final long digest)
    {
        laneStamp[peer] = 0;
        final int inc = enabledIncarnation(peer, wantedIncarnation);
        if (inc < 0)
        {
            return inc;
        }
        if (region.getInt(SlotDescriptor.rxContextCountOffset(geometry, peer)) != 0)
        {
            peerIncarnation[peer] = inc;
            return SCALABLE;
        }
        if (!AuthKeys.accepts(region, geometry, peer, digest))
        {
            return -Errno.FI_EACCES;
        }
        final long want = SlotDescriptor.laneStamp(incarnation, inc);
        final int ownerOffset = laneOwnerOffset[peer];
        final long current = region.getLongVolatile(ownerOffset);
        if (current != want)
        {
            if (current != 0 && SlotDescriptor.receiverIncarnation(current) == inc)
            {
                return -Errno.FI_EAGAIN;
            }
            if (!region.compareAndSetLong(ownerOffset, current, want))
            {
                return -Errno.FI_EAGAIN;
            }
        }
        peerIncarnation[peer] = inc;
        laneStamp[peer] = want;
        return peer;
    }

    /**
     * fi_msg(3): only fi_inject and fi_injectdata (and their tagged forms) never complete; FI_INJECT as an operation
     * flag hands the buffer back at once and completes as any send does.
     */
    final boolean wantsCompletion(final long opFlags, final boolean injectCall)
    {
        return !injectCall && (!selective || (opFlags & Flags.FI_COMPLETION) != 0);
    }

    /** A send is done: its completion (when wanted) and its counter. Either role. */
    final void completed(final boolean completion, final long context, final int recordFlags)
    {
        if (completion && cq != null)
        {
            cq.write(context, sendFlags(recordFlags), 0, 0, 0, 0, Addresses.FI_ADDR_NOTAVAIL);
        }
        final ShmCounter c = counter;
        if (c != null)
        {
            c.add(1);
        }
    }

    /** @return the completion flags of a send whose records carry {@code recordFlags}. Either role. */
    static long sendFlags(final int recordFlags)
    {
        return Flags.FI_SEND | ((recordFlags & FLAG_TAGGED) != 0 ? Flags.FI_TAGGED : Flags.FI_MSG);
    }

    /** A statistic of the slot; each is written by one role only. */
    final void count(final int statOffset)
    {
        region.putLongOrdered(statOffset, region.getLong(statOffset) + 1);
    }

}
