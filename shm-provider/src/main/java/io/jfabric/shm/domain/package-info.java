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
 * The provider's object tree above the region: getinfo matching ({@link io.jfabric.shm.domain.ShmInfoMatcher}), the
 * fabric ({@link io.jfabric.shm.domain.ShmFabric}), the named domain ({@link io.jfabric.shm.domain.ShmDomain}, which
 * maps the region file and opens everything built over it) and the provider's list of open objects
 * ({@link io.jfabric.shm.domain.OpenObjects}, the {@code ProviderContext} the exported
 * {@link io.jfabric.shm.ShmProvider} delegates to). Not exported: users reach these objects through the API's
 * interfaces ({@link io.jfabric.Fabric}, {@link io.jfabric.Domain}).
 */
package io.jfabric.shm.domain;
