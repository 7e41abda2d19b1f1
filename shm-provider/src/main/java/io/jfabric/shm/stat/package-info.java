/**
 * Read-only views of the shm provider's shared files for monitoring and tools ({@code jfabric stat},
 * {@code jfabric dump}): a domain region mapped read-only after its header is checked ({@link
 * io.jfabric.shm.stat.RegionImage}), snapshots of its header, users, endpoint slots, rings and path counts as plain
 * immutable values ({@link io.jfabric.shm.stat.DomainStat}), and which processes map which region file
 * ({@link io.jfabric.shm.stat.RegionMappers}). Nothing here writes to a shared file. Above {@code region}, {@code ep}
 * and {@code av}, whose layouts it reads through their descriptors; below the provider's root package.
 */
package io.jfabric.shm.stat;
