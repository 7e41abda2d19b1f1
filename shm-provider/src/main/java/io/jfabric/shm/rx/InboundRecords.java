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
import io.jfabric.Fid;
import io.jfabric.Flags;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.eq.DamageReports;
import io.jfabric.shm.eq.ShmEventQueue;
import io.jfabric.shm.lane.RecordChecksum;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.liveness.Heartbeats;
import io.jfabric.shm.match.ReceiveMatcher;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.region.SpscLaneDescriptor;
import io.jfabric.shm.rma.EmulatedTarget;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;

import static io.jfabric.shm.lane.LaneRecordDescriptor.*;

/**
 * The record handler of a receive context ({@link RxContext}): takes each record of a lane, checks its frame,
 * incarnation, lengths and checksum, and hands it on by type in one {@code switch}, as libfabric's
 * {@code smr_progress_cmd} does: a whole message ({@link #onMsg}) or the first and further pieces of a larger one
 * ({@link #onFirst}, {@link #onPiece}) to the matcher, a rendezvous ({@link #onRts}) read straight out of the
 * sender's shareable memory and acknowledged, a delivery request acknowledged ({@link #onAckRequest}), fi_writedata's
 * completion ({@link #onWriteData}), and an emulated one-sided request performed ({@link #onRequest}). It keeps the
 * message each sending slot is delivering in pieces, and clears a lane whose frame was found damaged.
 * <p>
 * Threads: receive progress, the receive guard held ({@link RxContext#progress}).
 */
final class InboundRecords implements ControlledMessageHandler
{
    private static final boolean BROKEN_EARLY_ACK = BrokenVariant.active("rdv.ack-before-copy");

    /** The sending slot whose lane is being read: set before each read. */
    int sender;
    /** A lane whose frame was found damaged in this read (cleared after it, {@link #repairDamaged}), else -1. */
    int damagedLane = -1;

    private final AtomicBuffer region;
    private final int incarnation;
    private final int maxBody;
    private final ShmCompletionQueue cq;
    private final ReceiveMatcher matcher;
    private final SpscLane[] lanes;
    private final long[] senderId;
    /** Per sending slot: the delivery of the message arriving in pieces, or DELIVERY_NONE. */
    private final long[] delivery;
    /** Per sending slot: the bytes of that message still to come. */
    private final long[] remaining;
    private final Acknowledgements acks;
    private final EmulatedTarget target;
    private final RemoteMemory remote;
    private final SenderAddresses sources;
    private final RecordChecksum checksum = new RecordChecksum();
    private final RendezvousReader rendezvousReader = new RendezvousReader();
    private final int statDamaged;
    private final ShmEventQueue eq;
    private final Fid endpoint;
    private final DamageReports damageReports;

