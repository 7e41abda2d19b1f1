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
 * An endpoint's receive context (fi_msg(3), fi_tagged(3) on the receiving side): {@link io.jfabric.shm.rx.RxContext}
 * polls the lanes peers write into the endpoint's slot, hottest first ({@code ActiveLanes}), looks for new senders
 * and repairs damaged lanes, and keeps the matcher receives are posted to. Its record handler
 * ({@code InboundRecords}) checks each record and hands it on by type in one {@code switch}: messages and their pieces
 * to the matcher, rendezvous reads out of the sender's shareable memory, acknowledgements into the sender's transmit
 * ring ({@code Acknowledgements}), emulated one-sided requests to {@code rma}'s target. Senders are named by their
 * address in the AV ({@link io.jfabric.shm.rx.SenderAddresses}), or reported under FI_SOURCE_ERR
 * ({@link io.jfabric.shm.rx.SourceErrors}). {@link io.jfabric.shm.rx.RxParams} is what the endpoint gives it.
 * <p>
 * Threads: receive posts and cancels (the application's receiving thread) and receive progress (CQ and counter
 * reads, a progress agent) share the matcher, and exclude each other with the receive guard wherever the threading
 * model lets them run at once.
 */
package io.jfabric.shm.rx;
