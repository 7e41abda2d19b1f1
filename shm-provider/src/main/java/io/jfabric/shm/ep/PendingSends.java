package io.jfabric.shm.ep;

import java.nio.ByteBuffer;

/**
 * The sends an endpoint has accepted but not yet written whole into their peers' lanes: messages larger than one
 * lane record, which travel as a FIRST record and PIECE records as the lane has room, and any send queued behind one
 * to the same peer (so a pair's messages stay in order, FI_ORDER_SAS).
 * <p>
 * A fixed pool of {@code capacity} operations (tx_attr.size) kept in arrival order; the buffers of an operation
 * belong to the provider until it completes, as fi_msg(3) says. Nothing allocates after construction. Not thread
 * safe: the endpoint's transmit guard covers it.
 */
final class PendingSends
{
    static final int NONE = -1;

    final int capacity;
    final int maxIov;
    final ByteBuffer[] iov;
    final int[] iovOffset;
    final int[] iovLength;
    final int[] iovCount;
    final long[] total;
    final long[] sent;
    final int[] peer;
    final long[] tag;
    final long[] data;
    final int[] recordFlags;
    final long[] context;
    final long[] opFlags;
    final boolean[] complete;
    final boolean[] rendezvous;
    final boolean[] deliveryAck;
    final boolean[] awaitingAck;
    final long[] rtsKey;
    final long[] rtsAddr;
    final int[] serial;
    private final int[] next;
    private final int[] peerPending;
    private int head = NONE;
    private int tail = NONE;
    private int free;
    private int size;

    PendingSends(final int capacity, final int maxIov, final int slotCount)
    {
        this.capacity = capacity;
        this.maxIov = maxIov;
        iov = new ByteBuffer[capacity * maxIov];
        iovOffset = new int[capacity * maxIov];
        iovLength = new int[capacity * maxIov];
        iovCount = new int[capacity];
        total = new long[capacity];
        sent = new long[capacity];
        peer = new int[capacity];
        tag = new long[capacity];
        data = new long[capacity];
        recordFlags = new int[capacity];
        context = new long[capacity];
        opFlags = new long[capacity];
        complete = new boolean[capacity];
        rendezvous = new boolean[capacity];
        deliveryAck = new boolean[capacity];
        awaitingAck = new boolean[capacity];
        rtsKey = new long[capacity];
        rtsAddr = new long[capacity];
        serial = new int[capacity];
        next = new int[capacity];
        peerPending = new int[slotCount];
        for (int i = 0; i < capacity; i++)
        {
            next[i] = i + 1 < capacity ? i + 1 : NONE;
        }
        free = capacity == 0 ? NONE : 0;
    }

    int size()
    {
        return size;
    }

    boolean hasRoom()
    {
        return free != NONE;
    }

    boolean hasPendingFor(final int peerSlot)
    {
        return peerPending[peerSlot] != 0;
    }

    /**
     * Take a free operation and append it; the caller fills its fields.
     *
     * @return the operation, or {@link #NONE} when all are in use.
     */
    int add(final int peerSlot)
    {
        final int op = free;
        if (op == NONE)
        {
            return NONE;
        }
        free = next[op];
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
        peer[op] = peerSlot;
        sent[op] = 0;
        rendezvous[op] = false;
        deliveryAck[op] = false;
        awaitingAck[op] = false;
        serial[op]++;
        peerPending[peerSlot]++;
        size++;
        return op;
    }

    /**
     * An RTS went out: the operation no longer holds its peer's lane, but stays until acknowledged.
     */
    void awaitAck(final int op)
    {
        awaitingAck[op] = true;
        peerPending[peer[op]]--;
    }

    /**
     * @param cookie an acknowledgement's cookie.
     * @return the operation it acknowledges, or {@link #NONE} when stale.
     */
    int ofCookie(final long cookie)
    {
        final int op = (int)cookie;
        return op >= 0 && op < capacity && awaitingAck[op] && serial[op] == (int)(cookie >>> 32) ? op : NONE;
    }

    long cookie(final int op)
    {
        return ((long)serial[op] << 32) | op;
    }

    /** Remove an operation wherever it is in the order. */
    void removeAnywhere(final int op)
    {
        int previous = NONE;
        for (int i = head; i != NONE; i = next[i])
        {
            if (i == op)
            {
                remove(op, previous);
                return;
            }
            previous = i;
        }
    }

    int first()
    {
        return head;
    }

    int next(final int op)
    {
        return next[op];
    }

    /**
     * Remove an operation; the caller passes the operation before it (or NONE for the first).
     *
     * @return the operation after it.
     */
    int remove(final int op, final int previous)
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
        if (!awaitingAck[op])
        {
            peerPending[peer[op]]--;
        }
        awaitingAck[op] = false;
        for (int i = op * maxIov, end = i + maxIov; i < end; i++)
        {
            iov[i] = null;
        }
        next[op] = free;
        free = op;
        size--;
        return after;
    }
}
