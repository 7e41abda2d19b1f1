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
 * Memory registration (fi_mr(3)): the domain-wide key table in the region
 * ({@link io.jfabric.shm.mr.MrTableDescriptor}), shareable memory as segment files other processes map
 * ({@link io.jfabric.shm.mr.SegmentDescriptor}), and one-sided access to a peer's registered memory
 * ({@link io.jfabric.shm.mr.RemoteMemory}), checked against key, access bits and authorization key; and the target's
 * side of the emulated path for local-only memory registered for remote access ({@link io.jfabric.shm.mr.LocalRegions}).
 */
package io.jfabric.shm.mr;
