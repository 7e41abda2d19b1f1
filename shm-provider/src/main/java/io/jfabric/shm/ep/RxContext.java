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
import io.jfabric.Errno;
import io.jfabric.Fid;
import io.jfabric.Flags;
import io.jfabric.Msg;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.ShmCapabilities;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.eq.DamageReports;
import io.jfabric.shm.eq.ShmEventQueue;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.lane.RecordChecksum;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.liveness.Heartbeats;
import io.jfabric.shm.liveness.PeerLiveness;
import io.jfabric.shm.match.ReceiveMatcher;
import io.jfabric.shm.match.RecvCompletionSink;
import io.jfabric.shm.mr.LocalRegions;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.progress.SpinGuard;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.region.SpscLaneDescriptor;
import io.jfabric.shm.rma.EmulatedTarget;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
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
final class RxContext
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
    private static final boolean BROKEN_EARLY_ACK = BrokenVariant.active("rdv.ack-before-copy");

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
    private final long[] delivery;
    private final long[] remaining;
    /** Scratch of {@link #rescan}: the slots whose lanes have a sender. */
    private final int[] active;
    /** The lanes with a sender, in the order progress polls them. */
    private final ActiveLanes polled;
    private final Acknowledgements acks;
    private final PeerLiveness liveness;
    private final InboundHandler inbound = new InboundHandler();
    private final RendezvousReader rendezvousReader = new RendezvousReader();
    private final int maxBody;
    private final int statDamaged;
    private final RecordChecksum checksum = new RecordChecksum();
    private final ShmEventQueue eq;
    private final DamageReports damageReports;
    private final Fid endpoint;
    private final EmulatedTarget target;
    private int damagedLane = -1;
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
    /** Bits of a sender id above the slot and incarnation: the receiver's tag in a shared receive context. */
    static final int RECEIVER_SHIFT = 48;
    /** The sender id bits that name the sending slot and incarnation. */
    static final long SENDER_BITS = (1L << RECEIVER_SHIFT) - 1;
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
     * @param region       the domain region.
     * @param geometry     its geometry.
     * @param slot         the endpoint's slot.
     * @param incarnation  the endpoint's incarnation of that slot.
     * @param av           the bound AV (completions report senders by their address in it).
     * @param cq           the CQ bound with FI_RECV, or null.
     * @param selective    whether that binding has FI_SELECTIVE_COMPLETION.
     * @param counter      the counter bound with FI_RECV, or null.
     * @param remote       the domain's view of peers' shareable memory (rendezvous reads), closed by close.
     * @param size         receives that may be posted (rx_attr.size).
     * @param unexpectedCount messages the unexpected store keeps.
     * @param unexpectedBytes payload bytes the unexpected store keeps.
     * @param preallocate  whether the unexpected store allocates its whole arena now, not as it first needs it.
     * @param directedRecv whether receives filter by source address (FI_DIRECTED_RECV).
     * @param minMultiRecv FI_OPT_MIN_MULTI_RECV.
     * @param guard        the receive guard.
     * @param livenessTimeoutMs the domain's liveness timeout.
     * @param eq           the EQ bound to the endpoint, which damaged records are reported to; or null.
     * @param endpoint     the endpoint, as the fid those reports name.
     * @param shared       the receive context of the shared receive context the endpoint is bound to, whose
     *                     matcher and guard it uses; null for an endpoint with its own.
     * @param local        the server of this process's local-only regions for emulated requests.
     * @param sourceErrors FI_SOURCE_ERR ({@link SourceErrors}), or null.
     */
    RxContext(
        final AtomicBuffer region,
        final RegionGeometry geometry,
        final int slot,
        final int incarnation,
        final ShmAddressVector av,
        final ShmCompletionQueue cq,
        final boolean selective,
        final ShmCounter counter,
        final RemoteMemory remote,
        final int size,
        final int unexpectedCount,
        final int unexpectedBytes,
        final boolean preallocate,
        final boolean directedRecv,
        final long minMultiRecv,
        final SpinGuard guard,
        final long livenessTimeoutMs,
        final ShmEventQueue eq,
        final Fid endpoint,
        final RxContext shared,
        final LocalRegions local,
        final SourceErrors sourceErrors)
    {
        this.region = region;
        this.geometry = geometry;
        this.incarnation = incarnation;
        this.cq = cq;
        this.selective = selective;
        this.counter = counter;
        this.remote = remote;
        this.directedRecv = directedRecv;
        this.shared = shared;
        this.guard = shared != null ? shared.guard : guard;
        receivers = new RecvCompletionSink[geometry.slotCount()];
        final int n = geometry.slotCount();
        final int laneLength = RegionDescriptor.laneLength(geometry.rxRingBytes());
        lanes = new SpscLane[n];
        laneOwnerOffset = new int[n];
        senderId = new long[n];
        wasEmpty = new boolean[n];
        delivery = new long[n];
        remaining = new long[n];
        active = new int[n];
        polled = new ActiveLanes(n);
        acks = new Acknowledgements(region, geometry);
        liveness = new PeerLiveness(region, geometry, livenessTimeoutMs);
        target = new EmulatedTarget(local, remote, region, geometry, slot, liveness);
        this.eq = eq;
        this.damageReports = new DamageReports("damaged lane from slot ", n);
        this.endpoint = endpoint;
        statDamaged = SlotDescriptor.statOffset(geometry, slot, SlotDescriptor.STAT_DAMAGED_OFFSET);
        for (int i = 0; i < n; i++)
        {
            lanes[i] = new SpscLane(
                new UnsafeBuffer(region, RegionDescriptor.laneOffset(geometry, slot, i), laneLength));
            laneOwnerOffset[i] = SlotDescriptor.laneOwnerOffset(geometry, slot, i);
            delivery[i] = ReceiveMatcher.DELIVERY_NONE;
        }
        // a delivery in progress is a message arriving in pieces; a sender's pieces are consecutive in its lane,
        // so there is at most one per sending slot
        maxBody = lanes[0].maxMsgLength();
        sources = new SenderAddresses(region, geometry, av);
        this.sourceErrors = sourceErrors;
        if (shared != null)
        {
            matcher = shared.matcher;
            receiverTag = shared.addReceiver(new Completions());
        }
        else
        {
            matcher = new ReceiveMatcher(size, unexpectedCount, unexpectedBytes, preallocate, directedRecv, sources,
                new Completions(), ShmCapabilities.IOV_LIMIT, n);
            matcher.minMultiRecv(minMultiRecv);
            receiverTag = 0;
        }
        for (int i = 0; i < n; i++)
        {
            region.putLongOrdered(laneOwnerOffset[i], 0);
            // what is left in a lane was written for an earlier endpoint of the slot, and may stop it: a record a
            // process killed in this slot left claimed in its own lane names this incarnation as its sender
            lanes[i].discard();
        }
    }

    /** @return the matcher (FI_OPT_MIN_MULTI_RECV reads and writes go through it). Control path. */
    ReceiveMatcher matcher()
    {
        return matcher;
    }

    /** Control path: set FI_OPT_MIN_MULTI_RECV for receives posted from now on. */
    void minMultiRecv(final long bytes)
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
    long post(
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
    long post(
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
    long cancel(final long context)
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
    int progress()
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
        final InboundHandler handler = inbound;
        handler.sender = s;
        final int read = lanes[s].controlledRead(handler, wasEmpty[s] ? 1 : READ_LIMIT);
        wasEmpty[s] = read == 0;
        if (damagedLane >= 0)
        {
            repairLane();
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
            if (delivery[s] != ReceiveMatcher.DELIVERY_NONE)
            {
                // the sender died or closed part-way through a message and no piece of it is left in the lane
                matcher.abort(delivery[s], Errno.FI_EIO);
                delivery[s] = ReceiveMatcher.DELIVERY_NONE;
            }
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
            damaged(s, "the lane's consumer position was overwritten; it was written back, nothing was lost");
        }
        if (lane.repairRequested())
        {
            damaged(s, "its sender found the lane full and waiting at a record nobody will commit: the lane was " +
                "cleared from it to its tail");
            damagedLane = s;
            repairLane();
        }
        else if (!lane.positionsSound())
        {
            final boolean gone = senderGone(s, senderInc);
            damaged(s, "a producer position of " + lane.producerPosition() + " for a consumer at " +
                lane.consumerPosition() + " in a " + lane.capacity() + " byte lane" +
                (gone ? ", whose sender is gone: the lane was cleared" : ": its sender writes its own at its next send"));
            if (gone)
            {
                damagedLane = s;
                repairLane();
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

    /**
     * A WRITE_DATA record: the sender's fi_writedata has copied {@code length} bytes into this process's memory; its
     * completion (FI_RMA | FI_REMOTE_WRITE | FI_REMOTE_CQ_DATA) goes to the receive CQ, consuming no receive.
     */
    private void writeData(final int s, final long length, final long data)
    {
        if (cq != null)
        {
            cq.write(0, Flags.FI_RMA | Flags.FI_REMOTE_WRITE | Flags.FI_REMOTE_CQ_DATA, length, 0, data, 0,
                cq.needsSource() ? sources.fiAddrOf(senderId[s]) : Addresses.FI_ADDR_NOTAVAIL);
        }
    }

    /** Takes each record of a lane to the matcher, by type. Receive guard held. */
    private final class InboundHandler implements ControlledMessageHandler
    {
        int sender;

        @Override
        public Action onMessage(final int msgTypeId, final MutableDirectBuffer b, final int index, final int length)
        {
            if (length > maxBody || length < HEADER_LENGTH || msgTypeId < MSG || msgTypeId > MAX_TYPE)
            {
                return frameDamaged(msgTypeId, length);
            }
            final int flagsWord = b.getInt(index + FLAGS_OFFSET);
            final int s = sender;
            final int len = b.getInt(index + LENGTH_OFFSET);
            if (!isFor(flagsWord, incarnation))
            {
                return foreign(s, msgTypeId, b, index, length, flagsWord, len);
            }
            if (!contentSound(s, msgTypeId, b, index, length, flagsWord, len))
            {
                return recordDamaged(s, msgTypeId, length, len); // never read: its lengths or checksum say so
            }
            if (msgTypeId == PIECE)
            {
                return piece(s, b, index, len);
            }
            if (cq != null && !cq.hasRoom())
            {
                return Action.ABORT;
            }
            if (delivery[s] != ReceiveMatcher.DELIVERY_NONE)
            {
                abandoned(s);
            }
            final int f = flags(flagsWord);
            final boolean tagged = (f & FLAG_TAGGED) != 0;
            final long msgFlags = (f & FLAG_CQ_DATA) != 0 ? Flags.FI_REMOTE_CQ_DATA : 0;
            final long tag = b.getLong(index + TAG_OFFSET);
            final long data = b.getLong(index + DATA_OFFSET);
            if (msgTypeId == MSG)
            {
                return matcher.deliver(senderId[s], tagged, tag, data, msgFlags, b, index + PAYLOAD_OFFSET, len) ?
                    Action.CONTINUE : Action.ABORT;
            }
            return other(msgTypeId, s, tagged, tag, data, msgFlags, b, index, len);
        }

        /**
         * A record written for another incarnation of this slot: skipped, unless it is damaged (a checksum that does
         * not match, its incarnation bits changed by the damage), which is counted and reported.
         */
        private Action foreign(
            final int s, final int msgTypeId, final MutableDirectBuffer b, final int index, final int length,
            final int flagsWord, final int len)
        {
            return (flagsWord & FLAG_CHECKSUM) == 0 || contentSound(s, msgTypeId, b, index, length, flagsWord, len) ?
                Action.CONTINUE : recordDamaged(s, msgTypeId, length, len);
        }

        /**
         * Whether a record's content is sound: its payload length fits the record and, when it carries a checksum,
         * the checksum fits after the content and matches.
         */
        private boolean contentSound(
            final int s, final int msgTypeId, final MutableDirectBuffer b, final int index, final int length,
            final int flagsWord, final int len)
        {
            final int content = msgTypeId == MSG ? PAYLOAD_OFFSET + len : contentLength(msgTypeId, len);
            return len >= 0 && content <= length &&
                ((flagsWord & FLAG_CHECKSUM) == 0 || checksumMatches(s, msgTypeId, b, index, length, content));
        }

        /** Whether a record that carries a checksum has room for it after its content, and the checksum matches. */
        private boolean checksumMatches(
            final int s, final int msgTypeId, final MutableDirectBuffer b, final int index, final int length,
            final int content)
        {
            final int from = checksumStart(msgTypeId); // a request's State word changes after it was sealed
            return content <= length - CHECKSUM_LENGTH &&
                b.getInt(index + content) == checksum.of(lanes[s].buffer(), index + from, content - from, msgTypeId);
        }

        /**
         * A record whose frame cannot be trusted (its length is more than a lane record can be, or its type is none
         * of ours): where the next record starts is unknown, so nothing after it in the lane can be read. The lane
         * is cleared once this read is over ({@link #repairLanes}), the record counted and reported.
         */
        private Action frameDamaged(final int msgTypeId, final int length)
        {
            final int s = sender;
            damagedLane = s;
            damaged(s, (msgTypeId == SpscLaneDescriptor.DAMAGED_TYPE ? "a frame that is not the record at its " +
                "position (its stamp or its length), " : "a record of type " + msgTypeId + " and ") + "length " + length +
                " (a lane record holds at most " + maxBody + " bytes): the lane was cleared from it to its tail");
            return Action.ABORT;
        }

        /**
         * A record whose frame is sound but whose content is not (a payload length beyond the record, or a checksum
         * that does not match): skipped, counted and reported; the message it belongs to, if it was arriving in
         * pieces, completes in error.
         */
        private Action recordDamaged(final int s, final int msgTypeId, final int length, final int len)
        {
            damaged(s, "a record of type " + msgTypeId + ", length " + length + ", payload length " + len +
                ": its lengths or its checksum do not match; skipped");
            if (delivery[s] != ReceiveMatcher.DELIVERY_NONE)
            {
                abandoned(s);
            }
            return Action.CONTINUE;
        }

        /**
         * A record other than a piece from a slot whose last message never finished: its sender gave up the message
         * (an ABORT record: this endpoint had stopped), or died or closed part-way and the slot was taken again
         * before a rescan saw it gone. That message's receive completes in error (FI_EIO).
         */
        private void abandoned(final int s)
        {
            matcher.abort(delivery[s], Errno.FI_EIO);
            delivery[s] = ReceiveMatcher.DELIVERY_NONE;
        }

        private Action piece(final int s, final MutableDirectBuffer b, final int index, final int len)
        {
            final long d = delivery[s];
            if (d == ReceiveMatcher.DELIVERY_NONE)
            {
                return Action.CONTINUE;
            }
            final long left = remaining[s] - len;
            if (left <= 0 && cq != null && !cq.hasRoom())
            {
                return Action.ABORT; // the last piece completes the receive: wait for room, as a whole message does
            }
            matcher.write(d, b, index + PAYLOAD_OFFSET, len);
            remaining[s] = left;
            if (left <= 0)
            {
                delivery[s] = ReceiveMatcher.DELIVERY_NONE;
                matcher.end(d);
            }
            return Action.CONTINUE;
        }

        private Action other(
            final int msgTypeId, final int s, final boolean tagged, final long tag, final long data,
            final long msgFlags, final MutableDirectBuffer b, final int index, final int len)
        {
            if (msgTypeId == ACK_REQUEST)
            {
                return acks.acknowledge(s, b.getLong(index + ACK_REQUEST_COOKIE_OFFSET), 0, (int)senderId[s]) ?
                    Action.CONTINUE : Action.ABORT; // no room in the sender's ring: again later
            }
            if (msgTypeId == WRITE_DATA)
            {
                writeData(s, tag, data);
                return Action.CONTINUE;
            }
            if (isRequest(msgTypeId))
            {
                return request(msgTypeId, s, b, index, len, msgFlags, data);
            }
            if (msgTypeId != RTS && msgTypeId != FIRST)
            {
                return Action.CONTINUE;
            }
            final int ack = msgTypeId == RTS ? acks.claim(s) : 0; // before the copy: never one without the other
            if (ack < 0)
            {
                return Action.ABORT;
            }
            final long total = b.getLong(index + TOTAL_LENGTH_OFFSET);
            final long d = matcher.begin(senderId[s], tagged, tag, data, msgFlags, total);
            if (d == ReceiveMatcher.DELIVERY_NONE)
            {
                if (msgTypeId == RTS)
                {
                    acks.abort(s, ack);
                }
                return Action.ABORT;
            }
            if (msgTypeId == RTS)
            {
                return rendezvous(s, b, index, total, d, ack);
            }
            matcher.write(d, b, index + FIRST_PAYLOAD_OFFSET, len);
            final long left = total - len;
            if (left <= 0)
            {
                matcher.end(d);
            }
            else
            {
                delivery[s] = d;
                remaining[s] = left;
            }
            return Action.CONTINUE;
        }

        /**
         * An emulated one-sided request: performed and answered by {@link EmulatedTarget}; left in the lane while the
         * initiator's ring has no room for the answer; fi_writedata's completion once the bytes are in place.
         */
        private Action request(
            final int type, final int s, final MutableDirectBuffer b, final int index, final int len,
            final long msgFlags, final long data)
        {
            final int status = target.serve(type, s, (int)senderId[s], lanes[s].buffer(), index, len, acks.ring(s));
            if (status == EmulatedTarget.RETRY)
            {
                return Action.ABORT;
            }
            if (status == 0 && (msgFlags & Flags.FI_REMOTE_CQ_DATA) != 0 && type == RMA_WRITE)
            {
                writeData(s, b.getInt(index + REQUEST_TOTAL_OFFSET), data);
            }
            return Action.CONTINUE;
        }

        /**
         * An RTS record: copy the message straight out of its sender's shareable memory, then acknowledge it in the
         * record claimed for it (again in a new one if the sender cleared that meanwhile).
         */
        private Action rendezvous(
            final int s, final MutableDirectBuffer b, final int index, final long total, final long d, final int ack)
        {
            final RendezvousReader r = rendezvousReader;
            r.delivery = d;
            final long cookie = b.getLong(index + RTS_COOKIE_OFFSET);
            final boolean early = BROKEN_EARLY_ACK && acks.commit(s, ack, cookie, 0, (int)senderId[s]);
            final int status = total > Integer.MAX_VALUE ? -Errno.FI_EMSGSIZE :
                remote.readTo(b.getLong(index + RTS_KEY_OFFSET), b.getLong(index + RTS_ADDR_OFFSET), (int)total, r);
            matcher.end(d);
            if (!early && !acks.commit(s, ack, cookie, status, (int)senderId[s]))
            {
                acks.acknowledge(s, cookie, status, (int)senderId[s]);
            }
            return Action.CONTINUE;
        }
    }

    /**
     * Count a damaged record or lane in the slot's statistics and report it to the bound EQ (an error event: FI_EIO,
     * the endpoint's fid and context, the sending slot as data, the detail as error data; at most one event per
     * sending slot every {@link DamageReports#INTERVAL_MS}). Receive guard held; error path (allocates).
     */
    private void damaged(final int sender, final String what)
    {
        region.putLongOrdered(statDamaged, region.getLong(statDamaged) + 1);
        damageReports.report(eq, endpoint, endpoint.context(), sender, what, Heartbeats.nowMs());
    }

    /**
     * Clear the lane whose frame was found damaged ({@link SpscLane#discard}) and end the message its
     * sender was sending in pieces, if any: the rest of that lane's records are lost, the lane flows again from its
     * tail. Receive guard held.
     */
    private void repairLane()
    {
        final int s = damagedLane;
        damagedLane = -1;
        lanes[s].discard();
        if (delivery[s] != ReceiveMatcher.DELIVERY_NONE)
        {
            matcher.abort(delivery[s], Errno.FI_EIO);
            delivery[s] = ReceiveMatcher.DELIVERY_NONE;
        }
    }

    /** Hands a peer's shareable bytes straight to the matcher: the one copy of a rendezvous. */
    private final class RendezvousReader implements RemoteMemory.SegmentReader
    {
        long delivery;

        @Override
        public void read(final DirectBuffer memory, final int index, final int length)
        {
            matcher.write(delivery, memory, index, length);
        }
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
                return (long)(i + 1) << RECEIVER_SHIFT;
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
        receivers[(int)(tag >>> RECEIVER_SHIFT) - 1] = DROPPED;
    }

    /**
     * The sink of the endpoint a completion is for: the tag in the message's sender id, or, for a completion about
     * no message (a cancel), the first endpoint bound.
     */
    private RecvCompletionSink receiver(final long senderId)
    {
        int r = senderId == RecvCompletionSink.NO_SENDER ? 0 : (int)(senderId >>> RECEIVER_SHIFT) - 1;
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
    void close(final boolean faulted)
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
