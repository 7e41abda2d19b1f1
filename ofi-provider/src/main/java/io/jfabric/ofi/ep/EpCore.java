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
package io.jfabric.ofi.ep;

import io.jfabric.Errno;
import io.jfabric.Msg;
import io.jfabric.ofi.ctx.SlotPool;
import io.jfabric.ofi.lib.DataLayouts;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static io.jfabric.ofi.lib.CTypes.ALL;

/**
 * What the data-path calls of one endpoint share: the native endpoint, its state, the slot pools of its two
 * directions, and the turning of a {@link ByteBuffer} into the native address libfabric reads or writes.
 * <p>
 * Buffers: libfabric keeps the address of a posted buffer until the operation completes, so it must be memory that
 * does not move: a direct buffer (or one over native memory). A heap buffer is refused with {@code -FI_EINVAL} and,
 * once per endpoint, a WARNING naming the fix ({@link #refuse}); the inject calls, which copy before they return,
 * also take heap buffers. The last direct buffer of each direction and its base address are kept in one immutable
 * pair ({@link Base}), so repeated calls with the same buffer compute nothing; a racing thread sees one pair or the
 * other, never a mix.
 * <p>
 * Slot native blocks: {@value SlotPool#CONTEXT_BYTES} bytes of {@code fi_context2}, then {@link #MSG_OFFSET} the
 * call's message struct, then {@link #IOV_OFFSET} the iovec/fi_ioc arrays, desc arrays and fi_rma_iov arrays, as
 * {@link #stride} sizes them.
 * <p>
 * Threads: as the domain's threading model; nothing here locks.
 */
final class EpCore
{
    /** State: opened, not enabled. */
    static final int OPEN = 0;
    /** State: enabled: the data path runs. */
    static final int ENABLED = 1;
    /** State: closed. */
    static final int CLOSED = 2;

    /** Offset of the message struct in a slot's block. */
    static final long MSG_OFFSET = SlotPool.CONTEXT_BYTES;
    /** Offset of the arrays in a slot's block. */
    static final long IOV_OFFSET = MSG_OFFSET + 128;
    /** Bytes of one iovec / fi_ioc. */
    static final long IOV_BYTES = DataLayouts.IOVEC.byteSize();

    /** The native endpoint ({@code struct fid_ep *}). */
    final long ep;
    /** Most buffers of one vector call (tx/rx iov_limit, at least 1). */
    final int maxIov;
    /** Most target regions of one RMA/atomic msg call (rma_iov_limit, at least 1). */
    final int maxRmaIov;
    private final String name;
    volatile int state;
    /** The transmit direction's slots (set at enable). */
    SlotPool tx;
    /** The receive direction's slots (set at enable). */
    SlotPool rx;
    /** OpFlags for transmit operations posted with the endpoint's default flags. */
    int txDefaultFlags;
    /** OpFlags for receive operations posted with the endpoint's default flags. */
    int rxDefaultFlags;
    /** Whether transmit completions are selective (FI_SELECTIVE_COMPLETION on the transmit CQ binding). */
    boolean txSelective;
    /** Whether receive completions are selective. */
    boolean rxSelective;
    /** The fi_addr values of the bound AV (set at bind): every destination and source is checked against them. */
    io.jfabric.ofi.av.PeerTable peers = new io.jfabric.ofi.av.PeerTable();
    private Base lastTx = Base.NONE;
    private Base lastRx = Base.NONE;
    private volatile boolean heapWarned;

    EpCore(final long ep, final int maxIov, final int maxRmaIov, final String name)
    {
        this.ep = ep;
        this.maxIov = Math.max(1, maxIov);
        this.maxRmaIov = Math.max(1, maxRmaIov);
        this.name = name;
    }

    /** @return bytes of one slot's native block for these limits. */
    long stride()
    {
        final long bytes = IOV_OFFSET + 3L * maxIov * (IOV_BYTES + 8) + maxRmaIov * DataLayouts.FI_RMA_IOV.byteSize();
        return (bytes + 63) & ~63L;
    }

    /** @return references a slot keeps: three buffers per iov entry (operands, compare, result). */
    int refsPerSlot()
    {
        return 3 * maxIov;
    }

    /**
     * @param fiAddr a destination.
     * @return whether libfabric must not see it: no insert of the bound AV returned it (rxm would index its table
     *         with it unchecked and crash).
     */
    boolean badPeer(final long fiAddr)
    {
        return !peers.contains(fiAddr);
    }

    /**
     * @param fiAddr a receive's source.
     * @return whether it is neither FI_ADDR_UNSPEC nor an address of the bound AV.
     */
    boolean badSource(final long fiAddr)
    {
        return fiAddr != -1L && !peers.contains(fiAddr);
    }

    /**
     * The checks every call makes before libfabric: enabled, the function present, the peer known.
     *
     * @param fn   the provider's function.
     * @param peer the destination (or, with {@code source}, the receive's source).
     * @param source whether {@code peer} is a source (FI_ADDR_UNSPEC allowed).
     * @return 0, or the negated errno.
     */
    long check(final MemorySegment fn, final long peer, final boolean source)
    {
        if (state != ENABLED)
        {
            return badState();
        }
        if (fn.address() == 0)
        {
            return -Errno.FI_ENOSYS;
        }
        return (source ? badSource(peer) : badPeer(peer)) ? -Errno.FI_EINVAL : 0;
    }

    /**
     * {@link #check}, then the buffer: the native address of {@code buf[offset]} for a call that reads
     * {@code len} bytes there (a send, a write).
     *
     * @return the address, or a negated errno.
     */
    long txAddress(final MemorySegment fn, final ByteBuffer buf, final long offset, final long len, final long peer,
        final String call)
    {
        final long checked = check(fn, peer, false);
        if (checked != 0)
        {
            return checked;
        }
        final long base = txBase(buf);
        return base == 0 || !inBounds(buf, offset, len) ? refuse(buf, call) : base + offset;
    }

