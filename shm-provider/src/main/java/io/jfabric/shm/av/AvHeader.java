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
package io.jfabric.shm.av;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.region.HeaderChecks;
import org.agrona.concurrent.AtomicBuffer;

import java.nio.charset.StandardCharsets;

import static io.jfabric.shm.av.AvDescriptor.*;

/**
 * Flyweight that writes and validates the header of an address vector table (layout in {@link AvDescriptor}).
 * <p>
 * Publication: the creator calls {@link #write} then {@link #publishReady()} (release, the last write); a reader
 * checks {@link #isReady()} (acquire) and then {@link #verify(String)} before trusting any other getter. The buffer
 * may be the mapping or a private copy of the header read with {@code read(2)}.
 * <p>
 * Threads: write and publishReady belong to the creating thread before the file is linked; afterwards the getters,
 * {@link #incrementAttachCount()} and {@link #nextGeneration()} are safe from any thread of any process.
 */
public final class AvHeader
{
    private final AtomicBuffer buffer;

    /**
     * @param buffer the table's first {@link AvDescriptor#HEADER_LENGTH} bytes, or more.
     */
    public AvHeader(final AtomicBuffer buffer)
    {
        this.buffer = buffer;
    }

    /**
     * Write every field before the ready field, checksum last. Does not publish.
     *
     * @param entryCount entries of the table.
     * @param mapAddr    the creator's map_addr.
     * @param domainName the domain's name (US-ASCII).
     * @param avName     the AV's name (US-ASCII), or "" for an unnamed AV.
     */
    public void write(final int entryCount, final long mapAddr, final String domainName, final String avName)
    {
        final byte[] domain = domainName.getBytes(StandardCharsets.US_ASCII);
        final byte[] av = avName.getBytes(StandardCharsets.US_ASCII);
        buffer.putLong(MAGIC_OFFSET, MAGIC);
        buffer.putInt(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        buffer.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        buffer.putLong(FILE_LENGTH_OFFSET, AvDescriptor.fileLength(entryCount));
        buffer.putInt(ENTRY_COUNT_OFFSET, entryCount);
        buffer.putInt(ENTRY_LENGTH_OFFSET, ENTRY_LENGTH);
        buffer.putInt(ADDRESS_CAPACITY_OFFSET, ADDRESS_CAPACITY);
        buffer.putLong(MAP_ADDR_OFFSET, mapAddr);
        buffer.putLong(CREATOR_PID_OFFSET, ProcessHandle.current().pid());
        buffer.putLong(CREATION_TIME_OFFSET, System.currentTimeMillis());
        buffer.putInt(DOMAIN_NAME_LENGTH_OFFSET, domain.length);
        buffer.putBytes(DOMAIN_NAME_OFFSET, domain);
        buffer.putInt(AV_NAME_LENGTH_OFFSET, av.length);
        buffer.putBytes(AV_NAME_OFFSET, av);
        buffer.putInt(CHECKSUM_OFFSET, HeaderChecks.checksum(buffer, CHECKSUM_OFFSET));
    }

    /** Mark the header complete: a release store, after every other write. */
    public void publishReady()
    {
        buffer.putIntRelease(READY_OFFSET, READY_VALUE);
    }

    /** @return true when the ready field is set (acquire). */
    public boolean isReady()
    {
        return buffer.getIntAcquire(READY_OFFSET) == READY_VALUE;
    }

    /**
     * @param source what the header was read from, for messages.
     * @throws FabricException {@link Errno#FI_EINVAL} for a foreign magic or another layout version.
     */
    public void verifyIdentity(final String source)
    {
        HeaderChecks.verifyIdentity(buffer, buffer.getLong(MAGIC_OFFSET), MAGIC, buffer.getInt(LAYOUT_VERSION_OFFSET),
            LAYOUT_VERSION, source, "address vector");
    }

    /**
     * Check the ready field without waiting, for a reader of a file found under its published name (linked only once
     * ready), such as an inspection.
     *
     * @param source what the header was read from, for messages.
     * @throws FabricException {@link Errno#FI_EINVAL} naming the field's value and the one expected.
     */
    public void verifyReady(final String source)
    {
        HeaderChecks.verifyReady(buffer, READY_OFFSET, READY_VALUE, source);
    }

    /**
     * Check every field of a ready header.
     *
     * @param source what the header was read from, for messages.
     * @throws FabricException {@link Errno#FI_EINVAL} for a foreign, other-version or damaged header,
     *                         {@link Errno#FI_ECRC} when the checksum does not match.
     */
    public void verify(final String source)
    {
        verifyIdentity(source);
        HeaderChecks.verifyChecksum(buffer, CHECKSUM_OFFSET, source);
        expect(source, "header length", buffer.getInt(HEADER_LENGTH_OFFSET), HEADER_LENGTH);
        expect(source, "entry length", buffer.getInt(ENTRY_LENGTH_OFFSET), ENTRY_LENGTH);
        expect(source, "address capacity", buffer.getInt(ADDRESS_CAPACITY_OFFSET), ADDRESS_CAPACITY);
        final int entries = entryCount();
        expectIn(source, "entry count", entries, 1, MAX_ENTRIES);
        expect(source, "file length", fileLength(), AvDescriptor.fileLength(entries));
        expectIn(source, "domain name length", buffer.getInt(DOMAIN_NAME_LENGTH_OFFSET), 1, NAME_CAPACITY);
        expectIn(source, "AV name length", buffer.getInt(AV_NAME_LENGTH_OFFSET), 0, AV_NAME_CAPACITY);
    }

    /** @return entries of the table. */
    public int entryCount()
    {
        return buffer.getInt(ENTRY_COUNT_OFFSET);
    }

    /** @return the length the file must have. */
    public long fileLength()
    {
        return buffer.getLong(FILE_LENGTH_OFFSET);
    }

    /** @return the creator's map_addr. */
    public long mapAddr()
    {
        return buffer.getLong(MAP_ADDR_OFFSET);
    }

    /** @return pid of the creator. */
    public long creatorPid()
    {
        return buffer.getLong(CREATOR_PID_OFFSET);
    }

    /** @return the domain name; only on a verified header. */
    public String domainName()
    {
        return buffer.getStringWithoutLengthAscii(DOMAIN_NAME_OFFSET, buffer.getInt(DOMAIN_NAME_LENGTH_OFFSET));
    }

    /** @return the AV name; only on a verified header. */
    public String avName()
    {
        return buffer.getStringWithoutLengthAscii(AV_NAME_OFFSET, buffer.getInt(AV_NAME_LENGTH_OFFSET));
    }

    /** @return opens so far in all processes (volatile). */
    public long attachCount()
    {
        return buffer.getLongVolatile(ATTACH_COUNT_OFFSET);
    }

    /** Count one more open, atomically across processes. */
    public void incrementAttachCount()
    {
        buffer.getAndAddLong(ATTACH_COUNT_OFFSET, 1);
    }

    /** @return a generation no publication of this table has used, atomically across processes. */
    public long nextGeneration()
    {
        return buffer.getAndAddLong(GENERATION_OFFSET, 1) + 1;
    }

    private static void expect(final String source, final String field, final long value, final long expected)
    {
        if (value != expected)
        {
            throw new FabricException(Errno.FI_EINVAL,
                source + " is damaged: its " + field + " is " + value + ", expected " + expected);
        }
    }

    private static void expectIn(final String source, final String field, final int value, final int min, final int max)
    {
        if (value < min || value > max)
        {
            throw new FabricException(Errno.FI_EINVAL,
                source + " is damaged: its " + field + " is " + value + ", expected one in [" + min + ", " + max + "]");
        }
    }
}
