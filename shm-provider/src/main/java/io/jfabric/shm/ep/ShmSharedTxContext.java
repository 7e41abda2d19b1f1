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
package io.jfabric.shm.ep;

import io.jfabric.FidClass;
import io.jfabric.TxAttr;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.core.FidLifecycle;

/**
 * A shared transmit context (fi_endpoint(3), {@code fi_stx_context}): endpoints opened with {@code ep_attr.tx_ctx_cnt
 * FI_SHARED_CONTEXT} bind it and post their sends to themselves; completions go to each endpoint's own CQ.
 * <p>
 * In shm the transmit resources are the lanes of the region, one per pair of slots, laid out when the region is
 * created; sharing a transmit context therefore saves nothing and needs no lock: each endpoint bound to this one
 * keeps its own transmit context, and this object carries the rules (bind before enable, one per endpoint, close
 * with FI_EBUSY while endpoints use it) and the attributes in force.
 * <p>
 * Threads: control path, any thread.
 */
public final class ShmSharedTxContext extends FidLifecycle
{
    private final DomainContext domain;
    private final TxAttr attr;

    /**
     * @param domain  the domain, retained until close.
     * @param attr    the attributes in force.
     * @param context the application's context.
     */
    public ShmSharedTxContext(final DomainContext domain, final TxAttr attr, final long context)
    {
        super(FidClass.STX_CTX, context);
        this.domain = domain;
        this.attr = attr.copy();
        domain.retain("fi_stx_context");
    }

    /** @return the domain the context belongs to. */
    public FidLifecycle domain()
    {
        return domain.fid();
    }

    /** @return a copy of the attributes in force. */
    public TxAttr attr()
    {
        return attr.copy();
    }

    @Override
    protected String describe()
    {
        return "shared transmit context";
    }

    @Override
    protected void doClose()
    {
        domain.release();
    }
}
