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
 * Small programs to copy, written against the public API ({@code jfabric-api}) only; the {@code shm} provider is
 * found at run time through {@link io.jfabric.Fabrics#getInfo}.
 * <ul>
 *     <li>{@link io.jfabric.examples.pubsub}: a publisher and subscribers in separate JVMs, reconnecting when
 *     either side restarts;</li>
 *     <li>{@link io.jfabric.examples.reqrep}: a request/response server and clients, the server replying to each
 *     request's source address (FI_SOURCE), the client printing round-trip percentiles.</li>
 * </ul>
 * This package holds what both need and neither is about: option parsing and Ctrl-C handling.
 */
package io.jfabric.examples;
