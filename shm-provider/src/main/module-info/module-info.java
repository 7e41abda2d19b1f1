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
/**
 * The {@code shm} provider. Applications reach it through {@link io.jfabric.Fabrics} (getinfo and fabric), which
 * finds it by {@link java.util.ServiceLoader}: on the module path the module system binds it to the API's
 * {@code uses} clause, so an application needs only {@code requires io.jfabric.api} and this module on the module
 * path. Exported, and holding only types of their own or of the API in their public signatures: the provider
 * ({@code io.jfabric.shm}: {@code ShmProvider}, for a program that embeds it), its settings
 * ({@code io.jfabric.shm.config}: {@code ShmConfig}) and the read-only monitoring views ({@code io.jfabric.shm.stat}:
 * {@code DomainStat}, {@code RegionMappers}, ...). Every other package (domain, region, ep, tx, rx, rma, liveness,
 * lane, match, cq, av, mr, cntr, eq, progress, context, core, cleanup) is the provider's own; the build compiles
 * this module with {@code -Werror}, so a public signature that names one of their types fails it
 * ({@code [exports]}).
 * <p>
 * Agrona (the automatic module {@code org.agrona}) reaches {@code jdk.internal.misc.Unsafe}: a JVM with Agrona on
 * the module path needs {@code --add-exports java.base/jdk.internal.misc=org.agrona} (on the class path
 * {@code =ALL-UNNAMED}).
 */
module io.jfabric.shm
{
    requires transitive io.jfabric.api;
    requires org.agrona;

    exports io.jfabric.shm;
    exports io.jfabric.shm.config;
    exports io.jfabric.shm.stat;

    provides io.jfabric.spi.FabricProvider with io.jfabric.shm.ShmProvider;
}
