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
