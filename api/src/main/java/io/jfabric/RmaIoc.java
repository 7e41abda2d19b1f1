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
 * An array of {@code struct fi_rma_ioc} (fi_atomic(3)): the target side of an atomic msg call, {@link #count}
 * regions of the target, the i-th at address {@code addr[i]} (the registrant's address with FI_MR_VIRT_ADDR, else
 * an offset into the region) for {@code elements[i]} elements of the call's datatype under key {@code key[i]}.
 * <p>
 * A plain mutable holder allocated once and refilled for every call; the provider reads it during the call only.
 */
public final class RmaIoc
{
    /** Target addresses. */
    public final long[] addr;
    /** Elements (not bytes) of each target region. */
    public final int[] elements;
    /** Protection key of each. */
    public final long[] key;
    /** Entries in use. */
    public int count;

    /**
     * @param maxIov largest number of target regions this holder will carry.
     */
    public RmaIoc(final int maxIov)
    {
        if (maxIov < 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "RmaIoc: maxIov must be at least 1, was " + maxIov);
        }
        addr = new long[maxIov];
        elements = new int[maxIov];
        key = new long[maxIov];
    }

    /**
     * Make this a single region.
     *
     * @param address target address.
     * @param n       elements.
     * @param rkey    protection key.
     * @return this.
     */
    public RmaIoc set(final long address, final int n, final long rkey)
    {
        addr[0] = address;
        elements[0] = n;
        key[0] = rkey;
        count = 1;
        return this;
    }

    /**
     * Append a region.
     *
     * @param address target address.
     * @param n       elements.
     * @param rkey    protection key.
     * @return this.
     * @throws FabricException FI_EINVAL when the holder is full.
     */
    public RmaIoc add(final long address, final int n, final long rkey)
    {
        if (count >= addr.length)
        {
            throw new FabricException(Errno.FI_EINVAL, "RmaIoc: all " + addr.length + " entries are in use");
        }
        addr[count] = address;
        elements[count] = n;
        key[count] = rkey;
        count++;
        return this;
    }

    /** @return the elements of all regions in use, or -1 when an entry's count is negative or the count is bad. */
    public long totalElements()
    {
        return Ioc.sum(elements, count);
    }
}
