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
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Msg;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.core.ShmCapabilities;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.liveness.Heartbeats;
import io.jfabric.shm.liveness.PeerLiveness;
import io.jfabric.shm.match.ReceiveMatcher;
import io.jfabric.shm.match.RecvCompletionSink;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.progress.SpinGuard;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.rma.EmulatedTarget;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

import static io.jfabric.shm.lane.LaneRecordDescriptor.*;

/**
 * An endpoint's receive context: the lanes peers write into this endpoint's slot (one {@link SpscLane} per sending
 * slot, this context their only consumer), the {@link ReceiveMatcher} that places what arrives in posted receives or
 * keeps it as unexpected, and the completions and counts of the receive side. A rendezvous is read here, straight out of the sender's shareable memory, and acknowledged, like a delivery
 * request, through the sender's transmit ring. Emulated one-sided requests (RMA and atomics on this process's
 * memory that no peer can map) are performed here too, in lane order, and answered through the initiator's transmit
 * ring ({@link EmulatedTarget}).
 * <p>
 * <b>Threads.</b> Receive posts and cancels (the application's receiving thread) and receive progress (CQ and
 * counter reads, a progress agent) share the matcher, so they exclude each other with the receive guard wherever the
 * threading model lets them run at once (SAFE, FID, ENDPOINT, and automatic progress); under COMPLETION and DOMAIN
 * the application serializes them and the guard is a no-op. Progress that finds the guard taken skips the receive
 * work. {@link #close} takes the guard.
 */
public final class RxContext
{
    /** Progress calls between looks for new senders while some lane is active (and at least once a tick). */
    private static final int RESCAN_PERIOD = 1024;
    /**
     * The same with {@link ActiveLanes#TIERED_FROM} lanes or more: a rescan then loads a line of every sending slot,
     * which every 1024 calls showed in the 64-endpoint round trip's p99 (1.3-1.9 times that of 2 endpoints, against
     * 1.0-1.4 with this period).
     */
    private static final int TIERED_RESCAN_PERIOD = 16384;
    /** Progress calls between looks for a first sender. */
    private static final int IDLE_RESCAN_PERIOD = 16;
    /** The most records one read of a lane takes while it streams. */
    private static final int READ_LIMIT = 64;
    /** Slots whose lanes one rescan checks, in turn, when many are listed ({@link #rescan}). */
    private static final int CHECKS_PER_RESCAN = 2;

    private final AtomicBuffer region;
    private final RegionGeometry geometry;
    private final int incarnation;
    private final ShmCompletionQueue cq;
    private final boolean selective;
    private final ShmCounter counter;
    private final RemoteMemory remote;
    private final boolean directedRecv;
    private final SpinGuard guard;
    private final ReceiveMatcher matcher;
    private final SpscLane[] lanes;
    private final int[] laneOwnerOffset;
    private final long[] senderId;
    /**
     * Per sending slot: whether the last read of its lane found nothing. The first read after that takes one record
     * and returns: it does not look at the frame word after the record, which at a record that fills its cache lines
     * (32 bytes of payload, one line) is in a line the sender wrote when it claimed the record (it zeroes that word)
     * and still holds: the look would wait for that line to come over before the completion reaches the caller (a
     * round trip's receiver is never behind, so the look finds nothing). A lane that gave records on its last read
     * is streaming, and its reads take up to {@link #READ_LIMIT}.
     */
    private final boolean[] wasEmpty;
    /** Scratch of {@link #rescan}: the slots whose lanes have a sender. */
    private final int[] active;
    /** The lanes with a sender, in the order progress polls them. */
    private final ActiveLanes polled;
    private final PeerLiveness liveness;
    private final InboundRecords inbound;
    private int rescanCountdown;
    /** {@link Heartbeats#nowMs()} at the last rescan: one runs at least once a tick, however seldom progress is. */
    private long rescannedMs;
    /**
     * The first of the slots whose lanes the next rescan checks when not all are ({@link #rescan}): it moves past the
     * slot that rescan asked {@code /proc} about, or past its whole window when it asked nothing.
     */
    private int checkFrom;
    /**
     * While every lane is checked: the slot from which a rescan may ask {@code /proc} whether a drained lane's sender
     * died ({@link #senderLeft}).
     */
    private int deepFrom;
    /** The slot this rescan asked that of, or -1. */
    private int deepChecked;
    private boolean closed;

