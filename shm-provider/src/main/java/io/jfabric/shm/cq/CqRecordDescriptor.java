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
package io.jfabric.shm.cq;

import org.agrona.concurrent.ringbuffer.RecordDescriptor;

/**
 * Layout of the body of a record in a completion ring (an Agrona {@code ManyToOneRingBuffer} in the domain region,
 * whose 8-byte record header carries the length and the type): the only class that computes offsets into one.
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  0
 *   |                     Operation Context (long)                  |
 *   +---------------------------------------------------------------+  8
 *   |                     Completion Flags (long)                   |
 *   +---------------------------------------------------------------+  16
 *   |                     Length (long)                             |
 *   +---------------------------------------------------------------+  24
 *   |                     Buffer Offset (long)                      |
 *   +---------------------------------------------------------------+  32
 *   |                     Remote CQ Data (long)                     |
 *   +---------------------------------------------------------------+  40
 *   |                     Tag (long)                                |
 *   +---------------------------------------------------------------+  48
 *   |                     Source fi_addr (long)                     |
 *   +---------------------------------------------------------------+  56 = ENTRY_LENGTH; ERROR records go on:
 *   |                     Overflow Length (long)                    |
 *   +---------------------------------------------------------------+  64
 *   |                     Errno (int)                               |
 *   +---------------------------------------------------------------+  68
 *   |                     Provider Errno (int)                      |
 *   +---------------------------------------------------------------+  72
 *   |                     Error Data Length (int)                   |
 *   +---------------------------------------------------------------+  76
 *   |                     Error Data (UTF-8) ...                   ...
 *   +---------------------------------------------------------------+
 * </pre>
 * A success record is exactly one cache line with the ring's header. Stateless; any thread.
 */
final class CqRecordDescriptor
{
    /** Type of a success entry. */
    public static final int ENTRY = 1;
    /** Type of an error entry. */
    public static final int ERROR = 2;
    /** Offset of the operation context. */
    public static final int CONTEXT_OFFSET = 0;
    /** Offset of the completion flags. */
    public static final int FLAGS_OFFSET = 8;
    /** Offset of the length. */
    public static final int LEN_OFFSET = 16;
    /** Offset of the buffer offset. */
    public static final int BUF_OFFSET_OFFSET = 24;
    /** Offset of the remote CQ data. */
    public static final int DATA_OFFSET = 32;
    /** Offset of the tag. */
    public static final int TAG_OFFSET = 40;
    /** Offset of the source fi_addr. */
    public static final int SRC_ADDR_OFFSET = 48;
    /** Body length of a success entry. */
    public static final int ENTRY_LENGTH = 56;
    /** Offset of the overflow length of an error entry. */
    public static final int OLEN_OFFSET = 56;
    /** Offset of the errno of an error entry. */
    public static final int ERR_OFFSET = 64;
    /** Offset of the provider errno of an error entry. */
    public static final int PROV_ERRNO_OFFSET = 68;
    /** Offset of the error data length. */
    public static final int ERR_DATA_LENGTH_OFFSET = 72;
    /** Offset of the error data. */
    public static final int ERR_DATA_OFFSET = 76;

    private CqRecordDescriptor()
    {
    }

    /**
     * @param maxErrData most bytes of error data an entry carries.
     * @return ring bytes the largest record (an error entry) takes, with the ring's header and alignment.
     */
    public static int maxRecordLength(final int maxErrData)
    {
        return org.agrona.BitUtil.align(
            RecordDescriptor.HEADER_LENGTH + ERR_DATA_OFFSET + maxErrData, RecordDescriptor.ALIGNMENT);
    }
}
