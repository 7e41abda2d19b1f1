/**
 * Event queues (fi_eq(3)): in the process only, nothing in shared memory; events and errors from the domain (region
 * watch, asynchronous registrations), address vectors (FI_EVENT) and endpoints (damaged records).
 */
package io.jfabric.shm.eq;
