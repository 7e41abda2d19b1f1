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
import io.jfabric.shm.core.ProcessIdentity;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.time.Instant;

/**
 * A domain region's {@link SharedFile.Format}: validation of a header copy as {@link RegionFile} lists, and the header
 * of a new region. Keeps the header it validated or wrote. Without a geometry (a removal, which must take the region
 * whatever its geometry) any valid geometry is accepted and only the header page is mapped.
 * <p>
 * One per open; the opening thread only.
 */
final class RegionFormat implements SharedFile.Format
{
    private final String domainName;
    private final RegionGeometry geometry;
    private final long readyTimeoutMs;
    private RegionHeader validated;

    /**
     * @param domainName     the domain the region must belong to.
     * @param geometry       the geometry it must have; null for any (and a mapping of the header page only).
     * @param readyTimeoutMs how long to wait for a header not marked ready.
     */
    RegionFormat(final String domainName, final RegionGeometry geometry, final long readyTimeoutMs)
    {
        this.domainName = domainName;
        this.geometry = geometry;
        this.readyTimeoutMs = readyTimeoutMs;
    }

    @Override
    public int headerLength()
    {
        return RegionDescriptor.HEADER_LENGTH;
    }

    @Override
    public long validate(final UnsafeBuffer page, final SharedFile.HeaderReader reader, final String source)
        throws IOException
    {
        final RegionHeader copy = new RegionHeader(page);
        SharedFile.awaitReady(copy::isReady, () -> copy.verifyIdentity(source), reader, source, readyTimeoutMs);
        copy.verify(source);

        final RegionGeometry found = copy.geometry();
        if (null != geometry && !found.equals(geometry))
        {
            throw new FabricException(Errno.FI_EINVAL, source + " was created with another geometry (region " +
                "vs requested: " + found.describeMismatch(geometry) + "); region " + found + ", requested " +
                geometry + ". Every process of a domain must use the same shm ring and table settings");
        }

        final String foundName = copy.domainName();
        if (!foundName.equals(domainName))
        {
            throw new FabricException(Errno.FI_EINVAL,
                source + " belongs to domain \"" + printable(foundName) + "\", not \"" + domainName + "\"");
        }
        final long faultedBy = copy.faultedBy();
        if (null != geometry && faultedBy != 0)
        {
            throw new FabricException(Errno.FI_EIO, source + " was truncated while in use (found by " +
                ProcessIdentity.describe(faultedBy) + "): what it held is lost. Close the domain in every process that has it open, then remove the file " +
                "with `jfabric clean`, and open the domain again");
        }
        validated = copy;
        return copy.regionLength();
    }

    /** @return the validated header (the private copy for an open, the mapping for a create). */
    RegionHeader validated()
    {
        return validated;
    }

    @Override
    public long mapLength(final long fileLength)
    {
        return null == geometry ? RegionDescriptor.HEADER_LENGTH : fileLength;
    }

    @Override
    public long newFileLength()
    {
        return RegionDescriptor.regionLength(geometry);
    }

    @Override
    public void write(final UnsafeBuffer mapped)
    {
        final RegionHeader header = new RegionHeader(mapped);
        final ProcessHandle self = ProcessHandle.current();
        header.write(
            geometry,
            domainName,
            self.pid(),
            self.info().startInstant().map(Instant::toEpochMilli).orElse(0L),
            System.currentTimeMillis());
        header.publishReady();
        validated = header;
    }

    /**
     * @param s a name, perhaps read from a foreign file.
     * @return it with every character outside printable ASCII written as a Java unicode escape, for messages.
     */
    static String printable(final String s)
    {
        final StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f)
            {
                sb.append(c);
            }
            else
            {
                sb.append(String.format("\\u%04x", (int)c));
            }
        }
        return sb.toString();
    }
}
