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
 * Read-only views of the shm provider's shared files for monitoring and tools ({@code jfabric stat},
 * {@code jfabric dump}): a domain region mapped read-only after its header is checked ({@link
 * io.jfabric.shm.stat.RegionImage}, a handle), snapshots of its header, sizes, users, endpoint slots, rings and path
 * counts as plain immutable values ({@link io.jfabric.shm.stat.DomainStat}, {@link io.jfabric.shm.stat.RegionSizes}),
 * which processes map which region file ({@link io.jfabric.shm.stat.RegionMappers}), and the region file behind an
 * open domain ({@link io.jfabric.shm.stat.RegionBacked}). Exported: its public signatures name only its own types,
 * the API's and the JDK's. Nothing here writes to a shared file. Above {@code region}, {@code ep} and {@code av},
 * whose layouts it reads through their descriptors; below {@code domain}, whose domains implement
 * {@code RegionBacked}.
 */
package io.jfabric.shm.stat;
