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
import io.jfabric.shm.core.BrokenVariant;

import org.agrona.concurrent.AtomicBuffer;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

import static io.jfabric.shm.region.RegionDescriptor.*;

/**
 * Flyweight that writes and reads the header of a domain region (layout in {@link RegionDescriptor}) in a buffer
 * that starts at the region's first byte and holds at least {@link RegionDescriptor#HEADER_LENGTH} bytes.
 * <p>
 * Publication protocol: the creator calls {@link #write} and then {@link #publishReady()}, whose release store is
 * the last write; a reader calls {@link #isReady()} (acquire) first and, once it is true, {@link #verify(String)}
 * before trusting any other getter.
 * <p>
 * The buffer may be the mapped region or a private copy of the header page (read with {@code read(2)} into an
 * {@link org.agrona.concurrent.UnsafeBuffer}): a region is validated from a copy, so nothing is mapped until the
 * header is known to be good; the copy's ready flag and attach count are then a snapshot, re-read by reading the
 * page again.
 * <p>
 * Threads: {@link #write} and {@link #publishReady()} belong to the one creating thread, before the file is
 * published. Once ready, the getters and {@link #incrementAttachCount()} are safe from any thread of any process
 * mapping the region; the flyweight itself is not thread safe to {@link #wrap re-wrap}.
 */
public final class RegionHeader
{
    private static final boolean BROKEN_READY_FIRST = BrokenVariant.active("region.ready-first");

    private AtomicBuffer buffer;

    /**
     * @param buffer the region's first {@link RegionDescriptor#HEADER_LENGTH} bytes, or more.
     */
    public RegionHeader(final AtomicBuffer buffer)
    {
        wrap(buffer);
    }

    /**
     * @param buffer the region's first {@link RegionDescriptor#HEADER_LENGTH} bytes, or more.
     * @return this.
     */
    public RegionHeader wrap(final AtomicBuffer buffer)
    {
        if (buffer.capacity() < HEADER_LENGTH)
        {
            throw new IllegalArgumentException(
                "buffer of " + buffer.capacity() + " bytes cannot hold the " + HEADER_LENGTH + " byte region header");
        }
        this.buffer = buffer;
        return this;
    }

