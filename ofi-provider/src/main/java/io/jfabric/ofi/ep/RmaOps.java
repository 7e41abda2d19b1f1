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
import io.jfabric.RmaIov;
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
 * fi_rma(3) on a native endpoint, through {@code ep->rma}. Every RMA operation completes on the transmit CQ, so
 * it takes a transmit slot, a read included (whose local buffer libfabric writes, so it must be writable). The
 * target's address and key are libfabric's ({@code mr.key()}, and {@code mr.baseAddress()} plus an offset with
 * FI_MR_VIRT_ADDR). The inject forms copy before they return and take no slot.
 * <p>
 * Threads: as the domain's threading model.
 */
final class RmaOps
{
    private final EpCore c;
    private MemorySegment readFn = MemorySegment.NULL;
    private MemorySegment readvFn = MemorySegment.NULL;
    private MemorySegment readmsgFn = MemorySegment.NULL;
    private MemorySegment writeFn = MemorySegment.NULL;
    private MemorySegment writevFn = MemorySegment.NULL;
    private MemorySegment writemsgFn = MemorySegment.NULL;
    private MemorySegment injectFn = MemorySegment.NULL;
    private MemorySegment writedataFn = MemorySegment.NULL;
    private MemorySegment injectdataFn = MemorySegment.NULL;

    RmaOps(final EpCore core)
    {
        this.c = core;
    }

    void resolve()
    {
        readFn = fn("read");
        readvFn = fn("readv");
        readmsgFn = fn("readmsg");
        writeFn = fn("write");
        writevFn = fn("writev");
        writemsgFn = fn("writemsg");
        injectFn = fn("inject");
        writedataFn = fn("writedata");
        injectdataFn = fn("injectdata");
    }

    private MemorySegment fn(final String name)
    {
        return Ops.function(c.ep, FidLayouts.EP_RMA, FidLayouts.fn(FidLayouts.FI_OPS_RMA, name));
    }

    long read(final ByteBuffer buf, final int offset, final int len, final long desc, final long src,
        final long addr, final long key, final long context)
    {
        return single(readFn, true, buf, offset, len, desc, 0, src, addr, key, context, false);
    }

    long write(final ByteBuffer buf, final int offset, final int len, final long desc, final long dest,
        final long addr, final long key, final long context)
    {
        return single(writeFn, false, buf, offset, len, desc, 0, dest, addr, key, context, false);
    }

    long writedata(final ByteBuffer buf, final int offset, final int len, final long desc, final long data,
        final long dest, final long addr, final long key, final long context)
    {
        return single(writedataFn, false, buf, offset, len, desc, data, dest, addr, key, context, true);
    }

