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

import java.nio.ByteBuffer;

/**
 * An array of {@code struct fi_ioc} (fi_atomic(3)): the local operands, compare values or result buffers of a
 * vectored or msg atomic call, {@link #count} entries, the i-th {@code elements[i]} elements of the call's datatype
 * at absolute byte index {@code offset[i]} of {@code buf[i]}, with local descriptor {@code desc[i]} (0 when not
 * registered). The entries are walked in order as one sequence of elements.
 * <p>
 * A plain mutable holder allocated once and refilled for every call; the provider reads it during the call only.
 */
public final class Ioc
{
    /** Buffers. */
    public final ByteBuffer[] buf;
    /** Absolute byte index of each entry's first element. */
    public final int[] offset;
    /** Elements (not bytes) of each entry. */
    public final int[] elements;
    /** Local descriptor of each entry, 0 for none. */
    public final long[] desc;
    /** Entries in use. */
    public int count;

    /**
     * @param maxIov largest number of entries this holder will carry.
     */
    public Ioc(final int maxIov)
    {
        if (maxIov < 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "Ioc: maxIov must be at least 1, was " + maxIov);
        }
        buf = new ByteBuffer[maxIov];
        offset = new int[maxIov];
        elements = new int[maxIov];
        desc = new long[maxIov];
    }

    /**
     * Make this a single entry.
     *
     * @param buffer     the buffer.
     * @param byteOffset absolute index of the first element.
     * @param n          elements.
     * @param bufferDesc local descriptor, 0 for none.
     * @return this.
     */
    public Ioc set(final ByteBuffer buffer, final int byteOffset, final int n, final long bufferDesc)
    {
        buf[0] = buffer;
        offset[0] = byteOffset;
        elements[0] = n;
        desc[0] = bufferDesc;
        count = 1;
        return this;
    }

    /**
     * Append an entry.
     *
     * @param buffer     the buffer.
     * @param byteOffset absolute index of the first element.
     * @param n          elements.
     * @param bufferDesc local descriptor, 0 for none.
     * @return this.
     * @throws FabricException FI_EINVAL when the holder is full.
     */
    public Ioc add(final ByteBuffer buffer, final int byteOffset, final int n, final long bufferDesc)
    {
        if (count >= buf.length)
        {
            throw new FabricException(Errno.FI_EINVAL, "Ioc: all " + buf.length + " entries are in use");
        }
        buf[count] = buffer;
        offset[count] = byteOffset;
        elements[count] = n;
        desc[count] = bufferDesc;
        count++;
        return this;
    }

    /** @return the elements of all entries in use, or -1 when an entry's count is negative or the count is bad. */
    public long totalElements()
    {
        return sum(elements, count);
    }

    /**
     * @param elements element counts.
     * @param count    entries in use.
     * @return the sum of the first {@code count}, or -1 when {@code count} is not in [1, length] or one is negative.
     */
    static long sum(final int[] elements, final int count)
    {
        if (count < 1 || count > elements.length)
        {
            return -1;
        }
        long total = 0;
        for (int i = 0; i < count; i++)
        {
            if (elements[i] < 0)
            {
                return -1;
            }
            total += elements[i];
        }
        return total;
    }
}
