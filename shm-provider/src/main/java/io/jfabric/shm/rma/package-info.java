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
 * One-sided operations (fi_rma(3), fi_atomic(3)) on both of their paths. On memory a peer can map, the initiator
 * does the operation itself through the key table ({@link io.jfabric.shm.rma.RmaInitiator}, over {@code mr}'s
 * {@code RemoteMemory}), atomics by {@link io.jfabric.shm.rma.AtomicAccess} and
 * {@link io.jfabric.shm.rma.AtomicOps} with hardware atomics, so they are atomic across every process that maps the
 * memory. On memory only its owner can reach, the operation is emulated: a request record in the target's lane
 * ({@link io.jfabric.shm.rma.EmulatedRequest}, larger data through the initiator's bounce,
 * {@link io.jfabric.shm.rma.EmulatedBounce}), kept until answered in {@link io.jfabric.shm.rma.EmulatedOps},
 * performed by the target's receive progress ({@link io.jfabric.shm.rma.EmulatedTarget}, which maps the bounces
 * with {@link io.jfabric.shm.rma.PeerBounces}) and answered through the initiator's transmit ring
 * ({@link io.jfabric.shm.rma.EmulatedCompletions}). {@link io.jfabric.shm.rma.AtomicSupport} says which (datatype,
 * op) pairs each call family supports (fi_atomicvalid, fi_query_atomic) and
 * {@link io.jfabric.shm.rma.RmaOrdering} the data order sizes getinfo reports.
 * <p>
 * It stands on {@code lane}, {@code liveness}, {@code mr} and {@code core}; the transmit and receive contexts call
 * it, it never calls them. Threads: the initiator side (RmaInitiator, EmulatedRequest, taking and submitting in
 * EmulatedOps) runs on a transmit context's sending side; EmulatedCompletions on its transmit progress;
 * EmulatedTarget and PeerBounces on a receive context's progress, its receive guard held. AtomicOps, AtomicSupport
 * and RmaOrdering are stateless.
 */
package io.jfabric.shm.rma;
