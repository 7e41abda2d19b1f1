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
import io.jfabric.shm.region.RegionGeometry;

/**
 * Layout of one entry of the domain region's memory region key table ({@link RegionDescriptor#mrEntryOffset}):
 * the only class that computes offsets inside an entry. One entry per registered region of any process of the
 * domain, so keys are unique domain-wide.
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  0
 *   |  Control: generation (bits 8..63) | state (bits 0..7)         |
 *   |  written last with release when publishing, first on withdraw|
 *   +---------------------------------------------------------------+  8
 *   |                          Key                                  |
 *   |                                                               |
 *   +---------------------------------------------------------------+  16
 *   |  Owner Identity: pid | start-time bits (ProcessIdentity)      |
 *   |                                                               |
 *   +---------------------------------------------------------------+  24
 *   |       Segment Id (the N of DOMAIN.seg.PID.N), 0 = none        |
 *   |                                                               |
 *   +---------------------------------------------------------------+  32
 *   |         Offset of the region in the segment's data            |
 *   +---------------------------------------------------------------+  36
 *   |                         Length                                |
 *   +---------------------------------------------------------------+  40
 *   |   Segment Nonce: the nonce in the segment's header, 0 = none  |
 *   |                                                               |
 *   +---------------------------------------------------------------+  48
 *   |   Base Address: what peers subtract from their address        |
 *   |   (FI_MR_VIRT_ADDR: the owner's native address; else 0)       |
 *   +---------------------------------------------------------------+  56
 *   |              Access bits (FI_READ .. FI_REMOTE_WRITE)         |
 *   +---------------------------------------------------------------+  60
 *   |   Counter index + 1 for FI_REMOTE_WRITE events, 0 = none      |
 *   +---------------------------------------------------------------+  64
 * </pre>
 * States: {@link #STATE_EMPTY} (never used; ends a probe), {@link #STATE_CLAIMED} (key taken, not reachable: being
 * registered, disabled, or refreshing), {@link #STATE_PUBLISHED} (reachable), {@link #STATE_FREE} (withdrawn;
 * reusable, but does not end a probe). Entries are claimed and freed only under the table lock
 * ({@link RegionDescriptor#MR_TABLE_LOCK_OFFSET}); the owner publishes and unpublishes its own claimed entry without
 * it, because no other writer touches an entry whose owner is alive. Readers take no lock and use the control word as a sequence
 * lock: acquire-read it, read the fields, fence, read it again, and trust the fields only when both reads agree and
 * say published. Every withdrawal adds one to the generation, so a reader can tell a reused entry from its own.
 * <p>
 * Owners: the owner field and the table lock word (0 free, else the holder) hold an
 * {@link io.jfabric.shm.core.ProcessIdentity}, pid and start-time bits in one long, never a bare pid: an entry or lock
 * whose owner is gone (exited, or its pid now belongs to a process that started at another time) is withdrawn or
 * taken over by the next writer. Segment files are named by the pid decoded from the owner field.
 * <p>
 * Offset and length are ints: a segment's data is at most {@code SegmentDescriptor#MAX_DATA_LENGTH} bytes, below
 * 2^31, so both fit, and the eight bytes saved hold the segment's nonce ({@code SegmentDescriptor#NONCE_OFFSET}),
 * which a peer compares with the mapped segment's before trusting a mapping (a deleted segment whose name came back
 * is another segment). A reader treats a negative offset or length as a damaged entry.
 * <p>
 * Stateless; any thread.
 */
public final class MrTableDescriptor
{
    /** Offset of the control word (long). */
    public static final int CONTROL_OFFSET = 0;
    /** Offset of the key (long). */
    public static final int KEY_OFFSET = 8;
    /** Offset of the owner's process identity (long): pid and start time, see {@code ProcessIdentity}. */
    public static final int OWNER_OFFSET = 16;
    /** Offset of the segment id (long). */
    public static final int SEGMENT_ID_OFFSET = 24;
    /** Offset of the region's offset in the segment's data (int). */
    public static final int SEGMENT_OFFSET_OFFSET = 32;
    /** Offset of the length (int). */
    public static final int LENGTH_OFFSET = 36;
    /** Offset of the segment's nonce (long), 0 when the entry names no segment. */
    public static final int SEGMENT_NONCE_OFFSET = 40;
    /** Offset of the base address (long). */
    public static final int BASE_ADDRESS_OFFSET = 48;
    /** Offset of the access bits (int). */
    public static final int ACCESS_OFFSET = 56;
    /** Offset of the counter index + 1 (int). */
    public static final int COUNTER_OFFSET = 60;

    /** Entry never used. */
    public static final int STATE_EMPTY = 0;
    /** Key claimed, not reachable by peers. */
    public static final int STATE_CLAIMED = 1;
    /** Reachable by peers. */
    public static final int STATE_PUBLISHED = 2;
    /** Withdrawn; reusable. */
    public static final int STATE_FREE = 3;

    private static final int STATE_BITS = 8;
    private static final long STATE_MASK = (1L << STATE_BITS) - 1;

    private MrTableDescriptor()
    {
    }

    /**
     * @param g     geometry.
     * @param index entry index.
     * @return offset in the region of that entry's first byte.
     */
    public static int entryOffset(final RegionGeometry g, final int index)
    {
        return RegionDescriptor.mrEntryOffset(g, index);
    }

    /**
     * @param tableOffset the table's offset, {@link RegionDescriptor#mrTableOffset}, computed once.
     * @param index       entry index, already known to be in range.
     * @return offset in the region of that entry's first byte.
     */
    public static int entryOffset(final int tableOffset, final int index)
    {
        return tableOffset + index * RegionDescriptor.MR_ENTRY_LENGTH;
    }

    /**
     * @param generation generation.
     * @param state      state.
     * @return the control word.
     */
    public static long control(final long generation, final int state)
    {
        return (generation << STATE_BITS) | state;
    }

    /**
     * @param control a control word.
     * @return its state.
     */
    public static int state(final long control)
    {
        return (int)(control & STATE_MASK);
    }

    /**
     * @param control a control word.
     * @return its generation.
     */
    public static long generation(final long control)
    {
        return control >>> STATE_BITS;
    }

    /**
     * @param key     a key.
     * @param entries table entries.
     * @return the entry its probe starts at.
     */
    public static int home(final long key, final int entries)
    {
        long h = key * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
        return (int)Long.remainderUnsigned(h, entries);
    }
}