    /**
     * Write every field before the ready field, checksum last, with a fresh random region nonce. Does not publish:
     * call {@link #publishReady()}.
     *
     * @param geometry         the region's geometry.
     * @param domainName       the domain's name, already validated (US-ASCII, at most {@link
     *                         RegionDescriptor#NAME_CAPACITY} bytes).
     * @param creatorPid       pid of the creating process.
     * @param creatorStartTime start time of the creating process, epoch ms, or 0 when unknown.
     * @param creationTime     now, epoch ms.
     */
    public void write(
        final RegionGeometry geometry,
        final String domainName,
        final long creatorPid,
        final long creatorStartTime,
        final long creationTime)
    {
        if (BROKEN_READY_FIRST)
        {
            buffer.putIntRelease(READY_OFFSET, READY_VALUE);
        }
        final byte[] name = domainName.getBytes(StandardCharsets.US_ASCII);
        if (name.length > NAME_CAPACITY)
        {
            throw new IllegalArgumentException("domain name of " + name.length + " bytes exceeds " + NAME_CAPACITY);
        }

        buffer.putLong(MAGIC_OFFSET, MAGIC);
        buffer.putInt(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        buffer.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        buffer.putLong(REGION_LENGTH_OFFSET, RegionDescriptor.regionLength(geometry));

        buffer.putInt(SLOT_COUNT_OFFSET, geometry.slotCount());
        buffer.putInt(RX_RING_BYTES_OFFSET, geometry.rxRingBytes());
        buffer.putInt(TX_RING_BYTES_OFFSET, geometry.txRingBytes());
        buffer.putInt(CQ_RING_BYTES_OFFSET, geometry.cqRingBytes());
        buffer.putInt(MR_TABLE_ENTRIES_OFFSET, geometry.mrTableEntries());
        buffer.putInt(COUNTER_ENTRIES_OFFSET, geometry.counterEntries());

        buffer.putLong(CREATOR_PID_OFFSET, creatorPid);
        buffer.putLong(CREATOR_START_TIME_OFFSET, creatorStartTime);
        buffer.putLong(CREATION_TIME_OFFSET, creationTime);
        buffer.putLong(REGION_NONCE_OFFSET, newNonce());

        buffer.putInt(NAME_LENGTH_OFFSET, name.length);
        buffer.putBytes(NAME_OFFSET, name);
        buffer.setMemory(NAME_OFFSET + name.length, NAME_CAPACITY - name.length, (byte)0);

        buffer.putInt(CHECKSUM_OFFSET, computeChecksum());
    }

    private static long newNonce()
    {
        long nonce;
        do
        {
            nonce = ThreadLocalRandom.current().nextLong();
        }
        while (nonce == 0);
        return nonce;
    }

    /**
     * Mark the header complete: a release store of {@link RegionDescriptor#READY_VALUE}, after every other write.
     */
    public void publishReady()
    {
        buffer.putIntRelease(READY_OFFSET, READY_VALUE);
    }

    /**
     * @return true when the ready field holds {@link RegionDescriptor#READY_VALUE}; an acquire load, so every
     * field the creator wrote before publishing is visible after it returns true.
     */
    public boolean isReady()
    {
        return buffer.getIntAcquire(READY_OFFSET) == READY_VALUE;
    }

    /**
     * Check that the header is a jfabric region header of this layout version, without waiting for ready.
     *
     * @param source what the header was read from, such as the file's path, for messages.
     * @throws FabricException {@link Errno#FI_EINVAL} for a foreign magic number or another layout version.
     */
    public void verifyIdentity(final String source)
    {
        HeaderChecks.verifyIdentity(buffer, magic(), MAGIC, layoutVersion(), LAYOUT_VERSION, source, "domain region");
    }

    /**
     * Check the ready field without waiting, for a reader of a region found under its published name (linked only
     * once ready), such as an inspection.
     *
     * @param source what the header was read from, such as the file's path, for messages.
     * @throws FabricException {@link Errno#FI_EINVAL} naming the field's value and the one expected.
     */
    public void verifyReady(final String source)
    {
        HeaderChecks.verifyReady(buffer, READY_OFFSET, READY_VALUE, source);
    }

    /**
     * Check a header as a reader that does not wait (an inspection of a region found under its published name):
     * identity (magic, layout version), then ready, then every other field ({@link #verify}).
     *
     * @param source what the header was read from, such as the file's path, for messages.
     * @throws FabricException {@link Errno#FI_EINVAL} or {@link Errno#FI_ECRC} naming what is wrong.
     */
    public void verifyInspected(final String source)
    {
        verifyIdentity(source);
        verifyReady(source);
        verify(source);
    }

    /**
     * Check every field of a ready header: identity, header length, checksum, name length, geometry, region
     * length and nonce. Call after {@link #isReady()} returned true.
     *
     * @param source what the header was read from, such as the file's path, for messages.
     * @throws FabricException {@link Errno#FI_EINVAL} for a foreign or other-version header or a field out of range;
     *                         {@link Errno#FI_ECRC} when the checksum does not match the fields it covers.
     */
    public void verify(final String source)
    {
        verifyIdentity(source);

        final int headerLength = headerLength();
        if (headerLength != HEADER_LENGTH)
        {
            throw new FabricException(Errno.FI_EINVAL,
                source + " is damaged: header length " + headerLength + ", layout version " + LAYOUT_VERSION + " has " +
                HEADER_LENGTH);
        }

        HeaderChecks.verifyChecksum(buffer, CHECKSUM_OFFSET, source);

        final int nameLength = buffer.getInt(NAME_LENGTH_OFFSET);
        if (nameLength < 0 || nameLength > NAME_CAPACITY)
        {
            throw new FabricException(Errno.FI_EINVAL,
                source + " is damaged: domain name length " + nameLength + " not in [0, " + NAME_CAPACITY + "]");
        }

        final RegionGeometry geometry;
        try
        {
            geometry = geometry();
        }
        catch (final FabricException ex)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is damaged: " + ex.getMessage(), ex);
        }

        final long regionLength = regionLength();
        final long expected = RegionDescriptor.regionLength(geometry);
        if (regionLength != expected)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is damaged: region length " + regionLength +
                " but its geometry " + geometry + " needs " + expected);
        }

        if (regionNonce() == 0)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is damaged: its region nonce is 0, which no " +
                "region is created with");
        }
    }

    /** @return the magic number field. */
    public long magic()
    {
        return buffer.getLong(MAGIC_OFFSET);
    }

    /** @return the layout version field. */
    public int layoutVersion()
    {
        return buffer.getInt(LAYOUT_VERSION_OFFSET);
    }

    /** @return the header length field. */
    public int headerLength()
    {
        return buffer.getInt(HEADER_LENGTH_OFFSET);
    }

    /** @return the region length field: the length the file must have. */
    public long regionLength()
    {
        return buffer.getLong(REGION_LENGTH_OFFSET);
    }

    /**
     * @return the geometry fields as a geometry.
     * @throws FabricException {@link Errno#FI_EINVAL} when the fields do not form a valid geometry.
     */
    public RegionGeometry geometry()
    {
        return new RegionGeometry(
            buffer.getInt(SLOT_COUNT_OFFSET),
            buffer.getInt(RX_RING_BYTES_OFFSET),
            buffer.getInt(TX_RING_BYTES_OFFSET),
            buffer.getInt(CQ_RING_BYTES_OFFSET),
            buffer.getInt(MR_TABLE_ENTRIES_OFFSET),
            buffer.getInt(COUNTER_ENTRIES_OFFSET));
    }

    /** @return pid of the process that created the region. */
    public long creatorPid()
    {
        return buffer.getLong(CREATOR_PID_OFFSET);
    }

    /** @return start time of the process that created the region, epoch ms, or 0 when unknown. */
    public long creatorStartTime()
    {
        return buffer.getLong(CREATOR_START_TIME_OFFSET);
    }

    /** @return when the region was created, epoch ms. */
    public long creationTime()
    {
        return buffer.getLong(CREATION_TIME_OFFSET);
    }

    /** @return the region's nonce: random, never 0 in a verified header; what its AV files are named with. */
    public long regionNonce()
    {
        return buffer.getLong(REGION_NONCE_OFFSET);
    }

    /** @return the domain name recorded in the header; call only on a {@link #verify verified} header. */
    public String domainName()
    {
        final int length = buffer.getInt(NAME_LENGTH_OFFSET);
        return buffer.getStringWithoutLengthAscii(NAME_OFFSET, length);
    }

    /** @return the checksum field. */
    public int storedChecksum()
    {
        return buffer.getInt(CHECKSUM_OFFSET);
    }

    /** @return CRC32C of bytes {@code [0, CHECKSUM_OFFSET)} as they are now. */
    public int computeChecksum()
    {
        return HeaderChecks.checksum(buffer, CHECKSUM_OFFSET);
    }

    /** @return the attach count, a volatile read. */
    public long attachCount()
    {
        return buffer.getLongVolatile(ATTACH_COUNT_OFFSET);
    }

    /**
     * Count one more open of the region, atomically across processes.
     *
     * @return the count after this open.
     */
    public long incrementAttachCount()
    {
        return buffer.getAndAddLong(ATTACH_COUNT_OFFSET, 1) + 1;
    }

    /** @return 0 while the region is sound, else the identity of the process that found its file truncated. */
    public long faultedBy()
    {
        return buffer.getLongVolatile(FAULT_OFFSET);
    }

    /**
     * Record, for every process of the region, that its file was found truncated (the first finder stays).
     *
     * @param finder this process's identity.
     */
    public void markFaulted(final long finder)
    {
        buffer.compareAndSetLong(FAULT_OFFSET, 0, finder);
    }
}
