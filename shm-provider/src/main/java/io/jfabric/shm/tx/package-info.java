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
 * An endpoint's transmit context (fi_msg(3), fi_tagged(3), fi_rma(3), fi_atomic(3) on the sending side):
 * {@link io.jfabric.shm.tx.TxContext} resolves destinations to peer slots, writes whole messages into the peers'
 * lanes itself, queues what cannot go at once ({@code PendingSends}), and hands RMA and atomics
 * to {@code rma}; its {@code TxProgress} writes the queued sends
 * ({@code QueuedSendWriter}) and takes back through the context's transmit ring what peers
 * return. Also here: the zero-copy claim ({@code LaneClaim}) and the rendezvous lookup
 * ({@code RendezvousSource}).
 * <p>
 * Threads: two roles, each one thread at a time and no lock between them: the sending side (the threading model or
 * the send guard serializes it) and transmit progress (the progress guard); {@code TxContext} says which method
 * belongs to which.
 */
package io.jfabric.shm.tx;
