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
import io.jfabric.shm.mr.SegmentDescriptor;
import io.jfabric.shm.mr.SegmentFile;
import io.jfabric.shm.region.InspectedFile;
import io.jfabric.shm.region.SharedFile;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.PrintWriter;

import static io.jfabric.shm.mr.SegmentDescriptor.*;

/**
 * {@code jfabric dump} of a shareable memory segment ({@link SegmentDescriptor}): every header field, checked as a
 * peer checks it before mapping (and the owner and segment id its name gives against the header's), then where its
 * data is. The data itself is the application's and is not printed. The command's thread only.
 */
final class SegmentDump implements FileDump
{
    @Override
    public int headerLength()
    {
        return HEADER_LENGTH;
    }

    @Override
    public void fields(final FieldListing fields)
    {
        fields.magic(MAGIC_OFFSET)
            .intField(LAYOUT_VERSION_OFFSET, "layout version")
            .intField(HEADER_LENGTH_OFFSET, "header length")
            .longField(DATA_LENGTH_OFFSET, "data length")
            .longField(OWNER_PID_OFFSET, "owner pid")
            .longField(SEGMENT_ID_OFFSET, "segment id")
            .hexLong(NONCE_OFFSET, "nonce")
            .identity(OWNER_IDENTITY_OFFSET, "owner identity")
            .intField(READY_OFFSET, "ready");
    }

    @Override
    public void verify(final InspectedFile file, final UnsafeBuffer header)
    {
        final long dataLength = SegmentFile.verifyHeader(header, file.source());
        final String name = file.path().getFileName().toString();
        final long namePid = SegmentDescriptor.ownerPidOf(name);
        final long owner = header.getLong(OWNER_PID_OFFSET);
        final long id = header.getLong(SEGMENT_ID_OFFSET);
        if (namePid >= 0 && !name.equals(SegmentDescriptor.fileName(SegmentDescriptor.domainOf(name), owner, id)))
        {
            throw new FabricException(Errno.FI_EINVAL, file.source() + " is named for another segment: its header " +
                "records owner " + owner + " segment " + id + ", its name owner " + namePid + " segment " +
                name.substring(name.lastIndexOf('.') + 1));
        }
        SharedFile.checkLength(file.length(), SegmentDescriptor.fileLength(dataLength), file.source());
    }

    @Override
    public void body(final InspectedFile file, final UnsafeBuffer header, final PrintWriter out)
    {
        out.print("data: " + header.getLong(DATA_LENGTH_OFFSET) + " bytes at offset " + DATA_OFFSET +
            " (the application's; not shown)\n");
    }
}
