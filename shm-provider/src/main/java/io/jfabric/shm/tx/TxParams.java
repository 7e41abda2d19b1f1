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
package io.jfabric.shm.tx;

import io.jfabric.shm.av.AuthKeys;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.liveness.EndpointDamage;
import io.jfabric.shm.mr.MemoryRegistrar;
import io.jfabric.shm.progress.SpinGuard;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.rma.RmaInitiator;

import org.agrona.concurrent.AtomicBuffer;

/**
 * What an endpoint gives its transmit context when it is enabled, in one object instead of a constructor of twenty
 * parameters (as Aeron's {@code PublicationParams}): the endpoint fills the fields, {@link TxContext} and its
 * {@link TxProgress} read them once in their constructors into final fields of their own, so the data path never
 * reads this object. Control path; not kept.
 */
public final class TxParams
{
    /** The domain region. */
    public AtomicBuffer region;
    /** Its geometry. */
    public RegionGeometry geometry;
    /** The endpoint's slot: its lanes into every peer and its transmit ring. */
    public int slot;
    /** The endpoint's incarnation of that slot. */
    public int incarnation;
    /** The bound AV. */
    public ShmAddressVector av;
    /** The domain's memory registrar (a rendezvous send finds its source's region there). */
    public MemoryRegistrar registrar;
    /** The CQ bound with FI_TRANSMIT, or null. */
    public ShmCompletionQueue cq;
    /** Whether that binding has FI_SELECTIVE_COMPLETION. */
    public boolean selective;
    /** The counter bound with FI_SEND, or null. */
    public ShmCounter counter;
    /** The smallest send from shareable memory that goes by rendezvous. */
    public int rendezvousMin;
    /** The domain's liveness timeout: a peer that has not beaten for it is stopped. */
    public long livenessTimeoutMs;
    /** Whether every record carries a CRC32C of its content. */
    public boolean checksum;
    /** Operations that may be queued (tx_attr.size). */
    public int size;
    /** Buffers per operation. */
    public int iovLimit;
    /** The guard of the sending side (real under FI_THREAD_SAFE only). */
    public SpinGuard sendGuard;
    /** The guard of transmit progress. */
    public SpinGuard progressGuard;
    /** The endpoint's zero-copy claim, which the context serves from then on. */
    public LaneClaim claim;
    /** The endpoint's authorization key digest, 0 for none ({@link AuthKeys}). */
    public long authDigest;
    /** Whether each destination's key comes from the AV instead (FI_AV_AUTH_KEY). */
    public boolean authKeysFromAv;
    /** Where damage to the transmit ring is reported. */
    public EndpointDamage damage;
    /** The endpoint's RMA initiator (closed with the context). */
    public RmaInitiator rma;
}