    /**
     * @param p        the receive context's parameters: region, slot and incarnation, CQ, remote memory, EQ and
     *                 endpoint (damage reports name them).
     * @param lanes    the context's lanes, by sending slot.
     * @param senderId the sender id of each lane's sender, by sending slot (written by rescans).
     * @param matcher  the matcher records go to.
     * @param acks     the acknowledgements into senders' transmit rings.
     * @param target   the performer of emulated requests.
     * @param sources  the sender addresses (fi_writedata's completion names its source).
     */
    InboundRecords(
        final RxParams p,
        final SpscLane[] lanes,
        final long[] senderId,
        final ReceiveMatcher matcher,
        final Acknowledgements acks,
        final EmulatedTarget target,
        final SenderAddresses sources)
    {
        this.region = p.region;
        this.incarnation = p.incarnation;
        this.cq = p.cq;
        this.remote = p.remote;
        this.eq = p.eq;
        this.endpoint = p.endpoint;
        this.lanes = lanes;
        this.senderId = senderId;
        this.matcher = matcher;
        this.acks = acks;
        this.target = target;
        this.sources = sources;
        maxBody = lanes[0].maxMsgLength();
        // a delivery in progress is a message arriving in pieces; a sender's pieces are consecutive in its lane,
        // so there is at most one per sending slot
        delivery = new long[lanes.length];
        remaining = new long[lanes.length];
        java.util.Arrays.fill(delivery, ReceiveMatcher.DELIVERY_NONE);
        statDamaged = SlotDescriptor.statOffset(p.geometry, p.slot, SlotDescriptor.STAT_DAMAGED_OFFSET);
        damageReports = new DamageReports("damaged lane from slot ", lanes.length);
    }

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
            return onPiece(s, b, index, len);
        }
        if (cq != null && !cq.hasRoom())
        {
            return Action.ABORT;
        }
        endPieces(s); // any record but a piece ends a message its sender was sending in pieces
        return dispatch(msgTypeId, s, b, index, len);
    }

    /** The sound record of a whole message or the start of one, or a control record, by type. */
    private Action dispatch(final int msgTypeId, final int s, final MutableDirectBuffer b, final int index, final int len)
    {
        switch (msgTypeId)
        {
            case MSG:
                return onMsg(s, b, index, len);
            case FIRST:
                return onFirst(s, b, index, len);
            case RTS:
                return onRts(s, b, index);
            case ACK_REQUEST:
                return onAckRequest(s, b, index);
            case WRITE_DATA:
                return onWriteData(s, b, index);
            case RMA_WRITE:
            case RMA_READ:
            case ATOMIC:
                return onRequest(msgTypeId, s, b, index, len);
            default:
                return Action.CONTINUE; // ABORT: its sender gave up the message it was sending in pieces
        }
    }

    /** A whole message: to the matcher, which places it or keeps it as unexpected. */
    private Action onMsg(final int s, final MutableDirectBuffer b, final int index, final int len)
    {
        final int f = flags(b.getInt(index + FLAGS_OFFSET));
        return matcher.deliver(senderId[s], (f & FLAG_TAGGED) != 0, b.getLong(index + TAG_OFFSET),
            b.getLong(index + DATA_OFFSET), msgFlags(f), b, index + PAYLOAD_OFFSET, len) ?
            Action.CONTINUE : Action.ABORT;
    }

    /** The first piece of a message larger than a record: the delivery begins, the rest follows as pieces. */
    private Action onFirst(final int s, final MutableDirectBuffer b, final int index, final int len)
    {
        final long total = b.getLong(index + TOTAL_LENGTH_OFFSET);
        final long d = begin(s, b, index, total);
        if (d == ReceiveMatcher.DELIVERY_NONE)
        {
            return Action.ABORT;
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

    /** A further piece of the message its sender is sending in pieces (none: left over from one that ended). */
    private Action onPiece(final int s, final MutableDirectBuffer b, final int index, final int len)
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

    /**
     * An RTS record: its acknowledgement claimed in the sender's ring before the copy (never one without the other),
     * then the message read straight out of the sender's shareable memory ({@link #rendezvous}).
     */
    private Action onRts(final int s, final MutableDirectBuffer b, final int index)
    {
        final int ack = acks.claim(s);
        if (ack < 0)
        {
            return Action.ABORT;
        }
        final long total = b.getLong(index + TOTAL_LENGTH_OFFSET);
        final long d = begin(s, b, index, total);
        if (d == ReceiveMatcher.DELIVERY_NONE)
        {
            acks.abort(s, ack);
            return Action.ABORT;
        }
        return rendezvous(s, b, index, total, d, ack);
    }

    /** A delivery request: acknowledged in the sender's ring, or left for later while that ring has no room. */
    private Action onAckRequest(final int s, final MutableDirectBuffer b, final int index)
    {
        return acks.acknowledge(s, b.getLong(index + ACK_REQUEST_COOKIE_OFFSET), 0, (int)senderId[s]) ?
            Action.CONTINUE : Action.ABORT;
    }

    /** fi_writedata's record: the bytes are in place, its completion goes to the receive CQ. */
    private Action onWriteData(final int s, final MutableDirectBuffer b, final int index)
    {
        writeData(s, b.getLong(index + TAG_OFFSET), b.getLong(index + DATA_OFFSET));
        return Action.CONTINUE;
    }

    /** Begin the delivery of a message of {@code total} bytes whose header is at {@code index}. */
    private long begin(final int s, final MutableDirectBuffer b, final int index, final long total)
    {
        final int f = flags(b.getInt(index + FLAGS_OFFSET));
        return matcher.begin(senderId[s], (f & FLAG_TAGGED) != 0, b.getLong(index + TAG_OFFSET),
            b.getLong(index + DATA_OFFSET), msgFlags(f), total);
    }

    /** @return the completion flags a record's flags give the message: FI_REMOTE_CQ_DATA or none. */
    private static long msgFlags(final int recordFlags)
    {
        return (recordFlags & FLAG_CQ_DATA) != 0 ? Flags.FI_REMOTE_CQ_DATA : 0;
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
     * is cleared once this read is over ({@link #repairDamaged}), the record counted and reported.
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
        endPieces(s);
        return Action.CONTINUE;
    }

    /**
     * End in error the message a sending slot was sending in pieces, if any: its sender gave it up (an ABORT
     * record: this endpoint had stopped), died or closed part-way, or its lane was cleared. Receive guard held.
     */
    void endPieces(final int s)
    {
        final long d = delivery[s];
        if (d != ReceiveMatcher.DELIVERY_NONE)
        {
            matcher.abort(d, Errno.FI_EIO);
            delivery[s] = ReceiveMatcher.DELIVERY_NONE;
        }
    }

    /**
     * An emulated one-sided request: performed and answered by {@link EmulatedTarget}; left in the lane while the
     * initiator's ring has no room for the answer; fi_writedata's completion once the bytes are in place.
     */
    private Action onRequest(final int type, final int s, final MutableDirectBuffer b, final int index, final int len)
    {
        final int status = target.serve(type, s, (int)senderId[s], lanes[s].buffer(), index, len, acks.ring(s));
        if (status == EmulatedTarget.RETRY)
        {
            return Action.ABORT;
        }
        if (status == 0 && (flags(b.getInt(index + FLAGS_OFFSET)) & FLAG_CQ_DATA) != 0 && type == RMA_WRITE)
        {
            writeData(s, b.getInt(index + REQUEST_TOTAL_OFFSET), b.getLong(index + DATA_OFFSET));
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

    /**
     * Count a damaged record or lane in the slot's statistics and report it to the bound EQ (an error event: FI_EIO,
     * the endpoint's fid and context, the sending slot as data, the detail as error data; at most one event per
     * sending slot every {@link DamageReports#INTERVAL_MS}). Receive guard held; error path (allocates).
     */
    void damaged(final int s, final String what)
    {
        region.putLongOrdered(statDamaged, region.getLong(statDamaged) + 1);
        damageReports.report(eq, endpoint, endpoint.context(), s, what, Heartbeats.nowMs());
    }

    /**
     * Clear the lane of slot {@code s} ({@link SpscLane#discard}) and end the message its sender was sending in
     * pieces, if any: the rest of that lane's records are lost, the lane flows again from its tail. Receive guard
     * held.
     */
    void repair(final int s)
    {
        lanes[s].discard();
        endPieces(s);
    }

    /** After a read: clear the lane whose frame it found damaged, if any. Receive guard held. */
    void repairDamaged()
    {
        final int s = damagedLane;
        damagedLane = -1;
        repair(s);
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
}