    /**
     * {@link #check}, then the buffer: the native address of {@code buf[offset]} for a call that writes {@code len}
     * bytes there (a receive, a read).
     *
     * @param source whether {@code peer} is a receive's source rather than a read's target.
     * @return the address, or a negated errno.
     */
    long rxAddress(final MemorySegment fn, final ByteBuffer buf, final long offset, final long len, final long peer,
        final boolean source, final String call)
    {
        final long checked = check(fn, peer, source);
        if (checked != 0)
        {
            return checked;
        }
        final long base = rxBase(buf);
        return base == 0 || !inBounds(buf, offset, len) ? refuse(buf, call) : base + offset;
    }

    /**
     * @param pool the slot's pool.
     * @param slot a held slot.
     * @param rc   libfabric's answer to the post.
     * @return {@code rc}; the slot given back when the post failed.
     */
    static long settle(final SlotPool pool, final int slot, final long rc)
    {
        if (rc != 0)
        {
            pool.abandon(slot);
        }
        return rc;
    }

    /** @return the negated errno for a call outside the enabled state. */
    long badState()
    {
        return state == CLOSED ? -Errno.FI_EBADF : -Errno.FI_EOPBADSTATE;
    }

    /**
     * @param buf a buffer a transmit operation reads.
     * @return the native address of its index 0, or 0 when it has none (heap, or null).
     */
    long txBase(final ByteBuffer buf)
    {
        final Base b = lastTx;
        if (b.buffer == buf)
        {
            return b.address;
        }
        final Base fresh = Base.of(buf);
        if (fresh.address != 0)
        {
            lastTx = fresh;
        }
        return fresh.address;
    }

    /**
     * @param buf a buffer a receive (or read) operation writes.
     * @return the native address of its index 0, or 0 when it has none or is read-only.
     */
    long rxBase(final ByteBuffer buf)
    {
        final Base b = lastRx;
        if (b.buffer == buf)
        {
            return b.address;
        }
        final Base fresh = buf != null && buf.isReadOnly() ? Base.NONE : Base.of(buf);
        if (fresh.address != 0)
        {
            lastRx = fresh;
        }
        return fresh.address;
    }

    /**
     * @return whether {@code [offset, offset + len)} lies in the buffer.
     */
    static boolean inBounds(final ByteBuffer buf, final long offset, final long len)
    {
        return offset >= 0 && len >= 0 && offset <= buf.capacity() - len;
    }

    /**
     * The slow path of a refused buffer: -FI_EINVAL, and for a heap buffer one WARNING per endpoint naming the fix.
     *
     * @param buf  the buffer.
     * @param call the call's name.
     * @return -FI_EINVAL.
     */
    long refuse(final ByteBuffer buf, final String call)
    {
        if (buf != null && !buf.isDirect() && !heapWarned)
        {
            heapWarned = true;
            System.getLogger(EpCore.class.getName()).log(System.Logger.Level.WARNING,
                "jfabric ofi: " + call + " on " + name + " was given a heap ByteBuffer, refused with -FI_EINVAL: " +
                "native libfabric keeps the address of a posted buffer until its completion, and heap memory moves. " +
                "Use ByteBuffer.allocateDirect (or domain.allocShareable(n).buffer()); only the inject calls take " +
                "heap buffers (logged once per endpoint)");
        }
        return -Errno.FI_EINVAL;
    }

    /**
     * Write a Msg's buffers as an iovec array and desc array into a slot's block and keep the buffers reachable.
     *
     * @param pool   the direction's pool.
     * @param slot   an acquired slot.
     * @param msg    the message; its iovCount is already checked against {@link #maxIov}.
     * @param write  whether the operation writes the buffers (receive, read): read-only buffers are refused.
     * @param iov    where the iovec array goes.
     * @param desc   where the desc array goes.
     * @return 0, or the negated errno of a refused buffer (the caller abandons the slot).
     */
    long iovs(final SlotPool pool, final int slot, final Msg msg, final boolean write, final long iov, final long desc)
    {
        for (int i = 0; i < msg.iovCount; i++)
        {
            final ByteBuffer buf = msg.iov[i];
            final long base = write ? rxBase(buf) : txBase(buf);
            if (base == 0 || !inBounds(buf, msg.iovOffset[i], msg.iovLength[i]))
            {
                return refuse(buf, write ? "recvv/recvmsg" : "sendv/sendmsg");
            }
            ALL.set(JAVA_LONG, iov + i * IOV_BYTES + DataLayouts.IOV_BASE, base + msg.iovOffset[i]);
            ALL.set(JAVA_LONG, iov + i * IOV_BYTES + DataLayouts.IOV_LEN, msg.iovLength[i]);
            ALL.set(JAVA_LONG, desc + 8L * i, msg.desc[i]);
            if (i >= 3)
            {
                pool.reference(slot, i, buf);
            }
        }
        return 0;
    }

    /** A direct buffer and the native address of its index 0. Immutable. */
    static final class Base
    {
        static final Base NONE = new Base(null, 0);

        final ByteBuffer buffer;
        final long address;

        private Base(final ByteBuffer buffer, final long address)
        {
            this.buffer = buffer;
            this.address = address;
        }

        static Base of(final ByteBuffer buf)
        {
            if (buf == null || !buf.isDirect())
            {
                return NONE;
            }
            return new Base(buf, MemorySegment.ofBuffer(buf).address() - buf.position());
        }
    }
}
