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
package io.jfabric.ofi.info;

import io.jfabric.Info;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.Libfabric;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * Native {@code struct fi_info}s: made from a Java {@link Info} for a call that takes one ({@code fi_getinfo}'s
 * hints, {@code fi_domain}, {@code fi_endpoint}), read back into Java, and freed with {@code fi_freeinfo}. Control
 * path. Stateless; any thread.
 */
public final class NativeInfo
{
    private NativeInfo()
    {
    }

    /**
     * @param info     the Java info.
     * @param provName the native provider name to write, or null for the Java one.
     * @param handles  object pointers.
     * @return a native info libfabric allocated; free it with {@link #free(long)}.
     */
    public static long allocate(final Info info, final String provName, final InfoCodec.Handles handles)
    {
        final Libfabric lib = Libfabric.get();
        final long fiInfo;
        try
        {
            fiInfo = ((MemorySegment)lib.dupinfo.invokeExact(MemorySegment.NULL)).address();
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("fi_dupinfo", t);
        }
        if (fiInfo == 0)
        {
            throw new OutOfMemoryError("fi_dupinfo(NULL) returned NULL");
        }
        try
        {
            InfoCodec.toNative(info, fiInfo, provName, handles);
        }
        catch (final RuntimeException | Error ex)
        {
            free(fiInfo);
            throw ex;
        }
        return fiInfo;
    }

    /**
     * {@code fi_freeinfo}: frees the info, the rest of its list and everything they point to.
     *
     * @param fiInfo a native info, or 0.
     */
    public static void free(final long fiInfo)
    {
        if (fiInfo == 0)
        {
            return;
        }
        try
        {
            Libfabric.get().freeinfo.invokeExact(MemorySegment.ofAddress(fiInfo));
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("fi_freeinfo", t);
        }
    }

    /**
     * {@code fi_getinfo}.
     *
     * @param version  the API version.
     * @param node     node, or null.
     * @param service  service, or null.
     * @param flags    getinfo flags.
     * @param hints    native hints, or 0.
     * @param handles  object pointers for the answers.
     * @return the answers in libfabric's order, or a negated errno as the only element's... see {@link Result}.
     */
    public static Result getinfo(
        final int version, final String node, final String service, final long flags, final long hints,
        final InfoCodec.Handles handles)
    {
        final Libfabric lib = Libfabric.get();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(ADDRESS);
            final MemorySegment nodeText = node == null ? MemorySegment.NULL : arena.allocateFrom(node);
            final MemorySegment serviceText = service == null ? MemorySegment.NULL : arena.allocateFrom(service);
            final int rc;
            try
            {
                rc = (int)lib.getinfo.invokeExact(version, nodeText, serviceText, flags,
                    MemorySegment.ofAddress(hints), out);
            }
            finally
            {
                lib.jvmHandlers.restore();
            }
            if (rc != 0)
            {
                return new Result(rc, List.of());
            }
            final long list = out.get(ADDRESS, 0).address();
            final List<Info> infos = new ArrayList<>();
            try
            {
                for (long p = list; p != 0; p = CTypes.readPointer(p + io.jfabric.ofi.lib.InfoLayouts.INFO_NEXT))
                {
                    infos.add(InfoCodec.fromNative(p, handles));
                }
            }
            finally
            {
                free(list);
            }
            return new Result(0, infos);
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("fi_getinfo", t);
        }
    }

    /**
     * What {@code fi_getinfo} returned.
     *
     * @param rc    0 or a negated errno.
     * @param infos the answers (empty on error).
     */
    public record Result(int rc, List<Info> infos)
    {
    }
}
