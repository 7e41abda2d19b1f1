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
import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Ioc;
import io.jfabric.Msg;
import io.jfabric.RmaIoc;
import io.jfabric.RmaIov;
import io.jfabric.shm.av.AuthKeys;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.lane.PayloadGather;
import io.jfabric.shm.lane.RecordChecksum;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.lane.TxRecordDescriptor;
import io.jfabric.shm.liveness.EndpointDamage;
import io.jfabric.shm.liveness.PeerLiveness;
import io.jfabric.shm.mr.MemoryRegistrar;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.progress.SpinGuard;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.rma.AtomicSupport;
import io.jfabric.shm.rma.EmulatedOps;
import io.jfabric.shm.rma.EmulatedRequest;
import io.jfabric.shm.rma.RmaInitiator;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

import static io.jfabric.shm.lane.LaneRecordDescriptor.*;

/**
 * An endpoint's transmit context: resolves destinations to peer slots, writes messages into the peers' lanes for
 * this endpoint's slot (one {@link SpscLane} per peer, written by this context only), and queues
 * what cannot be written at once in {@link PendingSends}. Its {@link TxProgress} writes the queued sends (through a
 * {@link QueuedSendWriter}) and takes back through the context's transmit ring (an Agrona
 * {@code ManyToOneRingBuffer} any receiver may write) what peers return: acknowledgements of rendezvous and
 * delivery-complete sends, and responses to emulated one-sided operations. RMA and atomics go one-sidedly
 * ({@link RmaInitiator}) or, on target memory no peer can map, as a request record into the target's lane that the
 * target's progress performs ({@link #emulate}; {@link EmulatedOps} holds them until their response).
 * <p>
 * <b>Threads.</b> Two roles, each one thread at a time, and no lock between them:
 * <ul>
 *   <li>the <em>sending side</em>: {@link #send}, {@link #claim} and the claim's commit and abort. The threading
 *   model serializes it (fi_domain(3): FID, ENDPOINT, COMPLETION, DOMAIN), or, under FI_THREAD_SAFE, the send
 *   guard does;</li>
 *   <li><em>transmit progress</em>: {@link #progress}, called by CQ and counter reads (manual progress), by a
 *   progress agent (automatic progress), and by the sending side itself after it queued something. The progress
 *   guard makes it one thread at a time where the model lets several threads progress the endpoint at once (SAFE,
 *   FID, ENDPOINT, and automatic progress); a thread that finds it taken skips the transmit work, which the holder
 *   is doing.</li>
 * </ul>
 * The sending side writes a peer's lane itself while nothing it queued to that peer is unwritten; otherwise it
 * queues and the lane is progress's until the queue to that peer is written whole ({@link PendingSends} says how
 * the handoff is ordered). A whole message to an idle lane therefore costs the sending side no atomic beyond the
 * lane's own ordered stores. {@link #close} takes both guards.
 */
public final class TxContext
{
    private final RmaInitiator rma;
    /** What {@code connectSlow} returns for a scalable endpoint's address slot: not an errno. */
    private static final int SCALABLE = Integer.MIN_VALUE;
    private static final boolean BROKEN_EARLY_COMMIT = BrokenVariant.active("lane.commit-before-payload");

    private final AtomicBuffer region;
    private final RegionGeometry geometry;
    private final int incarnation;
    private final ShmAddressVector av;
    private final MemoryRegistrar registrar;
    private final ShmCompletionQueue cq;
    private final boolean selective;
    private final ShmCounter counter;
    private final int inlineLimit;
    private final int rendezvousMin;
    private final SpinGuard sendGuard;
    private final SpinGuard progressGuard;
    /** FLAG_CHECKSUM when records carry a checksum, else 0. */
    private final int checksumFlag;
    /** CHECKSUM_LENGTH when records carry a checksum, else 0. */
    private final int checksumLength;
    private final RecordChecksum senderChecksum = new RecordChecksum();
    private final PendingSends pending;
    /** The pool of emulated operations, made at the first one (most endpoints never need it); null until then. */
    private volatile EmulatedOps emulated;
    private final int emulatedCapacity;
    private final int emulatedDest;
    private final int emulatedLimit;
    private boolean closed;

