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
package io.jfabric.shm.rma;

import io.jfabric.Addresses;
import io.jfabric.Errno;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.MappedFileWatch;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.lane.TxRecordDescriptor;
import io.jfabric.shm.liveness.Heartbeats;
import io.jfabric.shm.liveness.PeerLiveness;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * Transmit progress's half of the emulated path: completes the {@link EmulatedOps} of a transmit context as their
 * responses ({@link TxRecordDescriptor#RESPONSE}) come back through the context's transmit ring, copying the bytes
 * a read or a fetching atomic returns into the caller's buffers, then writing the completion (or error entry) whose
 * CQ room was reserved at issue and counting on the FI_READ / FI_WRITE counter, exactly as the one-sided path
 * reports the same operation. A bounced read's bytes come from the context's bounce ({@link EmulatedBounce}), which
 * is given back at the answer, or retired when the operation ends unanswered.
 * <p>
 * Liveness, with the rules queued sends follow ({@link PeerLiveness}, the domain's liveness timeout): an operation
 * whose target is gone (its process died, its endpoint closed) completes with FI_EHOSTUNREACH; one whose target is
 * stopped (no heartbeat for the timeout) is first cancelled, by swapping its request's State from the cookie to
 * {@link LaneRecordDescriptor#STATE_CANCELLED} while the record is still unread in the lane, and then completes
 * with FI_EHOSTUNREACH. A cancelled request is skipped by the target if it ever resumes, so such an operation was
 * never applied; only one the target had already taken (it stopped between taking it and answering, a window of a
 * few instructions) may have been applied although it completed in error, as a write that completes in error
 * leaves its target undefined. A late response to an operation completed in error names a cookie no longer in
 * flight and is dropped.
 * <p>
 * <b>A request the target skipped</b> (it found the record damaged, its checksum or its lengths wrong, or its lane
 * was cleared) is never answered; it completes with FI_EIO. The target commits a response into this context's ring
 * before it publishes its lane's consumer position past the request, so once the sweep sees that position past the
 * request's end it notes the ring's producer position, and once this context has read the ring up to there with
 * the operation still in flight, no response is coming: at most two heartbeat ticks after the target moved on.
 * <p>
 * Transmit progress only: its progress guard held (close holds both guards).
 */
public final class EmulatedCompletions
{
    private static final boolean BROKEN_CANCEL_PLAIN = BrokenVariant.active("emul.cancel-plain");

    private final EmulatedOps ops;
    private final SpscLane[] lanes;
    private final RingBuffer ring;
    private final ShmCompletionQueue cq;
    private final ShmCounter readCounter;
    private final ShmCounter writeCounter;
    private final PeerLiveness liveness;
    private long sweptAtMs;

    /**
     * @param ops          the context's emulated operations.
     * @param lanes        the context's lanes into every peer, by slot (where the requests are, for cancelling).
     * @param ring         the context's transmit ring, which the responses come through.
     * @param cq           the CQ bound with FI_TRANSMIT, or null.
     * @param readCounter  the counter bound with FI_READ, or null.
     * @param writeCounter the counter bound with FI_WRITE, or null.
     * @param liveness     transmit progress's view of its peers' liveness.
     */
    public EmulatedCompletions(
        final EmulatedOps ops,
        final SpscLane[] lanes,
        final RingBuffer ring,
        final ShmCompletionQueue cq,
        final ShmCounter readCounter,
        final ShmCounter writeCounter,
        final PeerLiveness liveness)
    {
        this.ops = ops;
        this.lanes = lanes;
        this.ring = ring;
        this.cq = cq;
        this.readCounter = readCounter;
        this.writeCounter = writeCounter;
        this.liveness = liveness;
    }

    /** Take what the sending side submitted into flight ({@link EmulatedOps#accept}). */
    public void accept()
    {
        ops.accept();
    }

    /**
     * A response in the transmit ring: complete the operation it names, if it is still in flight.
     *
     * @param b      the ring's buffer.
     * @param index  the record's body.
     * @param length its length.
     */
    public void respond(final DirectBuffer b, final int index, final int length)
    {
        final int op = ops.ofCookie(b.getLong(index + TxRecordDescriptor.COOKIE_OFFSET));
        if (op == EmulatedOps.NONE)
        {
            return;
        }
        int status = b.getInt(index + TxRecordDescriptor.STATUS_OFFSET);
        if (status == 0 && length - TxRecordDescriptor.RESPONSE_PAYLOAD_OFFSET < ops.responseLength[op])
        {
            status = -Errno.FI_EIO; // a response too short for what was asked: never written by a target
        }
        final EmulatedBounce bounce = ops.bounce[op];
        if (status == 0 && bounce == null)
        {
            scatter(op, b, index + TxRecordDescriptor.RESPONSE_PAYLOAD_OFFSET);
        }
        else if (bounce != null)
        {
            status = answeredFromBounce(op, bounce, status);
        }
        finish(op, status > 0 ? -Errno.FI_EIO : status);
    }

    /**
     * The answer to a bounced operation: a read's bytes come out of the bounce, which is then free again (the
     * target touched it only before it answered); if the bounce's file faulted (truncated), it is retired instead
     * and the operation fails with FI_EIO.
     *
     * @return the operation's status.
     */
    private int answeredFromBounce(final int op, final EmulatedBounce bounce, final int status)
    {
        ops.bounce[op] = null;
        try
        {
            if (status == 0)
            {
                scatter(op, bounce.buffer(), bounce.dataIndex());
            }
        }
        catch (final InternalError ex)
        {
            MappedFileWatch.check(); // whichever file was truncated fails
            bounce.retire();
            return -Errno.FI_EIO;
        }
        bounce.release();
        return status;
    }

    private void scatter(final int op, final DirectBuffer b, final int from)
    {
        int at = from;
        for (int i = op * ops.maxDest, end = i + ops.destCount[op]; i < end; i++)
        {
            final int n = ops.destLength[i];
            b.getBytes(at, ops.dest[i], ops.destOffset[i], n);
            at += n;
        }
    }

    /**
     * Give up what can no longer be answered: at most once per heartbeat tick, every operation in flight whose
     * target is stopped (cancelled first) or gone completes with FI_EHOSTUNREACH, and one whose request the target
     * skipped ({@link #skipped}) with FI_EIO.
     *
     * @return operations completed.
     */
    public int sweep()
    {
        if (ops.inFlight() == 0)
        {
            return 0;
        }
        final long now = Heartbeats.nowMs();
        if (now == sweptAtMs)
        {
            return 0;
        }
        sweptAtMs = now;
        int n = 0;
        int op = ops.first();
        while (op != EmulatedOps.NONE)
        {
            final int next = ops.next(op);
            int status = liveness.status(ops.peer[op], ops.peerIncarnation[op]);
            if (status != PeerLiveness.ALIVE)
            {
                // the cached answer may predate the operation (its target ran again since): look again first
                status = liveness.recheck(ops.peer[op], ops.peerIncarnation[op], now);
            }
            if (status != PeerLiveness.ALIVE)
            {
                if (status == PeerLiveness.STOPPED)
                {
                    cancel(op);
                }
                finish(op, -Errno.FI_EHOSTUNREACH);
                n++;
            }
            else if (skipped(op))
            {
                finish(op, -Errno.FI_EIO);
                n++;
            }
            op = next;
        }
        return n;
    }

    /**
     * Whether the target read past the request without answering it (see the class comment): true once this
     * context's ring has been read up to the producer position noted when the target's consumer position was first
     * seen past the request's end, the operation still in flight. Package-private for the JCStress test of this
     * ordering (stress-tests, {@code EmulatedSkipDetectionTest}), which calls it as {@link #sweep} does.
     */
    boolean skipped(final int op)
    {
        final long mark = ops.answerBelow[op];
        if (mark >= 0)
        {
            return ring.consumerPosition() >= mark;
        }
        if (lanes[ops.peer[op]].consumerPosition() >= ops.laneEnd[op])
        {
            ops.answerBelow[op] = ring.producerPosition();
        }
        return false;
    }

    /**
     * Swap the request's State from the cookie to CANCELLED if the target has not read it yet; afterwards the target
     * skips it. Only while the record is unread in the lane (the consumer position before its end) is its memory the
     * request's; once read the target either took it or dropped it.
     *
     * @return whether it was cancelled (never applied).
     */
    private boolean cancel(final int op)
    {
        final SpscLane lane = lanes[ops.peer[op]];
        if (BROKEN_CANCEL_PLAIN)
        {
            // broken on purpose: a read of the State then a write, so a take between the two is overwritten
            final AtomicBuffer b = lane.buffer();
            final int at = ops.laneIndex[op] + LaneRecordDescriptor.STATE_OFFSET;
            if (lane.consumerPosition() < ops.laneEnd[op] && b.getLongVolatile(at) == ops.cookie[op])
            {
                b.putLongVolatile(at, LaneRecordDescriptor.STATE_CANCELLED);
                return true;
            }
            return false;
        }
        return lane.consumerPosition() < ops.laneEnd[op] && lane.buffer().compareAndSetLong(
            ops.laneIndex[op] + LaneRecordDescriptor.STATE_OFFSET, ops.cookie[op],
            LaneRecordDescriptor.STATE_CANCELLED);
    }

    /**
     * End an operation: its completion or error entry (room reserved at issue), its counter; give it back, and
     * retire its bounce if it still holds one (it ended unanswered: the target may yet copy into it).
     */
    private void finish(final int op, final int rc)
    {
        retireBounce(op);
        final ShmCounter c = ops.writes[op] ? writeCounter : readCounter;
        if (rc == 0)
        {
            if (ops.reserved[op])
            {
                if (ops.complete[op])
                {
                    cq.writeReserved(ops.context[op], ops.flags[op], 0, 0, 0, 0, Addresses.FI_ADDR_NOTAVAIL);
                }
                else
                {
                    cq.unreserve();
                }
            }
            if (c != null)
            {
                c.add(1);
            }
        }
        else
        {
            if (ops.reserved[op])
            {
                cq.writeErrorReserved(ops.context[op], ops.flags[op], 0, 0, 0, 0, ops.length[op], -rc,
                    Addresses.FI_ADDR_NOTAVAIL);
            }
            if (c != null)
            {
                c.addErr(1);
            }
        }
        ops.release(op);
    }

    /**
     * Close: discard every operation without a completion, as fi_close discards queued operations; each request
     * the target has not taken is cancelled, so nothing of a discarded operation happens afterwards unless the
     * target had already taken it. Both guards held.
     *
     * @param faulted whether the region faulted (its file was truncated): nothing in it is touched.
     */
    public void discard(final boolean faulted)
    {
        ops.accept();
        int op = ops.first();
        while (op != EmulatedOps.NONE)
        {
            if (!faulted &&
                liveness.recheck(ops.peer[op], ops.peerIncarnation[op], Heartbeats.nowMs()) != PeerLiveness.GONE)
            {
                cancel(op);
            }
            if (ops.reserved[op])
            {
                cq.unreserve();
            }
            retireBounce(op);
            op = ops.release(op);
        }
    }

    private void retireBounce(final int op)
    {
        final EmulatedBounce bounce = ops.bounce[op];
        if (bounce != null)
        {
            ops.bounce[op] = null;
            bounce.retire();
        }
    }
}
