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
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.lane.TxRecordDescriptor;
import io.jfabric.shm.liveness.EndpointDamage;
import io.jfabric.shm.liveness.Heartbeats;
import io.jfabric.shm.liveness.PeerLiveness;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.RingReader;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.rma.EmulatedCompletions;
import io.jfabric.shm.rma.EmulatedOps;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * The transmit progress of one {@link TxContext}: takes back through the context's transmit ring (an Agrona
 * {@code ManyToOneRingBuffer} any receiver may write, {@link TxRecordDescriptor}) the acknowledgements of rendezvous
 * and delivery-complete sends and the responses to emulated one-sided operations ({@link EmulatedCompletions}),
 * writes the queued sends ({@link PendingSends}) into their peers' lanes in order per peer (through
 * {@link QueuedSendWriter}), completes each send once it is done, and ends in error (FI_EHOSTUNREACH) what can no
 * longer reach its peer.
 * <p>
 * Transmit progress only: {@link #run} is called by {@link TxContext#progress} with the context's progress guard
 * held and the context open, so one thread at a time.
 */
final class TxProgress
{
    private static final int READ_LIMIT = 64;
    /** {@link #push}: the operation stays in flight where it is; the loop moves on past it. */
    private static final int STAY = -2;

    private final AtomicBuffer region;
    private final int incarnation;
    /** Per peer slot: the region offset of the owner word of this context's lane into it. */
    private final int[] laneOwnerOffset;
    private final PendingSends pending;
    private final QueuedSendWriter writer;
    private final ShmCompletionQueue cq;
    private final ShmCounter counter;
    private final int inlineLimit;
    private final RingBuffer ring;
    private final RingReader ringReader;
    private final EndpointDamage damage;
    private final ControlledMessageHandler acks = new AckHandler();
    /** Operations whose acknowledgement may have been lost with a cleared ring ({@link PendingSends#ackInDoubt}). */
    private int acksInDoubt;
    /** {@link Heartbeats#nowMs} at the last look at how far receivers read ({@link #receiversPast}). */
    private long acksCheckedMs;
    private final SpscLane[] lanes;
    private final ShmCounter readCounter;
    private final ShmCounter writeCounter;
    /** Made by the sending side's first emulated operation ({@link #install}); null until then. */
    private volatile EmulatedCompletions emulatedCompletions;
    private final PeerLiveness liveness;
    /** Per peer slot, a bit: a peer whose lane an older queued send still holds in this pass. */
    private final long[] blockedPeers;
    private final int statQueued;
    private final int statSegmented;
    private final int statRendezvous;
    /** Records written in this pass. */
    private int work;
    /**
     * The longest a live receiver takes to finish an acknowledgement: a record unfinished at the head for longer is
     * cleared ({@link RingReader#unblock}). A live receiver whose record that was has its commit refused and writes
     * it again, so a short limit costs a retry, never an acknowledgement.
     */
    static final long STUCK_LIMIT_MS = 1_000;
    /** How long the ring may hold an unfinished record at its head before it is cleared. */
    private final long stuckLimitMs;

    /**
     * Build the progress of a transmit context being enabled, and clear its transmit ring. Control path.
     *
     * @param p       the context's parameters: region, slot (its transmit ring and statistics), incarnation
     *                (acknowledgements name it), CQ and counters, checksum, liveness timeout, damage reports.
     * @param lanes   the context's lanes into every peer, by peer slot.
     * @param pending the context's queued sends.
     */
    TxProgress(final TxParams p, final SpscLane[] lanes, final PendingSends pending)
    {
        final AtomicBuffer region = p.region;
        final RegionGeometry geometry = p.geometry;
        final int slot = p.slot;
        final long livenessTimeoutMs = p.livenessTimeoutMs;
        final int inlineLimit = LaneRecordDescriptor.inlineLimit(geometry.rxRingBytes(), p.checksum);
        this.region = region;
        laneOwnerOffset = new int[geometry.slotCount()];
        for (int i = 0; i < laneOwnerOffset.length; i++)
        {
            laneOwnerOffset[i] = SlotDescriptor.laneOwnerOffset(geometry, i, slot);
        }
        this.incarnation = p.incarnation;
        this.pending = pending;
        this.writer = new QueuedSendWriter(lanes, pending, inlineLimit, p.checksum);
        this.cq = p.cq;
        this.counter = p.counter;
        this.inlineLimit = inlineLimit;
        liveness = new PeerLiveness(region, geometry, livenessTimeoutMs);
        stuckLimitMs = Math.min(livenessTimeoutMs, STUCK_LIMIT_MS);
        blockedPeers = new long[(geometry.slotCount() + 63) >>> 6];
        statQueued = SlotDescriptor.statOffset(geometry, slot, SlotDescriptor.STAT_QUEUED_OFFSET);
        statSegmented = SlotDescriptor.statOffset(geometry, slot, SlotDescriptor.STAT_SEGMENTED_OFFSET);
        statRendezvous = SlotDescriptor.statOffset(geometry, slot, SlotDescriptor.STAT_RENDEZVOUS_OFFSET);
        final int txOffset = RegionDescriptor.txRingOffset(geometry, slot);
        final int txLength = RegionDescriptor.ringLength(geometry.txRingBytes());
        region.setMemory(txOffset, txLength, (byte)0);
        final UnsafeBuffer ringBuffer = new UnsafeBuffer(region, txOffset, txLength);
        ring = new ManyToOneRingBuffer(ringBuffer);
        ringReader = new RingReader(ringBuffer, ring.maxMsgLength());
        this.damage = p.damage;
        this.lanes = lanes;
        this.readCounter = p.rma.readCounter();
        this.writeCounter = p.rma.writeCounter();
    }

    /**
     * Sending side, once, at its first emulated operation: from now on progress completes the operations of
     * {@code ops} (a volatile store: progress sees the completions whole, or not yet and then has none to complete).
     * An endpoint that never meets memory no peer can map never allocates the pool.
     *
     * @param ops the context's emulated operations.
     */
    void install(final EmulatedOps ops)
    {
        emulatedCompletions = new EmulatedCompletions(ops, lanes, ring, cq, readCounter, writeCounter, liveness);
    }

    /**
     * One pass: take what the sending side queued, then acknowledgements, then write the queued sends as their
     * lanes take them.
     *
     * @return work done.
     */
    int run()
    {
        pending.accept();
        final EmulatedCompletions emulated = emulatedCompletions;
        if (emulated != null)
        {
            emulated.accept();
        }
        final long nowMs = Heartbeats.nowMs();
        if (acksInDoubt > 0 || nowMs - acksCheckedMs >= Heartbeats.TICK_MS)
        {
            receiversPast(nowMs); // before the ring is read: an acknowledgement written before that is in this read
        }
        final int acknowledged = ringReader.controlledRead(acks, READ_LIMIT);
        if (acknowledged == 0)
        {
            checkRing();
        }
        return acknowledged + (emulated == null ? 0 : emulated.sweep()) + pushPending();
    }

    /**
     * A read of the transmit ring that took nothing: act on what it found. A ring that cannot be read on is cleared
     * (its unread acknowledgements and responses are lost: the sends that wait for one are marked
     * {@link PendingSends#ackInDoubt}); a record left unfinished at its head for the liveness timeout is cleared with
     * {@link RingReader#unblock} (a receiver killed while it acknowledged; its record, if it comes after all, is
     * refused and written again). Each finding is reported.
     */
    private void checkRing()
    {
        final String finding = ringReader.takeFinding();
        if (ringReader.needsRepair())
        {
            ringReader.repair();
            damage.report(finding + ": the ring was cleared; sends waiting for an acknowledgement end in FI_EIO once " +
                "their receiver is past them");
            doubtAcks();
        }
        else if (finding != null)
        {
            damage.report(finding);
        }
        if (ringReader.headWaiting() && ringReader.stuck(Heartbeats.nowMs(), stuckLimitMs) && ringReader.unblock())
        {
            doubtAcks(); // what it cleared may have been an acknowledgement, or what it repaired held some
        }
    }

    /**
     * The ring was cleared, or an acknowledgement named no send waiting for one: every send waiting for an
     * acknowledgement may have lost it (see {@link #receiversPast}).
     */
    private void doubtAcks()
    {
        for (int op = pending.first(); op != PendingSends.NONE; op = pending.next(op))
        {
            if (pending.awaitingAck[op] && pending.ackInDoubt[op] == 0)
            {
                pending.ackInDoubt[op] = 1;
                acksInDoubt++;
            }
        }
    }

    /**
     * Of the sends waiting for an acknowledgement, those whose receiver has read past their last record (the lane's
     * consumer position, which the receiver publishes after it acknowledged) will get none unless it is in the ring
     * now: one whose acknowledgement may have been lost ({@link PendingSends#ackInDoubt}) at once, any other once it
     * has been so for twice the stuck limit (its acknowledgement was lost without a trace: a damaged record the ring
     * took for padding). Read before the ring, so that {@link #push} fails only those the read that follows did not
     * acknowledge. Once a tick, and at every pass while some are in doubt.
     */
    private void receiversPast(final long nowMs)
    {
        acksCheckedMs = nowMs;
        int inDoubt = 0;
        for (int op = pending.first(); op != PendingSends.NONE; op = pending.next(op))
        {
            if (pending.awaitingAck[op])
            {
                keepLane(pending.peer[op], pending.peerIncarnation[op]);
            }
            if (pending.awaitingAck[op] && lanes[pending.peer[op]].consumerPosition() >= pending.ackMark[op])
            {
                if (pending.ackInDoubt[op] != 0)
                {
                    pending.ackInDoubt[op] = 2;
                }
                else if (pending.ackPastSinceMs[op] == 0)
                {
                    pending.ackPastSinceMs[op] = nowMs;
                }
                else if (nowMs - pending.ackPastSinceMs[op] >= 2 * stuckLimitMs)
                {
                    pending.ackInDoubt[op] = 2; // past it that long with no acknowledgement: it was lost unseen
                }
            }
            inDoubt += pending.ackInDoubt[op] != 0 && pending.awaitingAck[op] ? 1 : 0;
        }
        acksInDoubt = inDoubt;
    }

    /**
     * Close: discard the emulated operations in flight ({@link EmulatedCompletions#discard}). Both guards held.
     *
     * @param faulted whether the region faulted: its memory is not touched, nothing is cancelled.
     */
    void discardEmulated(final boolean faulted)
    {
        final EmulatedCompletions emulated = emulatedCompletions;
        if (emulated != null)
        {
            emulated.discard(faulted);
        }
    }

    /**
     * Write as much of the queued sends as their lanes take, in order per peer, and complete in error what can no
     * longer reach its peer.
     *
     * @return records written.
     */
    private int pushPending()
    {
        work = 0;
        java.util.Arrays.fill(blockedPeers, 0);
        int previous = PendingSends.NONE;
        int op = pending.first();
        while (op != PendingSends.NONE)
        {
            final int next = push(op, previous);
            if (next == STAY)
            {
                previous = op;
                op = pending.next(op);
            }
            else
            {
                op = next;
            }
        }
        return work;
    }

    /**
     * Take one queued send a step further: skip it while an older send holds its peer's lane or while it waits for
     * an acknowledgement, fail it when its peer cannot be reached, write its abort or its records.
     *
     * @return {@link #STAY}, or the operation to look at next (the loop's previous operation stays the same).
     */
    private int push(final int op, final int previous)
    {
        final int peer = pending.peer[op];
        if (isBlocked(peer) && !pending.awaitingAck[op])
        {
            return STAY;
        }
        final int status = liveness.status(peer, pending.peerIncarnation[op]);
        if (status != PeerLiveness.ALIVE && mustFail(op, status))
        {
            return fail(op, previous, status);
        }
        if (pending.ackInDoubt[op] == 2 && pending.awaitingAck[op])
        {
            return ackLost(op, previous);
        }
        if (pending.awaitingAck[op] || pending.abandoned[op] && status != PeerLiveness.ALIVE)
        {
            if (pending.abandoned[op])
            {
                block(peer);
            }
            return STAY;
        }
        if (pending.abandoned[op])
        {
            return abort(op, previous, peer);
        }
        return write(op, previous, peer);
    }

    /**
     * Write what the lane takes of a send; complete and release it once all of it is written and nothing is to be
     * acknowledged, else it holds its peer's lane for the rest of this pass.
     */
    private int write(final int op, final int previous, final int peer)
    {
        final int written = writer.write(op, peer);
        work += written;
        if (pending.awaitingAck[op])
        {
            pending.written(op);
            return STAY;
        }
        if (pending.sent[op] == pending.total[op] && (pending.total[op] > 0 || written > 0) &&
            !pending.deliveryAck[op])
        {
            count(pending.total[op] <= inlineLimit ? statQueued : statSegmented);
            completeQueued(op, 0);
            return pending.release(op, previous);
        }
        block(peer);
        return STAY;
    }

    /** Write the ABORT record of an abandoned send, now that its peer runs again, and let the operation go. */
    private int abort(final int op, final int previous, final int peer)
    {
        if (!writer.writeAbort(op, peer))
        {
            block(peer);
            return STAY;
        }
        work++;
        return pending.release(op, previous);
    }

    private boolean isBlocked(final int peer)
    {
        return (blockedPeers[peer >>> 6] & (1L << peer)) != 0;
    }

    private void block(final int peer)
    {
        blockedPeers[peer >>> 6] |= 1L << peer;
    }

    /**
     * Whether a queued send to a peer that is not alive ends now: always when the peer is gone; when it is stopped,
     * only if its message is not all in the peer's ring yet (what is there may still be read, so a send whose bytes
     * are all there, or which waits for an acknowledgement of bytes that are, keeps waiting). An abandoned send
     * ends when its peer is gone.
     */
    private boolean mustFail(final int op, final int status)
    {
        if (status == PeerLiveness.GONE)
        {
            return true;
        }
        return !pending.abandoned[op] && !pending.awaitingAck[op] && pending.sent[op] < pending.total[op];
    }

    /**
     * A send waits for an acknowledgement of records in its peer's lane: the lane's owner word must still name this
     * context and that receiver, or the receiver never reads those records. A receiver that took this sender for gone
     * (its slot header was found changed) released it (0), or the word was overwritten: this context is the lane's
     * only writer of anything but 0, so it claims it again, and the receiver's next rescan reads on from where it was.
     */
    private void keepLane(final int peer, final int peerIncarnation)
    {
        final int offset = laneOwnerOffset[peer];
        final long want = SlotDescriptor.laneStamp(incarnation, peerIncarnation);
        final long found = region.getLongVolatile(offset);
        if (found != want && region.compareAndSetLong(offset, found, want))
        {
            damage.report("the owner word of the lane into slot " + peer + " was " + found + " under a send " +
                "waiting for its acknowledgement; claimed again");
        }
    }

    /**
     * A send whose acknowledgement was lost with a cleared ring: its receiver read past it, so it will not copy from
     * its buffers any more; whether it placed the message is not known. It ends in FI_EIO.
     */
    private int ackLost(final int op, final int previous)
    {
        completeQueued(op, Errno.FI_EIO);
        return pending.release(op, previous);
    }

    /**
     * End a queued send in error (FI_EHOSTUNREACH; an abandoned one has already) and give back its buffers. One
     * whose message is partly in the ring of a peer that is only stopped stays, abandoned, until it can write an
     * ABORT record, so the receive taking that message ends too.
     *
     * @return {@link #STAY} for an abandoned send (still queued), else the operation to look at next.
     */
    private int fail(final int op, final int previous, final int status)
    {
        if (!pending.abandoned[op])
        {
            completeQueued(op, Errno.FI_EHOSTUNREACH);
        }
        if (status == PeerLiveness.STOPPED && pending.sent[op] > 0)
        {
            pending.abandon(op);
            return STAY; // it stays queued: the pass must take it as the previous operation of the next
        }
        return pending.release(op, previous);
    }

    /**
     * A queued send is done, well or in error: its completion (the CQ entry was reserved when it was queued) and
     * its counter.
     */
    private void completeQueued(final int op, final int status)
    {
        final boolean completion = pending.complete[op] && cq != null;
        if (status == 0)
        {
            if (completion)
            {
                cq.writeReserved(pending.context[op], TxDestinations.sendFlags(pending.recordFlags[op]), 0, 0, 0, 0,
                    Addresses.FI_ADDR_NOTAVAIL);
            }
            if (counter != null)
            {
                counter.add(1);
            }
            return;
        }
        if (completion)
        {
            cq.writeErrorReserved(pending.context[op], TxDestinations.sendFlags(pending.recordFlags[op]), 0, 0, 0,
                pending.tag[op], 0, status, Addresses.FI_ADDR_NOTAVAIL);
        }
        if (counter != null)
        {
            counter.addErr(1);
        }
    }

    /** A statistic of the slot that transmit progress writes. */
    private void count(final int statOffset)
    {
        region.putLongOrdered(statOffset, region.getLong(statOffset) + 1);
    }

    /**
     * Completes rendezvous and delivery-complete sends as their receivers acknowledge them, and emulated one-sided
     * operations as their targets answer them.
     */
    private final class AckHandler implements ControlledMessageHandler
    {
        @Override
        public Action onMessage(final int msgTypeId, final MutableDirectBuffer b, final int index, final int length)
        {
            if (length >= TxRecordDescriptor.ACK_LENGTH &&
                b.getInt(index + TxRecordDescriptor.INCARNATION_OFFSET) == incarnation)
            {
                take(msgTypeId, b, index, length);
            }
            else
            {
                doubtAcks(); // for an earlier endpoint of the slot, or damaged: it may have been one of ours
            }
            return Action.CONTINUE;
        }

        private void take(final int msgTypeId, final MutableDirectBuffer b, final int index, final int length)
        {
            if (msgTypeId == TxRecordDescriptor.RESPONSE)
            {
                final EmulatedCompletions emulated = emulatedCompletions;
                if (emulated != null)
                {
                    emulated.respond(b, index, length);
                }
                return;
            }
            if (msgTypeId != TxRecordDescriptor.ACK)
            {
                return;
            }
            final int op = pending.ofCookie(b.getLong(index + TxRecordDescriptor.COOKIE_OFFSET));
            if (op == PendingSends.NONE)
            {
                doubtAcks(); // stale, or a damaged cookie: the acknowledgement it was may be lost
                return;
            }
            final int status = b.getInt(index + TxRecordDescriptor.STATUS_OFFSET);
            if (status == 0)
            {
                count(pending.rendezvous[op] ? statRendezvous :
                    pending.total[op] <= inlineLimit ? statQueued : statSegmented);
            }
            completeQueued(op, status > 0 || status < -4095 ? Errno.FI_EIO : -status); // a damaged status is no errno
            pending.releaseAnywhere(op);
        }
    }
}
