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
package io.jfabric.ofi.cntr;

import io.jfabric.CntrAttr;
import io.jfabric.Counter;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.FidClass;
import io.jfabric.ofi.core.NativeCalls;
import io.jfabric.ofi.core.OfiFid;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.Downcalls;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static io.jfabric.ofi.lib.DataLayouts.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A native completion counter ({@code struct fid_cntr}, {@code fi_cntr_open}). Reads, adds and sets are data path
 * (values or negated errnos, no exception); {@link #await} is {@code fi_cntr_wait} on a handle that is not
 * critical. Once closed, reads return the counts at close. Threads: any, as libfabric's counters are.
 */
public final class OfiCounter extends OfiFid implements Counter
{
    private static final MethodHandle OPEN = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.PTR_ARG);
    private static final MethodHandle READ = Downcalls.quick(CTypes.U64, CTypes.PTR, CTypes.PTR_ARG);
    private static final MethodHandle SET = Downcalls.quick(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG, CTypes.U64);
    private static final MethodHandle WAIT = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG, CTypes.U64,
        CTypes.INT);

    private final CntrAttr attr;
    private final MemorySegment readFn;
    private final MemorySegment readerrFn;
    private final MemorySegment addFn;
    private final MemorySegment setFn;
    private final MemorySegment waitFn;
    private final MemorySegment adderrFn;
    private final MemorySegment seterrFn;
    private volatile long countAtClose;
    private volatile long errorsAtClose;

    private OfiCounter(final long fid, final CntrAttr attr, final long context, final OfiFid domain)
    {
        super(fid, FidClass.CNTR, context, domain, "cntr");
        this.attr = attr;
        readFn = fn("read");
        readerrFn = fn("readerr");
        addFn = fn("add");
        setFn = fn("set");
        waitFn = fn("wait");
        adderrFn = fn("adderr");
        seterrFn = fn("seterr");
    }

    private MemorySegment fn(final String name)
    {
        return Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_CNTR, name));
    }

    /**
     * {@code fi_cntr_open}.
     *
     * @param domain  the domain's object.
     * @param attr    the attributes, or null for the defaults.
     * @param context the application's context.
     * @return the counter.
     */
    public static OfiCounter open(final OfiFid domain, final CntrAttr attr, final long context)
    {
        final CntrAttr inForce = attr == null ? new CntrAttr() : attr.copy();
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment a = call.allocate(FI_CNTR_ATTR);
            a.set(JAVA_INT, CNTRA_EVENTS, inForce.events());
            a.set(JAVA_INT, CNTRA_WAIT_OBJ, inForce.waitObj() == null ? 0 : inForce.waitObj().value());
            a.set(JAVA_LONG, CNTRA_FLAGS, inForce.flags());
            final MemorySegment out = call.allocate(ADDRESS);
            final MemorySegment fn = Ops.function(domain.pointer(), FidLayouts.OBJ_OPS,
                FidLayouts.fn(FidLayouts.FI_OPS_DOMAIN, "cntr_open"));
            if (fn.address() == 0)
            {
                throw new FabricException(Errno.FI_ENOSYS, "fi_cntr_open: the domain has no counters");
            }
            NativeCalls.check((int)OPEN.invokeExact(fn, domain.pointer(), a.address(), out.address(), context),
                "fi_cntr_open(wait_obj=" + (inForce.waitObj() == null ? "null" : inForce.waitObj().cName()) + ")");
            return new OfiCounter(out.get(ADDRESS, 0).address(), inForce, context, domain);
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public long read()
    {
        return isClosed() ? countAtClose : get(readFn);
    }

    @Override
    public long readErr()
    {
        return isClosed() ? errorsAtClose : get(readerrFn);
    }

    private long get(final MemorySegment fn)
    {
        try
        {
            return (long)READ.invokeExact(fn, fid);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public int add(final long value)
    {
        return set(addFn, value);
    }

    @Override
    public int addErr(final long value)
    {
        return set(adderrFn, value);
    }

    @Override
    public int set(final long value)
    {
        return set(setFn, value);
    }

    @Override
    public int setErr(final long value)
    {
        return set(seterrFn, value);
    }

    private int set(final MemorySegment fn, final long value)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (fn.address() == 0)
        {
            return -Errno.FI_ENOSYS;
        }
        try
        {
            return (int)SET.invokeExact(fn, fid, value);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public int await(final long threshold, final int timeoutMs)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (waitFn.address() == 0)
        {
            return -Errno.FI_ENOSYS;
        }
        try
        {
            return (int)WAIT.invokeExact(waitFn, fid, threshold, timeoutMs);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public CntrAttr attr()
    {
        return attr.copy();
    }

    @Override
    protected void checkClose()
    {
        countAtClose = get(readFn);
        errorsAtClose = get(readerrFn);
    }
}
