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
package io.jfabric.shm.stat;

import io.jfabric.shm.region.RegionGeometry;

/**
 * The sizes a domain region was created with, as its header records them: endpoint slots, the capacity in bytes of
 * each receive lane, transmit-context ring and completion ring, and the entries of the memory key table and of the
 * counter table. Every process that joins the domain runs with these (the settings {@code jfabric.shm.ep.count},
 * {@code rx.ring.bytes}, {@code tx.ring.bytes}, {@code cq.ring.bytes}, {@code mr.count}, {@code cntr.count}).
 * <p>
 * Immutable; any thread.
 *
 * @param slotCount      endpoint slots.
 * @param rxRingBytes    capacity of each receive lane.
 * @param txRingBytes    capacity of each transmit-context ring.
 * @param cqRingBytes    capacity of each completion ring.
 * @param mrTableEntries entries of the memory region key table.
 * @param counterEntries entries of the counter table.
 */
public record RegionSizes(
    int slotCount, int rxRingBytes, int txRingBytes, int cqRingBytes, int mrTableEntries, int counterEntries)
{
    static RegionSizes of(final RegionGeometry geometry)
    {
        return new RegionSizes(geometry.slotCount(), geometry.rxRingBytes(), geometry.txRingBytes(),
            geometry.cqRingBytes(), geometry.mrTableEntries(), geometry.counterEntries());
    }
}
