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
package io.jfabric;

/**
 * An open access domain ({@code struct fid_domain}, fi_domain(3)): the resources of one provider instance from
 * which address vectors, memory regions, endpoints, completion queues and counters are opened.
 * <p>
 * Thread safe for its control calls. Closing it while objects opened from it remain open fails with
 * {@link Errno#FI_EBUSY}.
 */
public interface Domain extends Fid
{
    /**
     * @return the fabric this domain was opened from.
     */
    Fabric fabric();

    /**
     * @return a copy of the info the domain was opened with, its domain attributes as the domain applies them.
     */
    Info info();

    /**
     * @return a copy of the domain attributes in force.
     */
    DomainAttr attr();

    /**
     * {@code fi_domain_bind}: bind an event queue to the domain; with {@link Flags#FI_REG_MR} memory
     * registrations complete asynchronously on it.
     *
     * @param eq    an event queue opened from this domain's fabric.
     * @param flags 0 or {@link Flags#FI_REG_MR}; other bits give {@link Errno#FI_EBADFLAGS}.
     */
    void bind(Fid eq, long flags);

    /**
     * {@code fi_open_ops}: open a provider-specific interface by name.
     *
     * @param name    the interface's name.
     * @param flags   open flags.
     * @param context the application's context.
     * @return the interface.
     * @throws FabricException {@link Errno#FI_ENOSYS} for a name the provider does not know.
     */
    Object openOps(String name, long flags, long context);

    /**
     * {@code fi_set_ops}: install callbacks a provider invokes in place of its own behaviour. fi_domain(3) names one
     * override, {@link HmemOverrideOps#FI_SET_OPS_HMEM_OVERRIDE} with an {@link HmemOverrideOps}; a provider that does
     * not support an override refuses it with {@link Errno#FI_ENOSYS}. The shm provider supports none: it checks the
     * arguments, then refuses the HMEM override as well (it has no FI_HMEM and copies only host memory itself, so the
     * callbacks would never run).
     *
     * @param name    the override's name.
     * @param flags   flags, none defined.
     * @param ops     the callbacks.
     * @param context the application's context.
     * @throws FabricException {@link Errno#FI_ENOSYS} for an override the provider does not support (with shm, every
     *                         one); {@link Errno#FI_EBADFLAGS} for flags other than 0; {@link Errno#FI_EINVAL} when
     *                         {@code ops} is not the override's type.
     */
    void setOps(String name, long flags, Object ops, long context);

    /**
     * {@code fi_av_open}: open (or, with a name, create or open a shared) address vector.
     *
     * @param attr    the attributes; type, count and map_addr in force are returned by the AV's attr().
     * @param context the application's context.
     * @return the address vector.
     */
    AddressVector avOpen(AvAttr attr, long context);

    // ---- memory registration (fi_mr(3)) and counters (fi_cntr(3)) ----

    /**
     * {@code fi_mr_reg}: register one buffer.
     *
     * @param buffer       direct or heap buffer; its bytes from position to limit are registered.
     * @param access       access bits (see {@link MrIov} for what each kind of memory allows).
     * @param offset       reserved, must be 0.
     * @param requestedKey the key wanted (ignored with {@link MrMode#FI_MR_PROV_KEY}).
     * @param flags        0, {@link Flags#FI_RMA_EVENT} or {@link Flags#FI_RMA_PMEM}.
     * @param context      returned with the FI_MR_COMPLETE event of an asynchronous registration.
     * @return the region.
     */
    MemoryRegion mrReg(java.nio.ByteBuffer buffer, long access, long offset, long requestedKey, long flags, long context);

    /**
     * {@code fi_mr_regv}: register several pieces of memory as one region.
     *
     * @param iov          1 to mr_iov_limit pieces.
     * @param access       access bits.
     * @param offset       reserved, must be 0.
     * @param requestedKey the key wanted.
     * @param flags        0, {@link Flags#FI_RMA_EVENT} or {@link Flags#FI_RMA_PMEM}.
     * @param context      the application's context.
     * @return the region.
     */
    MemoryRegion mrRegv(MrIov[] iov, long access, long offset, long requestedKey, long flags, long context);

    /**
     * {@code fi_mr_regattr}: register with attributes.
     *
     * @param attr  the attributes.
     * @param flags 0, {@link Flags#FI_RMA_EVENT} or {@link Flags#FI_RMA_PMEM}.
     * @return the region.
     */
    MemoryRegion mrRegAttr(MrAttr attr, long flags);

