/**
 * Completion queues (fi_cq(3)): one completion ring of the domain region per queue, written by the endpoints bound
 * to it (one writer or many, as the threading model and progress mode decide) and read by the application, in
 * every CQ format ({@link io.jfabric.shm.cq.CqRecordDescriptor}).
 */
package io.jfabric.shm.cq;
