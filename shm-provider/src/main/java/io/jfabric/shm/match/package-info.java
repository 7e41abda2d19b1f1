/**
 * Receive matching for one endpoint: posted receives, the unexpected-message store (peek, claim, discard),
 * multi-receive buffers, directed receive by source address, and the deliveries that fill them from the lanes.
 * Used by the receive context under its guard; no shared memory of its own.
 */
package io.jfabric.shm.match;
