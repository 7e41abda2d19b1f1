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
package io.jfabric;

/**
 * An open fabric ({@code struct fid_fabric}, fi_fabric(3)): the provider instance from which domains and event
 * queues are opened. Obtain one with {@link Fabrics#fabric(FabricAttr, long)}.
 * <p>
 * Thread safe. Closing it while domains or event queues opened from it remain open fails with
 * {@link Errno#FI_EBUSY}.
 */
public interface Fabric extends Fid
{
    /**
     * @return a copy of the fabric's attributes.
     */
    FabricAttr attr();

    /**
     * @return the API version the fabric was opened with ({@code fid_fabric::api_version}).
     */
    int apiVersion();

    /**
     * {@code fi_domain}: open the domain an info describes.
     *
     * @param info    an info returned by getinfo for this fabric (its domain attributes say which domain and how).
     * @param context the application's context for the domain.
     * @return the open domain.
     * @throws FabricException on bad or contradictory attributes, or a domain that cannot be opened.
     */
    Domain domain(Info info, long context);

    /**
     * {@code fi_domain2}: as {@link #domain(Info, long)}, with flags (none are defined; any set bit gives
     * {@link Errno#FI_EBADFLAGS}).
     *
     * @param info    an info returned by getinfo for this fabric.
     * @param flags   open flags.
     * @param context the application's context for the domain.
     * @return the open domain.
     */
    Domain domain(Info info, long flags, long context);

    /**
     * {@code fi_eq_open}: open an event queue.
     *
     * @param attr    the queue's attributes.
     * @param context the application's context for the queue.
     * @return the open event queue.
     */
    EventQueue eqOpen(EqAttr attr, long context);
}
