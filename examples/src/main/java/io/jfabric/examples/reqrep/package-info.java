/**
 * Request/response between processes of one host over a named shm domain: {@link
 * io.jfabric.examples.reqrep.Server} answers each request to the address its completion names as the source
 * (FI_SOURCE), {@link io.jfabric.examples.reqrep.Client} sends requests one at a time and prints the round trip's
 * p50 and p99. Clients make themselves known to the server through a named address vector both sides open, so
 * the server needs no hello message. {@link io.jfabric.examples.reqrep.ReqRep} holds what both sides agree on.
 */
package io.jfabric.examples.reqrep;
