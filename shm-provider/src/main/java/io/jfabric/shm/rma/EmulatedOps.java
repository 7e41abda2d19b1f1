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

import io.jfabric.shm.core.IndexLists;
import io.jfabric.shm.core.OpHandoff;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * The emulated one-sided operations a transmit context has issued and not yet completed: RMA reads, writes and
 * atomics on memory the target registered but no peer can map, whose request record
 * ({@link io.jfabric.shm.lane.LaneRecordDescriptor#RMA_WRITE}, {@code RMA_READ}, {@code ATOMIC}) the sending side
 * wrote into the target's lane and whose response
 * ({@link io.jfabric.shm.lane.TxRecordDescriptor#RESPONSE}) transmit progress takes from the context's transmit ring.
 * <p>
 * <b>Two owners, no lock</b>, as {@code PendingSends}: the <em>sending side</em> takes a free operation
 * ({@link #take}), fills it, hands it over ({@link #submit}) and only then commits the request record, so that the
 * operation is known to progress before any response can name it; <em>transmit progress</em> takes what was handed
 * over into its in-flight list ({@link #accept}), completes it on its response, or in error when its target stops
 * or goes away, and gives it back ({@link #release}). Their indices go across through an {@link OpHandoff}, as
 * PendingSends' do, so each side sees the other's fields whole.
 * <p>
 * <b>Fence.</b> The sending side counts the operations it issued per target slot, progress those it completed
 * (release stores); while the two differ ({@link #outstandingTo}) an emulated operation to that target is still
 * unapplied or unanswered, and a one-sided operation must not overtake it (see {@code TxContext.rma}).
 * <p>
 * A fixed pool of {@code capacity} operations (tx_attr.size); the local buffers of an operation (where a read or a
 * fetching atomic returns its bytes) belong to the provider until it completes, as fi_rma(3) says, and are let go
 * at release. The transmit context makes the pool at its first emulated operation (an endpoint that never meets
 * memory no peer can map never pays for it); nothing allocates after construction.
 */
public final class EmulatedOps
{
    static final int NONE = IndexLists.NONE;
    private static final int IN_FLIGHT = 0;

    final int capacity;
    final int maxDest;

    // ---- an operation's request: written by the sending side before submit, read by progress after accept
    /** The slot whose lane carries the request (a scalable endpoint's receive context, or the endpoint). */
    final int[] peer;
    /** The slot the fence counts it against: the destination's address slot. */
    final int[] fenceSlot;
    final int[] peerIncarnation;
    /** The lane position just past the request record, and the record's body index: for cancelling. */
    final long[] laneEnd;
    final int[] laneIndex;
    public final long[] cookie;
    final long[] context;
    /** The completion's flags (FI_RMA or FI_ATOMIC, with FI_READ or FI_WRITE). */
    final long[] flags;
    /** Whether it counts on the FI_WRITE counter (else FI_READ). */
    final boolean[] writes;
    /** Whether a successful completion is written (not inject, selective completion rules). */
    final boolean[] complete;
    /** Whether a CQ entry was reserved for it (always, when the transmit CQ is bound: errors are reported). */
    final boolean[] reserved;
    /** Bytes of target memory it covers (an error entry's olen, as the one-sided path reports). */
    final long[] length;
    /** Bytes its response carries on success: read data or fetched values. */
    final int[] responseLength;
    /** Where those bytes go, in order: buffer, index and bytes of each piece, {@code destCount} of them. */
    final ByteBuffer[] dest;
    final int[] destOffset;
    final int[] destLength;
    final int[] destCount;
    /** The bounce its bytes go through ({@link EmulatedBounce}), or null when they travel in the records. */
    final EmulatedBounce[] bounce;

    // ---- progress's own
    /**
     * -1, or the transmit ring's producer position progress saw just after it found the target's consumer position
     * past the request: every response the target committed before moving on lies below it ({@code
     * EmulatedCompletions}).
     */
    final long[] answerBelow;
    private final boolean[] flying;
    /** The operations in flight, oldest first: list {@link #IN_FLIGHT} of indices handed out by {@link #ops}. */
    private final IndexLists flight;
    private int inFlight;

    // ---- the sending side's own
    private final int[] serial;
    private final long[] issuedTo;
    private long issued;

    // ---- the handoffs: the operations' indices ({@link OpHandoff}), and the fence's counts (release stores)
    private static final VarHandle ELEMENT = MethodHandles.arrayElementVarHandle(long[].class);
    private final OpHandoff ops;
    /** Per slot: operations progress completed; [slotCount]: all of them. */
    private final long[] doneTo;
    private final int all;

    /**
     * @param capacity  operations (tx_attr.size).
     * @param maxDest   local buffers one operation returns bytes into (tx_attr.iov_limit).
     * @param slotCount the domain's endpoint slots.
     */
    public EmulatedOps(final int capacity, final int maxDest, final int slotCount)
    {
        this.capacity = capacity;
        this.maxDest = maxDest;
        peer = new int[capacity];
        fenceSlot = new int[capacity];
        peerIncarnation = new int[capacity];
        laneEnd = new long[capacity];
        laneIndex = new int[capacity];
        cookie = new long[capacity];
        context = new long[capacity];
        flags = new long[capacity];
        writes = new boolean[capacity];
        complete = new boolean[capacity];
        reserved = new boolean[capacity];
        length = new long[capacity];
        responseLength = new int[capacity];
        dest = new ByteBuffer[capacity * maxDest];
        destOffset = new int[capacity * maxDest];
        destLength = new int[capacity * maxDest];
        destCount = new int[capacity];
        bounce = new EmulatedBounce[capacity];
        answerBelow = new long[capacity];
        flying = new boolean[capacity];
        flight = new IndexLists(capacity, 1);
        serial = new int[capacity];
        ops = new OpHandoff(capacity);
        issuedTo = new long[slotCount];
        doneTo = new long[slotCount + 1];
        all = slotCount;
    }

    // ------------------------------------------------------------------ sending side

    /** Sending side: @return whether an operation is free (taking back those progress released). */
    public boolean hasRoom()
    {
        return ops.hasFree();
    }

    /**
     * Sending side: whether any emulated operation is outstanding, to any target: one acquire load, the fast path's
     * whole cost of the fence.
     */
    public boolean anyOutstanding()
    {
        return issued != (long)ELEMENT.getAcquire(doneTo, all);
    }

    /**
     * Sending side.
     *
     * @param slot a destination's address slot.
     * @return whether an emulated operation to it is issued and not completed.
     */
    public boolean outstandingTo(final int slot)
    {
        return slot >= 0 && slot < all && issuedTo[slot] != (long)ELEMENT.getAcquire(doneTo, slot);
    }

    /**
     * Sending side: take a free operation (check {@link #hasRoom} first); the caller fills the request fields, then
     * {@link #submit}s it.
     *
     * @return the operation; its {@link #cookie} is new.
     */
    public int take(final int lanePeer, final int fence, final int incarnation)
    {
        final int op = ops.take();
        peer[op] = lanePeer;
        fenceSlot[op] = fence;
        peerIncarnation[op] = incarnation;
        destCount[op] = 0;
        final int s = serial[op] == Integer.MAX_VALUE ? 1 : serial[op] + 1;
        serial[op] = s;
        cookie[op] = ((long)s << 32) | op;
        return op;
    }

    /**
     * Sending side: how a taken operation ends.
     *
     * @param op             the operation.
     * @param end            the lane position just past its request record.
     * @param index          the record's body index in the lane.
     * @param context        the operation's context.
     * @param flags          its completion flags.
     * @param writes         whether it counts on the FI_WRITE counter (else FI_READ).
     * @param complete       whether a successful completion is written.
     * @param reserved       whether a CQ entry was reserved for it.
     * @param length         bytes of target memory it covers.
     * @param responseLength bytes its response carries on success.
     */
    public void request(
        final int op, final long end, final int index, final long context, final long flags, final boolean writes,
        final boolean complete, final boolean reserved, final long length, final int responseLength)
    {
        laneEnd[op] = end;
        laneIndex[op] = index;
        this.context[op] = context;
        this.flags[op] = flags;
        this.writes[op] = writes;
        this.complete[op] = complete;
        this.reserved[op] = reserved;
        this.length[op] = length;
        this.responseLength[op] = responseLength;
    }

    /**
     * Sending side: add a local buffer the response's bytes go to, in order.
     */
    void dest(final int op, final ByteBuffer buf, final int offset, final int bytes)
    {
        if (bytes > 0)
        {
            final int at = op * maxDest + destCount[op]++;
            dest[at] = buf;
            destOffset[at] = offset;
            destLength[at] = bytes;
        }
    }

    /** Sending side: hand a filled operation to progress. */
    public void submit(final int op)
    {
        final int f = fenceSlot[op];
        if (f >= 0 && f < all)
        {
            issuedTo[f]++;
        }
        issued++;
        ops.submit(op);
    }

    // ------------------------------------------------------------------ progress

    /**
     * Progress, and a look before taking the progress guard (a stale answer only delays the work to the next
     * progress call).
     *
     * @return whether nothing is in flight and nothing new was submitted.
     */
    public boolean idle()
    {
        return ops.allAccepted() && inFlight == 0;
    }

    /** Progress: append what the sending side submitted to the in-flight list. */
    void accept()
    {
        for (int n = ops.beginAccept(); n > 0; n--)
        {
            final int op = ops.nextAccepted();
            flying[op] = true;
            answerBelow[op] = -1;
            flight.append(IN_FLIGHT, op);
            inFlight++;
        }
    }

    /** Progress: @return operations in flight. */
    int inFlight()
    {
        return inFlight;
    }

    /** Progress: @return the oldest operation in flight, or NONE. */
    int first()
    {
        return flight.head(IN_FLIGHT);
    }

    /** Progress: @return the operation after {@code op} in flight, or NONE. */
    int next(final int op)
    {
        return flight.next(op);
    }

    /**
     * Progress.
     *
     * @param c a response's cookie.
     * @return the operation in flight it names, or {@link #NONE} (stale: completed in error already, or unknown).
     */
    int ofCookie(final long c)
    {
        final int op = (int)c;
        return op >= 0 && op < capacity && flying[op] && cookie[op] == c ? op : NONE;
    }

    /**
     * Progress: the operation completed; take it out of flight, let its buffers go, count it for the fence and give
     * it back to the sending side.
     *
     * @return the operation after it.
     */
    int release(final int op)
    {
        final int after = flight.next(op);
        flight.unlink(op);
        flying[op] = false;
        for (int i = op * maxDest, end = i + maxDest; i < end; i++)
        {
            dest[i] = null;
        }
        bounce[op] = null;
        inFlight--;
        final int f = fenceSlot[op];
        if (f >= 0 && f < all)
        {
            ELEMENT.setRelease(doneTo, f, doneTo[f] + 1);
        }
        ELEMENT.setRelease(doneTo, all, doneTo[all] + 1);
        ops.release(op);
        return after;
    }
}
