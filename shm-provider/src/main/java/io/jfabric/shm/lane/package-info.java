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
 * Lanes and the records they carry: the single-producer, single-consumer lane of records in shared memory
 * ({@link io.jfabric.shm.lane.SpscLane}, drawn in {@link io.jfabric.shm.region.SpscLaneDescriptor}) that carries
 * one sender's records to one receive context, the layout of those records
 * ({@link io.jfabric.shm.lane.LaneRecordDescriptor}) and of the records a transmit-context ring returns to a sender
 * ({@link io.jfabric.shm.lane.TxRecordDescriptor}), and the records' optional checksum
 * ({@link io.jfabric.shm.lane.RecordChecksum}). The bottom floor of the endpoint: it knows nothing of endpoints,
 * contexts or operations.
 * <p>
 * Threads: a lane has one producer (the sending side of one transmit context, or its transmit progress) and one
 * consumer (the receive progress of one receive context); each side is one thread at a time. The descriptors are
 * stateless (any thread); a {@code RecordChecksum} belongs to one of those roles.
 */
package io.jfabric.shm.lane;
