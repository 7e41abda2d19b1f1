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
 * Endpoints (fi_endpoint(3)): the shell applications hold. {@link io.jfabric.shm.ep.ShmEndpoint} takes a slot of the
 * domain region ({@link io.jfabric.shm.region.SlotDescriptor}), keeps its bindings ({@code EndpointBindings}) and
 * authorization keys ({@code EndpointKeys}), checks each call's arguments ({@code EndpointCallForms},
 * {@code DestinationBuffers}) and hands sends, RMA and atomics to its transmit context ({@code io.jfabric.shm.tx})
 * and receives to its receive context ({@code RxContext}). Also here: the slot claims of endpoints
 * ({@link io.jfabric.shm.ep.EndpointSlots}), scalable endpoints ({@link io.jfabric.shm.ep.ShmScalableEndpoint}) and
 * shared transmit contexts ({@link io.jfabric.shm.ep.ShmSharedTxContext}). Lanes, liveness, one-sided operations and
 * the transmit side live in their own packages below this one ({@code lane}, {@code liveness}, {@code rma},
 * {@code tx}).
 * <p>
 * Threads: the control path (bind, enable, close) is synchronized on the endpoint; the data path entry points run
 * on the application's threads as the domain's threading model allows, and the contexts say which roles they have.
 */
package io.jfabric.shm.ep;
