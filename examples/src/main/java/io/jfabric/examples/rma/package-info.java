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
 * One-sided operations between processes, on one host over shm or across hosts over tcp: {@link
 * io.jfabric.examples.rma.Target} registers memory that peers may read and write under a key it chooses and then
 * only waits; {@link io.jfabric.examples.rma.Initiator} writes into it, adds to a word of it atomically and reads it
 * back, and the target's own code takes no part in any of it (on shm not even its CPU).
 * {@link io.jfabric.examples.rma.Rma} holds what both sides agree on.
 */
package io.jfabric.examples.rma;
