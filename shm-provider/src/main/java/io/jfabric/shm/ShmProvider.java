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

import io.jfabric.Domain;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricAttr;
import io.jfabric.FabricException;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.context.ProviderContext;
import io.jfabric.shm.core.ShmConfig;
import io.jfabric.shm.core.ShmNames;
import io.jfabric.spi.FabricProvider;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@code shm} provider, found by {@link io.jfabric.Fabrics} through {@link java.util.ServiceLoader}: processes
 * on one host talk through named domains, each a region file under {@link ShmConfig#rootDir()}.
 * <p>
 * The configuration is read once, on the provider's first use.
 * Thread safe.
 */
public final class ShmProvider implements FabricProvider, ProviderContext
{
    private volatile ShmConfig config;
    private volatile ShmInfoMatcher matcher;
    /** The fabrics and domains of this provider now open, in the order they were opened (for getinfo). */
    private final CopyOnWriteArrayList<ShmFabric> openFabrics = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<ShmDomain> openDomains = new CopyOnWriteArrayList<>();

    /**
     * The provider with the configuration of system properties and environment ({@link ShmConfig#load()}), read
     * on first use, so that a bad setting surfaces as a {@link FabricException} with {@link Errno#FI_EINVAL} from
     * the call that needs it rather than breaking provider discovery.
     */
    public ShmProvider()
    {
    }

    /**
     * @param config an explicit configuration, for embedding and tests.
     */
    public ShmProvider(final ShmConfig config)
    {
        this.config = config;
        this.matcher = new ShmInfoMatcher(config, this);
    }

    @Override
    public String name()
    {
        return ShmNames.PROVIDER;
    }

    @Override
    public int version()
    {
        return ShmInfoMatcher.providerVersion();
    }

    /**
     * @return the configuration this provider runs with.
     */
    public ShmConfig config()
    {
        ShmConfig c = config;
        if (c == null)
        {
            synchronized (this)
            {
                c = config;
                if (c == null)
                {
                    c = ShmConfig.load();
                    matcher = new ShmInfoMatcher(c, this);
                    config = c;
                }
            }
        }
        return c;
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
        return matcher().match(version, node, service, flags, hints);
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
        final ShmFabric fabric = new ShmFabric(this, apiVersion, context);
        openFabrics.add(fabric);
        return fabric;
    }

    @Override
    public void opened(final Domain domain)
    {
        openDomains.add((ShmDomain)domain);
    }

    @Override
    public void closed(final Domain domain)
    {
        openDomains.remove(domain);
    }

    @Override
    public void closed(final Fabric fabric)
    {
        openFabrics.remove(fabric);
    }

    /**
     * @return the first opened fabric of this provider still open, or null (fi_fabric(3): the output of getinfo
     * references the first opened instance of the named fabric).
     */
    @Override
    public ShmFabric firstOpenFabric()
    {
        for (final ShmFabric fabric : openFabrics)
        {
            if (!fabric.isClosed())
            {
                return fabric;
            }
        }
        return null;
    }

    /**
     * @param name   a domain name.
     * @param fabric the fabric it must have been opened from, or null for any fabric of this provider.
     * @return the first opened domain of that name still open, or null (fi_domain(3): the output of getinfo
     * references the first opened instance of the named domain).
     */
    @Override
    public ShmDomain firstOpenDomain(final String name, final Fabric fabric)
    {
        for (final ShmDomain domain : openDomains)
        {
            if (!domain.isClosed() && name.equals(domain.name()) && (fabric == null || domain.fabric() == fabric))
            {
                return domain;
            }
        }
        return null;
    }

    ShmInfoMatcher matcher()
    {
        config();
        return matcher;
    }
}
