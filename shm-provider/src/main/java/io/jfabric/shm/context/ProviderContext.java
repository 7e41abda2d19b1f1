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

import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.Info;
import io.jfabric.shm.config.ShmConfig;

import java.util.List;

/**
 * What the provider gives the fabrics and domains opened from it: its configuration and version, getinfo's
 * matching (fi_domain resolves its info through it), and the list of open objects getinfo's output refers to.
 * The shm provider implements it; fabrics and domains hold this interface, so they never import the provider.
 * <p>
 * Threads: any.
 */
public interface ProviderContext
{
    /**
     * @return the configuration in force.
     */
    ShmConfig config();

    /**
     * @return the provider's version, FI_VERSION(major, minor).
     */
    int version();

    /**
     * fi_getinfo's matching ({@link io.jfabric.spi.FabricProvider#getInfo}).
     *
     * @param version the API version asked for.
     * @param node    the node, or null.
     * @param service the service, or null.
     * @param flags   getinfo flags.
     * @param hints   the hints, or null.
     * @return the matching infos.
     */
    List<Info> getInfo(int version, String node, String service, long flags, Info hints);

    /**
     * A domain of this provider finished opening: getinfo may now refer to it.
     *
     * @param domain the domain.
     */
    void opened(Domain domain);

    /**
     * A domain of this provider is closing: getinfo no longer refers to it.
     *
     * @param domain the domain.
     */
    void closed(Domain domain);

    /**
     * A fabric of this provider is closing: getinfo no longer refers to it.
     *
     * @param fabric the fabric.
     */
    void closed(Fabric fabric);

    /**
     * @return the first opened fabric of this provider still open, or null (fi_fabric(3): getinfo's output refers
     * to the first opened instance).
     */
    Fabric firstOpenFabric();

    /**
     * @param name   a domain name.
     * @param fabric the fabric it must have been opened from, or null for any fabric of this provider.
     * @return the first opened domain of that name still open, or null (fi_domain(3): getinfo's output refers to
     * the first opened instance).
     */
    Domain firstOpenDomain(String name, Fabric fabric);
}
