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

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicMsg;
import io.jfabric.AtomicOp;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Ioc;
import io.jfabric.ofi.core.NativeCalls;
import io.jfabric.ofi.ctx.OpFlags;
import io.jfabric.ofi.ctx.SlotPool;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.Downcalls;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;

import static io.jfabric.ofi.lib.CTypes.ALL;
import static io.jfabric.ofi.lib.DataLayouts.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * fi_atomic(3) on a native endpoint, through {@code ep->atomic}: the base, fetch and compare forms, each single,
 * vector ({@code fi_ioc} arrays) and msg ({@code fi_msg_atomic}). Operands and compare values are read by libfabric,
 * results written, all until the completion: each operation's buffers stay in its transmit slot. Which pairs a
 * provider takes is its own {@code fi_atomicvalid}; the rest it answers -FI_EOPNOTSUPP.
 * <p>
 * Threads: as the domain's threading model.
 */
final class AtomicOps
{
    /** {@link #valid} of fi_atomicvalid. */
    static final int WRITEVALID = 0;
    /** {@link #valid} of fi_fetch_atomicvalid. */
    static final int READWRITEVALID = 1;
    /** {@link #valid} of fi_compare_atomicvalid. */
    static final int COMPWRITEVALID = 2;

    private static final MethodHandle WRITE = handle(7, true);
    private static final MethodHandle INJECT = handle(6, false);
    private static final MethodHandle READWRITE = handle(9, true);
    private static final MethodHandle READWRITEV = handle(10, true);
    private static final MethodHandle COMPWRITE = handle(11, true);
    private static final MethodHandle COMPWRITEV = handle(13, true);
    private static final MethodHandle VALID = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG, CTypes.INT,
        CTypes.INT, CTypes.PTR_ARG);

    private final EpCore c;
    private final MemorySegment[] fns = new MemorySegment[13];

    AtomicOps(final EpCore core)
    {
        this.c = core;
        java.util.Arrays.fill(fns, MemorySegment.NULL);
    }

    private static MethodHandle handle(final int longs, final boolean context)
    {
        final MemoryLayout[] args = new MemoryLayout[1 + longs + 2 + (context ? 1 : 0)];
        args[0] = CTypes.PTR;
        for (int i = 1; i <= longs; i++)
        {
            args[i] = CTypes.PTR_ARG;
        }
        args[longs + 1] = CTypes.INT;
        args[longs + 2] = CTypes.INT;
        if (context)
        {
            args[longs + 3] = CTypes.PTR_ARG;
        }
        return Downcalls.quick(CTypes.SIZE_T, args);
    }

    private static final String[] NAMES = {"write", "writev", "writemsg", "inject", "readwrite", "readwritev",
        "readwritemsg", "compwrite", "compwritev", "compwritemsg", "writevalid", "readwritevalid", "compwritevalid"};

    void resolve()
    {
        for (int i = 0; i < NAMES.length; i++)
        {
            fns[i] = Ops.function(c.ep, FidLayouts.EP_ATOMIC, FidLayouts.fn(FidLayouts.FI_OPS_ATOMIC, NAMES[i]));
        }
    }

    int valid(final int which, final AtomicDatatype datatype, final AtomicOp op)
    {
        if (c.state != EpCore.ENABLED)
        {
            return (int)c.badState();
        }
        final MemorySegment fn = fns[10 + which];
        if (fn.address() == 0 || datatype == null || op == null)
        {
            return fn.address() == 0 ? -Errno.FI_EOPNOTSUPP : -Errno.FI_EINVAL;
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment count = call.allocate(JAVA_LONG);
            final int rc = (int)VALID.invokeExact(fn, c.ep, datatype.value(), op.value(), count.address());
            return rc < 0 ? rc : (int)Math.min(Integer.MAX_VALUE, count.get(JAVA_LONG, 0));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long atomic(final ByteBuffer buf, final int offset, final int count, final long desc, final long dest,
        final long addr, final long key, final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        final long check = check(fns[0], datatype, op, dest);
        if (check != 0)
        {
            return check;
        }
        final long base = c.txBase(buf);
        if (base == 0 || !EpCore.inBounds(buf, offset, (long)count * datatype.size()))
        {
            return c.refuse(buf, "atomic");
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
            return settle(pool, slot, (long)WRITE.invokeExact(fns[0], c.ep, base + offset, (long)count, desc, dest,
                addr, key, datatype.value(), op.value(), pool.address(slot)));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long injectAtomic(final ByteBuffer buf, final int offset, final int count, final long dest, final long addr,
        final long key, final AtomicDatatype datatype, final AtomicOp op)
    {
        final long check = check(fns[3], datatype, op, dest);
        if (check != 0)
        {
            return check;
        }
        final long base = c.txBase(buf);
        if (base == 0 || !EpCore.inBounds(buf, offset, (long)count * datatype.size()))
        {
            return c.refuse(buf, "inject_atomic");
        }
        try
        {
            return (long)INJECT.invokeExact(fns[3], c.ep, base + offset, (long)count, dest, addr, key,
                datatype.value(), op.value());
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long fetchAtomic(final ByteBuffer buf, final int offset, final int count, final long desc,
        final ByteBuffer result, final int resultOffset, final long resultDesc, final long dest, final long addr,
        final long key, final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        final long check = check(fns[4], datatype, op, dest);
        if (check != 0)
        {
            return check;
        }
        final long bytes = (long)count * datatype.size();
        final boolean readOnly = op == AtomicOp.ATOMIC_READ && buf == null;
        final long base = readOnly ? 0 : c.txBase(buf);
        final long resultBase = c.rxBase(result);
        if ((!readOnly && (base == 0 || !EpCore.inBounds(buf, offset, bytes))) || resultBase == 0 ||
            !EpCore.inBounds(result, resultOffset, bytes))
        {
            return c.refuse(resultBase == 0 ? result : buf, "fetch_atomic");
        }
        final SlotPool pool = c.tx;
        final int slot = pool.acquire();
        if (slot < 0)
        {
            return -Errno.FI_EAGAIN;
        }
        pool.hold(slot, context, buf, result, null, 0, offset, c.txDefaultFlags);
        try
        {
            return settle(pool, slot, (long)READWRITE.invokeExact(fns[4], c.ep, readOnly ? 0L : base + offset,
                (long)count, desc, resultBase + resultOffset, resultDesc, dest, addr, key, datatype.value(),
                op.value(), pool.address(slot)));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long compareAtomic(final ByteBuffer buf, final int offset, final int count, final long desc,
        final ByteBuffer compare, final int compareOffset, final long compareDesc, final ByteBuffer result,
        final int resultOffset, final long resultDesc, final long dest, final long addr, final long key,
        final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        final long check = check(fns[7], datatype, op, dest);
        if (check != 0)
        {
            return check;
        }
        final long bytes = (long)count * datatype.size();
        final long base = c.txBase(buf);
        final long compareBase = Base.of(compare);
        final long resultBase = c.rxBase(result);
        if (base == 0 || compareBase == 0 || resultBase == 0 || !EpCore.inBounds(buf, offset, bytes) ||
            !EpCore.inBounds(compare, compareOffset, bytes) || !EpCore.inBounds(result, resultOffset, bytes))
        {
            return c.refuse(base == 0 ? buf : compareBase == 0 ? compare : result, "compare_atomic");
        }
        final SlotPool pool = c.tx;
        final int slot = pool.acquire();
        if (slot < 0)
        {
            return -Errno.FI_EAGAIN;
        }
        pool.hold(slot, context, buf, compare, result, 0, offset, c.txDefaultFlags);
        try
        {
            return settle(pool, slot, (long)COMPWRITE.invokeExact(fns[7], c.ep, base + offset, (long)count, desc,
                compareBase + compareOffset, compareDesc, resultBase + resultOffset, resultDesc, dest, addr, key,
                datatype.value(), op.value(), pool.address(slot)));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    long atomicv(final Ioc iov, final long dest, final long addr, final long key, final AtomicDatatype datatype,
        final AtomicOp op, final long context)
    {
        return vector(1, iov, null, null, dest, addr, key, datatype, op, context);
    }

    long fetchAtomicv(final Ioc iov, final Ioc result, final long dest, final long addr, final long key,
        final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return vector(5, iov, null, result, dest, addr, key, datatype, op, context);
    }

    long compareAtomicv(final Ioc iov, final Ioc compare, final Ioc result, final long dest, final long addr,
        final long key, final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return vector(8, iov, compare, result, dest, addr, key, datatype, op, context);
    }

    long atomicmsg(final AtomicMsg msg, final long flags)
    {
        return message(2, msg, null, null, flags);
    }

    long fetchAtomicmsg(final AtomicMsg msg, final Ioc result, final long flags)
    {
        return message(6, msg, null, result, flags);
    }

    long compareAtomicmsg(final AtomicMsg msg, final Ioc compare, final Ioc result, final long flags)
    {
        return message(9, msg, compare, result, flags);
    }

    private long vector(final int fn, final Ioc iov, final Ioc compare, final Ioc result, final long dest,
        final long addr, final long key, final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        final long check = check(fns[fn], datatype, op, dest);
        if (check != 0)
        {
            return check;
        }
        final SlotPool pool = c.tx;
        final int slot = pool.acquire();
        if (slot < 0)
        {
            return -Errno.FI_EAGAIN;
        }
        final long block = pool.address(slot);
        final Arrays a = new Arrays(block, c.maxIov);
        final long refused = fill(pool, slot, iov, compare, result, datatype, a);
        if (refused != 0)
        {
            pool.abandon(slot);
            return refused;
        }
        pool.publish(slot, context, 0, 0, c.txDefaultFlags);
        final long rc;
        try
        {
            if (fn == 1)
            {
                rc = (long)WRITE.invokeExact(fns[1], c.ep, a.iov, a.desc, count(iov), dest, addr, key,
                    datatype.value(), op.value(), block);
            }
            else if (fn == 5)
            {
                rc = (long)READWRITEV.invokeExact(fns[5], c.ep, a.iov, a.desc, count(iov), a.result, a.resultDesc,
                    count(result), dest, addr, key, datatype.value(), op.value(), block);
            }
            else
            {
                rc = (long)COMPWRITEV.invokeExact(fns[8], c.ep, a.iov, a.desc, count(iov), a.compare,
                    a.compareDesc, count(compare), a.result, a.resultDesc, count(result), dest, addr, key,
                    datatype.value(), op.value(), block);
            }
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
        return settle(pool, slot, rc);
    }

    private long message(final int fn, final AtomicMsg msg, final Ioc compare, final Ioc result, final long flags)
    {
        if (msg == null)
        {
            return -Errno.FI_EINVAL;
        }
        final long check = check(fns[fn], msg.datatype, msg.op, msg.addr);
        if (check != 0)
        {
            return check;
        }
        if (msg.rmaIov.count < 1 || msg.rmaIov.count > c.maxRmaIov)
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
        final Arrays a = new Arrays(block, c.maxIov);
        final long refused = fill(pool, slot, msg.msgIov.count == 0 ? null : msg.msgIov, compare, result,
            msg.datatype, a);
        if (refused != 0)
        {
            pool.abandon(slot);
            return refused;
        }
        final long rmaIoc = a.end;
        for (int i = 0; i < msg.rmaIov.count; i++)
        {
            final long at = rmaIoc + i * FI_RMA_IOC.byteSize();
            ALL.set(JAVA_LONG, at, msg.rmaIov.addr[i]);
            ALL.set(JAVA_LONG, at + 8, msg.rmaIov.elements[i]);
            ALL.set(JAVA_LONG, at + 16, msg.rmaIov.key[i]);
        }
        final long m = block + EpCore.MSG_OFFSET;
        ALL.set(JAVA_LONG, m + MSG_IOV, a.iov);
        ALL.set(JAVA_LONG, m + MSG_DESC, a.desc);
        ALL.set(JAVA_LONG, m + MSG_IOV_COUNT, msg.msgIov.count);
        ALL.set(JAVA_LONG, m + MSG_ADDR, msg.addr);
        ALL.set(JAVA_LONG, m + AMSG_RMA_IOV, rmaIoc);
        ALL.set(JAVA_LONG, m + AMSG_RMA_IOV_COUNT, msg.rmaIov.count);
        ALL.set(JAVA_INT, m + AMSG_DATATYPE, msg.datatype.value());
        ALL.set(JAVA_INT, m + AMSG_OP, msg.op.value());
        ALL.set(JAVA_LONG, m + AMSG_CONTEXT, block);
        ALL.set(JAVA_LONG, m + AMSG_DATA, msg.data);
        pool.publish(slot, msg.context, 0, 0,
            c.txSelective && (flags & Flags.FI_COMPLETION) == 0 ? OpFlags.SILENT : 0);
        final long rc;
        try
        {
            if (fn == 2)
            {
                rc = (long)Calls.L3.invokeExact(fns[2], c.ep, m, flags);
            }
            else if (fn == 6)
            {
                rc = (long)Calls.L6.invokeExact(fns[6], c.ep, m, a.result, a.resultDesc, count(result), flags);
            }
            else
            {
                rc = (long)Calls.L9.invokeExact(fns[9], c.ep, m, a.compare, a.compareDesc, count(compare), a.result,
                    a.resultDesc, count(result), flags);
            }
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
        return settle(pool, slot, rc);
    }

    private long check(final MemorySegment fn, final AtomicDatatype datatype, final AtomicOp op, final long dest)
    {
        if (c.state != EpCore.ENABLED)
        {
            return c.badState();
        }
        if (fn.address() == 0)
        {
            return -Errno.FI_ENOSYS;
        }
        return datatype == null || op == null || c.badPeer(dest) ? -Errno.FI_EINVAL : 0;
    }

    private static long settle(final SlotPool pool, final int slot, final long rc)
    {
        if (rc != 0)
        {
            pool.abandon(slot);
        }
        return rc;
    }

    private static long count(final Ioc ioc)
    {
        return ioc == null ? 0 : ioc.count;
    }

    private long fill(final SlotPool pool, final int slot, final Ioc iov, final Ioc compare, final Ioc result,
        final AtomicDatatype datatype, final Arrays a)
    {
        long rc = iocs(pool, slot, iov, 0, false, a.iov, a.desc, datatype);
        if (rc == 0)
        {
            rc = iocs(pool, slot, compare, c.maxIov, false, a.compare, a.compareDesc, datatype);
        }
        if (rc == 0)
        {
            rc = iocs(pool, slot, result, 2 * c.maxIov, true, a.result, a.resultDesc, datatype);
        }
        return rc;
    }

    private long iocs(final SlotPool pool, final int slot, final Ioc ioc, final int refBase, final boolean write,
        final long array, final long desc, final AtomicDatatype datatype)
    {
        if (ioc == null)
        {
            return 0;
        }
        if (ioc.count < 1 || ioc.count > c.maxIov)
        {
            return -Errno.FI_EINVAL;
        }
        for (int i = 0; i < ioc.count; i++)
        {
            final ByteBuffer buf = ioc.buf[i];
            final long base = write ? c.rxBase(buf) : Base.of(buf);
            if (base == 0 || ioc.elements[i] < 0 ||
                !EpCore.inBounds(buf, ioc.offset[i], (long)ioc.elements[i] * datatype.size()))
            {
                return c.refuse(buf, "atomic vector");
            }
            ALL.set(JAVA_LONG, array + i * EpCore.IOV_BYTES + IOC_ADDR, base + ioc.offset[i]);
            ALL.set(JAVA_LONG, array + i * EpCore.IOV_BYTES + IOC_COUNT, ioc.elements[i]);
            ALL.set(JAVA_LONG, desc + 8L * i, ioc.desc[i]);
            pool.reference(slot, refBase + i, buf);
        }
        return 0;
    }

    /** Where the fi_ioc and desc arrays of one atomic call sit in its slot's block. */
    private static final class Arrays
    {
        final long iov;
        final long desc;
        final long compare;
        final long compareDesc;
        final long result;
        final long resultDesc;
        final long end;

        Arrays(final long block, final int maxIov)
        {
            final long arrays = maxIov * EpCore.IOV_BYTES;
            final long descs = 8L * maxIov;
            iov = block + EpCore.IOV_OFFSET;
            desc = iov + arrays;
            compare = desc + descs;
            compareDesc = compare + arrays;
            result = compareDesc + descs;
            resultDesc = result + arrays;
            end = resultDesc + descs;
        }
    }

    /** The base address of a direct buffer, without the endpoint's cache (compare values). */
    private static final class Base
    {
        static long of(final ByteBuffer buf)
        {
            return buf == null || !buf.isDirect() ? 0 : MemorySegment.ofBuffer(buf).address() - buf.position();
        }
    }
}
