/**
 * Address vectors (fi_av(3)): unnamed ones in the process, named ones in shared files that every process of the
 * domain maps at an agreed map_addr ({@link io.jfabric.shm.av.AvDescriptor} draws an entry), the shm address format
 * ({@link io.jfabric.shm.av.ShmAddress}: host, slot, domain, incarnation) and authorization keys
 * ({@link io.jfabric.shm.av.AuthKeyDigest}). Lookups on the data path read an entry without locks or allocation.
 */
package io.jfabric.shm.av;