    private long single(final MemorySegment fn, final boolean read, final ByteBuffer buf, final int offset,
        final int len, final long desc, final long data, final long peer, final long addr, final long key,
        final long context, final boolean withData)
    {
        final long address = read ? c.rxAddress(fn, buf, offset, len, peer, false, "read") :
            c.txAddress(fn, buf, offset, len, peer, "write");
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
            return EpCore.settle(pool, slot, withData ?
                (long)Calls.L9.invokeExact(fn, c.ep, address, (long)len, desc, data, peer, addr, key,
                    pool.address(slot)) :
                (long)Calls.L8.invokeExact(fn, c.ep, address, (long)len, desc, peer, addr, key, pool.address(slot)));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long injectWrite(final ByteBuffer buf, final int offset, final int len, final long dest, final long addr,
        final long key)
    {
        return inject(injectFn, buf, offset, len, 0, dest, addr, key, false);
    }

    long injectWritedata(final ByteBuffer buf, final int offset, final int len, final long data, final long dest,
        final long addr, final long key)
    {
        return inject(injectdataFn, buf, offset, len, data, dest, addr, key, true);
    }

    private long inject(final MemorySegment fn, final ByteBuffer buf, final int offset, final int len,
        final long data, final long dest, final long addr, final long key, final boolean withData)
    {
        final long address = c.txAddress(fn, buf, offset, len, dest, "inject_write");
        if (address < 0)
        {
            return address;
        }
        try
        {
            return withData ?
                (long)Calls.L7.invokeExact(fn, c.ep, address, (long)len, data, dest, addr, key) :
                (long)Calls.L6.invokeExact(fn, c.ep, address, (long)len, dest, addr, key);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long readv(final Msg msg, final long src, final long addr, final long key, final long context)
    {
        return vector(readvFn, msg, true, src, addr, key, context);
    }

    long writev(final Msg msg, final long dest, final long addr, final long key, final long context)
    {
        return vector(writevFn, msg, false, dest, addr, key, context);
    }

    private long vector(final MemorySegment fn, final Msg msg, final boolean read, final long peer, final long addr,
        final long key, final long context)
    {
        if (c.state != EpCore.ENABLED)
        {
            return c.badState();
        }
        if (c.badPeer(peer))
        {
            return -Errno.FI_EINVAL;
        }
        if (fn.address() == 0)
        {
            return -Errno.FI_ENOSYS;
        }
        if (msg == null || msg.iovCount < 1 || msg.iovCount > c.maxIov)
        {
            return -Errno.FI_EINVAL;
        }
        final SlotPool pool = c.tx;
        final int slot = pool.acquire();
        if (slot < 0)
        {
            return -Errno.FI_EAGAIN;
        }
        final long block = pool.address(slot);
        final long iov = block + EpCore.IOV_OFFSET;
        final long desc = iov + c.maxIov * EpCore.IOV_BYTES;
        final long refused = c.iovs(pool, slot, msg, read, iov, desc);
        if (refused != 0)
        {
            pool.abandon(slot);
            return refused;
        }
        pool.hold(slot, context, msg.iov[0], msg.iovCount > 1 ? msg.iov[1] : null,
            msg.iovCount > 2 ? msg.iov[2] : null, 0, msg.iovOffset[0], c.txDefaultFlags);
        final long rc;
        try
        {
            rc = (long)Calls.L8.invokeExact(fn, c.ep, iov, desc, (long)msg.iovCount, peer, addr, key, block);
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

    long readmsg(final Msg msg, final RmaIov rma, final long flags)
    {
        return message(readmsgFn, msg, rma, flags, true);
    }

    long writemsg(final Msg msg, final RmaIov rma, final long flags)
    {
        return message(writemsgFn, msg, rma, flags, false);
    }

    private long message(final MemorySegment fn, final Msg msg, final RmaIov rma, final long flags,
        final boolean read)
    {
        if (c.state != EpCore.ENABLED)
        {
            return c.badState();
        }
        if (fn.address() == 0)
        {
            return -Errno.FI_ENOSYS;
        }
        if (msg == null || rma == null || msg.iovCount < 0 || msg.iovCount > c.maxIov || rma.count < 1 ||
            rma.count > c.maxRmaIov || c.badPeer(msg.addr))
        {
            return -Errno.FI_EINVAL;
        }
        final SlotPool pool = c.tx;
        final int slot = pool.acquire();
        if (slot < 0)
        {
            return -Errno.FI_EAGAIN;
        }
        final long block = pool.address(slot);
        final long iov = block + EpCore.IOV_OFFSET;
        final long desc = iov + c.maxIov * EpCore.IOV_BYTES;
        final long rmaIov = iov + 3L * c.maxIov * (EpCore.IOV_BYTES + 8);
        final long refused = c.iovs(pool, slot, msg, read, iov, desc);
        if (refused != 0)
        {
            pool.abandon(slot);
            return refused;
        }
        for (int i = 0; i < rma.count; i++)
        {
            final long at = rmaIov + i * FI_RMA_IOV.byteSize();
            ALL.set(JAVA_LONG, at + RMA_IOV_ADDR, rma.addr[i]);
            ALL.set(JAVA_LONG, at + RMA_IOV_LEN, rma.length[i]);
            ALL.set(JAVA_LONG, at + RMA_IOV_KEY, rma.key[i]);
        }
        final long m = block + EpCore.MSG_OFFSET;
        ALL.set(JAVA_LONG, m + MSG_IOV, iov);
        ALL.set(JAVA_LONG, m + MSG_DESC, desc);
        ALL.set(JAVA_LONG, m + MSG_IOV_COUNT, msg.iovCount);
        ALL.set(JAVA_LONG, m + MSG_ADDR, msg.addr);
        ALL.set(JAVA_LONG, m + RMSG_RMA_IOV, rmaIov);
        ALL.set(JAVA_LONG, m + RMSG_RMA_IOV_COUNT, rma.count);
        ALL.set(JAVA_LONG, m + RMSG_CONTEXT, block);
        ALL.set(JAVA_LONG, m + RMSG_DATA, msg.data);
        pool.hold(slot, msg.context, msg.iovCount > 0 ? msg.iov[0] : null, msg.iovCount > 1 ? msg.iov[1] : null,
            msg.iovCount > 2 ? msg.iov[2] : null, 0, msg.iovCount > 0 ? msg.iovOffset[0] : 0,
            c.txSelective && (flags & io.jfabric.Flags.FI_COMPLETION) == 0 ? io.jfabric.ofi.ctx.OpFlags.SILENT : 0);
        final long rc;
        try
        {
            rc = (long)Calls.L3.invokeExact(fn, c.ep, m, flags);
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
