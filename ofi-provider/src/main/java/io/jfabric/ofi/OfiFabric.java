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

import io.jfabric.Domain;
import io.jfabric.EqAttr;
import io.jfabric.Errno;
import io.jfabric.EventQueue;
import io.jfabric.Fabric;
import io.jfabric.FabricAttr;
import io.jfabric.FabricException;
import io.jfabric.FidClass;
import io.jfabric.Info;
import io.jfabric.ofi.core.FidRegistry;
import io.jfabric.ofi.core.NativeCalls;
import io.jfabric.ofi.core.OfiFid;
import io.jfabric.ofi.info.InfoCodec;
import io.jfabric.ofi.info.ProviderNameMap;
import io.jfabric.ofi.lib.CStrings;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.InfoLayouts;
import io.jfabric.ofi.lib.Libfabric;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A native fabric ({@code struct fid_fabric}, {@code fi_fabric}). Control path; thread safe.
 */
final class OfiFabric extends OfiFid implements Fabric
{
    private final FabricAttr attr;

    private OfiFabric(final long fid, final FabricAttr attr, final long context)
    {
        super(fid, FidClass.FABRIC, context, null, "fabric(" + attr.provName() + ", " + attr.name() + ")");
        this.attr = attr;
    }

    static OfiFabric open(final FabricAttr attr, final long context)
    {
        final Libfabric lib = Libfabric.get();
        final String provName = attr.provName();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment nativeAttr = arena.allocate(InfoLayouts.FI_FABRIC_ATTR);
            final MemorySegment out = arena.allocate(ADDRESS);
            InfoCodec.fabricToNative(attr, nativeAttr.address(), ProviderNameMap.toNative(provName),
                FidRegistry.INSTANCE);
            try
            {
                final int rc = (int)lib.fabric.invokeExact(nativeAttr, out, context);
                NativeCalls.check(rc, "fi_fabric(prov_name=" + provName + ", name=" + attr.name() + ")");
            }
            finally
            {
                lib.jvmHandlers.restore();
                CStrings.free(nativeAttr.get(ADDRESS, InfoLayouts.FAB_NAME).address());
                CStrings.free(nativeAttr.get(ADDRESS, InfoLayouts.FAB_PROV_NAME).address());
            }
            final FabricAttr copy = attr.copy().fabric(null);
            final OfiFabric fabric = new OfiFabric(out.get(ADDRESS, 0).address(), copy, context);
            copy.fabric(fabric);
            return fabric;
        }
        catch (final FabricException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public FabricAttr attr()
    {
        return attr.copy();
    }

    @Override
    public int apiVersion()
    {
        checkOpen();
        return CTypes.ALL.get(JAVA_INT, fid + FidLayouts.FABRIC_API_VERSION);
    }

    @Override
    public Domain domain(final Info info, final long context)
    {
        return domain(info, 0, context);
    }

    @Override
    public Domain domain(final Info info, final long flags, final long context)
    {
        checkOpen();
        return OfiDomain.open(this, info, flags, context);
    }

    @Override
    public EventQueue eqOpen(final EqAttr attr, final long context)
    {
        checkOpen();
        return io.jfabric.ofi.eq.OfiEventQueue.open(this, attr, context);
    }
}
