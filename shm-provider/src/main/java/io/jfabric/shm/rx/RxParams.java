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
package io.jfabric.shm.rx;

import io.jfabric.Fid;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.eq.ShmEventQueue;
import io.jfabric.shm.mr.LocalRegions;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.progress.SpinGuard;
import io.jfabric.shm.region.RegionGeometry;

import org.agrona.concurrent.AtomicBuffer;

/**
 * What an endpoint gives its receive context when it is enabled, in one object instead of a constructor of twenty-two
 * parameters (as Aeron's {@code PublicationParams}): the endpoint fills the fields, {@link RxContext} and its
 * {@link InboundRecords} read them once in their constructors into final fields of their own, so the data path never
 * reads this object. Control path; not kept.
 */
public final class RxParams
{
    /** The domain region. */
    public AtomicBuffer region;
    /** Its geometry. */
    public RegionGeometry geometry;
    /** The endpoint's slot. */
    public int slot;
    /** The endpoint's incarnation of that slot. */
    public int incarnation;
    /** The bound AV (completions report senders by their address in it). */
    public ShmAddressVector av;
    /** The CQ bound with FI_RECV, or null. */
    public ShmCompletionQueue cq;
    /** Whether that binding has FI_SELECTIVE_COMPLETION. */
    public boolean selective;
    /** The counter bound with FI_RECV, or null. */
    public ShmCounter counter;
    /** The domain's view of peers' shareable memory (rendezvous reads), closed by the context's close. */
    public RemoteMemory remote;
    /** Receives that may be posted (rx_attr.size). */
    public int size;
    /** Messages the unexpected store keeps. */
    public int unexpectedCount;
    /** Payload bytes the unexpected store keeps. */
    public int unexpectedBytes;
    /** Whether the unexpected store allocates its whole arena at once, not as it first needs it. */
    public boolean preallocate;
    /** Whether receives filter by source address (FI_DIRECTED_RECV). */
    public boolean directedRecv;
    /** FI_OPT_MIN_MULTI_RECV. */
    public long minMultiRecv;
    /** The receive guard. */
    public SpinGuard guard;
    /** The domain's liveness timeout. */
    public long livenessTimeoutMs;
    /** The EQ bound to the endpoint, which damaged records are reported to; or null. */
    public ShmEventQueue eq;
    /** The endpoint, as the fid those reports name. */
    public Fid endpoint;
    /** The server of this process's local-only regions for emulated requests. */
    public LocalRegions local;
    /** FI_SOURCE_ERR ({@link SourceErrors}), or null. */
    public SourceErrors sourceErrors;
}