    // ---- the sending side's own: destinations, by AV index and by peer slot
    private final SpscLane[] lanes;
    private final int[] laneOwnerOffset;
    private final long[] laneStamp;
    private final int[] peerIncarnation;
    private final long[] destState;
    private final int[] destPeer;
    private final PeerLiveness senderLiveness;
    private final LaneClaim claim;
    private final ByteBuffer[] laneViews;
    private final int statInline;
    private final int statClaimed;
    private final RendezvousSource rendezvous = new RendezvousSource();

    // ---- progress's own
    private final TxProgress transmit;
    private final long authDigest;
    private final boolean authKeysFromAv;
    /** Per AV entry: the lane stamp under which its key was found accepted by the receiver, 0 when not (yet). */
    private final long[] destAuthorized;
    /** Per AV entry: the slot word of the scalable endpoint it names (sends go to its receive contexts), else 0. */
    private final long[] destScalable;

    /**
     * Build the context of an endpoint being enabled. Control path.
     *
     * @param region        the domain region.
     * @param geometry      its geometry.
     * @param slot          the endpoint's slot: its lanes into every peer and its transmit ring.
     * @param incarnation   the endpoint's incarnation of that slot.
     * @param av            the bound AV.
     * @param registrar     the domain's memory registrar (a rendezvous send finds its source's region there).
     * @param cq            the CQ bound with FI_TRANSMIT, or null.
     * @param selective     whether that binding has FI_SELECTIVE_COMPLETION.
     * @param counter       the counter bound with FI_SEND, or null.
     * @param rendezvousMin the smallest send from shareable memory that goes by rendezvous.
     * @param livenessTimeoutMs the domain's liveness timeout: a peer that has not beaten for it is stopped.
     * @param checksum      whether every record carries a CRC32C of its content.
     * @param size          operations that may be queued (tx_attr.size).
     * @param iovLimit      buffers per operation.
     * @param sendGuard     the guard of the sending side (real under FI_THREAD_SAFE only).
     * @param progressGuard the guard of transmit progress.
     * @param claim         the endpoint's zero-copy claim, which this context serves from now on.
     * @param authDigest    the endpoint's authorization key digest, 0 for none ({@link AuthKeys}).
     * @param authKeysFromAv whether each destination's key comes from the AV instead (FI_AV_AUTH_KEY).
     * @param damage        where damage to the transmit ring is reported.
     * @param rma           the endpoint's RMA initiator (closed with this context).
     */
    public TxContext(
        final AtomicBuffer region,
        final RegionGeometry geometry,
        final int slot,
        final int incarnation,
        final ShmAddressVector av,
        final MemoryRegistrar registrar,
        final ShmCompletionQueue cq,
        final boolean selective,
        final ShmCounter counter,
        final int rendezvousMin,
        final long livenessTimeoutMs,
        final boolean checksum,
        final int size,
        final int iovLimit,
        final SpinGuard sendGuard,
        final SpinGuard progressGuard,
        final LaneClaim claim,
        final long authDigest,
        final boolean authKeysFromAv,
        final EndpointDamage damage,
        final RmaInitiator rma)
    {
        this.rma = rma;
        this.authDigest = authDigest;
        this.authKeysFromAv = authKeysFromAv;
        this.region = region;
        this.geometry = geometry;
        this.incarnation = incarnation;
        this.av = av;
        this.registrar = registrar;
        this.cq = cq;
        this.selective = selective;
        this.counter = counter;
        this.inlineLimit = LaneRecordDescriptor.inlineLimit(geometry.rxRingBytes(), checksum);
        this.rendezvousMin = rendezvousMin;
        this.sendGuard = sendGuard;
        this.progressGuard = progressGuard;
        this.claim = claim;
        this.checksumFlag = checksum ? FLAG_CHECKSUM : 0;
        this.checksumLength = checksum ? CHECKSUM_LENGTH : 0;
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
            final int laneOffset = RegionDescriptor.laneOffset(geometry, i, slot);
            lanes[i] = new SpscLane(new UnsafeBuffer(region, laneOffset, laneLength));
            final int at = region.wrapAdjustment() + laneOffset;
            laneViews[i] = regionBytes.duplicate().limit(at + geometry.rxRingBytes()).position(at).slice().limit(0);
            laneOwnerOffset[i] = SlotDescriptor.laneOwnerOffset(geometry, i, slot);
        }
        destState = new long[av.entries()];
        destPeer = new int[av.entries()];
        destAuthorized = new long[av.entries()];
        destScalable = new long[av.entries()];
        java.util.Arrays.fill(destState, -1);
        senderLiveness = new PeerLiveness(region, geometry, livenessTimeoutMs);
        pending = new PendingSends(size, Math.max(1, iovLimit), n);
        emulatedCapacity = size;
        emulatedDest = Math.max(1, iovLimit);
        emulatedLimit = EmulatedRequest.limit(geometry);
        statInline = SlotDescriptor.statOffset(geometry, slot, SlotDescriptor.STAT_INLINE_OFFSET);
        statClaimed = SlotDescriptor.statOffset(geometry, slot, SlotDescriptor.STAT_CLAIMED_OFFSET);
        transmit = new TxProgress(region, geometry, slot, incarnation, lanes, pending, cq, counter, inlineLimit,
            checksum, livenessTimeoutMs, rma.readCounter(), rma.writeCounter(), damage);
        claim.serve(this);
    }


    // ------------------------------------------------------------------ sending side

    /**
     * Sending side: one send, arguments checked by the endpoint. The data is {@code msg}'s buffers, or, when
     * {@code msg} is null, {@code buf} from {@code offset} (the single-buffer calls, which so allocate and fill no
     * descriptor).
     *
     * @param inject     whether the data must be copied out before the call returns (an inject call, or the
     *                   FI_INJECT operation flag): never queued.
     * @param injectCall whether it is fi_inject/fi_injectdata, which write no completion.
     * @return 0, or a negated errno: FI_EAGAIN (lane, queue or CQ full), FI_EHOSTUNREACH (peer gone), FI_EACCES
     * (the peer does not accept this endpoint's authorization key for it), FI_EINVAL (unknown destination),
     * FI_EBADF (closed).
     */
    public long send(
        final Msg msg, final ByteBuffer buf, final int offset, final long desc, final long total,
        final long destAddr, final long tag, final long data, final int recordFlags, final long opFlags,
        final long context, final boolean inject, final boolean injectCall)
    {
        sendGuard.lock();
        try
        {
            final int peer = reach(destAddr);
            if (peer < 0)
            {
                return peer;
            }
            final boolean completion = wantsCompletion(opFlags, injectCall);
            if (completion && cq != null && !cq.hasRoom())
            {
                return -Errno.FI_EAGAIN;
            }
            if (total <= inlineLimit && (opFlags & Flags.FI_DELIVERY_COMPLETE) == 0 && total < rendezvousMin &&
                !pending.hasPendingFor(peer))
            {
                return sendWhole(msg, buf, offset, (int)total, peer, tag, data, recordFlags, completion, context);
            }
            return sendSlow(msg, buf, offset, desc, total, peer, tag, data, recordFlags, opFlags, context, inject,
                completion);
        }
        finally
        {
            sendGuard.unlock();
        }
    }

    /** A whole message into an idle lane, by the sending side: the fast path. */
    private long sendWhole(
        final Msg msg, final ByteBuffer buf, final int offset, final int len, final int peer, final long tag,
        final long data, final int recordFlags, final boolean completion, final long context)
    {
        final int index = claimRecord(peer, len, tag, data, recordFlags);
        if (index < 0)
        {
            return index;
        }
        final SpscLane lane = lanes[peer];
        final AtomicBuffer b = lane.buffer();
        if (BROKEN_EARLY_COMMIT)
        {
            lane.commit(index);
        }
        PayloadGather.gather(b, index + PAYLOAD_OFFSET, msg, buf, offset, len);
        if (checksumLength != 0)
        {
            senderChecksum.seal(b, index, PAYLOAD_OFFSET + len, MSG);
        }
        if (!BROKEN_EARLY_COMMIT && !lane.commit(index))
        {
            return -Errno.FI_EIO; // the receiver cleared the lane under the record: nothing was delivered
        }
        count(statInline);
        completed(completion, context, recordFlags);
        return 0;
    }


    /**
     * The sends that are not a whole message into an idle lane: larger than a record, by rendezvous, asking for
     * delivery completion, or behind a queued send to the same peer. A whole message that may still go straight
     * into the lane does; the rest is queued for progress, which the sending side then runs once.
     */
    private long sendSlow(
        final Msg msg, final ByteBuffer buf, final int offset, final long desc, final long total, final int peer,
        final long tag, final long data, final int recordFlags, final long opFlags, final long context,
        final boolean inject, final boolean completion)
    {
        final boolean deliveryAck = (opFlags & Flags.FI_DELIVERY_COMPLETE) != 0 && !inject;
        final RendezvousSource source = inject || total < rendezvousMin ? null :
            rendezvous.find(registrar, msg, buf, offset, desc, total);
        if (total <= inlineLimit && !deliveryAck && source == null && !pending.hasPendingFor(peer))
        {
            return sendWhole(msg, buf, offset, (int)total, peer, tag, data, recordFlags, completion, context);
        }
        if (inject || !pending.hasRoom() || completion && cq != null && !cq.reserve())
        {
            return -Errno.FI_EAGAIN;
        }
        final int op = pending.take(peer, peerIncarnation[peer]);
        pending.buffers(op, msg, buf, offset, total);
        pending.request(op, total, tag, data, recordFlags, context, completion, deliveryAck, source != null,
            source == null ? 0 : source.key(), source == null ? 0 : source.addr());
        pending.submit(op);
        progress();
        return 0;
    }

    /**
     * Claim a whole-message (MSG) record in the peer's lane and write its header. Sending side, lane idle.
     *
     * @return the record's body index, or a negated errno: FI_EAGAIN when the lane is full, FI_EHOSTUNREACH when
     * the peer's process is gone.
     */
    private int claimRecord(final int peer, final int len, final long tag, final long data, final int recordFlags)
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
    private int reach(final long destAddr)
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
    private int reachOneSided(final long destAddr)
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
    private boolean wantsCompletion(final long opFlags, final boolean injectCall)
    {
        return !injectCall && (!selective || (opFlags & Flags.FI_COMPLETION) != 0);
    }

    /** A send is done: its completion (when wanted) and its counter. Either role. */
    private void completed(final boolean completion, final long context, final int recordFlags)
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
    private void count(final int statOffset)
    {
        region.putLongOrdered(statOffset, region.getLong(statOffset) + 1);
    }

    // ------------------------------------------------------------------ zero copy

    /**
     * Sending side: claim a whole-message record in the destination's lane for the caller to fill.
     *
     * @return 0, or a negated errno.
     */
    public long claim(final long destAddr, final int length, final long tag, final long data, final long flags)
    {
        sendGuard.lock();
        try
        {
            if (closed)
            {
                return -Errno.FI_EBADF;
            }
            if (claim.lane != null)
            {
                return -Errno.FI_EBUSY;
            }
            final int peer = reach(destAddr);
            if (peer < 0)
            {
                return peer;
            }
            if (pending.hasPendingFor(peer))
            {
                return -Errno.FI_EAGAIN;
            }
            final int recordFlags = ((flags & Flags.FI_TAGGED) != 0 ? FLAG_TAGGED : 0) |
                ((flags & Flags.FI_REMOTE_CQ_DATA) != 0 ? FLAG_CQ_DATA : 0);
            final int index = claimRecord(peer, length, tag, data, recordFlags);
            if (index < 0)
            {
                return index;
            }
            lanes[peer].hold(index); // open past this call: a full lane waiting at it is not damaged
            final LaneClaim claim = this.claim;
            final ByteBuffer view = laneViews[peer];
            view.limit(index + PAYLOAD_OFFSET + length);
            claim.view = view;
            claim.lane = lanes[peer];
            claim.index = index;
            claim.length = length;
            claim.offset = index + PAYLOAD_OFFSET;
            return 0;
        }
        finally
        {
            sendGuard.unlock();
        }
    }

    /**
     * Sending side: commit or abort the claim.
     *
     * @return 0, or -FI_EINVAL when nothing is claimed, -FI_ECANCELED for the claim the endpoint's close discarded,
     * -FI_EBADF once closed otherwise, -FI_EIO when the record was cleared under the claim (nothing delivered).
     */
    long finishClaim(final boolean commit)
    {
        sendGuard.lock();
        try
        {
            final SpscLane l = claim.lane;
            if (l == null)
            {
                return closed ? claim.closedAnswer() : -Errno.FI_EINVAL;
            }
            claim.lane = null;
            claim.view.limit(0);
            l.release();
            if (!commit)
            {
                l.abort(claim.index);
                return 0;
            }
            if (checksumLength != 0)
            {
                senderChecksum.seal(l.buffer(), claim.index, PAYLOAD_OFFSET + claim.length, MSG);
            }
            if (!l.commit(claim.index))
            {
                return -Errno.FI_EIO;
            }
            count(statClaimed);
            final ShmCounter c = counter;
            if (c != null)
            {
                c.add(1);
            }
            return 0;
        }
        finally
        {
            sendGuard.unlock();
        }
    }

    // ------------------------------------------------------------------ progress

    /**
     * Transmit progress ({@link TxProgress}): take acknowledgements, write queued sends as their lanes take them,
     * complete what is done. Any thread; skipped (0) while another thread progresses this context.
     *
     * @return work done.
     */
    public int progress()
    {
        final EmulatedOps e = emulated;
        if (pending.idle() && (e == null || e.idle()) || !progressGuard.tryLock())
        {
            return 0;
        }
        try
        {
            if (closed)
            {
                return 0;
            }
            return transmit.run();
        }
        finally
        {
            progressGuard.unlock();
        }
    }

    // ------------------------------------------------------------------ close

    /**
     * An RMA read or write by the sending side (fi_rma(3)): checks the destination is known, live and enabled (a plain
     * one-sided copy does not check that the target endpoint accepts this endpoint's key: the region's authorization
     * key decides; fi_writedata, whose record goes through the lane, does), copies one-sidedly ({@link RmaInitiator}), and for fi_writedata then writes a
     * WRITE_DATA record into the peer's lane, claimed before the copy so that a full lane refuses the call before
     * any byte moves. A failed copy completes in error; the call itself returns 0. Target memory no peer can map
     * (found before anything moved) makes it an emulated operation ({@link #emulate}); while an emulated operation to
     * the same target is outstanding, a one-sided one returns -FI_EAGAIN ({@link #fenced}). Several target regions
     * are probed first: all shareable, all local-only, or a mix that completes in error (FI_EINVAL).
     *
     * @param write      write (else read).
     * @param msg        the local buffers, or null for {@code buf}.
     * @param rmaIov     the target regions, or null for {@code addr}/{@code key}.
     * @param remoteData the data for the target's completion (fi_writedata), or -1 with {@code withData} false.
     * @return 0, or a negated errno for a call refused before anything moved: FI_EAGAIN (lane or CQ full, sends
     * queued to that peer, the fence, an emulated bounce busy), FI_EMSGSIZE, FI_EHOSTUNREACH, FI_EACCES,
     * FI_EINVAL, FI_EBADF.
     */
    public long rma(
        final boolean write, final Msg msg, final ByteBuffer buf, final int offset, final int len,
        final RmaIov rmaIov, final long destAddr, final long addr, final long key, final boolean withData,
        final long remoteData, final long opFlags, final long context, final boolean injectCall)
    {
        sendGuard.lock();
        try
        {
            final int peer = withData ? reach(destAddr) : reachOneSided(destAddr);
            if (peer < 0)
            {
                return peer;
            }
            final int room = rma.begin(destAddr);
            if (room != 0)
            {
                return room;
            }
            final boolean fenced = fenced(withData ? av.slotOf(destAddr) : peer);
            if (fenced || rmaIov != null && rmaIov.count > 1)
            {
                final int rc = rma.probeRma(write, msg == null ? len : msg.totalLength(), rmaIov, addr, key);
                if (rc != 0 || fenced)
                {
                    return rmaProbed(rc, write, msg, buf, offset, len, destAddr, withData, remoteData, opFlags,
                        context, injectCall);
                }
            }
            return rmaOneSided(write, msg, buf, offset, len, rmaIov, peer, destAddr, addr, key, withData, remoteData,
                opFlags, context, injectCall);
        }
        finally
        {
            sendGuard.unlock();
        }
    }

    /**
     * An RMA whose regions were probed and that does not simply go one-sidedly: emulated (all local-only), failed
     * before anything moved, or held behind an emulated operation to the same target ({@code rc} 0 while fenced:
     * -FI_EAGAIN).
     */
    private long rmaProbed(
        final int rc, final boolean write, final Msg msg, final ByteBuffer buf, final int offset, final int len,
        final long destAddr, final boolean withData, final long remoteData, final long opFlags, final long context,
        final boolean injectCall)
    {
        if (rc == RemoteMemory.LOCAL_ONLY)
        {
            return emulateRma(msg, buf, offset, destAddr, withData, remoteData, opFlags, context, injectCall);
        }
        if (rc == 0)
        {
            return -Errno.FI_EAGAIN; // one-sided, behind an emulated operation to the same target: wait
        }
        rma.finish(write, rc, wantsCompletion(opFlags, injectCall), context, msg == null ? len : msg.totalLength());
        return 0;
    }

    /**
     * The one-sided RMA: for fi_writedata a WRITE_DATA record claimed first, then the copy; a target region found
     * local-only (nothing moved) turns it into an emulated operation. Sending side, send guard held.
     */
    private long rmaOneSided(
        final boolean write, final Msg msg, final ByteBuffer buf, final int offset, final int len,
        final RmaIov rmaIov, final int peer, final long destAddr, final long addr, final long key,
        final boolean withData, final long remoteData, final long opFlags, final long context,
        final boolean injectCall)
    {
        final long total = msg == null ? len : msg.totalLength();
        int index = -1;
        if (withData)
        {
            if (pending.hasPendingFor(peer))
            {
                return -Errno.FI_EAGAIN;
            }
            index = lanes[peer].tryClaim(WRITE_DATA, bodyLength(WRITE_DATA_LENGTH + checksumLength));
            if (index < 0)
            {
                return -Errno.FI_EAGAIN;
            }
        }
        final int rc = msg == null ? rma.copy(write, buf, offset, len, addr, key) :
            rma.copy(write, msg, rmaIov, addr, key);
        if (rc == RemoteMemory.LOCAL_ONLY)
        {
            if (withData)
            {
                lanes[peer].abort(index);
            }
            return emulateRma(msg, buf, offset, destAddr, withData, remoteData, opFlags, context, injectCall);
        }
        if (withData)
        {
            commitWriteData(peer, index, rc == 0, total, remoteData);
        }
        if (rc == 0)
        {
            countAtTarget(peer, write);
        }
        rma.finish(write, rc, wantsCompletion(opFlags, injectCall), context, total);
        return 0;
    }

    /** An RMA whose target regions {@link RmaInitiator#request()} describes as local-only: the emulated path. */
    private long emulateRma(
        final Msg msg, final ByteBuffer buf, final int offset, final long destAddr, final boolean withData,
        final long remoteData, final long opFlags, final long context, final boolean injectCall)
    {
        final EmulatedRequest request = rma.request();
        request.rmaBuffers(msg, buf, offset);
        if (withData)
        {
            request.remoteData(remoteData);
        }
        return emulate(destAddr, wantsCompletion(opFlags, injectCall), context);
    }

    /**
     * Whether an emulated operation to a target is outstanding, so that a one-sided operation to it must not start:
     * it would land in the target's memory before the emulated one, which the target applies only when it drains
     * its lane, and break the RAR/RAW/WAR/WAW order getinfo reports. One acquire load while none is outstanding.
     *
     * @param slot the destination's address slot.
     */
    private boolean fenced(final int slot)
    {
        final EmulatedOps e = emulated;
        return e != null && e.anyOutstanding() && e.outstandingTo(slot);
    }

    /**
     * The emulated path (target memory no peer can map): the request {@link RmaInitiator#request()} describes goes
     * as one record into the target endpoint's lane, behind everything this context sent it before, and the
     * operation completes when the target's progress answers ({@link io.jfabric.shm.rma.EmulatedCompletions}). Sending side.
     *
     * @return 0, or a negated errno for a call refused before anything was sent: FI_EAGAIN (lane, pool or CQ full,
     * sends queued to that peer, the bounce busy), FI_ENOSPC (no bounce), FI_EHOSTUNREACH, FI_EACCES, FI_EINVAL.
     */
    private long emulate(final long destAddr, final boolean completion, final long context)
    {
        final long rc = emulateChecked(destAddr, completion, context);
        rma.request().forget(); // a refused call leaves no reference to the application's buffers behind
        return rc;
    }

    private long emulateChecked(final long destAddr, final boolean completion, final long context)
    {
        final EmulatedRequest request = rma.request();
        final int peer = reach(destAddr);
        if (peer < 0)
        {
            return peer;
        }
        if (pending.hasPendingFor(peer))
        {
            return -Errno.FI_EAGAIN;
        }
        final int staged = request.stage(emulatedLimit, rma.bounce()); // too large for a record: the bounce
        if (staged != 0)
        {
            return staged;
        }
        if (!request.ownedBy(region.getLongVolatile(SlotDescriptor.ownerOffset(geometry, peer))))
        {
            // the memory is reachable only in its owner's process, and this endpoint's is another
            rma.report(request.completionFlags(), request.writes(), -Errno.FI_EKEYREJECTED, completion, context,
                request.total);
            return 0;
        }
        return issue(request, peer, av.slotOf(destAddr), completion, context);
    }

    /** Write an emulated request into the peer's lane and hand its operation to progress. Sending side. */
    private long issue(
        final EmulatedRequest request, final int peer, final int fence, final boolean completion, final long context)
    {
        final EmulatedOps emulated = emulatedOps();
        if (!emulated.hasRoom() || cq != null && !cq.reserve())
        {
            return -Errno.FI_EAGAIN;
        }
        final SpscLane lane = lanes[peer];
        final int content = request.contentLength();
        final int index = lane.tryClaim(request.type, bodyLength(content + checksumLength));
        if (index < 0)
        {
            if (cq != null)
            {
                cq.unreserve();
            }
            return senderLiveness.status(peer, peerIncarnation[peer]) != PeerLiveness.ALIVE ?
                -Errno.FI_EHOSTUNREACH : -Errno.FI_EAGAIN;
        }
        final int op = emulated.take(peer, fence, peerIncarnation[peer]);
        final AtomicBuffer b = lane.buffer();
        request.write(b, index, emulated.cookie[op]);
        b.putInt(index + FLAGS_OFFSET, flagsWord(request.recordFlags() | checksumFlag, peerIncarnation[peer]));
        if (checksumLength != 0)
        {
            senderChecksum.seal(b, index + STATE_LENGTH, content - STATE_LENGTH, request.type);
        }
        emulated.request(op, lane.producerPosition(), index, context, request.completionFlags(), request.writes(),
            completion, cq != null, request.total, request.responsePayload());
        request.destinations(emulated, op);
        emulated.submit(op); // before the commit: a response can only name an operation progress will know
        lane.commit(index);
        return 0;
    }

    /**
     * @return the pool of emulated operations, made (tx_attr.size of them) and handed to progress at the first: a
     * one-time allocation on the data path, as the atomics' staging buffers are, so that endpoints that never meet
     * memory no peer can map do not pay for it at enable. Sending side.
     */
    private EmulatedOps emulatedOps()
    {
        EmulatedOps e = emulated;
        if (e == null)
        {
            e = new EmulatedOps(emulatedCapacity, emulatedDest, lanes.length);
            transmit.install(e); // progress first knows the completions, then (volatile) the pool
            emulated = e;
        }
        return e;
    }

    /**
     * An atomic operation by the sending side (fi_atomic(3)): the destination checked as for {@link #rma}, the
     * operation run in place in the peer's memory ({@link RmaInitiator#atomic}); a failure completes in error. On
     * memory no peer can map it is emulated (the operands and compare values copied into the request at the call),
     * and the fence holds as for {@link #rma}.
     *
     * @return 0, or a negated errno for a call refused before anything changed.
     */
    public long atomic(
        final AtomicSupport.Kind kind, final AtomicDatatype type, final AtomicOp op, final ByteBuffer buf,
        final int offset, final int count, final ByteBuffer compare, final int compareOffset, final ByteBuffer result,
        final int resultOffset, final long destAddr, final long addr, final long key, final long opFlags,
        final long context, final boolean injectCall)
    {
        sendGuard.lock();
        try
        {
            final int peer = oneSidedStart(destAddr);
            if (peer < 0)
            {
                return peer;
            }
            final boolean fenced = fenced(peer);
            final int rc = fenced ? rma.probeAtomic(kind, type, op, null, count, addr, key) :
                rma.atomic(kind, type, op, buf, offset, count, compare, compareOffset, result, resultOffset, addr,
                key);
            if (rc == RemoteMemory.LOCAL_ONLY)
            {
                rma.request().atomicBuffers(op == AtomicOp.ATOMIC_READ ? null : buf, offset, compare, compareOffset,
                    result, resultOffset, null);
                return emulate(destAddr, wantsCompletion(opFlags, injectCall), context);
            }
            if (fenced && rc == 0)
            {
                return -Errno.FI_EAGAIN; // one-sided, behind an emulated operation to the same target: wait
            }
            atomicDone(peer, kind, rc, opFlags, injectCall, context, (long)count * type.size());
            return 0;
        }
        finally
        {
            sendGuard.unlock();
        }
    }

    /**
     * A vectored or msg atomic operation (fi_atomicv, fi_atomicmsg and their fetch and compare forms): as
     * {@link #atomic}, the operands gathered from the vectors and applied region by region
     * ({@link RmaInitiator#atomicVector}); one completion for the whole call.
     *
     * @return 0, or a negated errno for a call refused before anything changed.
     */
    public long atomicVector(
        final AtomicSupport.Kind kind, final AtomicDatatype type, final AtomicOp op, final Ioc iov, final Ioc compare,
        final Ioc result, final RmaIoc rmaIoc, final int count, final long destAddr, final long addr, final long key,
        final long opFlags, final long context)
    {
        sendGuard.lock();
        try
        {
            final int peer = oneSidedStart(destAddr);
            if (peer < 0)
            {
                return peer;
            }
            final int rc = rma.atomicVector(kind, type, op, iov, compare, result, rmaIoc, count, addr, key,
                fenced(peer));
            if (rc == RemoteMemory.LOCAL_ONLY)
            {
                return emulate(destAddr, wantsCompletion(opFlags, false), context); // FI_INJECT still completes
            }
            if (rc == RmaInitiator.FENCED)
            {
                return -Errno.FI_EAGAIN; // one-sided, behind an emulated operation to the same target: wait
            }
            atomicDone(peer, kind, rc, opFlags, false, context, (long)count * type.size());
            return 0;
        }
        finally
        {
            sendGuard.unlock();
        }
    }

    /** @return the peer of a one-sided operation that may start, or a negated errno (reach, CQ room). */
    private int oneSidedStart(final long destAddr)
    {
        final int peer = reachOneSided(destAddr);
        if (peer < 0)
        {
            return peer;
        }
        final int room = rma.begin(destAddr);
        return room != 0 ? room : peer;
    }

    private void atomicDone(final int peer, final AtomicSupport.Kind kind, final int rc, final long opFlags,
        final boolean injectCall, final long context, final long length)
    {
        if (rc == 0)
        {
            countAtTarget(peer, kind == AtomicSupport.Kind.WRITE); // fi_endpoint(3): fetch and compare are reads
        }
        rma.finishAtomic(kind != AtomicSupport.Kind.WRITE, rc, wantsCompletion(opFlags, injectCall), context, length);
    }

    /**
     * Raise the target endpoint's FI_REMOTE_WRITE or FI_REMOTE_READ counter, if its slot names one (FI_RMA_EVENT).
     */
    private void countAtTarget(final int peer, final boolean write)
    {
        rma.countAtTarget(region.getIntVolatile(SlotDescriptor.remoteCounterOffset(geometry, peer, write)));
    }

    private void commitWriteData(final int peer, final int index, final boolean copied, final long total,
        final long data)
    {
        final SpscLane lane = lanes[peer];
        if (!copied)
        {
            lane.abort(index);
            return;
        }
        final AtomicBuffer b = lane.buffer();
        b.putLong(index + TAG_OFFSET, total);
        b.putLong(index + DATA_OFFSET, data);
        b.putInt(index + LENGTH_OFFSET, 0);
        b.putInt(index + FLAGS_OFFSET, flagsWord(FLAG_CQ_DATA | checksumFlag, peerIncarnation[peer]));
        if (checksumLength != 0)
        {
            senderChecksum.seal(b, index, WRITE_DATA_LENGTH, WRITE_DATA);
        }
        lane.commit(index);
    }

    /**
     * Close: wait until neither role is inside, then refuse both from now on. Queued sends are discarded without
     * completions, as fi_endpoint(3) says of fi_close; their reserved CQ entries are given back. Control path.
     */
    public void close(final boolean faulted)
    {
        final boolean sendLocked = sendGuard.lockForClose(faulted, SpinGuard.FAULTED_CLOSE_WAIT_NS);
        final boolean progressLocked = progressGuard.lockForClose(faulted, SpinGuard.FAULTED_CLOSE_WAIT_NS);
        try
        {
            closed = true;
            claim.discard(!faulted);
            rma.close();
            transmit.discardEmulated(faulted);
            pending.accept();
            int op;
            while ((op = pending.first()) != PendingSends.NONE)
            {
                if (pending.complete[op] && cq != null)
                {
                    cq.unreserve();
                }
                pending.release(op, PendingSends.NONE);
            }
        }
        finally
        {
            if (progressLocked)
            {
                progressGuard.unlock();
            }
            if (sendLocked)
            {
                sendGuard.unlock();
            }
        }
    }
}