    // ---- shared receive contexts (fi_srx_context)
    /** A sink for completions of an endpoint that left its shared receive context: nothing reports them. */
    private static final RecvCompletionSink DROPPED = new Dropped();
    /** Turns sender ids into fi_addrs (completions' sources) and key memberships. Receive guard held. */
    private final SenderAddresses sources;
    /** FI_SOURCE_ERR: how a receive from a sender the AV does not hold completes; null without it. */
    private final SourceErrors sourceErrors;
    /** The shared receive context this endpoint uses, or null. */
    private final RxContext shared;
    /** This endpoint's tag in the sender ids it passes the shared matcher ((index + 1) << 48), else 0. */
    private final long receiverTag;
    /** As a shared receive context: the completion sinks of the endpoints bound to it, by tag - 1. */
    private final RecvCompletionSink[] receivers;
    /** As a shared receive context: how many endpoints use it (0: an endpoint's own receive context). */
    private int receiverCount;

    /**
     * Build the context of an endpoint being enabled, and clear the owner words of its lanes. Control path.
     *
     * @param p      what the endpoint gives it: region and slot, bindings, the receive guard, limits
     *               ({@link RxParams}).
     * @param shared the receive context of the shared receive context the endpoint is bound to, whose matcher and
     *               guard it uses; null for an endpoint with its own.
     */
    public RxContext(final RxParams p, final RxContext shared)
    {
        final AtomicBuffer region = p.region;
        final RegionGeometry geometry = p.geometry;
        final int slot = p.slot;
        this.region = region;
        this.geometry = geometry;
        this.incarnation = p.incarnation;
        this.cq = p.cq;
        this.selective = p.selective;
        this.counter = p.counter;
        this.remote = p.remote;
        this.directedRecv = p.directedRecv;
        this.shared = shared;
        this.guard = shared != null ? shared.guard : p.guard;
        receivers = new RecvCompletionSink[geometry.slotCount()];
        final int n = geometry.slotCount();
        final int laneLength = RegionDescriptor.laneLength(geometry.rxRingBytes());
        lanes = new SpscLane[n];
        laneOwnerOffset = new int[n];
        senderId = new long[n];
        wasEmpty = new boolean[n];
        active = new int[n];
        polled = new ActiveLanes(n);
        final Acknowledgements acks = new Acknowledgements(region, geometry);
        liveness = new PeerLiveness(region, geometry, p.livenessTimeoutMs);
        for (int i = 0; i < n; i++)
        {
            lanes[i] = new SpscLane(
                new UnsafeBuffer(region, RegionDescriptor.laneOffset(geometry, slot, i), laneLength));
            laneOwnerOffset[i] = SlotDescriptor.laneOwnerOffset(geometry, slot, i);
        }
        sources = new SenderAddresses(region, geometry, p.av);
        this.sourceErrors = p.sourceErrors;
        if (shared != null)
        {
            matcher = shared.matcher;
            receiverTag = shared.addReceiver(new Completions());
        }
        else
        {
            matcher = new ReceiveMatcher(p.size, p.unexpectedCount, p.unexpectedBytes, p.preallocate, directedRecv,
                sources, new Completions(), ShmCapabilities.IOV_LIMIT, n);
            matcher.minMultiRecv(p.minMultiRecv);
            receiverTag = 0;
        }
        inbound = new InboundRecords(p, lanes, senderId, matcher, acks,
            new EmulatedTarget(p.local, remote, region, geometry, slot, liveness), sources);
        for (int i = 0; i < n; i++)
        {
            region.putLongOrdered(laneOwnerOffset[i], 0);
            // what is left in a lane was written for an earlier endpoint of the slot, and may stop it: a record a
            // process killed in this slot left claimed in its own lane names this incarnation as its sender
            lanes[i].discard();
        }
    }

