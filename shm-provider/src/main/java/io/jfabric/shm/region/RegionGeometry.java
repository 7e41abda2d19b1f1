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
package io.jfabric.shm.region;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.config.ShmConfig;

/**
 * The sizes fixed when a domain region is created: how many endpoint slots it has, the capacity of each slot's
 * rings and the number of entries in its key and counter tables. Every process that opens the same named domain
 * must ask for the same geometry; {@link RegionFile} refuses a mismatch using {@link #describeMismatch}.
 * <p>
 * Ring sizes are Agrona ring buffer <em>capacities</em> (powers of two); the ring trailer comes on top, see
 * {@link RegionDescriptor}.
 * <p>
 * Immutable value; any thread.
 */
public final class RegionGeometry
{
    /** Smallest ring capacity: one page. */
    public static final int MIN_RING_CAPACITY = 4096;

    /** Largest ring capacity. */
    public static final int MAX_RING_CAPACITY = 1 << 30;

    private final int slotCount;
    private final int rxRingBytes;
    private final int txRingBytes;
    private final int cqRingBytes;
    private final int mrTableEntries;
    private final int counterEntries;

    /**
     * @param slotCount      endpoint slots, at least 1.
     * @param rxRingBytes    capacity of each slot's receive ring, a power of two.
     * @param txRingBytes    capacity of each slot's transmit-context ring, a power of two.
     * @param cqRingBytes    capacity of each slot's completion ring, a power of two.
     * @param mrTableEntries entries of the memory region key table, at least 0.
     * @param counterEntries entries of the counter table, at least 0.
     * @throws FabricException {@link Errno#FI_EINVAL} naming the value that is out of range, or when the whole
     *                         region would not fit in one mapping ({@link RegionDescriptor#MAX_REGION_LENGTH}).
     */
    public RegionGeometry(
        final int slotCount,
        final int rxRingBytes,
        final int txRingBytes,
        final int cqRingBytes,
        final int mrTableEntries,
        final int counterEntries)
    {
        if (slotCount < 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "region geometry slotCount=" + slotCount + " must be at least 1");
        }
        checkRingCapacity("rxRingBytes", rxRingBytes);
        checkRingCapacity("txRingBytes", txRingBytes);
        checkRingCapacity("cqRingBytes", cqRingBytes);
        if (mrTableEntries < 0)
        {
            throw new FabricException(
                Errno.FI_EINVAL, "region geometry mrTableEntries=" + mrTableEntries + " must not be negative");
        }
        if (counterEntries < 0)
        {
            throw new FabricException(
                Errno.FI_EINVAL, "region geometry counterEntries=" + counterEntries + " must not be negative");
        }

        this.slotCount = slotCount;
        this.rxRingBytes = rxRingBytes;
        this.txRingBytes = txRingBytes;
        this.cqRingBytes = cqRingBytes;
        this.mrTableEntries = mrTableEntries;
        this.counterEntries = counterEntries;

        final long regionLength = RegionDescriptor.regionLength(this);
        if (regionLength > RegionDescriptor.MAX_REGION_LENGTH)
        {
            throw new FabricException(Errno.FI_EINVAL, "region geometry " + this + " needs " + regionLength +
                " bytes, more than the " + RegionDescriptor.MAX_REGION_LENGTH + " one mapping can hold");
        }
    }

    /**
     * The geometry a domain opened with this configuration asks for.
     *
     * @param config the provider configuration.
     * @return slots from {@link ShmConfig#epCount()}, ring capacities from the ring byte settings, the key table
     * from {@link ShmConfig#mrCount()} and the counter table from {@link ShmConfig#counterCount()}.
     */
    public static RegionGeometry from(final ShmConfig config)
    {
        return new RegionGeometry(
            config.epCount(),
            config.rxRingBytes(),
            config.txRingBytes(),
            config.cqRingBytes(),
            config.mrCount(),
            config.counterCount());
    }

    /** @return endpoint slots. */
    public int slotCount()
    {
        return slotCount;
    }

    /** @return capacity of each slot's receive ring. */
    public int rxRingBytes()
    {
        return rxRingBytes;
    }

    /** @return capacity of each slot's transmit-context ring. */
    public int txRingBytes()
    {
        return txRingBytes;
    }

    /** @return capacity of each slot's completion ring. */
    public int cqRingBytes()
    {
        return cqRingBytes;
    }

    /** @return entries of the memory region key table. */
    public int mrTableEntries()
    {
        return mrTableEntries;
    }

    /** @return entries of the counter table. */
    public int counterEntries()
    {
        return counterEntries;
    }

    /**
     * Say how this geometry differs from another one, field by field, this one's value first.
     *
     * @param other the geometry to compare with.
     * @return for example {@code "slotCount 64 vs 32, cqRingBytes 262144 vs 4096"}, or an empty string when equal.
     */
    public String describeMismatch(final RegionGeometry other)
    {
        final StringBuilder sb = new StringBuilder();
        mismatch(sb, "slotCount", slotCount, other.slotCount);
        mismatch(sb, "rxRingBytes", rxRingBytes, other.rxRingBytes);
        mismatch(sb, "txRingBytes", txRingBytes, other.txRingBytes);
        mismatch(sb, "cqRingBytes", cqRingBytes, other.cqRingBytes);
        mismatch(sb, "mrTableEntries", mrTableEntries, other.mrTableEntries);
        mismatch(sb, "counterEntries", counterEntries, other.counterEntries);
        return sb.toString();
    }

    @Override
    public boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        if (!(o instanceof RegionGeometry))
        {
            return false;
        }
        final RegionGeometry that = (RegionGeometry)o;
        return slotCount == that.slotCount &&
            rxRingBytes == that.rxRingBytes &&
            txRingBytes == that.txRingBytes &&
            cqRingBytes == that.cqRingBytes &&
            mrTableEntries == that.mrTableEntries &&
            counterEntries == that.counterEntries;
    }

    @Override
    public int hashCode()
    {
        int result = slotCount;
        result = 31 * result + rxRingBytes;
        result = 31 * result + txRingBytes;
        result = 31 * result + cqRingBytes;
        result = 31 * result + mrTableEntries;
        result = 31 * result + counterEntries;
        return result;
    }

    @Override
    public String toString()
    {
        return "RegionGeometry{" +
            "slotCount=" + slotCount +
            ", rxRingBytes=" + rxRingBytes +
            ", txRingBytes=" + txRingBytes +
            ", cqRingBytes=" + cqRingBytes +
            ", mrTableEntries=" + mrTableEntries +
            ", counterEntries=" + counterEntries +
            '}';
    }

    private static void checkRingCapacity(final String name, final int capacity)
    {
        if (capacity < MIN_RING_CAPACITY || capacity > MAX_RING_CAPACITY || Integer.bitCount(capacity) != 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "region geometry " + name + "=" + capacity +
                " must be a power of two in [" + MIN_RING_CAPACITY + ", " + MAX_RING_CAPACITY + "]");
        }
    }

    private static void mismatch(final StringBuilder sb, final String name, final int mine, final int theirs)
    {
        if (mine != theirs)
        {
            if (sb.length() > 0)
            {
                sb.append(", ");
            }
            sb.append(name).append(' ').append(mine).append(" vs ").append(theirs);
        }
    }
}
