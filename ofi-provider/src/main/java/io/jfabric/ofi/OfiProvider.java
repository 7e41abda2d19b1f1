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

import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricAttr;
import io.jfabric.FabricException;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.ofi.info.ProviderNameMap;
import io.jfabric.ofi.lib.Libfabric;
import io.jfabric.ofi.lib.LibfabricUnavailableException;
import io.jfabric.spi.FabricProvider;

import java.util.List;

/**
 * The {@code ofi} provider: native libfabric's providers ({@code tcp;ofi_rxm}, {@code verbs;ofi_rxm}, {@code efa},
 * {@code udp;ofi_rxd}, ...) under their own names, through the Foreign Function and Memory API, found by
 * {@link java.util.ServiceLoader} like {@code shm}. A program moves from one host ({@code shm}) to several
 * ({@code tcp}) by changing the provider name.
 * <p>
 * It answers getinfo and fabric for every provider name but {@code shm} (jfabric's; libfabric's own is
 * {@value ProviderNameMap#NATIVE_SHM}) and for {@code ofi} itself (every native provider). Without libfabric
 * ({@code libfabric1}) it offers nothing: getinfo answers FI_ENODATA saying so. Needs Java 22+ and, to run without
 * a warning (and on future JDKs at all), {@code --enable-native-access=io.jfabric.ofi} (or {@code ALL-UNNAMED} on
 * the class path).
 * <p>
 * Thread safe; construction touches no native code.
 */
public final class OfiProvider implements FabricProvider
{
    /** Public for ServiceLoader. */
    public OfiProvider()
    {
    }

    @Override
    public String name()
    {
        return ProviderNameMap.OFI;
    }

    @Override
    public boolean answers(final String provName)
    {
        return ProviderNameMap.answers(provName);
    }

    /**
     * @return libfabric's version ({@code fi_version()}), or 0 without libfabric.
     */
    @Override
    public int version()
    {
        try
        {
            return (int)Libfabric.get().version.invokeExact();
        }
        catch (final LibfabricUnavailableException ex)
        {
            return 0;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("fi_version", t);
        }
    }

    @Override
    public List<Info> getInfo(
        final int version, final String node, final String service, final long flags, final Info hints)
    {
        try
        {
            return OfiGetInfo.getInfo(version, node, service, flags, hints);
        }
        catch (final LibfabricUnavailableException ex)
        {
            throw new FabricException(Errno.FI_ENODATA, ex.getMessage());
        }
    }

    @Override
    public Fabric fabric(final FabricAttr attr, final long context)
    {
        try
        {
            return OfiFabric.open(attr, context);
        }
        catch (final LibfabricUnavailableException ex)
        {
            throw new FabricException(Errno.FI_ENODATA, ex.getMessage());
        }
    }

    @Override
    public String toString()
    {
        return "ofi provider (libfabric " + Versions.major(version()) + "." + Versions.minor(version()) + ")";
    }
}