    /**
     * Allocate memory that peers of this domain in other processes can map and access one-sidedly once it is
     * registered with remote access (no libfabric counterpart: in C any memory is reachable by
     * process_vm_readv; in Java only a mapped file is).
     *
     * @param length bytes, at least 1.
     * @return the memory, zero filled.
     */
    ShareableMemory allocShareable(long length);

    /**
     * {@code fi_mr_map_raw}: turn a peer's raw key into a key usable in this process.
     *
     * @param baseAddr the base address from the peer's {@code fi_mr_raw_attr}.
     * @param rawKey   the raw key bytes.
     * @param flags    none defined, 0.
     * @return the key; release it with {@link #mrUnmapKey(long)} before the domain closes.
     */
    long mrMapRaw(long baseAddr, byte[] rawKey, long flags);

    /**
     * {@code fi_mr_unmap_key}: release a key from {@link #mrMapRaw}.
     *
     * @param key the mapped key.
     */
    void mrUnmapKey(long key);

    /**
     * {@code fi_cntr_open}: open a counter.
     *
     * @param attr    the attributes, or null for the defaults.
     * @param context the application's context.
     * @return the counter.
     */
    Counter cntrOpen(CntrAttr attr, long context);

    /**
     * {@code fi_endpoint}: open an endpoint of this domain.
     *
     * @param info    an info of this domain (its ep_attr type must be FI_EP_RDM for the shm provider).
     * @param context user context.
     * @return the endpoint, not yet enabled.
     */
    Endpoint endpoint(Info info, long context);

    /**
     * {@code fi_scalable_ep}: open a scalable endpoint of this domain, with {@code ep_attr.tx_ctx_cnt} transmit
     * and {@code ep_attr.rx_ctx_cnt} receive contexts (0 means 1; at most max_ep_tx_ctx / max_ep_rx_ctx).
     *
     * @param info    an info of this domain.
     * @param context user context.
     * @return the scalable endpoint, not yet enabled.
     */
    ScalableEndpoint scalableEndpoint(Info info, long context);

    /**
     * {@code fi_query_atomic}: whether the domain's endpoints support {@code op} on {@code datatype}.
     *
     * @param datatype the datatype ({@code attr.size} is its {@link AtomicDatatype#size()}).
     * @param op       the operation.
     * @param flags    0 (fi_atomic), {@link Flags#FI_FETCH_ATOMIC} or {@link Flags#FI_COMPARE_ATOMIC}.
     * @return {@code attr.count}, the most elements one call may carry (at least 1), or a negated errno:
     *         -FI_EOPNOTSUPP for an unsupported pair, -FI_EBADFLAGS for other flags.
     */
    int queryAtomic(AtomicDatatype datatype, AtomicOp op, long flags);

    /**
     * {@code fi_stx_context}: open a shared transmit context. Endpoints opened with {@code ep_attr.tx_ctx_cnt}
     * {@link Addresses#FI_SHARED_CONTEXT} bind it ({@code ep.bind(stx, 0)}) before they are enabled and post their
     * sends to themselves as usual; completions go to each endpoint's own CQ.
     *
     * @param attr    the context's transmit attributes, or null for the domain's defaults; the values in force are
     *                written back.
     * @param context user context.
     * @return the shared transmit context ({@link FidClass#STX_CTX}).
     */
    Fid stxContext(TxAttr attr, long context);

    /**
     * {@code fi_srx_context}: open a shared receive context. Endpoints opened with {@code ep_attr.rx_ctx_cnt}
     * {@link Addresses#FI_SHARED_CONTEXT} bind it before they are enabled; receives are posted to the returned
     * object and serve a message sent to any of them; the completion goes to the CQ (FI_RECV) of the endpoint the
     * message was sent to.
     *
     * @param attr    the context's receive attributes, or null for the domain's defaults; the values in force are
     *                written back.
     * @param context user context.
     * @return the shared receive context ({@link FidClass#SRX_CTX}): an endpoint that only receives.
     */
    Endpoint srxContext(RxAttr attr, long context);

    /**
     * {@code fi_cq_open}.
     *
     * @param attr    attributes; size 0 and format UNSPEC let the provider choose.
     * @param context user context.
     * @return the completion queue.
     */
    CompletionQueue cqOpen(CqAttr attr, long context);
}
