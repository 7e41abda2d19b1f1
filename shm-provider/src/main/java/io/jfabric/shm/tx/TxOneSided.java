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

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.Errno;
import io.jfabric.Ioc;
import io.jfabric.Msg;
import io.jfabric.RmaIoc;
import io.jfabric.RmaIov;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.liveness.PeerLiveness;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.rma.AtomicSupport;
import io.jfabric.shm.rma.EmulatedOps;
import io.jfabric.shm.rma.EmulatedRequest;
import io.jfabric.shm.rma.RmaInitiator;

import org.agrona.concurrent.AtomicBuffer;

import java.nio.ByteBuffer;

import static io.jfabric.shm.lane.LaneRecordDescriptor.*;

/**
 * The second floor of a transmit context (see {@link TxContext}): RMA and atomics, as libfabric's
 * {@code smr_rma.c} and {@code smr_atomic.c} keep them apart from messages. An operation goes one-sidedly
 * ({@link RmaInitiator}) or, on target memory no peer can map, as a request record into the target's lane that the
 * target's progress performs ({@link #emulate}; {@link EmulatedOps} holds them until their response). While an
 * emulated operation to a target is outstanding, a one-sided one to it waits ({@link #fenced}).
 * <p>
 * Threads: the sending side (see {@link TxContext}).
 */
abstract class TxOneSided extends TxDestinations
{
    final RmaInitiator rma;
    /** The pool of emulated operations, made at the first one (most endpoints never need it); null until then. */
    volatile EmulatedOps emulated;
    private final int emulatedCapacity;
    private final int emulatedDest;
    private final int emulatedLimit;
    /** Transmit progress: writes what was queued, takes back what peers return. */
    final TxProgress transmit;

    /**
     * @param p the transmit context's parameters.
     */
    TxOneSided(final TxParams p)
    {
        super(p);
        this.rma = p.rma;
        emulatedCapacity = p.size;
        emulatedDest = Math.max(1, p.iovLimit);
        emulatedLimit = EmulatedRequest.limit(geometry);
        transmit = new TxProgress(p, lanes, pending);
    }

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
    public final long rma(
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
    public final long atomic(
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
    public final long atomicVector(
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

}
