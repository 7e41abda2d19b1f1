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

import io.jfabric.Fid;
import io.jfabric.MrMode;
import io.jfabric.shm.core.FidLifecycle;

/**
 * What an endpoint must be for {@code fi_mr_bind(mr, ep, 0)} (FI_MR_ENDPOINT): the shm endpoint implements it.
 * <p>
 * Binding calls {@link #bindMemoryRegion(FidLifecycle)} with the region; the endpoint takes a reference on the region with
 * {@code mr.retain(...)} so the region's close fails with FI_EBUSY while the endpoint is open, and releases it when
 * it closes. With {@link MrMode#FI_MR_ENDPOINT} a region can be enabled only once bound.
 */
public interface MrEndpoint extends Fid
{
    /**
     * @return the domain the endpoint was opened from (a region binds only endpoints of its own domain).
     */
    Object domain();

    /**
     * Take the region into the endpoint, retaining it.
     *
     * @param mr the region being bound.
     */
    void bindMemoryRegion(FidLifecycle mr);
}
