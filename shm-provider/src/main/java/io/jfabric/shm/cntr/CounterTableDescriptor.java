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
package io.jfabric.shm.cntr;

import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;

/**
 * Layout of one entry of the domain region's counter table ({@link RegionDescriptor#counterEntryOffset}): the only
 * class that computes offsets inside an entry.
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  0
 *   |  State: 0 free, 1 in use; follows the owner word, for tools   |
 *   +---------------------------------------------------------------+  4
 *   |                        Reserved                               |
 *   +---------------------------------------------------------------+  8
 *   |  Owner Identity: 0 free, else pid | start-time bits           |
 *   |  (ProcessIdentity); claimed and taken over with CAS           |
 *   +---------------------------------------------------------------+  16
 *   |        Value: success count (getAndAdd / volatile set)        |
 *   |                                                               |
 *   +---------------------------------------------------------------+  24
 *   |        Error: error count (getAndAdd / volatile set)          |
 *   |                                                               |
 *   +---------------------------------------------------------------+  32
 *   |                     Reserved up to 64                        ...
 *   +---------------------------------------------------------------+  64
 * </pre>
 * The owner word is the claim: the owner claims a free entry with a CAS of it from 0 to its process identity
 * ({@link io.jfabric.shm.core.ProcessIdentity}: pid and start-time bits), zeroes both counts, sets the state to 1, and is
 * the only one to free it (state 0, then the owner word 0 with release), unless it is gone (exited, or its pid now
 * names a process that started at another time): then a claim that finds no free entry CASes the owner word from
 * the gone identity to its own. Peers only add to the value (remote write events), and only to an entry a published
 * key table entry names; the owner cannot close the counter while a region is bound to it. The entry has no
 * generation: a peer's add follows its last check of the key table entry, so a peer stalled between the two while
 * the owner closes the region and the counter and a new counter claims this entry adds one event to the new counter
 * ({@code io.jfabric.shm.mr.RemoteMemory} says so); a generation checked before the add would only narrow that window,
 * as check and add are two steps.
 * <p>
 * Stateless; any thread.
 */
public final class CounterTableDescriptor
{
    /** Offset of the state (int). */
    public static final int STATE_OFFSET = 0;
    /** Offset of the owner's process identity (long): pid and start time, see {@code ProcessIdentity}. */
    public static final int OWNER_OFFSET = 8;
    /** Offset of the success count (long). */
    public static final int VALUE_OFFSET = 16;
    /** Offset of the error count (long). */
    public static final int ERROR_OFFSET = 24;
    /** State of a free entry. */
    public static final int STATE_FREE = 0;
    /** State of an entry in use. */
    public static final int STATE_IN_USE = 1;

    private CounterTableDescriptor()
    {
    }

    /**
     * @param g     geometry.
     * @param index entry index.
     * @return offset in the region of the entry.
     */
    public static int entryOffset(final RegionGeometry g, final int index)
    {
        return RegionDescriptor.counterEntryOffset(g, index);
    }
}
