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
package io.jfabric.ofi;

import io.jfabric.AddressVector;
import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.AvAttr;
import io.jfabric.CntrAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.Counter;
import io.jfabric.CqAttr;
import io.jfabric.Domain;
import io.jfabric.DomainAttr;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.MrAttr;
import io.jfabric.MrIov;
import io.jfabric.RxAttr;
import io.jfabric.ScalableEndpoint;
import io.jfabric.ShareableMemory;
import io.jfabric.Threading;
import io.jfabric.TxAttr;
import io.jfabric.ofi.av.OfiAddressVector;
import io.jfabric.ofi.cntr.OfiCounter;
import io.jfabric.ofi.core.FidRegistry;
import io.jfabric.ofi.core.NativeCalls;
import io.jfabric.ofi.core.OfiFid;
import io.jfabric.ofi.cq.OfiCompletionQueue;
import io.jfabric.ofi.ep.OfiEndpoint;
import io.jfabric.ofi.info.NativeInfo;
import io.jfabric.ofi.info.ProviderNameMap;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.DataLayouts;
import io.jfabric.ofi.lib.Downcalls;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;
import io.jfabric.ofi.mr.OfiMemoryRegion;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A native domain ({@code struct fid_domain}, {@code fi_domain}): opens the queues, address vectors, counters,
 * registrations and endpoints of one native provider's domain. The info it was opened with stays allocated natively
 * until it closes. Its threading model (domain_attr.threading as getinfo answered, FI_THREAD_SAFE for tcp;ofi_rxm)
 * decides which slot pool the endpoints use; nothing here adds a lock the model does not need.
 * <p>
 * Not built (FI_ENOSYS): scalable endpoints and shared contexts (tcp;ofi_rxm offers neither: max_ep_tx_ctx 1,
 * max_ep_stx_ctx 0), fi_open_ops/fi_set_ops (provider-specific callbacks). Control path; thread safe.
 */
