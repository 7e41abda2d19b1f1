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

import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.region.SharedFile;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * A named address vector's file, {@code <root>/<domain>.<av name>.<region nonce>.av} next to the domain's region
 * ({@link AvDescriptor#fileName}: only processes of that region open it), mapped into this
 * process: created by exactly one process (its header and empty table published as {@link SharedFile} publishes
 * every shared file), opened by the others after its header copy is validated: magic, version, checksum, lengths,
 * and that it belongs to this domain and AV name. Then every open (except a read-only one) adds one to its attach
 * count.
 * <p>
 * Control path; any thread.
 */
final class AvFile
{
    /** How long an open waits for a header not yet marked ready. */
    static final long READY_TIMEOUT_MS = 500;

    private static final int MAX_ATTEMPTS = 16;
    private static final String WHAT = "address vector";

    private final Path path;
    private final MappedByteBuffer buffer;
    private final int entries;
    private final long mapAddr;

    private AvFile(final Path path, final MappedByteBuffer buffer, final int entries, final long mapAddr)
    {
        this.path = path;
        this.buffer = buffer;
        this.entries = entries;
        this.mapAddr = mapAddr;
    }

    /**
     * @param domain the open domain.
     * @param avName the AV's name.
     * @return the file's path: named for the domain's region.
     */
    static Path path(final DomainContext domain, final String avName)
    {
        final var config = domain.config();
        return config.rootDir().resolve(
            AvDescriptor.fileName(domain.attr().name(), avName, domain.region().regionNonce()));
    }

    /**
     * Open (FI_READ: only an existing one, read-only) or create the named AV of a domain.
     *
     * @param domain the domain.
     * @param attr   validated attributes, count resolved.
     * @return the mapped file.
     */
    static AvFile open(final DomainContext domain, final AvAttr attr)
    {
        final var config = domain.config();
        final String domainName = domain.attr().name();
        final Path path = path(domain, attr.name());
        final boolean readOnly = (attr.flags() & Flags.FI_READ) != 0;
        final Object root = SharedFile.checkedRoot(config.rootDir(), config.groupAccess());
        final int entries = AvDescriptor.entriesFor(attr.count());
        final boolean mapType = attr.type() == AvType.MAP;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
        {
            final AvFormat existing = new AvFormat(domainName, attr.name(), entries, attr.mapAddr(), mapType);
            final SharedFile.Mapped opened = SharedFile.openExisting(root, path, WHAT, existing, readOnly);
            if (opened != null)
            {
                return attach(opened, existing, readOnly);
            }
            if (readOnly)
            {
                throw new FabricException(Errno.FI_ENOENT, "fi_av_open: FI_READ opens an existing AV, and " + path +
                    " does not exist: no process has created AV '" + attr.name() + "' of domain '" + domainName + "'");
            }
            final AvFormat created = new AvFormat(domainName, attr.name(), entries, attr.mapAddr(), mapType);
            final SharedFile.Mapped made =
                SharedFile.tryCreate(root, path, WHAT, created, config.groupAccess(), "lower the AV count");
            if (made != null)
            {
                return attach(made, created, false);
            }
        }
        throw new FabricException(Errno.FI_EBUSY, "fi_av_open: " + path + " kept appearing and disappearing over " +
            MAX_ATTEMPTS + " attempts to open or create it: something is removing it while it is in use");
    }

    private static AvFile attach(final SharedFile.Mapped mapped, final AvFormat format, final boolean readOnly)
    {
        if (!readOnly)
        {
            new AvHeader(new UnsafeBuffer(mapped.buffer())).incrementAttachCount();
        }
        return new AvFile(mapped.path(), mapped.buffer(), format.entries, format.mapAddr);
    }

    /** @return the file. */
    Path path()
    {
        return path;
    }

    /** @return the mapping. */
    MappedByteBuffer buffer()
    {
        return buffer;
    }

    /** @return entries of the table. */
    int entries()
    {
        return entries;
    }

    /** @return the creator's map_addr. */
    long mapAddr()
    {
        return mapAddr;
    }

    /** The AV file's {@link SharedFile.Format}; keeps the geometry it validated or wrote. */
    private static final class AvFormat implements SharedFile.Format
    {
        private final String domainName;
        private final String avName;
        private int entries;
        private long mapAddr;
        private final boolean mapType;

        AvFormat(
            final String domainName, final String avName, final int entries, final long mapAddr, final boolean mapType)
        {
            this.mapType = mapType;
            this.domainName = domainName;
            this.avName = avName;
            this.entries = entries;
            this.mapAddr = mapAddr;
        }

        @Override
        public int headerLength()
        {
            return AvDescriptor.HEADER_LENGTH;
        }

        @Override
        public long validate(final UnsafeBuffer copy, final SharedFile.HeaderReader reader, final String source)
            throws IOException
        {
            final AvHeader header = new AvHeader(copy);
            SharedFile.awaitReady(header::isReady, () -> header.verifyIdentity(source), reader, source,
                READY_TIMEOUT_MS);
            header.verify(source);
            if (!header.domainName().equals(domainName) || !header.avName().equals(avName))
            {
                throw new FabricException(Errno.FI_EINVAL, source + " belongs to AV '" + header.avName() +
                    "' of domain '" + header.domainName() + "', not '" + avName + "' of '" + domainName + "'");
            }
            entries = header.entryCount();
            // An FI_AV_MAP opener's map_addr (0: the creator's) is the base of its fi_addr values: checked against
            // this table before it is mapped. An FI_AV_TABLE's values are the indices, whatever map_addr says.
            if (mapType)
            {
                AvAttrValidator.checkMapAddr(mapAddr != 0 ? mapAddr : header.mapAddr(), entries);
            }
            mapAddr = header.mapAddr();
            return header.fileLength();
        }

        @Override
        public long newFileLength()
        {
            return AvDescriptor.fileLength(entries);
        }

        @Override
        public void write(final UnsafeBuffer mapped)
        {
            final AvHeader header = new AvHeader(mapped);
            header.write(entries, mapAddr, domainName, avName);
            header.publishReady();
        }
    }
}
