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
package io.jfabric.shm;

import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricAttr;
import io.jfabric.FabricException;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.core.ShmNames;
import io.jfabric.shm.domain.OpenObjects;
import io.jfabric.spi.FabricProvider;

import java.util.List;

/**
 * The {@code shm} provider, found by {@link io.jfabric.Fabrics} through {@link java.util.ServiceLoader}: processes
 * on one host talk through named domains, each a region file under {@link ShmConfig#rootDir()}. A program that
 * embeds the provider may construct it with its own {@link ShmConfig} and call it as the SPI.
 * <p>
 * The configuration is read once, on the provider's first use. The fabrics and domains it opens are internal
 * ({@code io.jfabric.shm.domain}); callers hold them as the API's {@link Fabric} and {@link io.jfabric.Domain}.
 * Thread safe.
 */
public final class ShmProvider implements FabricProvider
{
    private final OpenObjects objects;

    /**
     * The provider with the configuration of system properties and environment ({@link ShmConfig#load()}), read
     * on first use, so that a bad setting surfaces as a {@link FabricException} with {@link Errno#FI_EINVAL} from
     * the call that needs it rather than breaking provider discovery.
     */
    public ShmProvider()
    {
        objects = new OpenObjects(null);
    }

    /**
     * @param config an explicit configuration, for embedding and tests.
     */
    public ShmProvider(final ShmConfig config)
    {
        objects = new OpenObjects(config);
    }

    @Override
    public String name()
    {
        return ShmNames.PROVIDER;
    }

    @Override
    public int version()
    {
        return objects.version();
    }

    /**
     * @return the configuration this provider runs with.
     */
    public ShmConfig config()
    {
        return objects.config();
    }

    /**
     * {@inheritDoc}
     *
     * @throws FabricException {@link Errno#FI_ENODATA} naming the first hint shm cannot satisfy.
     */
    @Override
    public List<Info> getInfo(
        final int version, final String node, final String service, final long flags, final Info hints)
    {
        return objects.getInfo(version, node, service, flags, hints);
    }

    @Override
    public Fabric fabric(final FabricAttr attr, final long context)
    {
        if (attr == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_fabric: attr must not be null");
        }
        if (attr.name() != null && !ShmNames.FABRIC.equals(attr.name()))
        {
            throw new FabricException(Errno.FI_ENODATA,
                "fi_fabric: fabric name '" + attr.name() + "' is unknown; shm offers fabric '" + ShmNames.FABRIC + "'");
        }
        final int apiVersion = attr.apiVersion() != 0 ?
            Math.min(attr.apiVersion(), Versions.FI_CURRENT_VERSION) : Versions.FI_CURRENT_VERSION;
        return objects.openFabric(apiVersion, context);
    }
}
