/*
 * Copyright 2026 the jfabric authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 * https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
/**
 * Request/response between processes, on one host over a named shm domain or across hosts over tcp: {@link
 * io.jfabric.examples.reqrep.Server} answers each request to the address its completion names as the source
 * (FI_SOURCE), {@link io.jfabric.examples.reqrep.Client} sends requests one at a time and prints the round trip's
 * p50 and p99. On shm clients make themselves known to the server through a named address vector both sides open,
 * so the server needs no hello message; over tcp, which shares no AV, a client's first message carries its address.
 * {@link io.jfabric.examples.reqrep.ReqRep} holds what both sides agree on.
 */
package io.jfabric.examples.reqrep;