    /** @return the matcher (FI_OPT_MIN_MULTI_RECV reads and writes go through it). Control path. */
    public ReceiveMatcher matcher()
    {
        return matcher;
    }

    /** Control path: set FI_OPT_MIN_MULTI_RECV for receives posted from now on. */
    public void minMultiRecv(final long bytes)
    {
        guard.lock();
        try
        {
            matcher.minMultiRecv(bytes);
        }
        finally
        {
            guard.unlock();
        }
    }

    // ------------------------------------------------------------------ posts

    /**
     * Receiving thread: post a one-buffer receive, arguments checked by the endpoint.
     *
     * @return 0 or a negated errno.
     */
    public long post(
        final boolean tagged, final ByteBuffer buf, final int offset, final int len, final long srcAddr,
        final long tag, final long ignore, final long context, final long flags)
    {
        guard.lock();
        try
        {
            return closed ? -Errno.FI_EBADF : matcher.post(tagged, buf, offset, len,
                directedRecv ? srcAddr : Addresses.FI_ADDR_UNSPEC, tag, ignore, context, flags);
        }
        finally
        {
            guard.unlock();
        }
    }

    /**
     * Receiving thread: post a gathered receive.
     *
     * @return 0 or a negated errno.
     */
    public long post(
        final boolean tagged, final Msg msg, final long srcAddr, final long tag, final long ignore,
        final long context, final long flags)
    {
        guard.lock();
        try
        {
            return closed ? -Errno.FI_EBADF : matcher.post(tagged, msg.iov, msg.iovOffset, msg.iovLength,
                msg.iovCount, directedRecv ? srcAddr : Addresses.FI_ADDR_UNSPEC, tag, ignore, context, flags);
        }
        finally
        {
            guard.unlock();
        }
    }

    /**
     * Receiving thread: cancel a posted receive (fi_cancel).
     *
     * @return 0 or a negated errno.
     */
    public long cancel(final long context)
    {
        guard.lock();
        try
        {
            return closed ? -Errno.FI_EBADF : matcher.cancel(context);
        }
        finally
        {
            guard.unlock();
        }
    }

    // ------------------------------------------------------------------ progress

    /**
     * Receive progress: drain the active lanes into the matcher. Any thread; skipped (0) while the guard is taken.
     *
     * @return records taken.
     */
    public int progress()
    {
        if (!guard.tryLock())
        {
            return 0;
        }
        try
        {
            if (closed)
            {
                return 0;
            }
            final long nowMs = Heartbeats.nowMs();
            if (--rescanCountdown <= 0 || nowMs - rescannedMs >= Heartbeats.TICK_MS)
            {
                rescan(nowMs);
                rescannedMs = nowMs;
                final int listed = polled.count();
                rescanCountdown = listed == 0 ? IDLE_RESCAN_PERIOD :
                    listed < ActiveLanes.TIERED_FROM ? RESCAN_PERIOD : TIERED_RESCAN_PERIOD;
            }
            final ActiveLanes order = polled;
            int work = 0;
            for (int i = 0; i < order.hotCount(); )
            {
                final int s = order.slotAt(i);
                final int read = read(s);
                if (read > 0)
                {
                    work += read;
                    order.recordsFrom(s, nowMs);
                    i++;
                }
                else if (!order.cooled(i, nowMs))
                {
                    i++;
                }
            }
            return order.count() == order.hotCount() ? work : work + pollCold(order, nowMs);
        }
        finally
        {
            guard.unlock();
        }
    }

