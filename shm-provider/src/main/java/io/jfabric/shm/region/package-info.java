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
 * The domain region file and the rules every shared file follows: created complete in a temporary file and linked
 * under its name, validated before use ({@link io.jfabric.shm.region.RegionDescriptor} draws the layout), owned by
 * process identities (pid and start time) recorded in its user table, trusted only in a root directory this user
 * owns, and watched while open for truncation or removal ({@link io.jfabric.shm.region.RegionWatch}).
 */
package io.jfabric.shm.region;
