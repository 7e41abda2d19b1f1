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
package io.jfabric.shm.rma;

import io.jfabric.shm.region.RegionGeometry;

/**
 * The data order sizes getinfo reports (fi_endpoint(3): ep_attr.max_order_raw_size, max_order_war_size,
 * max_order_waw_size, below which an RMA or atomic read after a write, a write after a read and a write after a
 * write to the same bytes are ordered), derived from how the operations travel:
 * <ul>
 *   <li>one-sided (the target's shareable memory): the initiator's copy or hardware atomic is done in the target's
 *   memory when the call returns, whatever its size, before the initiator's next operation starts;</li>
 *   <li>emulated (memory no peer can map): each operation is one request record in the lane of the target endpoint,
 *   which its progress applies in lane order, its answer one record back ({@link EmulatedRequest#limit}); one
 *   operation larger than a record is refused (FI_EMSGSIZE); a one-sided operation to a target an emulated one is
 *   outstanding to waits (FI_EAGAIN, the fence) instead of overtaking it.</li>
 * </ul>
 * So the order holds on both paths up to the size one lane record carries: 8016 bytes with the default rings.
 * <p>
 * Stateless; any thread.
 */
public final class RmaOrdering
{
    private RmaOrdering()
    {
    }

    /**
     * @param geometry the region geometry the settings give.
     * @return the size the RAW, WAR and WAW data order holds for, in bytes.
     */
    public static long dataOrderSize(final RegionGeometry geometry)
    {
        return EmulatedRequest.limit(geometry);
    }
}
