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
package io.jfabric.shm.domain;

import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.Info;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.context.ProviderContext;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What one {@link io.jfabric.shm.ShmProvider} holds: its configuration, read once on first use, getinfo's matching,
 * and the fabrics and domains now open, in the order they were opened (getinfo's output refers to the first opened
 * instance, fi_fabric(3), fi_domain(3)). The fabrics and domains receive it as their {@link ProviderContext}; the
 * exported provider class only delegates to it, so no internal type shows in its signature.
 * <p>
 * Thread safe.
 */
public final class OpenObjects implements ProviderContext
{
    private volatile ShmConfig config;
    private volatile ShmInfoMatcher matcher;
    private final CopyOnWriteArrayList<ShmFabric> openFabrics = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<ShmDomain> openDomains = new CopyOnWriteArrayList<>();

    /**
     * @param config the configuration, or null to read it ({@link ShmConfig#load()}) on first use, so that a bad
     *               setting surfaces from the call that needs it rather than breaking provider discovery.
     */
    public OpenObjects(final ShmConfig config)
    {
        if (config != null)
        {
            this.config = config;
            this.matcher = new ShmInfoMatcher(config, this);
        }
    }

    @Override
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

    @Override
    public int version()
    {
        return ShmInfoMatcher.providerVersion();
    }

    @Override
    public List<Info> getInfo(
        final int version, final String node, final String service, final long flags, final Info hints)
    {
        return matcher().match(version, node, service, flags, hints);
    }

    /**
     * Open a fabric (fi_fabric) once the caller checked its attributes.
     *
     * @param apiVersion the API version it serves.
     * @param context    the user's context.
     * @return the open fabric.
     */
    public Fabric openFabric(final int apiVersion, final long context)
    {
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
