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
package io.jfabric.ofi.cq;

import io.jfabric.Addresses;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.WaitObj;
import io.jfabric.ofi.core.NativeCalls;
import io.jfabric.ofi.core.OfiFid;
import io.jfabric.ofi.core.ThreadScratch;
import io.jfabric.ofi.ctx.OpFlags;
import io.jfabric.ofi.ctx.SlotPool;
import io.jfabric.ofi.lib.CStrings;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.DataLayouts;
import io.jfabric.ofi.lib.Downcalls;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayDeque;
import java.util.Arrays;

import static io.jfabric.ofi.lib.DataLayouts.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A native completion queue ({@code struct fid_cq}): {@code fi_cq_read} into native entries of the queue's format,
 * each turned back into the application's {@code long} context through the {@link SlotPool} of the endpoint
 * direction that posted it (which then forgets the operation's buffers). Manual progress happens inside libfabric's
 * read, as in C. {@code sread} is {@code fi_cq_sread} on a handle that is not critical, so a wait never holds up the
 * JVM.
 * <p>
 * Data path: read, readFrom, readErr, signal return counts or negated errnos, never throw, allocate nothing (each
 * reading thread's native entry buffer is allocated once, {@link ThreadScratch}). Threads: as the domain's model; the
 * queue adds no lock.
 */
public final class OfiCompletionQueue extends OfiFid implements CompletionQueue
{
    /** Most entries one native read takes. */
    public static final int MAX_BATCH = 64;

    private static final MethodHandle READ = Downcalls.quick(CTypes.SIZE_T, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.SIZE_T);
    private static final MethodHandle READFROM = Downcalls.quick(CTypes.SIZE_T, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.SIZE_T, CTypes.PTR_ARG);
    private static final MethodHandle READERR = Downcalls.quick(CTypes.SIZE_T, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.U64);
    private static final MethodHandle SREAD = Downcalls.blocking(CTypes.SIZE_T, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.SIZE_T, CTypes.PTR_ARG, CTypes.INT);
    private static final MethodHandle SREADFROM = Downcalls.blocking(CTypes.SIZE_T, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.SIZE_T, CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.INT);
    private static final MethodHandle SIGNAL = Downcalls.quick(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG);
    private static final MethodHandle STRERROR = Downcalls.blocking(CTypes.PTR, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.INT, CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.SIZE_T);
    private static final MethodHandle OPEN = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.PTR_ARG);
    private static final long ERR_ENTRY = FI_CQ_ERR_ENTRY.byteSize();
    private static final long BLOCK = MAX_BATCH * (FI_CQ_TAGGED_ENTRY.byteSize() + 8) + ERR_ENTRY + 64;

    private final CqAttr attr;
    private final CqFormat format;
    private final long entrySize;
    private final long errDataMax;
    private final Arena arena;
    private final ThreadScratch scratch;
    private final MemorySegment readFn;
    private final MemorySegment readfromFn;
    private final MemorySegment readerrFn;
    private final MemorySegment sreadFn;
    private final MemorySegment sreadfromFn;
    private final MemorySegment signalFn;
    private final MemorySegment strerrorFn;
    private final long condition;
    private volatile SlotPool[] pools = new SlotPool[0];
    private volatile SlotPool[] closedPools = new SlotPool[0];
    private final ArrayDeque<long[]> cancelled = new ArrayDeque<>();
    private volatile int cancelledCount;
    private volatile boolean strayReported;

    private OfiCompletionQueue(final long fid, final CqAttr attr, final long context, final OfiFid domain,
        final Arena arena, final long condition)
    {
        super(fid, FidClass.CQ, context, domain, "cq(" + attr.format().cName() + ")");
        this.attr = attr;
        this.format = attr.format();
        this.entrySize = entrySize(format);
        this.errDataMax = 256;
        this.arena = arena;
        this.scratch = new ThreadScratch(arena, BLOCK);
        this.readFn = Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_CQ, "read"));
        this.readfromFn = Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_CQ, "readfrom"));
        this.readerrFn = Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_CQ, "readerr"));
        this.sreadFn = Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_CQ, "sread"));
        this.sreadfromFn = Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_CQ, "sreadfrom"));
        this.signalFn = Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_CQ, "signal"));
        this.strerrorFn = Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_CQ, "strerror"));
        this.condition = condition;
    }

    /**
     * {@code fi_cq_open}.
     *
     * @param domain  the domain's object.
     * @param attr    the attributes; UNSPEC format opens a TAGGED queue (every field).
     * @param context the application's context.
     * @return the queue.
     */
    public static OfiCompletionQueue open(final OfiFid domain, final CqAttr attr, final long context)
    {
        if (attr == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_cq_open: attr must not be null");
        }
        final CqAttr inForce = attr.copy();
        if (inForce.format() == null || inForce.format() == CqFormat.UNSPEC)
        {
            inForce.format(CqFormat.TAGGED);
        }
        final Arena arena = Arena.ofShared();
        try
        {
            final MemorySegment nativeAttr = arena.allocate(FI_CQ_ATTR);
            nativeAttr.set(JAVA_LONG, CQA_SIZE, inForce.size());
            nativeAttr.set(JAVA_LONG, CQA_FLAGS, inForce.flags());
            nativeAttr.set(JAVA_INT, CQA_FORMAT, inForce.format().value());
            nativeAttr.set(JAVA_INT, CQA_WAIT_OBJ, inForce.waitObj() == null ? 0 : inForce.waitObj().value());
            nativeAttr.set(JAVA_INT, CQA_SIGNALING_VECTOR, inForce.signalingVector());
            nativeAttr.set(JAVA_INT, CQA_WAIT_COND, inForce.waitCond());
            final MemorySegment out = arena.allocate(ADDRESS);
            final MemorySegment fn = Ops.function(domain.pointer(), FidLayouts.OBJ_OPS,
                FidLayouts.fn(FidLayouts.FI_OPS_DOMAIN, "cq_open"));
            final int rc = (int)OPEN.invokeExact(fn, domain.pointer(), nativeAttr.address(), out.address(), context);
            NativeCalls.check(rc, "fi_cq_open(format=" + inForce.format().cName() + ", size=" + inForce.size() +
                ", wait_obj=" + (inForce.waitObj() == null ? "null" : inForce.waitObj().cName()) + ")");
            inForce.size(nativeAttr.get(JAVA_LONG, CQA_SIZE));
            final MemorySegment threshold = arena.allocate(JAVA_LONG);
            threshold.set(JAVA_LONG, 0, inForce.condThreshold());
            return new OfiCompletionQueue(out.get(ADDRESS, 0).address(), inForce, context, domain, arena,
                inForce.waitCond() == CqAttr.FI_CQ_COND_THRESHOLD ? threshold.address() : 0);
        }
        catch (final RuntimeException | Error ex)
        {
            arena.close();
            throw ex;
        }
        catch (final Throwable t)
        {
            arena.close();
            throw NativeCalls.rethrow(t);
        }
    }

    private static long entrySize(final CqFormat format)
    {
        switch (format)
        {
            case CONTEXT:
                return FI_CQ_ENTRY.byteSize();
            case MSG:
                return FI_CQ_MSG_ENTRY.byteSize();
            case DATA:
                return FI_CQ_DATA_ENTRY.byteSize();
            default:
                return FI_CQ_TAGGED_ENTRY.byteSize();
        }
    }

    /**
     * An endpoint direction bound to this queue: its completions come here and are resolved through its pool.
     *
     * @param pool the direction's pool.
     */
    public synchronized void addPool(final SlotPool pool)
    {
        final SlotPool[] current = pools;
        final SlotPool[] next = Arrays.copyOf(current, current.length + 1);
        next[current.length] = pool;
        pools = next;
    }

    /**
     * The endpoint closed (with nothing in flight): its pool is no longer searched.
     *
     * @param pool the direction's pool.
     */
    public synchronized void removePool(final SlotPool pool)
    {
        pools = Arrays.stream(pools).filter(p -> p != pool).toArray(SlotPool[]::new);
        final SlotPool[] closed = Arrays.copyOf(closedPools, closedPools.length + 1);
        closed[closedPools.length] = pool;
        closedPools = closed;
    }

    /**
     * An endpoint closed with an operation of this queue in flight: libfabric has let go of it (fi_close returned),
     * so its slot is freed now and the application gets an FI_ECANCELED error entry for it from {@link #readErr},
     * read reporting -FI_EAVAIL until then. A completion libfabric had already queued for it is dropped when read.
     *
     * @param context the operation's application context.
     * @param flags   the entry's flags (FI_SEND or FI_RECV).
     */
    public synchronized void cancelled(final long context, final long flags)
    {
        cancelled.add(new long[] {context, flags});
        cancelledCount = cancelled.size();
    }

    @Override
    public CqAttr attr()
    {
        return attr.copy();
    }

    @Override
    public int read(final CqEntries entries, final int count)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (entries == null || count < 1 || count > entries.capacity())
        {
            return -Errno.FI_EINVAL;
        }
        if (cancelledCount != 0)
        {
            return -Errno.FI_EAVAIL;
        }
        final long block = scratch.address();
        final long wanted = Math.min(count, MAX_BATCH);
        final long rc;
        try
        {
            rc = (long)READ.invokeExact(readFn, fid, block, wanted);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
        return rc > 0 ? deliver(entries, block, (int)rc, 0) : (int)rc;
    }

    @Override
    public int readFrom(final CqEntries entries, final int count)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (entries == null || count < 1 || count > entries.capacity())
        {
            return -Errno.FI_EINVAL;
        }
        if (readfromFn.equals(MemorySegment.NULL))
        {
            return -Errno.FI_ENOSYS;
        }
        if (cancelledCount != 0)
        {
            return -Errno.FI_EAVAIL;
        }
        final long block = scratch.address();
        final long wanted = Math.min(count, MAX_BATCH);
        final long sources = block + MAX_BATCH * entrySize;
        final long rc;
        try
        {
            rc = (long)READFROM.invokeExact(readfromFn, fid, block, wanted, sources);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
        return rc > 0 ? deliver(entries, block, (int)rc, sources) : (int)rc;
    }

    @Override
    public int sread(final CqEntries entries, final int count, final int timeoutMs)
    {
        return sread(entries, count, timeoutMs, false);
    }

    @Override
    public int sreadFrom(final CqEntries entries, final int count, final int timeoutMs)
    {
        return sread(entries, count, timeoutMs, true);
    }

    private int sread(final CqEntries entries, final int count, final int timeoutMs, final boolean from)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (entries == null || count < 1 || count > entries.capacity())
        {
            return -Errno.FI_EINVAL;
        }
        if (attr.waitObj() == null || attr.waitObj() == WaitObj.NONE)
        {
            return -Errno.FI_ENOSYS;
        }
        final long block = scratch.address();
        final long wanted = Math.min(count, MAX_BATCH);
        final long sources = block + MAX_BATCH * entrySize;
        final long rc;
        try
        {
            rc = from ?
                (long)SREADFROM.invokeExact(sreadfromFn, fid, block, wanted, sources, condition, timeoutMs) :
                (long)SREAD.invokeExact(sreadFn, fid, block, wanted, condition, timeoutMs);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
        return rc > 0 ? deliver(entries, block, (int)rc, from ? sources : 0) : (int)rc;
    }

    private int deliver(final CqEntries entries, final long block, final int n, final long sources)
    {
        int out = 0;
        for (int i = 0; i < n; i++)
        {
            final long entry = block + i * entrySize;
            final long opContext = CTypes.ALL.get(JAVA_LONG, entry + CQE_OP_CONTEXT);
            final long entryFlags = format == CqFormat.CONTEXT ? 0 : CTypes.ALL.get(JAVA_LONG, entry + CQE_FLAGS);
            final SlotPool pool = poolOf(opContext);
            long context = opContext;
            long offset = 0;
            long base = 0;
            if (pool == null && closedPool(opContext))
            {
                continue;
            }
            if (pool != null)
            {
                final int slot = pool.slotOf(opContext);
                if (!pool.isPosted(slot))
                {
                    stray(opContext);
                    continue;
                }
                final int opFlags = pool.flags(slot);
                base = pool.bufferBase(slot);
                offset = pool.offset(slot);
                if ((opFlags & OpFlags.MULTI_RECV) != 0 && (entryFlags & Flags.FI_MULTI_RECV) == 0)
                {
                    context = pool.context(slot);
                }
                else
                {
                    context = pool.complete(slot);
                }
                if ((opFlags & OpFlags.SILENT) != 0)
                {
                    continue;
                }
            }
            else if (opContext != 0)
            {
                stray(opContext);
            }
            fill(entries, out, entry, context, entryFlags, base, offset);
            entries.srcAddr[out] = sources == 0 ? Addresses.FI_ADDR_NOTAVAIL : CTypes.ALL.get(JAVA_LONG,
                sources + 8L * i);
            out++;
        }
        return out > 0 ? out : -Errno.FI_EAGAIN;
    }

    private void fill(final CqEntries entries, final int i, final long entry, final long context,
        final long entryFlags, final long base, final long offset)
    {
        entries.opContext[i] = context;
        entries.flags[i] = entryFlags;
        if (format == CqFormat.CONTEXT)
        {
            return;
        }
        entries.len[i] = CTypes.ALL.get(JAVA_LONG, entry + CQE_LEN);
        if (format == CqFormat.MSG)
        {
            return;
        }
        final long buf = CTypes.ALL.get(JAVA_LONG, entry + CQE_BUF);
        entries.bufOffset[i] = buf != 0 && base != 0 ? buf - base : offset;
        entries.data[i] = CTypes.ALL.get(JAVA_LONG, entry + CQE_DATA);
        if (format == CqFormat.TAGGED)
        {
            entries.tag[i] = CTypes.ALL.get(JAVA_LONG, entry + CQE_TAG);
        }
    }

    private SlotPool poolOf(final long opContext)
    {
        if (opContext == 0)
        {
            return null;
        }
        for (final SlotPool pool : pools)
        {
            if (pool.slotOf(opContext) >= 0)
            {
                return pool;
            }
        }
        return null;
    }

    private boolean closedPool(final long opContext)
    {
        for (final SlotPool pool : closedPools)
        {
            if (pool.slotOf(opContext) >= 0)
            {
                return true;
            }
        }
        return false;
    }

    private synchronized long[] nextCancelled()
    {
        final long[] next = cancelled.poll();
        cancelledCount = cancelled.size();
        return next;
    }

    private void stray(final long opContext)
    {
        if (!strayReported)
        {
            strayReported = true;
            System.getLogger(OfiCompletionQueue.class.getName()).log(System.Logger.Level.WARNING,
                "jfabric ofi: " + name() + " read a completion for context 0x" + Long.toHexString(opContext) +
                " that no operation of its endpoints posted; reported as is (logged once)");
        }
    }

    @Override
    public int readErr(final CqErrEntry entry, final long flags)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (entry == null)
        {
            return -Errno.FI_EINVAL;
        }
        if (cancelledCount != 0)
        {
            final long[] c = nextCancelled();
            if (c != null)
            {
                entry.opContext = c[0];
                entry.flags = c[1];
                entry.len = 0;
                entry.bufOffset = 0;
                entry.data = 0;
                entry.tag = 0;
                entry.olen = 0;
                entry.err = Errno.FI_ECANCELED;
                entry.provErrno = Errno.FI_ECANCELED;
                entry.srcAddr = Addresses.FI_ADDR_NOTAVAIL;
                final byte[] why = "endpoint closed with the operation in flight".getBytes();
                entry.errDataSize = Math.min(why.length, entry.errData.length);
                System.arraycopy(why, 0, entry.errData, 0, entry.errDataSize);
                return 1;
            }
        }
        final long err = scratch.address() + BLOCK - ERR_ENTRY - 64;
        CTypes.ALL.asSlice(err, ERR_ENTRY).fill((byte)0);
        final long rc;
        try
        {
            rc = (long)READERR.invokeExact(readerrFn, fid, err, flags);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
        if (rc <= 0)
        {
            return rc == 0 ? -Errno.FI_EAGAIN : (int)rc;
        }
        final long opContext = CTypes.ALL.get(JAVA_LONG, err + CQE_OP_CONTEXT);
        final SlotPool pool = poolOf(opContext);
        long base = 0;
        long offset = 0;
        long context = opContext;
        if (pool != null)
        {
            final int slot = pool.slotOf(opContext);
            if (pool.isPosted(slot))
            {
                base = pool.bufferBase(slot);
                offset = pool.offset(slot);
                context = pool.complete(slot);
            }
        }
        entry.opContext = context;
        entry.flags = CTypes.ALL.get(JAVA_LONG, err + CQE_FLAGS);
        entry.len = CTypes.ALL.get(JAVA_LONG, err + CQE_LEN);
        final long buf = CTypes.ALL.get(JAVA_LONG, err + CQE_BUF);
        entry.bufOffset = buf != 0 && base != 0 ? buf - base : offset;
        entry.data = CTypes.ALL.get(JAVA_LONG, err + CQE_DATA);
        entry.tag = CTypes.ALL.get(JAVA_LONG, err + CQE_TAG);
        entry.olen = CTypes.ALL.get(JAVA_LONG, err + CQERR_OLEN);
        entry.err = CTypes.ALL.get(JAVA_INT, err + CQERR_ERR);
        entry.provErrno = CTypes.ALL.get(JAVA_INT, err + CQERR_PROV_ERRNO);
        entry.srcAddr = Addresses.FI_ADDR_NOTAVAIL;
        final long data = CTypes.ALL.get(JAVA_LONG, err + CQERR_ERR_DATA);
        final long size = Math.min(CTypes.ALL.get(JAVA_LONG, err + CQERR_ERR_DATA_SIZE), entry.errData.length);
        if (data != 0 && size > 0)
        {
            MemorySegment.copy(CTypes.ALL, JAVA_BYTE, data, entry.errData, 0, (int)size);
            entry.errDataSize = (int)size;
        }
        else
        {
            entry.errDataSize = 0;
        }
        return 1;
    }

    @Override
    public int signal()
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        try
        {
            return (int)SIGNAL.invokeExact(signalFn, fid);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public String strerror(final int provErrno, final byte[] errData)
    {
        checkOpen();
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment data = errData == null ? MemorySegment.NULL : call.allocate(errData.length + 1L);
            if (errData != null)
            {
                MemorySegment.copy(errData, 0, data, JAVA_BYTE, 0, errData.length);
            }
            final MemorySegment buf = call.allocate(errDataMax);
            final MemorySegment text = (MemorySegment)STRERROR.invokeExact(strerrorFn, fid, provErrno,
                data.address(), buf.address(), errDataMax);
            return CStrings.read(text);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    protected void afterClose()
    {
        arena.close();
    }
}
