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
import io.jfabric.Flags;
import io.jfabric.Msg;
import io.jfabric.ofi.core.NativeCalls;
import io.jfabric.ofi.ctx.OpFlags;
import io.jfabric.ofi.ctx.SlotPool;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import static io.jfabric.ofi.lib.CTypes.ALL;
import static io.jfabric.ofi.lib.DataLayouts.*;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * fi_msg(3) on a native endpoint: each call resolves its buffer, takes a slot of the direction's pool (which keeps
 * the buffer reachable and carries the context), and calls the function of the endpoint's {@code fi_ops_msg}, found
 * once at enable. Returns libfabric's result: 0, or a negated errno ({@code -FI_EAGAIN} when the endpoint's queue,
 * or the pool, is full). Fast path first; the vector and msg forms share {@link #vector}.
 * <p>
 * Threads: as the domain's threading model.
 */
final class MsgOps
{
    private final EpCore c;
    private MemorySegment recvFn = MemorySegment.NULL;
    private MemorySegment recvvFn = MemorySegment.NULL;
    private MemorySegment recvmsgFn = MemorySegment.NULL;
    private MemorySegment sendFn = MemorySegment.NULL;
    private MemorySegment sendvFn = MemorySegment.NULL;
    private MemorySegment sendmsgFn = MemorySegment.NULL;
    private MemorySegment injectFn = MemorySegment.NULL;
    private MemorySegment senddataFn = MemorySegment.NULL;
    private MemorySegment injectdataFn = MemorySegment.NULL;

    MsgOps(final EpCore core)
    {
        this.c = core;
    }

    /** At enable: the functions of {@code ep->msg}; absent ones answer -FI_ENOSYS. */
    void resolve()
    {
        recvFn = fn("recv");
        recvvFn = fn("recvv");
        recvmsgFn = fn("recvmsg");
        sendFn = fn("send");
        sendvFn = fn("sendv");
        sendmsgFn = fn("sendmsg");
        injectFn = fn("inject");
        senddataFn = fn("senddata");
        injectdataFn = fn("injectdata");
    }

    private MemorySegment fn(final String name)
    {
        return Ops.function(c.ep, FidLayouts.EP_MSG, FidLayouts.fn(FidLayouts.FI_OPS_MSG, name));
    }

    long send(final ByteBuffer buf, final int offset, final int len, final long desc, final long dest,
        final long context)
    {
        final long address = c.txAddress(sendFn, buf, offset, len, dest, "send");
        if (address < 0)
        {
            return address;
        }
        final SlotPool pool = c.tx;
        final int slot = pool.acquire();
        if (slot < 0)
        {
            return -Errno.FI_EAGAIN;
        }
        pool.hold(slot, context, buf, null, null, 0, offset, c.txDefaultFlags);
        try
        {
            return EpCore.settle(pool, slot,
                (long)Calls.L6.invokeExact(sendFn, c.ep, address, (long)len, desc, dest, pool.address(slot)));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long senddata(final ByteBuffer buf, final int offset, final int len, final long desc, final long data,
        final long dest, final long context)
    {
        final long address = c.txAddress(senddataFn, buf, offset, len, dest, "senddata");
        if (address < 0)
        {
            return address;
        }
        final SlotPool pool = c.tx;
        final int slot = pool.acquire();
        if (slot < 0)
        {
            return -Errno.FI_EAGAIN;
        }
        pool.hold(slot, context, buf, null, null, 0, offset, c.txDefaultFlags);
        try
        {
            return EpCore.settle(pool, slot, (long)Calls.L7.invokeExact(senddataFn, c.ep, address, (long)len, desc,
                data, dest, pool.address(slot)));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long inject(final ByteBuffer buf, final int offset, final int len, final long dest)
    {
        final long checked = c.check(injectFn, dest, false);
        if (checked != 0)
        {
            return checked;
        }
        final long base = c.txBase(buf);
        if (base == 0 || !EpCore.inBounds(buf, offset, len))
        {
            return injectHeap(buf, offset, len, 0, dest, false);
        }
        try
        {
            return (long)Calls.L4.invokeExact(injectFn, c.ep, base + offset, (long)len, dest);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long injectdata(final ByteBuffer buf, final int offset, final int len, final long data, final long dest)
    {
        final long checked = c.check(injectdataFn, dest, false);
        if (checked != 0)
        {
            return checked;
        }
        final long base = c.txBase(buf);
        if (base == 0 || !EpCore.inBounds(buf, offset, len))
        {
            return injectHeap(buf, offset, len, data, dest, true);
        }
        try
        {
            return (long)Calls.L5.invokeExact(injectdataFn, c.ep, base + offset, (long)len, data, dest);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    private long injectHeap(final ByteBuffer buf, final int offset, final int len, final long data, final long dest,
        final boolean withData)
    {
        final MemorySegment heap = Heap.slice(buf, offset, len);
        if (heap == null)
        {
            return c.refuse(buf, "inject");
        }
        try
        {
            return withData ?
                (long)Calls.INJECTDATA_HEAP.invokeExact(injectdataFn, c.ep, heap, (long)len, data, dest) :
                (long)Calls.INJECT_HEAP.invokeExact(injectFn, c.ep, heap, (long)len, dest);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long recv(final ByteBuffer buf, final int offset, final int len, final long desc, final long src,
        final long context)
    {
        final long address = c.rxAddress(recvFn, buf, offset, len, src, true, "recv");
        if (address < 0)
        {
            return address;
        }
        final SlotPool pool = c.rx;
        final int slot = pool.acquire();
        if (slot < 0)
        {
            return -Errno.FI_EAGAIN;
        }
        pool.hold(slot, context, buf, null, null, address - offset, offset, c.rxDefaultFlags);
        try
        {
            return EpCore.settle(pool, slot,
                (long)Calls.L6.invokeExact(recvFn, c.ep, address, (long)len, desc, src, pool.address(slot)));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long sendv(final Msg msg, final long dest, final long context)
    {
        return vector(msg, false, dest, context, 0, false, Kind.V);
    }

    long sendmsg(final Msg msg, final long flags)
    {
        return vector(msg, false, msg == null ? 0 : msg.addr, msg == null ? 0 : msg.context, flags, true, Kind.MSG);
    }

    long recvv(final Msg msg, final long src, final long context)
    {
        return vector(msg, true, src, context, 0, false, Kind.V);
    }

    long recvmsg(final Msg msg, final long flags)
    {
        return vector(msg, true, msg == null ? 0 : msg.addr, msg == null ? 0 : msg.context, flags, true, Kind.MSG);
    }

    /** Which form a vector call takes. */
    enum Kind
    {
        V, MSG
    }

    private long vector(final Msg msg, final boolean receive, final long addr, final long context, final long flags,
        final boolean withFlags, final Kind kind)
    {
        if (c.state != EpCore.ENABLED)
        {
            return c.badState();
        }
        if (receive ? c.badSource(addr) : c.badPeer(addr))
        {
            return -Errno.FI_EINVAL;
        }
        if (msg == null || msg.iovCount < 0 || msg.iovCount > c.maxIov)
        {
            return -Errno.FI_EINVAL;
        }
        final MemorySegment fn = kind == Kind.V ? (receive ? recvvFn : sendvFn) : (receive ? recvmsgFn : sendmsgFn);
        if (fn.address() == 0)
        {
            return -Errno.FI_ENOSYS;
        }
        final SlotPool pool = receive ? c.rx : c.tx;
        final int slot = pool.acquire();
        if (slot < 0)
        {
            return -Errno.FI_EAGAIN;
        }
        final long block = pool.address(slot);
        final long iov = block + EpCore.IOV_OFFSET;
        final long desc = iov + c.maxIov * EpCore.IOV_BYTES;
        final long refused = c.iovs(pool, slot, msg, receive, iov, desc);
        if (refused != 0)
        {
            pool.abandon(slot);
            return refused;
        }
        final ByteBuffer first = msg.iovCount > 0 ? msg.iov[0] : null;
        final long base = first == null ? 0 : receive ? c.rxBase(first) : c.txBase(first);
        pool.hold(slot, context, first, msg.iovCount > 1 ? msg.iov[1] : null, msg.iovCount > 2 ? msg.iov[2] : null,
            receive ? base : 0, msg.iovCount > 0 ? msg.iovOffset[0] : 0,
            withFlags ? opFlags(flags, receive) : receive ? c.rxDefaultFlags : c.txDefaultFlags);
        final long rc;
        try
        {
            if (kind == Kind.V)
            {
                rc = (long)Calls.L6.invokeExact(fn, c.ep, iov, desc, (long)msg.iovCount,
                    addr, block);
            }
            else
            {
                final long m = block + EpCore.MSG_OFFSET;
                ALL.set(JAVA_LONG, m + MSG_IOV, iov);
                ALL.set(JAVA_LONG, m + MSG_DESC, desc);
                ALL.set(JAVA_LONG, m + MSG_IOV_COUNT, msg.iovCount);
                ALL.set(JAVA_LONG, m + MSG_ADDR, addr);
                ALL.set(JAVA_LONG, m + MSG_CONTEXT, block);
                ALL.set(JAVA_LONG, m + MSG_DATA, msg.data);
                rc = (long)Calls.L3.invokeExact(fn, c.ep, m, flags);
            }
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
        if (rc != 0)
        {
            pool.abandon(slot);
        }
        return rc;
    }

    /**
     * @param flags   a *msg call's flags.
     * @param receive whether it is a receive.
     * @return the slot's OpFlags: SILENT when completions are selective and FI_COMPLETION is not asked,
     *         MULTI_RECV for FI_MULTI_RECV.
     */
    int opFlags(final long flags, final boolean receive)
    {
        final boolean selective = receive ? c.rxSelective : c.txSelective;
        int op = selective && (flags & Flags.FI_COMPLETION) == 0 ? OpFlags.SILENT : 0;
        if (receive && (flags & Flags.FI_MULTI_RECV) != 0)
        {
            op |= OpFlags.MULTI_RECV;
        }
        return op;
    }
}
