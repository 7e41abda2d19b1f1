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
 * Liveness and damage of endpoint slots: this process's heartbeat thread and the clock the data path reads
 * ({@link io.jfabric.shm.liveness.Heartbeats}), the judgement whether a peer's endpoint is still there and running
 * ({@link io.jfabric.shm.liveness.PeerLiveness}) and whether the processes that own peer slots still exist, kept from
 * {@code /proc} by the heartbeat thread so that the data path never reads it
 * ({@link io.jfabric.shm.liveness.ProcessWatch}), the watch over the words of an enabled endpoint's slot header that
 * only it writes ({@link io.jfabric.shm.liveness.SlotHeaderWatch}), and where transmit progress reports damage to an
 * endpoint's rings ({@link io.jfabric.shm.liveness.EndpointDamage}). It knows slots and their headers, not endpoints
 * or operations.
 * <p>
 * Threads: {@code Heartbeats} is thread safe and runs its own daemon thread, which also runs each
 * {@code SlotHeaderWatch} and looks at the processes {@code ProcessWatch} (thread safe) is asked about; a
 * {@code PeerLiveness} belongs to one role (a transmit context's sending side, its
 * transmit progress, a receive context); {@code EndpointDamage} is called by transmit progress.
 */
package io.jfabric.shm.liveness;
