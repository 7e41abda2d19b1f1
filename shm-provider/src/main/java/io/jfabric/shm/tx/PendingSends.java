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

import io.jfabric.Msg;
import io.jfabric.shm.core.OpHandoff;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * The sends a transmit context has accepted but not yet written whole into their peers' lanes (messages larger
 * than one lane record, rendezvous and delivery-complete sends, and any send queued behind one to the same peer, so
 * a pair's messages stay in order, FI_ORDER_SAS), and those written but still waiting for their receiver's
 * acknowledgement.
 * <p>
 * <b>Two owners, no lock.</b> The operations move between exactly two roles, each of which is one thread at a
 * time:
 * <ul>
 *   <li>the <em>sending side</em> (the thread that calls send; the threading model or the context's send guard
 *   makes it one) takes a free operation ({@link #take}), fills its fields and hands it over ({@link #submit});</li>
 *   <li><em>transmit progress</em> (whichever thread holds the context's progress guard: a CQ or counter read, a
 *   progress agent, or the sender itself) takes what was handed over into its in-flight list ({@link #accept}),
 *   writes it into the lanes, and gives each operation back once complete ({@link #release}).</li>
 * </ul>
 * The operations' indices go across through an {@link OpHandoff} (two single-producer, single-consumer index rings,
 * each published with a release store and read with an acquire load), so an operation's fields written by one side
 * are seen whole by the other.
 * The lane to a peer has one producer at a time: the sending side writes it only while every operation it queued to
 * that peer has been written whole ({@link #hasPendingFor}: a count the sending side keeps against one that
 * progress publishes with a release store once an operation's last record is committed); otherwise it queues
 * behind them and progress writes the lane.
 * <p>
 * A fixed pool of {@code capacity} operations (tx_attr.size); the buffers of an operation belong to the provider
 * until it completes, as fi_msg(3) says. Nothing allocates after construction.
 */
final class PendingSends
{
    static final int NONE = -1;

    final int capacity;
    final int maxIov;

    // ---- an operation's request: written by the sending side before submit, read by progress after accept
    final ByteBuffer[] iov;
    final int[] iovOffset;
    final int[] iovLength;
    final int[] iovCount;
    final long[] total;
    final int[] peer;
    final int[] peerIncarnation;
    final long[] tag;
    final long[] data;
    final int[] recordFlags;
    final long[] context;
    final boolean[] complete;
    final boolean[] rendezvous;
    final boolean[] deliveryAck;
    final long[] rtsKey;
    final long[] rtsAddr;

    // ---- progress's own
    final long[] sent;
    final boolean[] awaitingAck;
    /** Completed in error part-way into the ring of a stopped peer: it waits to write an ABORT record. */
    final boolean[] abandoned;
    /** While awaiting an acknowledgement: the position in its peer's lane after its last record. */
    final long[] ackMark;
    /**
     * Awaiting an acknowledgement when the transmit ring was cleared (found damaged): its acknowledgement may have
     * been lost with the ring; 2 once its receiver is known to have read past its last record before a ring read
     * that found no acknowledgement.
     */
    final byte[] ackInDoubt;
    /** When its receiver was first seen past its last record with no acknowledgement yet, 0 before. */
    final long[] ackPastSinceMs;
    private final boolean[] whole;
    private final int[] serial;
    private final int[] next;
    private int head = NONE;
    private int tail = NONE;
    private int inFlight;

    // ---- the sending side's own
    private final long[] queuedTo;

    // ---- the handoffs: the operations' indices ({@link OpHandoff}), and per peer what progress wrote whole
    private static final VarHandle ELEMENT = MethodHandles.arrayElementVarHandle(long[].class);
    private final OpHandoff ops;
    private final long[] writtenTo;

    /**
     * @param capacity  operations (tx_attr.size).
     * @param maxIov    buffers per operation (tx_attr.iov_limit).
     * @param slotCount peers (the domain's endpoint slots).
     */
    PendingSends(final int capacity, final int maxIov, final int slotCount)
    {
        this.capacity = capacity;
        this.maxIov = maxIov;
        iov = new ByteBuffer[capacity * maxIov];
        iovOffset = new int[capacity * maxIov];
        iovLength = new int[capacity * maxIov];
        iovCount = new int[capacity];
        total = new long[capacity];
        peer = new int[capacity];
        peerIncarnation = new int[capacity];
        tag = new long[capacity];
        data = new long[capacity];
        recordFlags = new int[capacity];
        context = new long[capacity];
        complete = new boolean[capacity];
        rendezvous = new boolean[capacity];
        deliveryAck = new boolean[capacity];
        rtsKey = new long[capacity];
        rtsAddr = new long[capacity];
        sent = new long[capacity];
        awaitingAck = new boolean[capacity];
        abandoned = new boolean[capacity];
        ackMark = new long[capacity];
        ackInDoubt = new byte[capacity];
        ackPastSinceMs = new long[capacity];
        whole = new boolean[capacity];
        serial = new int[capacity];
        next = new int[capacity];
        ops = new OpHandoff(capacity);
        queuedTo = new long[slotCount];
        writtenTo = new long[slotCount];
    }

    // ------------------------------------------------------------------ sending side

    /** Sending side: @return whether an operation is free (taking back those progress released). */
    boolean hasRoom()
    {
        return ops.hasFree();
    }

    /**
     * Sending side.
     *
     * @param peerSlot a peer.
     * @return whether an operation queued to that peer is not yet written whole, so the lane is progress's.
     */
    boolean hasPendingFor(final int peerSlot)
    {
        return queuedTo[peerSlot] != (long)ELEMENT.getAcquire(writtenTo, peerSlot);
    }

    /**
     * Sending side: take a free operation (check {@link #hasRoom} first) for a peer; the caller fills its request
     * fields, then {@link #submit}s it.
     *
     * @return the operation.
     */
    int take(final int peerSlot, final int incarnation)
    {
        final int op = ops.take();
        peer[op] = peerSlot;
        peerIncarnation[op] = incarnation;
        rendezvous[op] = false;
        deliveryAck[op] = false;
        return op;
    }

    /**
     * Sending side: the buffers of a taken operation, kept (not copied) until it completes: {@code msg}'s, or, when
     * {@code msg} is null, {@code buf} from {@code offset} for {@code total} bytes.
     */
    void buffers(final int op, final Msg msg, final ByteBuffer buf, final int offset, final long total)
    {
        final int base = op * maxIov;
        if (msg == null)
        {
            iov[base] = buf;
            iovOffset[base] = offset;
            iovLength[base] = (int)total;
            iovCount[op] = 1;
            return;
        }
        for (int i = 0; i < msg.iovCount; i++)
        {
            iov[base + i] = msg.iov[i];
            iovOffset[base + i] = msg.iovOffset[i];
            iovLength[base + i] = msg.iovLength[i];
        }
        iovCount[op] = msg.iovCount;
    }

    /**
     * Sending side: what a taken operation sends and how it ends.
     *
     * @param op          the operation.
     * @param total       bytes.
     * @param tag         the message's tag.
     * @param data        its remote CQ data.
     * @param recordFlags its lane record flags.
     * @param context     the send's context.
     * @param complete    whether it writes a completion (whose CQ entry the caller reserved).
     * @param deliveryAck whether it completes only once its receiver acknowledges it (FI_DELIVERY_COMPLETE).
     * @param rendezvous  whether its receiver copies it from shareable memory, at {@code key} and {@code addr}.
     * @param key         the rendezvous source's provider key.
     * @param addr        the rendezvous source's address, as peers map it.
     */
    void request(
        final int op, final long total, final long tag, final long data, final int recordFlags, final long context,
        final boolean complete, final boolean deliveryAck, final boolean rendezvous, final long key, final long addr)
    {
        this.rendezvous[op] = rendezvous;
        rtsKey[op] = key;
        rtsAddr[op] = addr;
        this.deliveryAck[op] = deliveryAck;
        this.total[op] = total;
        this.tag[op] = tag;
        this.data[op] = data;
        this.recordFlags[op] = recordFlags;
        this.context[op] = context;
        this.complete[op] = complete;
    }

    /** Sending side: hand a filled operation to progress. */
    void submit(final int op)
    {
        queuedTo[peer[op]]++;
        ops.submit(op);
    }

    // ------------------------------------------------------------------ progress

    /**
     * Progress, and a look before taking the progress guard (a stale answer only delays the work to the next
     * progress call, which polling makes).
     *
     * @return whether nothing is in flight and nothing new was submitted.
     */
    boolean idle()
    {
        return ops.allAccepted() && inFlight == 0;
    }

    /** Progress: @return operations in flight (accepted, not yet released). */
    int inFlight()
    {
        return inFlight;
    }

    /** Progress: append what the sending side submitted to the in-flight list, in submission order. */
    void accept()
    {
        for (int n = ops.beginAccept(); n > 0; n--)
        {
            final int op = ops.nextAccepted();
            sent[op] = 0;
            awaitingAck[op] = false;
            ackInDoubt[op] = 0;
            ackPastSinceMs[op] = 0;
            abandoned[op] = false;
            whole[op] = false;
            serial[op]++;
            next[op] = NONE;
            if (tail == NONE)
            {
                head = op;
            }
            else
            {
                next[tail] = op;
            }
            tail = op;
            inFlight++;
        }
    }

    /** Progress: @return the oldest operation in flight, or NONE. */
    int first()
    {
        return head;
    }

    /** Progress: @return the operation after {@code op} in flight, or NONE. */
    int next(final int op)
    {
        return next[op];
    }

    /**
     * Progress: every record of the operation is committed in its peer's lane (or none ever will be: it failed);
     * once the peer's older operations are too (progress writes a peer's operations in order), the sending side may
     * write that lane again. Idempotent.
     */
    void written(final int op)
    {
        if (!whole[op])
        {
            whole[op] = true;
            final int p = peer[op];
            ELEMENT.setRelease(writtenTo, p, writtenTo[p] + 1);
        }
    }

    /**
     * Progress: the operation completed in error part-way into its peer's ring; the application has its buffers
     * back (they are let go here), and the operation stays in flight, holding its peer's lane, until an ABORT record
     * is written or the peer is gone.
     */
    void abandon(final int op)
    {
        abandoned[op] = true;
        for (int i = op * maxIov, end = i + maxIov; i < end; i++)
        {
            iov[i] = null;
        }
    }

    /**
     * Progress: the operation's records are written; it waits for its receiver's acknowledgement.
     *
     * @param op   the operation.
     * @param mark the position in its peer's lane after its last record.
     */
    void awaitAck(final int op, final long mark)
    {
        awaitingAck[op] = true;
        ackMark[op] = mark;
    }

    /**
     * Progress.
     *
     * @param op an operation in flight.
     * @return the cookie that names it in its RTS or ACK_REQUEST record (its index and this use's serial).
     */
    long cookie(final int op)
    {
        return ((long)serial[op] << 32) | op;
    }

    /**
     * Progress.
     *
     * @param cookie an acknowledgement's cookie.
     * @return the operation it acknowledges, or {@link #NONE} when stale.
     */
    int ofCookie(final long cookie)
    {
        final int op = (int)cookie;
        return op >= 0 && op < capacity && awaitingAck[op] && serial[op] == (int)(cookie >>> 32) ? op : NONE;
    }

    /**
     * Progress: the operation completed; take it out of flight and give it back to the sending side.
     *
     * @param op       the operation.
     * @param previous the operation before it in flight, or NONE for the first.
     * @return the operation after it.
     */
    int release(final int op, final int previous)
    {
        final int after = next[op];
        if (previous == NONE)
        {
            head = after;
        }
        else
        {
            next[previous] = after;
        }
        if (tail == op)
        {
            tail = previous;
        }
        written(op);
        awaitingAck[op] = false;
        abandoned[op] = false;
        for (int i = op * maxIov, end = i + maxIov; i < end; i++)
        {
            iov[i] = null;
        }
        inFlight--;
        ops.release(op);
        return after;
    }

    /** Progress: release an operation wherever it is in flight. */
    void releaseAnywhere(final int op)
    {
        int previous = NONE;
        for (int i = head; i != NONE; i = next[i])
        {
            if (i == op)
            {
                release(op, previous);
                return;
            }
            previous = i;
        }
    }
}
