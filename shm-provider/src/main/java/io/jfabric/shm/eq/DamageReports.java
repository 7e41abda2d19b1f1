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
package io.jfabric.shm.eq;

import io.jfabric.Errno;
import io.jfabric.Fid;

/**
 * Reports damage that another process did to shared memory (a lane, a ring, a header) as error events on an event
 * queue: {@code err} and {@code prov_errno} FI_EIO, the damaged object's fid and context, a number saying where (a
 * sending slot, a ring) as {@code data}, and what was found and done as the error data. At most one event per source
 * every {@link #INTERVAL_MS}: damage done once a millisecond would otherwise fill the queue, and a full event queue is
 * overrun for good (fi_eq(3)); the next event of that source says how many findings were held back meanwhile. The
 * caller counts every finding where its statistics are.
 * <p>
 * Error path: allocates (the text). Threads: one at a time, the owner's (its guard or its progress).
 */
public final class DamageReports
{
    /** Milliseconds between two events about one source. */
    public static final long INTERVAL_MS = 100;

    private final String prefix;
    private final long[] lastMs;
    private final int[] heldBack;

    /**
     * @param prefix  what every event's text starts with, e.g. "damaged lane from slot ".
     * @param sources how many sources (slots, rings) findings are kept apart for, numbered from 0.
     */
    public DamageReports(final String prefix, final int sources)
    {
        this.prefix = prefix;
        lastMs = new long[sources];
        heldBack = new int[sources];
        java.util.Arrays.fill(lastMs, Long.MIN_VALUE / 2);
    }

    /**
     * Report one finding, unless this source had an event less than {@link #INTERVAL_MS} ago.
     *
     * @param eq      the event queue, or null (nothing is posted, the finding still counts against the interval).
     * @param fid     the damaged object, or the object that found it.
     * @param context its context.
     * @param source  where, below the number of sources; also the event's {@code data}.
     * @param what    what was found and what was done.
     * @param nowMs   a clock in milliseconds.
     * @return whether an event was posted.
     */
    public boolean report(
        final ShmEventQueue eq, final Fid fid, final long context, final int source, final String what,
        final long nowMs)
    {
        if (nowMs - lastMs[source] < INTERVAL_MS)
        {
            heldBack[source]++;
            return false;
        }
        lastMs[source] = nowMs;
        final int before = heldBack[source];
        heldBack[source] = 0;
        if (eq == null)
        {
            return false;
        }
        eq.postError(fid, context, source, Errno.FI_EIO, Errno.FI_EIO, "jfabric shm: " + prefix + source + ": " + what +
            (before == 0 ? "" : " (and " + before + " more findings since the last report)"));
        return true;
    }
}