    /** @return records taken from the lane of slot {@code s} (a damaged one is cleared after the read). */
    private int read(final int s)
    {
        final InboundRecords handler = inbound;
        handler.sender = s;
        final int read = lanes[s].controlledRead(handler, wasEmpty[s] ? 1 : READ_LIMIT);
        wasEmpty[s] = read == 0;
        if (handler.damagedLane >= 0)
        {
            handler.repairDamaged();
        }
        return read;
    }

    /** Poll the cold lanes due on this call ({@link ActiveLanes}); one that gives records turns hot. */
    private int pollCold(final ActiveLanes order, final long nowMs)
    {
        int work = 0;
        for (int k = order.coldToPoll(nowMs); k > 0; k--)
        {
            final int p = order.nextCold();
            final int read = read(order.slotAt(p));
            if (read > 0)
            {
                work += read;
                order.warmed(p, nowMs);
            }
        }
        return work;
    }

    /**
     * Find the lanes that have a sender, and check their health ({@link #released}): every lane's while fewer than
     * {@link ActiveLanes#TIERED_FROM} are listed, else {@link #CHECKS_PER_RESCAN} slots' per rescan, in turn, so that
     * a rescan with many senders attached stays short (each check loads lines of the lane's own pages). Either way
     * one rescan asks {@code /proc} about one drained lane at most, and every drained lane gets its turn: while all
     * are checked the turn walks the slots from {@link #deepFrom}; in turn, the next window starts right after the
     * slot that took this rescan's turn, so the slot after it in this window is the first of the next.
     */
    private void rescan(final long nowMs)
    {
        int n = 0;
        deepChecked = -1;
        final int slots = lanes.length;
        final boolean checkEvery = polled.count() < ActiveLanes.TIERED_FROM;
        for (int s = 0; s < slots; s++)
        {
            final long owner = region.getLongVolatile(laneOwnerOffset[s]);
            if (owner == 0 || SlotDescriptor.receiverIncarnation(owner) != incarnation)
            {
                continue;
            }
            final int senderInc = SlotDescriptor.senderIncarnation(owner);
            senderId[s] = ((long)s << 32) | (senderInc & 0xFFFF_FFFFL) | receiverTag;
            if ((checkEvery || Math.floorMod(s - checkFrom, slots) < CHECKS_PER_RESCAN) &&
                released(s, owner, senderInc, !checkEvery || s >= deepFrom))
            {
                continue;
            }
            active[n++] = s;
        }
        polled.rebuild(active, n, nowMs);
        if (checkEvery)
        {
            deepFrom = deepChecked < 0 ? 0 : deepChecked + 1;
        }
        else
        {
            checkFrom = (deepChecked < 0 ? checkFrom + CHECKS_PER_RESCAN : deepChecked + 1) % slots;
        }
    }

    /**
     * A lane's health, as a rescan checks it: positions that cannot be (cleared), a record a dead sender left
     * part-way (unblocked), a drained lane whose sender left (released).
     *
     * @param deepTurn whether this lane may take the rescan's one {@code /proc} question ({@link #senderLeft}).
     * @return whether the lane was released (its sender left).
     */
    private boolean released(final int s, final long owner, final int senderInc, final boolean deepTurn)
    {
        final SpscLane lane = lanes[s];
        checkTrailer(s, lane, senderInc);
        if (lane.headWaiting() && senderGone(s, senderInc))
        {
            lane.unblock(); // what the dead sender committed after the record it left still arrives
        }
        if (lane.drained() && senderLeft(s, senderInc, deepTurn))
        {
            // the sender died or closed part-way through a message and no piece of it is left in the lane
            inbound.endPieces(s);
            region.compareAndSetLong(laneOwnerOffset[s], owner, 0);
            return true;
        }
        return false;
    }

