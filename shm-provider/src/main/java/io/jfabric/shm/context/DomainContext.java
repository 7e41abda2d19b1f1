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
package io.jfabric.shm.context;

import io.jfabric.DomainAttr;
import io.jfabric.Fabric;
import io.jfabric.shm.cntr.CounterTable;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.core.DomainResources;
import io.jfabric.shm.core.FidLifecycle;
import io.jfabric.shm.eq.ShmEventQueue;
import io.jfabric.shm.region.RegionFile;

/**
 * What an open domain gives the objects opened from it: its attributes and region, the provider configuration,
 * its count limits, its event queue, and its reference count (a child retains the domain while it is open).
 * The shm domain implements it; children hold this interface, so they never import the domain class.
 * <p>
 * Threads: any; the methods are the domain's own control-path methods.
 */
public interface DomainContext
{
    /**
     * @return a copy of the domain's attributes.
     */
    DomainAttr attr();

    /**
     * @return the fabric the domain was opened from.
     */
    Fabric fabric();

    /**
     * @return the domain's mapped region file.
     */
    RegionFile region();

    /**
     * @return the provider configuration in force for this domain.
     */
    ShmConfig config();

    /**
     * @return the count limits (ep_cnt, cq_cnt, cntr_cnt, mr_cnt) this domain enforces.
     */
    DomainResources resources();

    /**
     * @return the event queue bound to the domain, or null.
     */
    ShmEventQueue eventQueue();

    /**
     * @return true when registrations complete asynchronously on the bound event queue (FI_REG_MR).
     */
    boolean asyncMrRegistration();

    /**
     * @param operation the call being made, for the error message.
     * @throws io.jfabric.FabricException FI_EBADF when the domain is closed.
     */
    void ensureOpen(String operation);

    /**
     * Count one more child open on the domain (its close fails with FI_EBUSY until {@link #release}).
     *
     * @param operation the call being made, for the error message.
     */
    void retain(String operation);

    /**
     * Count one child fewer.
     */
    void release();

    /**
     * @return how the domain names itself in messages.
     */
    String description();

    /**
     * @return the domain as a fid: the object other fids name as their domain, compared by identity.
     */
    FidLifecycle fid();

    /**
     * @return the region's counter table (remote counters raised by one-sided accesses).
     */
    CounterTable counterTable();
}
