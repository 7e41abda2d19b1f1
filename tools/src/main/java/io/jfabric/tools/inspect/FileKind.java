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
package io.jfabric.tools.inspect;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.av.AvDescriptor;
import io.jfabric.shm.mr.SegmentDescriptor;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.SharedFile;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The kinds of file {@code jfabric dump} decodes, told apart by their magic number, or, when that is damaged, by
 * the name the provider gives each kind. Stateless; any thread.
 */
enum FileKind
{
    /** {@code <domain>.domain}. */
    REGION("domain region", RegionDescriptor.MAGIC, RegionDump::new),
    /** {@code <domain>.<av>.<region nonce>.av}. */
    ADDRESS_VECTOR("address vector", AvDescriptor.MAGIC, AvDump::new),
    /** {@code <domain>.seg.<pid>.<n>}. */
    SEGMENT("shareable memory segment", SegmentDescriptor.MAGIC, SegmentDump::new);

    private static final int MAGIC_LENGTH = 8;

    private final String what;
    private final long magic;
    private final Supplier<FileDump> dump;

    FileKind(final String what, final long magic, final Supplier<FileDump> dump)
    {
        this.what = what;
        this.magic = magic;
        this.dump = dump;
    }

    /** @return how messages name the kind. */
    String what()
    {
        return what;
    }

    /** @return a decoder of the kind. */
    FileDump dump()
    {
        return dump.get();
    }

    /**
     * @param file a file.
     * @return its kind: the one whose magic number it starts with, else the one its name has the form of.
     * @throws FabricException {@link Errno#FI_ENOENT} for a missing file, {@link Errno#FI_EINVAL} naming its first
     *                         bytes and every magic number for a file that is neither.
     */
    static FileKind of(final Path file)
    {
        final UnsafeBuffer start;
        try
        {
            if (!Files.exists(file))
            {
                throw new FabricException(Errno.FI_ENOENT, file + " does not exist");
            }
            if (!Files.isRegularFile(file))
            {
                throw new FabricException(Errno.FI_EINVAL, file + " is not a regular file");
            }
            start = SharedFile.readHeaderCopy(file.toRealPath(), MAGIC_LENGTH);
        }
        catch (final IOException ex)
        {
            throw SharedFile.ioFailure("read " + file, ex);
        }
        final long found = null == start ? 0 : start.getLong(0);
        for (final FileKind kind : values())
        {
            if (kind.magic == found)
            {
                return kind;
            }
        }
        final String name = file.getFileName().toString();
        if (name.endsWith(RegionFile.FILE_SUFFIX))
        {
            return REGION;
        }
        if (AvDescriptor.regionNonceOf(name) != 0)
        {
            return ADDRESS_VECTOR;
        }
        if (SegmentDescriptor.ownerPidOf(name) >= 0)
        {
            return SEGMENT;
        }
        final StringBuilder expected = new StringBuilder();
        for (final FileKind kind : values())
        {
            expected.append(expected.length() == 0 ? "" : ", ").append(Text.hex(kind.magic)).append(" (")
                .append(kind.what).append(')');
        }
        throw new FabricException(Errno.FI_EINVAL, file + " is not a jfabric file: " + (null == start ?
            "it is shorter than the " + MAGIC_LENGTH + " byte magic number every jfabric file starts with" :
            "magic " + Text.hex(found) + " at offset 0") + ", expected one of " + expected +
            ", or a name of the form <domain>.domain, <domain>.<av>.<nonce>.av or <domain>.seg.<pid>.<n>");
    }
}
