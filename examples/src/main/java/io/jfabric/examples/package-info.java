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
 * Small programs to copy, written against the public API ({@code jfabric-api}) only; the provider ({@code -p},
 * {@code shm} by default, or a native one such as {@code tcp} through the ofi provider) is found at run time
 * through {@link io.jfabric.Fabrics#getInfo}.
 * <ul>
 *     <li>{@link io.jfabric.examples.pubsub}: a publisher and subscribers in separate JVMs, reconnecting when
 *     either side restarts;</li>
 *     <li>{@link io.jfabric.examples.reqrep}: a request/response server and clients, the server replying to each
 *     request's source address (FI_SOURCE), the client printing round-trip percentiles;</li>
 *     <li>{@link io.jfabric.examples.rma}: one-sided writes, reads and atomics into a target's registered memory.</li>
 * </ul>
 * This package holds what they all need and none is about: option parsing, Ctrl-C handling, and where the side the
 * others look for is ({@link io.jfabric.examples.WellKnownAddress}).
 */
package io.jfabric.examples;
