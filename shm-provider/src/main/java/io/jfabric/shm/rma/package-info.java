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
 * Remote memory access and atomics (fi_rma(3), fi_atomic(3)): the operations the RMA path applies to a target's
 * memory. {@link io.jfabric.shm.rma.AtomicOps} performs fi_atomic's operations on an Agrona
 * {@link org.agrona.concurrent.AtomicBuffer} with hardware atomics, so they are atomic across every process that
 * maps the memory (8- and 16-bit elements by a compare-and-swap on their containing 32-bit word);
 * {@link io.jfabric.shm.rma.AtomicSupport} says which (datatype, op) pairs each call family supports and how many
 * elements one call may carry (fi_atomicvalid, fi_query_atomic). The endpoint calls live in {@code ep}; this
 * package depends on nothing of the provider but {@code api} and Agrona, and resolving a key to memory stays with
 * {@code mr}.
 */
package io.jfabric.shm.rma;
