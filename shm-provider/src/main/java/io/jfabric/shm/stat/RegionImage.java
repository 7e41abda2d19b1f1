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
package io.jfabric.shm.stat;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.region.InspectedFile;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.RegionHeader;
import org.agrona.concurrent.AtomicBuffer;

import java.nio.file.Path;

/**
 * A domain region file mapped read-only for inspection, after its header was checked as every opener of a region
 * checks it ({@code RegionFile}): a private copy of the header page is read with {@code read(2)}, its magic and
 * layout version, ready field, header length, checksum, name length, geometry, region length and nonce are
 * verified ({@link RegionHeader#verifyInspected}), the file's length is compared with the header's, and only then is
 * the file mapped. Unlike an open it does not wait for a region that is not ready (a region is published under its
 * name only once ready, so such a file is damaged), does not join the user table or the attach count, and writes
 * nothing.
 * <p>
 * Errors are {@link FabricException}s naming the file, the field, its value and what was expected:
 * {@link Errno#FI_EINVAL} for a file that is foreign, of another layout version, not ready, damaged or truncated,
 * {@link Errno#FI_ECRC} for a header whose checksum does not match, and as {@link InspectedFile#open} for a file
 * that cannot be opened.
 * <p>
 * To its user the image is a handle: {@link DomainStat#sample} reads it, as often as wanted, without mapping the
 * file again; the header, geometry and mapping it holds are this package's.
 * <p>
 * One thread at a time; {@link #close()} once, after every use of the mapping.
 */
public final class RegionImage implements AutoCloseable
{
    /** How messages name a region file. */
    public static final String WHAT = "domain region";

    private final InspectedFile file;
    private final RegionHeader header;
    private final RegionGeometry geometry;
    private final AtomicBuffer buffer;

    private RegionImage(
        final InspectedFile file, final RegionHeader header, final RegionGeometry geometry, final AtomicBuffer buffer)
    {
        this.file = file;
        this.header = header;
        this.geometry = geometry;
        this.buffer = buffer;
    }

    /**
     * Check and map a region file.
     *
     * @param regionFile the file, such as {@code /dev/shm/jfabric-alice/orders.domain}.
     * @return the mapped region.
     * @throws FabricException as the class description says.
     */
    public static RegionImage open(final Path regionFile)
    {
        final InspectedFile file = InspectedFile.open(regionFile, WHAT);
        try
        {
            final RegionHeader copy = new RegionHeader(file.readHeader(RegionDescriptor.HEADER_LENGTH));
            copy.verifyInspected(file.source());
            final RegionGeometry geometry = copy.geometry();
            return new RegionImage(file, copy, geometry, file.map(copy.regionLength()));
        }
        catch (final RuntimeException ex)
        {
            file.close();
            throw ex;
        }
    }

    /** @return the file. */
    InspectedFile file()
    {
        return file;
    }

    /**
     * @return the checked header: a private copy read before mapping, so its fields are those that were checked
     * (the attach count in it is as of the open; {@link #liveHeader()} reads it now).
     */
    RegionHeader header()
    {
        return header;
    }

    /** @return a header flyweight over the mapping, for the fields that change (the attach count). */
    RegionHeader liveHeader()
    {
        return new RegionHeader(buffer);
    }

    /** @return the region's geometry. */
    RegionGeometry geometry()
    {
        return geometry;
    }

    /** @return the whole region, mapped read-only: offsets as in {@link RegionDescriptor}; never write to it. */
    AtomicBuffer buffer()
    {
        return buffer;
    }

    /** Unmap and close; idempotent. */
    @Override
    public void close()
    {
        file.close();
    }
}
