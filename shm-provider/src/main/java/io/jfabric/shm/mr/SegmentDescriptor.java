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
package io.jfabric.shm.mr;

import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.RegionDescriptor;

import org.agrona.BitUtil;

/**
 * Layout version 3 of a shareable memory segment file, {@code <rootDir>/<domain>.seg.<pid>.<n>}: the only class
 * that computes offsets into it. A header page, then the data, page aligned:
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  0
 *   |                  Magic "JFABSEG" + 1                          |
 *   |                                                               |
 *   +---------------------------------------------------------------+  8
 *   |                      Layout Version                           |
 *   +---------------------------------------------------------------+  12
 *   |                      Header Length                            |
 *   +---------------------------------------------------------------+  16
 *   |                  Data Length (as allocated)                   |
 *   |                                                               |
 *   +---------------------------------------------------------------+  24
 *   |                       Owner Pid                               |
 *   |                                                               |
 *   +---------------------------------------------------------------+  32
 *   |                       Segment Id                              |
 *   |                                                               |
 *   +---------------------------------------------------------------+  40
 *   |   Nonce: random, never 0, drawn when the segment is created;  |
 *   |   also in every key table entry naming the segment           |
 *   +---------------------------------------------------------------+  48
 *   |   Owner Identity: the owner's ProcessIdentity (pid and start  |
 *   |   time); its pid is Owner Pid                                 |
 *   +---------------------------------------------------------------+  56
 *   |                     Reserved up to 64                        ...
 *   +---------------------------------------------------------------+  64
 *   |   Ready: READY_VALUE, written last with release               |
 *   +---------------------------------------------------------------+  68
 *   |                  Reserved up to DATA_OFFSET                  ...
 *   +---------------------------------------------------------------+  4096 DATA_OFFSET
 *   |   Data: dataLength bytes, padded to a page                   ...
 *   +---------------------------------------------------------------+  fileLength(dataLength)
 * </pre>
 * Native byte order, as the region. The owner writes the header, then ready with release, before the file is
 * linked under its name; a peer reads the header page with {@code read(2)} and checks magic, version, header
 * length, ready, owner (pid and identity), segment id, nonce and the file's length before it maps anything.
 * <p>
 * Identity: the file name holds the owner's pid and its segment id, a number unique within the owner process (one
 * process-wide sequence, whatever domain object allocates). The nonce tells apart two segments that ever had the
 * same name (an earlier process with the same pid left one; or a deleted segment a peer still maps): a peer trusts a
 * mapping, cached or new, only when its nonce equals the one the key table entry records.
 * <p>
 * Owner: the name's pid alone cannot tell a dead owner from a later process that reuses its pid, so the header
 * records the owner's {@code io.jfabric.shm.core.ProcessIdentity} too (layout 3). A segment whose owner is gone is removed
 * by the next opener of its domain and by {@code jfabric clean}; a live owner's never is.
 * <p>
 * Stateless; any thread.
 */
public final class SegmentDescriptor
{
    /** Magic: the bytes "JFABSEG" and a 1, read as a little-endian long. */
    public static final long MAGIC = 0x01_47_45_53_42_41_46_4AL;
    /** Layout version: 2 added the nonce, 3 the owner's identity. */
    public static final int LAYOUT_VERSION = 3;
    /** Offset of the magic (long). */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the layout version (int). */
    public static final int LAYOUT_VERSION_OFFSET = 8;
    /** Offset of the header length (int). */
    public static final int HEADER_LENGTH_OFFSET = 12;
    /** Offset of the data length (long). */
    public static final int DATA_LENGTH_OFFSET = 16;
    /** Offset of the owner pid (long). */
    public static final int OWNER_PID_OFFSET = 24;
    /** Offset of the segment id (long). */
    public static final int SEGMENT_ID_OFFSET = 32;
    /** Offset of the nonce (long): random, never 0. */
    public static final int NONCE_OFFSET = 40;
    /** Offset of the owner's identity (long): its {@code ProcessIdentity}, never 0. */
    public static final int OWNER_IDENTITY_OFFSET = 48;
    /** Offset of the ready field (int). */
    public static final int READY_OFFSET = BitUtil.CACHE_LINE_LENGTH;
    /** Ready value. */
    public static final int READY_VALUE = 1;
    /** Header length, one page. */
    public static final int HEADER_LENGTH = RegionDescriptor.PAGE_LENGTH;
    /** Offset of the data. */
    public static final int DATA_OFFSET = HEADER_LENGTH;
    /** Largest data length: one int-indexed buffer covers the file. */
    public static final long MAX_DATA_LENGTH = RegionDescriptor.MAX_REGION_LENGTH - HEADER_LENGTH;
    /** File name infix between the domain name and the owner's pid. */
    public static final String NAME_INFIX = ".seg.";

    private SegmentDescriptor()
    {
    }

    /**
     * @param dataLength data bytes.
     * @return the file's length: header plus data padded to a page.
     */
    public static long fileLength(final long dataLength)
    {
        return HEADER_LENGTH + BitUtil.align(dataLength, RegionDescriptor.PAGE_LENGTH);
    }

    /**
     * @param domainName the domain.
     * @param ownerPid   the owner.
     * @param segmentId  the owner's segment number.
     * @return the file name.
     */
    public static String fileName(final String domainName, final long ownerPid, final long segmentId)
    {
        return domainName + NAME_INFIX + ownerPid + "." + segmentId;
    }

    /**
     * @param fileName a file name in the shm root.
     * @return the owner pid a segment's {@link #fileName} carries, or -1 when the name is not a segment's.
     */
    public static long ownerPidOf(final String fileName)
    {
        final int idDot = fileName.lastIndexOf('.');
        final int pidDot = idDot <= 0 ? -1 : fileName.lastIndexOf('.', idDot - 1);
        if (pidDot < NAME_INFIX.length() || !fileName.startsWith(NAME_INFIX, pidDot - NAME_INFIX.length() + 1) ||
            !isNumber(fileName, idDot + 1, fileName.length()) || !isNumber(fileName, pidDot + 1, idDot))
        {
            return -1;
        }
        try
        {
            return Long.parseLong(fileName.substring(pidDot + 1, idDot));
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /**
     * @param fileName a segment's file name ({@link #ownerPidOf} is not -1).
     * @return the domain it belongs to.
     */
    public static String domainOf(final String fileName)
    {
        final int pidDot = fileName.lastIndexOf('.', fileName.lastIndexOf('.') - 1);
        return fileName.substring(0, pidDot - NAME_INFIX.length() + 1);
    }

    private static boolean isNumber(final String s, final int from, final int to)
    {
        if (from >= to || to - from > 19)
        {
            return false;
        }
        for (int i = from; i < to; i++)
        {
            if (s.charAt(i) < '0' || s.charAt(i) > '9')
            {
                return false;
            }
        }
        return true;
    }
}
