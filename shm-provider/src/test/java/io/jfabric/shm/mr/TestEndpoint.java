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
package io.jfabric.shm.mr;

import io.jfabric.FidClass;
import io.jfabric.shm.core.FidLifecycle;

import java.util.ArrayList;
import java.util.List;

/**
 * Stands in for the shm endpoint (not yet built) in the FI_MR_ENDPOINT tests: the smallest {@link MrEndpoint} that
 * keeps the contract, retaining bound regions until it closes. Test thread only.
 */
final class TestEndpoint extends FidLifecycle implements MrEndpoint
{
    private final Object domain;
    private final List<FidLifecycle> bound = new ArrayList<>();

    TestEndpoint(final Object domain)
    {
        super(FidClass.EP, 0);
        this.domain = domain;
    }

    @Override
    public Object domain()
    {
        return domain;
    }

    @Override
    public void bindMemoryRegion(final FidLifecycle mr)
    {
        mr.retain("fi_mr_bind");
        bound.add(mr);
    }

    @Override
    protected void doClose()
    {
        bound.forEach(FidLifecycle::release);
        bound.clear();
    }
}
