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
package io.jfabric.shm.match;

import io.jfabric.shm.core.IndexLists;

/**
 * The deliveries in progress of one {@link ReceiveMatcher}: messages arriving as {@code begin}, {@code write}
 * pieces and {@code end}, each going into a posted receive or into the unexpected store, kept in parallel arrays
 * indexed by the delivery's handle. A fixed number (a sender's pieces are consecutive in its lane, so one per
 * sending endpoint is enough); nothing allocates after construction.
 * <p>
 * Called only by the thread that holds the endpoint's receive side (the matcher's caller).
 */
final class Deliveries
{
    /** {@link #kind} of a delivery going into a posted receive. */
    static final int TO_POSTED = 1;
    /** {@link #kind} of a delivery going into the unexpected store. */
    static final int TO_UNEXPECTED = 2;

    /** {@link #TO_POSTED} or {@link #TO_UNEXPECTED}; 0 while the handle is free. */
    final int[] kind;
    /** The posted receive entry or the unexpected message the delivery fills. */
    final int[] target;
    final long[] sender;
    final long[] tag;
    final long[] data;
    final long[] msgFlags;
    /** The message's announced length. */
    final long[] total;
    /** Bytes written so far. */
    final long[] written;
    /** Where in its receive's space the message starts (0 unless a multi-receive buffer). */
    final long[] start;
    /** Bytes of the message its receive can take. */
    final long[] limit;
    private final IndexLists handles;

    /**
     * @param capacity deliveries that may be in progress at once.
     */
    Deliveries(final int capacity)
    {
        kind = new int[capacity];
        target = new int[capacity];
        sender = new long[capacity];
        tag = new long[capacity];
        data = new long[capacity];
        msgFlags = new long[capacity];
        total = new long[capacity];
        written = new long[capacity];
        start = new long[capacity];
        limit = new long[capacity];
        handles = new IndexLists(capacity, 0);
    }

    /** @return whether every handle is in use. */
    boolean isFull()
    {
        return handles.allocated() == kind.length;
    }

    /**
     * Start a delivery (check {@link #isFull} first); the caller sets its kind, target, start and limit.
     *
     * @return its handle.
     */
    int allocate(final long senderId, final long tag, final long data, final long msgFlags, final long total)
    {
        final int d = handles.allocate();
        sender[d] = senderId;
        this.tag[d] = tag;
        this.data[d] = data;
        this.msgFlags[d] = msgFlags;
        this.total[d] = total;
        written[d] = 0;
        return d;
    }

    /**
     * Point delivery {@code d} at posted receive {@code e}: its kind and target, its start and limit, and the
     * receive's bookkeeping ({@link PostedReceives#reserveSpace}).
     */
    void toPosted(final int d, final PostedReceives posted, final int e, final long total)
    {
        kind[d] = TO_POSTED;
        target[d] = e;
        final long at = posted.reserveSpace(e, total);
        start[d] = at;
        limit[d] = posted.placeable(e, at, total);
    }

    /** @return whether {@code delivery} is the handle of a delivery in progress. */
    boolean inProgress(final long delivery)
    {
        return delivery >= 0 && delivery < kind.length && kind[(int)delivery] != 0;
    }

    /** The delivery is over; its fields keep their values until the handle is taken again. */
    void free(final int d)
    {
        kind[d] = 0;
        handles.free(d);
    }
}
