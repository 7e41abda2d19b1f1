/**
 * {@code jfabric stat}: what a live domain holds, read through the read-only views of {@code io.jfabric.shm.stat};
 * nothing here writes to a shared file.
 */
package io.jfabric.tools.inspect;
