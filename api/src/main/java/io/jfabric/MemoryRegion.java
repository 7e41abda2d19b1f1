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
 * A registered memory region ({@code struct fid_mr}, fi_mr(3)), from {@link Domain#mrReg}, {@link Domain#mrRegv} or
 * {@link Domain#mrRegAttr}.
 * <p>
 * Control calls throw {@link FabricException}; {@link #key()} and {@link #desc()} are plain reads. Thread safe.
 * Closing withdraws the region at once (a peer's later access fails at the peer with an errno) and fails with
 * {@link Errno#FI_EBUSY} while an endpoint is bound to it. A counter bound to the region does not keep it open:
 * closing the region releases the binding (the counter can close after it). fi_mr(3) would have the region refuse
 * to close while bound, but fi_cntr(3) has the counter refuse to close while a region is bound to it, so with both
 * rules neither could ever close.
 */
public interface MemoryRegion extends Fid
{
    /** FI_KEY_NOTAVAIL: what {@link #key()} returns while a registration is incomplete or a raw key is required. */
    long FI_KEY_NOTAVAIL = -1L;

    /**
     * @return {@code fi_mr_key}: the remote key, or {@link #FI_KEY_NOTAVAIL} while an asynchronous registration has
     * not completed or when the domain works with {@link MrMode#FI_MR_RAW}.
     */
    long key();

    /**
     * @return {@code fi_mr_desc}: the local descriptor to pass with data transfers when the domain works with
     * {@link MrMode#FI_MR_LOCAL}.
     */
    long desc();

    /**
     * @return the base address a peer adds offsets to when the domain works with {@link MrMode#FI_MR_VIRT_ADDR}
     * (0 otherwise): the native address of the first registered byte for direct and shareable memory, 0 for heap
     * memory (which has no stable address).
     */
    long baseAddress();

    /** @return the registered length, the sum of the iov lengths. */
    long length();

    /** @return the access bits the region was registered with. */
    long access();

    /**
     * {@code fi_mr_bind}: bind a counter (flags {@link Flags#FI_REMOTE_WRITE}: counts remote writes into the
     * region) or an endpoint (flags 0).
     *
     * @param fid   a counter or endpoint of the same domain.
     * @param flags as above.
     */
    void bind(Fid fid, long flags);

    /** {@code fi_mr_enable}: enable a region created disabled (FI_MR_RMA_EVENT with FI_RMA_EVENT, FI_MR_ENDPOINT). */
    void enable();

    /**
     * {@code fi_mr_refresh}: the pages backing (part of) the region may have changed (FI_MR_MMU_NOTIFY). Access
     * is disabled while the refresh runs and enabled again after.
     *
     * @param iov   the ranges that changed, or null / empty for the whole region.
     * @param flags none defined, 0.
     */
    void refresh(MrIov[] iov, long flags);

    /**
     * {@code fi_mr_raw_attr}: the raw key and base address.
     *
     * @param attr  in: key buffer and its usable size; out: needed size and base address.
     * @param flags none defined, 0.
     * @throws FabricException {@link Errno#FI_ETOOSMALL} when the buffer is too small; {@code attr.keySize()} then
     *                         holds the size needed.
     */
    void rawAttr(MrRawAttr attr, long flags);
}
