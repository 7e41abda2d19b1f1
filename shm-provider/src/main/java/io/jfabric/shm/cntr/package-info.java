/**
 * Counters (fi_cntr(3)): entries of the domain region's counter table
 * ({@link io.jfabric.shm.cntr.CounterTableDescriptor}), so a remote write can count on the target's counter from
 * another process.
 */
package io.jfabric.shm.cntr;