final class OfiDomain extends OfiFid implements Domain
{
    private static final MethodHandle OPEN = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.PTR_ARG);
    private static final MethodHandle OPEN2 = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.U64, CTypes.PTR_ARG);
    private static final MethodHandle QUERY_ATOMIC = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.INT, CTypes.INT, CTypes.PTR_ARG, CTypes.U64);
    private static final int FI_MAP_RAW_MR = 9;
    private static final int FI_UNMAP_KEY = 10;

    private final OfiFabric fabric;
    private final Info info;
    private final long nativeInfo;
    private final Threading threading;
    private final int mrMode;

    private OfiDomain(final long fid, final OfiFabric fabric, final Info info, final long nativeInfo,
        final long context)
    {
        super(fid, FidClass.DOMAIN, context, fabric, "domain(" + info.fabricAttr().provName() + ", " +
            info.domainAttr().name() + ")");
        this.fabric = fabric;
        this.info = info;
        this.nativeInfo = nativeInfo;
        this.threading = info.domainAttr().threading();
        this.mrMode = info.domainAttr().mrMode();
        info.domainAttr().domain(this);
    }

    static OfiDomain open(final OfiFabric fabric, final Info info, final long flags, final long context)
    {
        if (info == null || info.domainAttr() == null || info.fabricAttr() == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_domain: an info with domain and fabric attributes is " +
                "needed");
        }
        final Info copy = info.copy();
        copy.domainAttr().domain(null);
        copy.fabricAttr().fabric(fabric);
        final long nativeInfo = NativeInfo.allocate(copy, ProviderNameMap.toNative(copy.fabricAttr().provName()),
            FidRegistry.INSTANCE);
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment out = call.allocate(ADDRESS);
            final String what = "fi_domain(" + copy.fabricAttr().provName() + ", " + copy.domainAttr().name() + ")";
            if (flags == 0)
            {
                final MemorySegment fn = Ops.function(fabric.pointer(), FidLayouts.OBJ_OPS,
                    FidLayouts.fn(FidLayouts.FI_OPS_FABRIC, "domain"));
                NativeCalls.check((int)OPEN.invokeExact(fn, fabric.pointer(), nativeInfo, out.address(), context),
                    what);
            }
            else
            {
                final MemorySegment fn = Ops.function(fabric.pointer(), FidLayouts.OBJ_OPS,
                    FidLayouts.fn(FidLayouts.FI_OPS_FABRIC, "domain2"));
                if (fn.address() == 0)
                {
                    throw new FabricException(Errno.FI_ENOSYS, "fi_domain2: the fabric has no domain2");
                }
                NativeCalls.check((int)OPEN2.invokeExact(fn, fabric.pointer(), nativeInfo, out.address(), flags,
                    context), what);
            }
            return new OfiDomain(out.get(ADDRESS, 0).address(), fabric, copy, nativeInfo, context);
        }
        catch (final RuntimeException | Error ex)
        {
            NativeInfo.free(nativeInfo);
            throw ex;
        }
        catch (final Throwable t)
        {
            NativeInfo.free(nativeInfo);
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public Fabric fabric()
    {
        return fabric;
    }

    @Override
    public Info info()
    {
        return info.copy();
    }

    @Override
    public DomainAttr attr()
    {
        return info.domainAttr().copy();
    }

    /** @return the threading model in force. */
    public Threading threading()
    {
        return threading;
    }

    @Override
    public void bind(final Fid eq, final long flags)
    {
        if (!(eq instanceof OfiFid other) || eq.fidClass() != FidClass.EQ)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_domain_bind: " + eq + " is not an event queue of the ofi " +
                "provider");
        }
        if ((flags & ~Flags.FI_REG_MR) != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_domain_bind: flags 0x" + Long.toHexString(flags));
        }
        nativeBind(other, flags, "fi_domain_bind");
        other.use();
    }

    @Override
    public Object openOps(final String name, final long flags, final long context)
    {
        throw new FabricException(Errno.FI_ENOSYS, "fi_open_ops(" + name + "): provider-specific interfaces are " +
            "not reached through jfabric");
    }

    @Override
    public void setOps(final String name, final long flags, final Object ops, final long context)
    {
        throw new FabricException(Errno.FI_ENOSYS, "fi_set_ops(" + name + "): not built for native providers");
    }

    @Override
    public AddressVector avOpen(final AvAttr attr, final long context)
    {
        checkOpen();
        return OfiAddressVector.open(this, attr, context);
    }

    @Override
    public MemoryRegion mrReg(final ByteBuffer buffer, final long access, final long offset, final long requestedKey,
        final long flags, final long context)
    {
        if (buffer == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_reg: buffer is null");
        }
        return mrRegv(new MrIov[] {MrIov.of(buffer)}, access, offset, requestedKey, flags, context);
    }

    @Override
    public MemoryRegion mrRegv(final MrIov[] iov, final long access, final long offset, final long requestedKey,
        final long flags, final long context)
    {
        return mrRegAttr(new MrAttr().iov(iov).access(access).offset(offset).requestedKey(requestedKey)
            .context(context), flags);
    }

    @Override
    public MemoryRegion mrRegAttr(final MrAttr attr, final long flags)
    {
        checkOpen();
        return OfiMemoryRegion.register(this, attr, flags, mrMode);
    }

    /** @return native memory ({@link OfiMemory}), page aligned and zero filled, to register for RMA. */
    @Override
    public ShareableMemory allocShareable(final long length)
    {
        checkOpen();
        return OfiMemory.allocate(length);
    }

    @Override
    public long mrMapRaw(final long baseAddr, final byte[] rawKey, final long flags)
    {
        if (rawKey == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_map_raw: raw key is null");
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment key = call.allocate(Math.max(1, rawKey.length));
            MemorySegment.copy(rawKey, 0, key, JAVA_BYTE, 0, rawKey.length);
            final MemorySegment out = call.allocate(JAVA_LONG);
            final MemorySegment map = call.allocate(DataLayouts.FI_MR_MAP_RAW);
            map.set(JAVA_LONG, DataLayouts.MRMAP_FLAGS, flags);
            map.set(JAVA_LONG, DataLayouts.MRMAP_BASE_ADDR, baseAddr);
            map.set(JAVA_LONG, DataLayouts.MRMAP_RAW_KEY, key.address());
            map.set(JAVA_LONG, DataLayouts.MRMAP_KEY_SIZE, rawKey.length);
            map.set(JAVA_LONG, DataLayouts.MRMAP_KEY, out.address());
            control(FI_MAP_RAW_MR, map.address(), "fi_mr_map_raw");
            return out.get(JAVA_LONG, 0);
        }
    }

    @Override
    public void mrUnmapKey(final long key)
    {
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment k = call.allocate(JAVA_LONG);
            k.set(JAVA_LONG, 0, key);
            control(FI_UNMAP_KEY, k.address(), "fi_mr_unmap_key");
        }
    }

    @Override
    public Counter cntrOpen(final CntrAttr attr, final long context)
    {
        checkOpen();
        return OfiCounter.open(this, attr, context);
    }

    @Override
    public Endpoint endpoint(final Info info, final long context)
    {
        checkOpen();
        return OfiEndpoint.open(this, info, context, threading, FidRegistry.INSTANCE);
    }

    @Override
    public ScalableEndpoint scalableEndpoint(final Info info, final long context)
    {
        throw new FabricException(Errno.FI_ENOSYS, "fi_scalable_ep: not built for native providers");
    }

    @Override
    public int queryAtomic(final AtomicDatatype datatype, final AtomicOp op, final long flags)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (datatype == null || op == null)
        {
            return -Errno.FI_EINVAL;
        }
        final MemorySegment fn = Ops.function(fid, FidLayouts.OBJ_OPS,
            FidLayouts.fn(FidLayouts.FI_OPS_DOMAIN, "query_atomic"));
        if (fn.address() == 0)
        {
            return -Errno.FI_EOPNOTSUPP;
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment attr = call.allocate(DataLayouts.FI_ATOMIC_ATTR);
            final int rc = (int)QUERY_ATOMIC.invokeExact(fn, fid, datatype.value(), op.value(), attr.address(),
                flags);
            return rc < 0 ? rc : (int)Math.min(Integer.MAX_VALUE, attr.get(JAVA_LONG, DataLayouts.ATOMIC_ATTR_COUNT));
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public Fid stxContext(final TxAttr attr, final long context)
    {
        throw new FabricException(Errno.FI_ENOSYS, "fi_stx_context: not built for native providers");
    }

    @Override
    public Endpoint srxContext(final RxAttr attr, final long context)
    {
        throw new FabricException(Errno.FI_ENOSYS, "fi_srx_context: not built for native providers");
    }

    @Override
    public CompletionQueue cqOpen(final CqAttr attr, final long context)
    {
        checkOpen();
        return OfiCompletionQueue.open(this, attr, context);
    }

    @Override
    protected void afterClose()
    {
        NativeInfo.free(nativeInfo);
    }
}
