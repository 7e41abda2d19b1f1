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
 * The {@code shm} provider: shared memory between processes of one host (FI_LOCAL_COMM only) over memory-mapped
 * files under a root directory ({@code jfabric.shm.dir}, default {@code /dev/shm/jfabric-USER}). This package holds
 * only the exported entry class, the provider ({@link io.jfabric.shm.ShmProvider}, found by {@code ServiceLoader}).
 * It delegates to {@code domain}: getinfo matching, the fabric and the domain, which opens a named region file
 * ({@code region}) and everything built over it: {@code av}, {@code mr}, {@code cntr}, {@code ep}, {@code cq},
 * {@code eq}, {@code match}, {@code progress}. They receive their parent as a {@code context} interface;
 * {@code core} is the foundation under all of them, {@code config} the settings
 * ({@link io.jfabric.shm.config.ShmConfig}); {@code cleanup} and {@code stat} read the files from outside.
 * See docs/ARCHITECTURE.md.
 */
package io.jfabric.shm;
