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
package io.jfabric.spi;

import io.jfabric.Fabric;
import io.jfabric.FabricAttr;
import io.jfabric.Info;

import java.util.List;

/**
 * The provider SPI: what a provider implements so that {@link io.jfabric.Fabrics} can find it with
 * {@link java.util.ServiceLoader} (a {@code META-INF/services/io.jfabric.spi.FabricProvider} entry or a module
 * {@code provides} clause).
 * <p>
 * Implementations must be thread safe and cheap to construct; heavy work belongs in {@link #fabric}.
 */
public interface FabricProvider
{
    /**
     * @return the provider's name as {@code prov_name} reports it, such as {@code "shm"}.
     */
    String name();

    /**
     * Whether this provider answers for a {@code prov_name} other than its own {@link #name()}: a provider that fronts
     * others (the ofi provider fronts native libfabric's {@code tcp}, {@code verbs}, {@code efa}, ...) answers for
     * their names, layered lists such as {@code "tcp;ofi_rxm"} included, and is then asked for getinfo and fabric as
     * if the name were its own. {@link io.jfabric.Fabrics} asks only about names that do not already select this
     * provider by {@link #name()}.
     *
     * @param provName a requested {@code fabric_attr.prov_name}, never null.
     * @return true when this provider serves that name; false by default.
     */
    default boolean answers(final String provName)
    {
        return false;
    }

    /**
     * @return the provider's version, as {@code FI_VERSION(major, minor)}.
     */
    int version();

    /**
     * The provider's part of {@code fi_getinfo}: every configuration of this provider that satisfies the hints,
     * each a fresh copy.
     *
     * @param version the API version the application was written to.
     * @param node    a node name or address, or null.
     * @param service a service name, or null.
     * @param flags   getinfo flags ({@code FI_NUMERICHOST}, {@code FI_SOURCE}, {@code FI_PROV_ATTR_ONLY}).
     * @param hints   the hints, or null for none.
     * {@link io.jfabric.Fabrics} has already filtered on {@code fabric_attr.prov_name}.
     *
     * @return the matching infos; empty, or a FabricException with FI_ENODATA and the reason, when none match.
     * @throws io.jfabric.FabricException FI_ENODATA saying which hint could not be met, or another errno for
     *                                    arguments that are invalid rather than unmatched.
     */
    List<Info> getInfo(int version, String node, String service, long flags, Info hints);

    /**
     * {@code fi_fabric} for this provider.
     *
     * @param attr    fabric attributes from one of this provider's infos.
     * @param context the application's context.
     * @return the open fabric.
     */
    Fabric fabric(FabricAttr attr, long context);
}
