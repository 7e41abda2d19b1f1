/**
 * {@code jfabric stat} and {@code jfabric dump}: what a live domain and the shm provider's files hold, read through
 * the read-only views of {@code io.jfabric.shm.stat} and the layout descriptors; nothing here writes to a shared file.
 */
package io.jfabric.tools.inspect;
