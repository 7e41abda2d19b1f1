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

import io.jfabric.shm.region.SlotDescriptor;

/**
 * How an endpoint's sends travelled, as its slot counts them ({@code SlotDescriptor}'s STAT fields, each written by
 * one thread of the endpoint's process): whole in one lane record, queued behind another send to the same peer,
 * segmented into pieces, by rendezvous (the receiver copied from shareable memory), or as committed zero-copy
 * claims. The counts restart at 0 when an endpoint is enabled in the slot. Immutable; any thread.
 */
public final class PathCounts
{
    private final long inline;
    private final long queued;
    private final long segmented;
    private final long rendezvous;
    private final long claimed;

    /**
     * @param inline     sends that went whole into an idle lane.
     * @param queued     whole sends queued behind another to the same peer.
     * @param segmented  sends segmented into pieces.
     * @param rendezvous sends the receiver copied from shareable memory.
     * @param claimed    zero-copy claims committed.
     */
    public PathCounts(
        final long inline, final long queued, final long segmented, final long rendezvous, final long claimed)
    {
        this.inline = inline;
        this.queued = queued;
        this.segmented = segmented;
        this.rendezvous = rendezvous;
        this.claimed = claimed;
    }

    /** @return sends that went whole into an idle lane. */
    public long inline()
    {
        return inline;
    }

    /** @return whole sends queued behind another send to the same peer. */
    public long queued()
    {
        return queued;
    }

    /** @return sends segmented into pieces through the lane. */
    public long segmented()
    {
        return segmented;
    }

    /** @return sends the receiver copied once from the sender's shareable memory. */
    public long rendezvous()
    {
        return rendezvous;
    }

    /** @return committed zero-copy claims. */
    public long claimed()
    {
        return claimed;
    }

    /** @return every send counted, whatever its path. */
    public long total()
    {
        return inline + queued + segmented + rendezvous + claimed;
    }

    @Override
    public String toString()
    {
        return "inline " + inline + ", queued " + queued + ", segmented " + segmented + ", rendezvous " + rendezvous +
            ", claimed " + claimed;
    }
}
