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
 * Address vectors (fi_av(3)): unnamed ones in the process, named ones in shared files that every process of the
 * domain maps ({@link io.jfabric.shm.av.AvDescriptor} draws an entry; FI_AV_TABLE fi_addr values are the table
 * indices, a named FI_AV_MAP's are map_addr + index), the shm address format
 * ({@link io.jfabric.shm.av.ShmAddress}: host, slot, domain, incarnation) and authorization keys
 * ({@link io.jfabric.shm.av.AuthKeyDigest}). Lookups on the data path read an entry without locks or allocation.
 */
package io.jfabric.shm.av;
