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
import io.jfabric.EqAttr;
import io.jfabric.EventQueue;
import io.jfabric.Fabric;
import io.jfabric.FabricAttr;
import io.jfabric.FidClass;
import io.jfabric.Info;
import io.jfabric.shm.context.FabricContext;
import io.jfabric.shm.context.ProviderContext;
import io.jfabric.shm.core.FidLifecycle;
import io.jfabric.shm.core.ShmNames;
import io.jfabric.shm.eq.ShmEventQueue;

/**
 * The shm provider's fabric: the root of the object tree from which named domains and event queues are opened.
 * <p>
 * Thread safe. Each open domain and event queue holds a reference, so closing the fabric while any remains open
 * fails with {@link io.jfabric.Errno#FI_EBUSY}.
 */
public final class ShmFabric extends FidLifecycle implements FabricContext
{
    private final ProviderContext provider;
    private final int apiVersion;

    ShmFabric(final ProviderContext provider, final int apiVersion, final long context)
    {
        super(FidClass.FABRIC, context);
        this.provider = provider;
        this.apiVersion = apiVersion;
    }

    @Override
    public FabricAttr attr()
    {
        return new FabricAttr()
            .fabric(this)
            .name(ShmNames.FABRIC)
            .provName(ShmNames.PROVIDER)
            .provVersion(provider.version())
            .apiVersion(apiVersion);
    }

    @Override
    public int apiVersion()
    {
        return apiVersion;
    }

    @Override
    public Domain domain(final Info info, final long context)
    {
        return domain(info, 0, context);
    }

    @Override
    public Domain domain(final Info info, final long flags, final long context)
    {
        ensureOpen("fi_domain");
        return new ShmDomain(this, info, flags, context);
    }

    @Override
    public EventQueue eqOpen(final EqAttr attr, final long context)
    {
        return new ShmEventQueue(this, attr, context, provider.config());
    }

    /**
     * @return the provider this fabric belongs to.
     */
    @Override
    public ProviderContext provider()
    {
        return provider;
    }

    @Override
    protected String describe()
    {
        return "fabric '" + ShmNames.FABRIC + "'";
    }

    @Override
    protected void doClose()
    {
        // nothing else of its own: domains and event queues hold references, so none is open here
        provider.closed(this);
    }
}
