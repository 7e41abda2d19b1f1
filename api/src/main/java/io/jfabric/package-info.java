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
 * The libfabric object model in Java: {@link io.jfabric.Fabrics#getInfo} (fi_getinfo), the attributes of
 * {@code struct fi_info} ({@link io.jfabric.Info} and its parts), fabric, domain, address vector, memory region,
 * endpoint, completion and event queues and counters as interfaces, with libfabric's flag bits
 * ({@link io.jfabric.Flags}), errno values and texts ({@link io.jfabric.Errno}) and {@code fi_tostr}
 * ({@link io.jfabric.ToStr}). Control calls throw {@link io.jfabric.FabricException} carrying the errno; data-path
 * calls return 0, a count or a negated errno, as in C. No dependencies: providers plug in through
 * {@code io.jfabric.spi}.
 */
package io.jfabric;
