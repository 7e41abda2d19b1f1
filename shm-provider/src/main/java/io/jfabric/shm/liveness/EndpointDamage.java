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
package io.jfabric.shm.liveness;

import io.jfabric.Fid;
import io.jfabric.shm.eq.DamageReports;
import io.jfabric.shm.eq.ShmEventQueue;

/**
 * Where an endpoint's transmit progress reports damage to the endpoint's transmit-context ring: error events on the
 * EQ bound to the endpoint, if any (FI_EIO, the endpoint as fid and context, its slot as data), at most one every
 * {@link DamageReports#INTERVAL_MS}. Error path (allocates). Threads: transmit progress (its guard held).
 */
public final class EndpointDamage
{
    private final ShmEventQueue eq;
    private final Fid endpoint;
    private final int slot;
    private final DamageReports reports;

    /**
     * @param eq       the endpoint's EQ, or null.
     * @param endpoint the endpoint.
     * @param slot     its slot.
     * @param slots    the region's slot count.
     */
    public EndpointDamage(final ShmEventQueue eq, final Fid endpoint, final int slot, final int slots)
    {
        this.eq = eq;
        this.endpoint = endpoint;
        this.slot = slot;
        this.reports = new DamageReports("damaged transmit ring of slot ", slots);
    }

    /**
     * @param what what was found, and what was done.
     */
    public void report(final String what)
    {
        reports.report(eq, endpoint, endpoint.context(), slot, what, Heartbeats.nowMs());
    }
}