    /**
     * The lane's trailer, as a rescan checks it: a consumer position someone overwrote (the lane's reads went on from
     * this context's own and wrote it back), a producer position no lane can have (a live sender writes its own at
     * its next claim; a gone one's lane is cleared), the sender's request to clear a lane it found waiting at a record
     * nobody will commit (cleared). Each is reported.
     */
    private void checkTrailer(final int s, final SpscLane lane, final int senderInc)
    {
        if (lane.takeHeadOverwritten())
        {
            inbound.damaged(s, "the lane's consumer position was overwritten; it was written back, nothing was lost");
        }
        if (lane.repairRequested())
        {
            inbound.damaged(s, "its sender found the lane full and waiting at a record nobody will commit: the lane was " +
                "cleared from it to its tail");
            inbound.repair(s);
        }
        else if (!lane.positionsSound())
        {
            final boolean gone = senderGone(s, senderInc);
            inbound.damaged(s, "a producer position of " + lane.producerPosition() + " for a consumer at " +
                lane.consumerPosition() + " in a " + lane.capacity() + " byte lane" +
                (gone ? ", whose sender is gone: the lane was cleared" : ": its sender writes its own at its next send"));
            if (gone)
            {
                inbound.repair(s);
            }
        }
    }

    /**
     * Whether the sender of a drained lane has left. Its slot header tells when it closed or was replaced; that a
     * live-looking slot's process died takes {@code /proc} (microseconds and an allocation), so one rescan asks
     * that of one lane only, the first drained one whose turn it is ({@link #rescan}): with many senders attached the
     * checks would otherwise all fall due in one rescan and stall it.
     */
    private boolean senderLeft(final int s, final int senderInc, final boolean deepTurn)
    {
        if (liveness.leftSlot(s, senderInc))
        {
            return true;
        }
        if (!deepTurn || deepChecked >= 0)
        {
            return false;
        }
        deepChecked = s;
        return senderGone(s, senderInc);
    }

    private boolean senderGone(final int s, final int senderInc)
    {
        return liveness.status(s, senderInc) == PeerLiveness.GONE;
    }

    /** Writes the receive side's completions and counts (the sender each names is not needed). Receive guard held. */
    private final class Completions implements RecvCompletionSink
    {
        @Override
        public boolean wantsSource()
        {
            return receiverCount > 0 || sourceErrors != null || cq != null && cq.needsSource();
        }

        @Override
        public boolean hasRoom(final int entries)
        {
            if (receiverCount > 0)
            {
                return receiversHaveRoom(entries);
            }
            return cq == null || cq.hasRoom(entries);
        }

        @Override
        public void complete(
            final long senderId, final long context, final long opFlags, final long cqFlags, final long len,
            final long bufOffset, final long data, final long tag, final long srcAddr)
        {
            if (receiverCount > 0)
            {
                receiver(senderId).complete(senderId, context, opFlags, cqFlags, len, bufOffset, data, tag, srcAddr);
                return;
            }
            if (cq != null && (!selective || (opFlags & Flags.FI_COMPLETION) != 0 ||
                (cqFlags & (Flags.FI_PEEK | Flags.FI_MULTI_RECV)) != 0))
            {
                if (sourceErrors != null && srcAddr == Addresses.FI_ADDR_NOTAVAIL && !sources.isKnown(senderId))
                {
                    sourceErrors.complete(cq, sources, senderId, context, cqFlags, len, bufOffset, data, tag);
                }
                else
                {
                    cq.write(context, cqFlags, len, bufOffset, data, tag, srcAddr);
                }
            }
            final ShmCounter c = counter;
            if (c != null && (cqFlags & Flags.FI_PEEK) == 0)
            {
                c.add(1);
            }
        }

