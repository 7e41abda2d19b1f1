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
 * The remote side of {@code fi_readmsg}/{@code fi_writemsg} ({@code struct fi_rma_iov} array of
 * {@code struct fi_msg_rma}): {@link #count} regions of the target, the i-th at address {@code addr[i]} (the
 * registrant's address with FI_MR_VIRT_ADDR, else an offset into the region) for {@code length[i]} bytes under key
 * {@code key[i]}. The local buffers, destination, context and remote CQ data are the {@link Msg}'s.
 * <p>
 * A plain mutable holder allocated once and refilled for every call; the provider reads it during the call only.
 */
public final class RmaIov
{
    /** Target addresses. */
    public final long[] addr;
    /** Bytes of each target region. */
    public final long[] length;
    /** Protection key of each. */
    public final long[] key;
    /** Entries in use. */
    public int count;

    /**
     * @param maxIov largest number of target regions this holder will carry.
     */
    public RmaIov(final int maxIov)
    {
        if (maxIov < 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "RmaIov: maxIov must be at least 1, was " + maxIov);
        }
        addr = new long[maxIov];
        length = new long[maxIov];
        key = new long[maxIov];
    }

    /**
     * Makes this a single target region.
     *
     * @param address the target address.
     * @param bytes   its length.
     * @param rkey    its key.
     * @return this.
     */
    public RmaIov set(final long address, final long bytes, final long rkey)
    {
        addr[0] = address;
        length[0] = bytes;
        key[0] = rkey;
        count = 1;
        return this;
    }

    /** @return total bytes over the regions in use. */
    public long totalLength()
    {
        long total = 0;
        for (int i = 0; i < count; i++)
        {
            total += length[i];
        }
        return total;
    }
}
