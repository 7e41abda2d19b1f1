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

import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Msg;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.lane.PayloadGather;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.mr.MemoryRegistrar;
import io.jfabric.shm.progress.SpinGuard;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.rma.EmulatedOps;
import io.jfabric.shm.rma.RmaInitiator;

import org.agrona.concurrent.AtomicBuffer;

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
 * target's progress performs ({@code emulate}; {@link EmulatedOps} holds them until their response).
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
 * <p>
 * One object in three files, split by operation family: {@link TxDestinations} (destinations and the lanes into
 * them), {@link TxOneSided} (RMA, atomics, emulation) and this class (sends, the zero-copy claim, progress, close).
 */
public final class TxContext extends TxOneSided
{
    private static final boolean BROKEN_EARLY_COMMIT = BrokenVariant.active("lane.commit-before-payload");

    private final MemoryRegistrar registrar;
    private final int inlineLimit;
    private final int rendezvousMin;
    private final SpinGuard progressGuard;
    private final LaneClaim claim;
    private final int statInline;
    private final int statClaimed;
    private final RendezvousSource rendezvous = new RendezvousSource();

    /**
     * Build the context of an endpoint being enabled. Control path.
     *
     * @param p what the endpoint gives it: region and slot, bindings, guards, limits ({@link TxParams}).
     */
    public TxContext(final TxParams p)
    {
        super(p);
        this.registrar = p.registrar;
        this.inlineLimit = LaneRecordDescriptor.inlineLimit(geometry.rxRingBytes(), p.checksum);
        this.rendezvousMin = p.rendezvousMin;
        this.progressGuard = p.progressGuard;
        this.claim = p.claim;
        statInline = SlotDescriptor.statOffset(geometry, p.slot, SlotDescriptor.STAT_INLINE_OFFSET);
        statClaimed = SlotDescriptor.statOffset(geometry, p.slot, SlotDescriptor.STAT_CLAIMED_OFFSET);
        claim.serve(this::finishClaim);
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
