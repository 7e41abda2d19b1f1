/**
 * Memory registration (fi_mr(3)): the domain-wide key table in the region
 * ({@link io.jfabric.shm.mr.MrTableDescriptor}), shareable memory as segment files other processes map
 * ({@link io.jfabric.shm.mr.SegmentDescriptor}), and one-sided access to a peer's registered memory
 * ({@link io.jfabric.shm.mr.RemoteMemory}), checked against key, access bits and authorization key.
 */
package io.jfabric.shm.mr;
