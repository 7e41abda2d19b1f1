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
 * Endpoints (fi_endpoint(3), fi_msg(3), fi_tagged(3)): an endpoint holds a slot of the domain region
 * ({@link io.jfabric.shm.region.SlotDescriptor}) with one receive lane per possible sender (an
 * {@link io.jfabric.shm.lane.SpscLane}, records drawn in {@link io.jfabric.shm.lane.LaneRecordDescriptor}). The
 * {@link io.jfabric.shm.ep.ShmEndpoint} shell hands sends to its {@link io.jfabric.shm.ep.TxContext} (whose
 * {@link io.jfabric.shm.ep.TxProgress} writes what was queued and takes back acknowledgements) and receives to its
 * {@link io.jfabric.shm.ep.RxContext}. RMA and atomics go one-sidedly through the key table
 * ({@link io.jfabric.shm.rma.RmaInitiator}), or, on memory no peer can map, by emulation: a request record in the
 * target's lane ({@link io.jfabric.shm.rma.EmulatedRequest}, {@link io.jfabric.shm.rma.EmulatedOps}), performed by
 * the target's receive progress ({@link io.jfabric.shm.rma.EmulatedTarget}) and answered through the initiator's
 * transmit ring ({@link io.jfabric.shm.rma.EmulatedCompletions}). Also here: incarnations, liveness
 * ({@link io.jfabric.shm.liveness.Heartbeats},
 * {@link io.jfabric.shm.liveness.PeerLiveness}), damaged-lane recovery and authorization keys
 * ({@link io.jfabric.shm.ep.AuthKeys}).
 */
package io.jfabric.shm.ep;
