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
import io.jfabric.ofi.ctx.SlotPool;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import static io.jfabric.ofi.lib.CTypes.ALL;
import static io.jfabric.ofi.lib.DataLayouts.*;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * fi_tagged(3) on a native endpoint, as {@link MsgOps} does fi_msg(3), through {@code ep->tagged}. FI_CLAIM (a
 * receive of a message an earlier FI_PEEK|FI_CLAIM set aside, which libfabric keeps in that call's own
 * {@code fi_context}) is not built and answers -FI_ENOSYS; FI_PEEK and FI_PEEK|FI_DISCARD are passed through.
 * <p>
 * Threads: as the domain's threading model.
 */
final class TaggedOps
{
    private final EpCore c;
    private final MsgOps msg;
    private MemorySegment recvFn = MemorySegment.NULL;
    private MemorySegment recvvFn = MemorySegment.NULL;
    private MemorySegment recvmsgFn = MemorySegment.NULL;
    private MemorySegment sendFn = MemorySegment.NULL;
    private MemorySegment sendvFn = MemorySegment.NULL;
    private MemorySegment sendmsgFn = MemorySegment.NULL;
    private MemorySegment injectFn = MemorySegment.NULL;
    private MemorySegment senddataFn = MemorySegment.NULL;
    private MemorySegment injectdataFn = MemorySegment.NULL;

    TaggedOps(final EpCore core, final MsgOps msg)
    {
        this.c = core;
        this.msg = msg;
    }

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
        return Ops.function(c.ep, FidLayouts.EP_TAGGED, FidLayouts.fn(FidLayouts.FI_OPS_TAGGED, name));
    }

    long tsend(final ByteBuffer buf, final int offset, final int len, final long desc, final long dest,
        final long tag, final long context)
    {
        final long address = c.txAddress(sendFn, buf, offset, len, dest, "tsend");
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
                (long)Calls.L7.invokeExact(sendFn, c.ep, address, (long)len, desc, dest, tag, pool.address(slot)));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long tsenddata(final ByteBuffer buf, final int offset, final int len, final long desc, final long data,
        final long dest, final long tag, final long context)
    {
        final long address = c.txAddress(senddataFn, buf, offset, len, dest, "tsenddata");
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
            return EpCore.settle(pool, slot, (long)Calls.L8.invokeExact(senddataFn, c.ep, address, (long)len, desc,
                data, dest, tag, pool.address(slot)));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long tinject(final ByteBuffer buf, final int offset, final int len, final long dest, final long tag)
    {
        final long checked = c.check(injectFn, dest, false);
        if (checked != 0)
        {
            return checked;
        }
        final long base = c.txBase(buf);
        try
        {
            if (base == 0 || !EpCore.inBounds(buf, offset, len))
            {
                final MemorySegment heap = Heap.slice(buf, offset, len);
                return heap == null ? c.refuse(buf, "tinject") :
                    (long)Calls.TINJECT_HEAP.invokeExact(injectFn, c.ep, heap, (long)len, dest, tag);
            }
            return (long)Calls.L5.invokeExact(injectFn, c.ep, base + offset, (long)len, dest, tag);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long tinjectdata(final ByteBuffer buf, final int offset, final int len, final long data, final long dest,
        final long tag)
    {
        final long checked = c.check(injectdataFn, dest, false);
        if (checked != 0)
        {
            return checked;
        }
        final long base = c.txBase(buf);
        try
        {
            if (base == 0 || !EpCore.inBounds(buf, offset, len))
            {
                final MemorySegment heap = Heap.slice(buf, offset, len);
                return heap == null ? c.refuse(buf, "tinjectdata") :
                    (long)Calls.TINJECTDATA_HEAP.invokeExact(injectdataFn, c.ep, heap, (long)len, data, dest, tag);
            }
            return (long)Calls.L6.invokeExact(injectdataFn, c.ep, base + offset, (long)len, data, dest, tag);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long trecv(final ByteBuffer buf, final int offset, final int len, final long desc, final long src,
        final long tag, final long ignore, final long context)
    {
        final long address = c.rxAddress(recvFn, buf, offset, len, src, true, "trecv");
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
            return EpCore.settle(pool, slot, (long)Calls.L8.invokeExact(recvFn, c.ep, address, (long)len, desc, src,
                tag, ignore, pool.address(slot)));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long tsendv(final Msg m, final long dest, final long tag, final long context)
    {
        return vector(m, false, dest, tag, 0, context, 0, false);
    }

    long tsendmsg(final Msg m, final long flags)
    {
        return m == null ? -Errno.FI_EINVAL : vector(m, false, m.addr, m.tag, m.ignore, m.context, flags, true);
    }

    long trecvv(final Msg m, final long src, final long tag, final long ignore, final long context)
    {
        return vector(m, true, src, tag, ignore, context, 0, false);
    }

    long trecvmsg(final Msg m, final long flags)
    {
        if ((flags & Flags.FI_CLAIM) != 0)
        {
            return -Errno.FI_ENOSYS;
        }
        return m == null ? -Errno.FI_EINVAL : vector(m, true, m.addr, m.tag, m.ignore, m.context, flags, true);
    }

    private long vector(final Msg m, final boolean receive, final long addr, final long tag, final long ignore,
        final long context, final long flags, final boolean withFlags)
    {
        if (c.state != EpCore.ENABLED)
        {
            return c.badState();
        }
        if (receive ? c.badSource(addr) : c.badPeer(addr))
        {
            return -Errno.FI_EINVAL;
        }
        if (m == null || m.iovCount < 0 || m.iovCount > c.maxIov)
        {
            return -Errno.FI_EINVAL;
        }
        final MemorySegment fn = !withFlags ? (receive ? recvvFn : sendvFn) : (receive ? recvmsgFn : sendmsgFn);
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
        final long refused = c.iovs(pool, slot, m, receive, iov, desc);
        if (refused != 0)
        {
            pool.abandon(slot);
            return refused;
        }
        final ByteBuffer first = m.iovCount > 0 ? m.iov[0] : null;
        final long base = first == null ? 0 : receive ? c.rxBase(first) : c.txBase(first);
        pool.hold(slot, context, first, m.iovCount > 1 ? m.iov[1] : null, m.iovCount > 2 ? m.iov[2] : null,
            receive ? base : 0, m.iovCount > 0 ? m.iovOffset[0] : 0,
            withFlags ? msg.opFlags(flags, receive) : receive ? c.rxDefaultFlags : c.txDefaultFlags);
        final long rc;
        try
        {
            if (!withFlags)
            {
                rc = receive ?
                    (long)Calls.L8.invokeExact(fn, c.ep, iov, desc, (long)m.iovCount, addr, tag, ignore, block) :
                    (long)Calls.L7.invokeExact(fn, c.ep, iov, desc, (long)m.iovCount, addr, tag, block);
            }
            else
            {
                final long t = block + EpCore.MSG_OFFSET;
                ALL.set(JAVA_LONG, t + MSG_IOV, iov);
                ALL.set(JAVA_LONG, t + MSG_DESC, desc);
                ALL.set(JAVA_LONG, t + MSG_IOV_COUNT, m.iovCount);
                ALL.set(JAVA_LONG, t + MSG_ADDR, addr);
                ALL.set(JAVA_LONG, t + TMSG_TAG, tag);
                ALL.set(JAVA_LONG, t + TMSG_IGNORE, ignore);
                ALL.set(JAVA_LONG, t + TMSG_CONTEXT, block);
                ALL.set(JAVA_LONG, t + TMSG_DATA, m.data);
                rc = (long)Calls.L3.invokeExact(fn, c.ep, t, flags);
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
}