        @Override
        public void error(
            final long senderId, final long context, final long cqFlags, final long len, final long bufOffset,
            final long data, final long tag, final long olen, final int errno, final long srcAddr)
        {
            if (receiverCount > 0)
            {
                receiver(senderId).error(senderId, context, cqFlags, len, bufOffset, data, tag, olen, errno, srcAddr);
                return;
            }
            if (cq != null)
            {
                cq.writeError(context, cqFlags, len, bufOffset, data, tag, olen, errno, srcAddr);
            }
            final ShmCounter c = counter;
            if (c != null)
            {
                c.addErr(1);
            }
        }
    }

    // ------------------------------------------------------------------ shared receive context

    /**
     * As a shared receive context: take an endpoint bound to it. Control path (the endpoint's enable).
     *
     * @param sink the endpoint's completion sink.
     * @return the endpoint's tag for the sender ids it passes the matcher.
     */
    synchronized long addReceiver(final RecvCompletionSink sink)
    {
        for (int i = 0; i < receivers.length; i++)
        {
            if (receivers[i] == null)
            {
                receivers[i] = sink;
                receiverCount++;
                return (long)(i + 1) << SenderAddresses.RECEIVER_SHIFT;
            }
        }
        throw new IllegalStateException("more endpoints than slots on one shared receive context");
    }

    /**
     * As a shared receive context: an endpoint bound to it closes; completions of what it received and is still
     * held here are dropped from now on. Control path, shared guard held.
     *
     * @param tag the endpoint's tag.
     */
    synchronized void removeReceiver(final long tag)
    {
        receivers[(int)(tag >>> SenderAddresses.RECEIVER_SHIFT) - 1] = DROPPED;
    }

    /**
     * The sink of the endpoint a completion is for: the tag in the message's sender id, or, for a completion about
     * no message (a cancel), the first endpoint bound.
     */
    private RecvCompletionSink receiver(final long senderId)
    {
        int r = senderId == RecvCompletionSink.NO_SENDER ? 0 : (int)(senderId >>> SenderAddresses.RECEIVER_SHIFT) - 1;
        if (senderId == RecvCompletionSink.NO_SENDER)
        {
            while (r < receivers.length && (receivers[r] == null || receivers[r] == DROPPED))
            {
                r++;
            }
        }
        final RecvCompletionSink sink = r >= 0 && r < receivers.length ? receivers[r] : null;
        return sink == null ? DROPPED : sink;
    }

    /**
     * As a shared receive context: whether every endpoint bound to it has room for {@code entries} completions (a
     * completion about no message goes to the first of them, one about a message to its receiver's).
     */
    private boolean receiversHaveRoom(final int entries)
    {
        for (final RecvCompletionSink r : receivers)
        {
            if (r != null && !r.hasRoom(entries))
            {
                return false;
            }
        }
        return true;
    }

    /** Completions nobody reports: of an endpoint that left its shared receive context. */
    private static final class Dropped implements RecvCompletionSink
    {
        @Override
        public void complete(
            final long senderId, final long context, final long opFlags, final long cqFlags, final long len,
            final long bufOffset, final long data, final long tag, final long srcAddr)
        {
        }

        @Override
        public void error(
            final long senderId, final long context, final long cqFlags, final long len, final long bufOffset,
            final long data, final long tag, final long olen, final int errno, final long srcAddr)
        {
        }
    }

    // ------------------------------------------------------------------ close

    /**
     * Close: wait until no post or progress is inside, then refuse both; the matcher lets go of the application's
     * buffers and the rendezvous view closes. Posted receives are discarded without completions (fi_close).
     * Control path.
     */
    public void close(final boolean faulted)
    {
        final boolean locked = guard.lockForClose(faulted, SpinGuard.FAULTED_CLOSE_WAIT_NS);
        try
        {
            closed = true;
            if (shared != null)
            {
                shared.removeReceiver(receiverTag);
            }
            else
            {
                matcher.releaseBuffers();
            }
            remote.close();
        }
        finally
        {
            if (locked)
            {
                guard.unlock();
            }
        }
    }
}
