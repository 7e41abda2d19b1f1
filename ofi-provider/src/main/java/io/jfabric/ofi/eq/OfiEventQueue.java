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
package io.jfabric.ofi.eq;

import io.jfabric.EqAttr;
import io.jfabric.EqEntry;
import io.jfabric.EqErrEntry;
import io.jfabric.Errno;
import io.jfabric.EventQueue;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.WaitObj;
import io.jfabric.ofi.core.FidRegistry;
import io.jfabric.ofi.core.NativeCalls;
import io.jfabric.ofi.core.OfiFid;
import io.jfabric.ofi.core.ThreadScratch;
import io.jfabric.ofi.lib.CStrings;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.Downcalls;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static io.jfabric.ofi.lib.DataLayouts.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A native event queue ({@code struct fid_eq}, {@code fi_eq_open}): control-operation completions and the
 * provider's asynchronous events and errors (a connection to a peer lost, for instance). An event's {@code fid} comes
 * back as the jfabric object with that native fid. Reads return codes as the API says (1 for an entry), never throw.
 * Threads: any, as libfabric's EQs are.
 */
public final class OfiEventQueue extends OfiFid implements EventQueue
{
    private static final MethodHandle OPEN = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.PTR_ARG);
    private static final MethodHandle READ = Downcalls.blocking(CTypes.SIZE_T, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.SIZE_T, CTypes.U64);
    private static final MethodHandle READERR = Downcalls.blocking(CTypes.SIZE_T, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.U64);
    private static final MethodHandle WRITE = Downcalls.blocking(CTypes.SIZE_T, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.INT, CTypes.PTR_ARG, CTypes.SIZE_T, CTypes.U64);
    private static final MethodHandle SREAD = Downcalls.blocking(CTypes.SIZE_T, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.SIZE_T, CTypes.INT, CTypes.U64);
    private static final MethodHandle STRERROR = Downcalls.blocking(CTypes.PTR, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.INT, CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.SIZE_T);
    private static final long BLOCK = 256;

    private final EqAttr attr;
    private final Arena arena;
    private final ThreadScratch scratch;
    private final MemorySegment readFn;
    private final MemorySegment readerrFn;
    private final MemorySegment writeFn;
    private final MemorySegment sreadFn;
    private final MemorySegment strerrorFn;

    private OfiEventQueue(final long fid, final EqAttr attr, final long context, final OfiFid fabric,
        final Arena arena)
    {
        super(fid, FidClass.EQ, context, fabric, "eq");
        this.attr = attr;
        this.arena = arena;
        this.scratch = new ThreadScratch(arena, BLOCK);
        readFn = fn("read");
        readerrFn = fn("readerr");
        writeFn = fn("write");
        sreadFn = fn("sread");
        strerrorFn = fn("strerror");
    }

    private MemorySegment fn(final String name)
    {
        return Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_EQ, name));
    }

    /**
     * {@code fi_eq_open}.
     *
     * @param fabric  the fabric's object.
     * @param attr    the attributes.
     * @param context the application's context.
     * @return the queue.
     */
    public static OfiEventQueue open(final OfiFid fabric, final EqAttr attr, final long context)
    {
        if (attr == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_eq_open: attr must not be null");
        }
        final EqAttr inForce = attr.copy();
        final Arena arena = Arena.ofShared();
        try
        {
            final MemorySegment nativeAttr = arena.allocate(FI_EQ_ATTR);
            nativeAttr.set(JAVA_LONG, EQA_SIZE, inForce.size());
            nativeAttr.set(JAVA_LONG, EQA_FLAGS, inForce.flags());
            nativeAttr.set(JAVA_INT, EQA_WAIT_OBJ, inForce.waitObj() == null ? 0 : inForce.waitObj().value());
            nativeAttr.set(JAVA_INT, EQA_SIGNALING_VECTOR, inForce.signalingVector());
            final MemorySegment out = arena.allocate(ADDRESS);
            final MemorySegment fn = Ops.function(fabric.pointer(), FidLayouts.OBJ_OPS,
                FidLayouts.fn(FidLayouts.FI_OPS_FABRIC, "eq_open"));
            NativeCalls.check((int)OPEN.invokeExact(fn, fabric.pointer(), nativeAttr.address(), out.address(),
                context), "fi_eq_open(size=" + inForce.size() + ", wait_obj=" +
                (inForce.waitObj() == null ? "null" : inForce.waitObj().cName()) + ")");
            return new OfiEventQueue(out.get(ADDRESS, 0).address(), inForce, context, fabric, arena);
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

    @Override
    public EqAttr attr()
    {
        return attr.copy();
    }

    @Override
    public int read(final EqEntry entry, final long flags)
    {
        return read(entry, flags, false, 0);
    }

    @Override
    public int sread(final EqEntry entry, final int timeoutMillis, final long flags)
    {
        if (!isClosed() && (attr.waitObj() == null || attr.waitObj() == WaitObj.NONE))
        {
            return -Errno.FI_ENOSYS;
        }
        return read(entry, flags, true, timeoutMillis);
    }

    private int read(final EqEntry entry, final long flags, final boolean wait, final int timeoutMillis)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (entry == null)
        {
            return -Errno.FI_EINVAL;
        }
        if ((flags & ~Flags.FI_PEEK) != 0)
        {
            return -Errno.FI_EBADFLAGS;
        }
        final long event = scratch.address();
        final long buf = event + 8;
        final long rc;
        try
        {
            rc = wait ?
                (long)SREAD.invokeExact(sreadFn, fid, event, buf, FI_EQ_ENTRY.byteSize(), timeoutMillis, flags) :
                (long)READ.invokeExact(readFn, fid, event, buf, FI_EQ_ENTRY.byteSize(), flags);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
        if (rc < 0)
        {
            return (int)rc;
        }
        entry.set(CTypes.ALL.get(JAVA_INT, event), fidOf(CTypes.ALL.get(JAVA_LONG, buf + EQE_FID)),
            CTypes.ALL.get(JAVA_LONG, buf + EQE_CONTEXT), CTypes.ALL.get(JAVA_LONG, buf + EQE_DATA));
        return 1;
    }

    @Override
    public int readErr(final EqErrEntry entry, final long flags)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (entry == null)
        {
            return -Errno.FI_EINVAL;
        }
        if ((flags & ~Flags.FI_PEEK) != 0)
        {
            return -Errno.FI_EBADFLAGS;
        }
        final long err = scratch.address();
        CTypes.ALL.asSlice(err, FI_EQ_ERR_ENTRY.byteSize()).fill((byte)0);
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
        final long data = CTypes.ALL.get(JAVA_LONG, err + EQERR_ERR_DATA);
        final int size = (int)Math.min(CTypes.ALL.get(JAVA_LONG, err + EQERR_ERR_DATA_SIZE), 4096);
        final byte[] bytes = data == 0 || size <= 0 ? null : CStrings.bytes(data, size);
        entry.set(fidOf(CTypes.ALL.get(JAVA_LONG, err + EQE_FID)), CTypes.ALL.get(JAVA_LONG, err + EQE_CONTEXT),
            CTypes.ALL.get(JAVA_LONG, err + EQE_DATA), CTypes.ALL.get(JAVA_INT, err + EQERR_ERR),
            CTypes.ALL.get(JAVA_INT, err + EQERR_PROV_ERRNO), bytes, 0, bytes == null ? 0 : bytes.length);
        return 1;
    }

    @Override
    public int write(final int event, final EqEntry entry, final long flags)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (entry == null)
        {
            return -Errno.FI_EINVAL;
        }
        if (flags != 0)
        {
            return -Errno.FI_EBADFLAGS;
        }
        final long buf = scratch.address();
        CTypes.ALL.set(JAVA_LONG, buf + EQE_FID, FidRegistry.INSTANCE.pointerOf(entry.fid()));
        CTypes.ALL.set(JAVA_LONG, buf + EQE_CONTEXT, entry.context());
        CTypes.ALL.set(JAVA_LONG, buf + EQE_DATA, entry.data());
        final long rc;
        try
        {
            rc = (long)WRITE.invokeExact(writeFn, fid, event, buf, FI_EQ_ENTRY.byteSize(), flags);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
        return rc < 0 ? (int)rc : 1;
    }

    @Override
    public String strerror(final int provErrno, final byte[] errData)
    {
        checkOpen();
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment data = call.allocate((errData == null ? 0 : errData.length) + 1L);
            if (errData != null)
            {
                MemorySegment.copy(errData, 0, data, JAVA_BYTE, 0, errData.length);
            }
            final MemorySegment buf = call.allocate(256);
            return CStrings.read((MemorySegment)STRERROR.invokeExact(strerrorFn, fid, provErrno,
                errData == null ? 0L : data.address(), buf.address(), 256L));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    private static Fid fidOf(final long pointer)
    {
        return (Fid)FidRegistry.INSTANCE.objectOf(pointer);
    }

    @Override
    protected void afterClose()
    {
        arena.close();
    }
}
