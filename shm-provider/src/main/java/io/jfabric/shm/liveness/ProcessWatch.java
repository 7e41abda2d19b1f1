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
package io.jfabric.shm.liveness;

import io.jfabric.shm.core.ProcessIdentity;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Whether the processes that own peer slots still exist, answered for the data path without touching {@code /proc}
 * on the caller's thread: {@link ProcessIdentity#isGone} reads a file and allocates, which a send or a CQ read must
 * not do, however seldom. {@link #verdict} answers from what the heartbeat thread last found ({@link #onTick}, once a
 * tick), with loads and at most one compare-and-set, and allocates nothing.
 * <p>
 * The watch is a table of {@link #CAPACITY} words, one per process asked about: the identity (pid and start time, 62
 * bits) and, in the top two bits, what was found (not looked at yet, alive, gone). A caller that does not find its
 * identity adds it and hears {@link #UNKNOWN}; the heartbeat thread looks at it at its next tick, and then again
 * every {@link #CHECK_MS} while callers keep asking; an identity nobody
 * asked about for {@link #FORGET_MS} is dropped. "Gone" is final: an identity names one process, and a pid taken again
 * comes with another start time. When the table is full, or no tick came for {@link #STALE_MS} (the heartbeat thread
 * is not running: no domain is open in this process, as in a test of one class), the caller reads {@code /proc}
 * itself, as {@link ProcessIdentity#isGone} does.
 * <p>
 * Thread safe: any thread asks; {@link #onTick} runs on the heartbeat thread.
 */
public final class ProcessWatch
{
    /** Not looked at yet: take it as alive, and ask again within a tick. */
    public static final int UNKNOWN = 0;
    /** The process was there when last looked at. */
    public static final int ALIVE = 1;
    /** The process is gone (exited, a zombie, or its pid names another process). */
    public static final int GONE = 2;

    /** Processes watched at once before callers read {@code /proc} themselves. */
    static final int CAPACITY = 256;
    /** How often the heartbeat thread looks at a process again, in milliseconds. */
    static final long CHECK_MS = 50;
    /** How long a process nobody asks about stays in the table, in milliseconds. */
    static final long FORGET_MS = 2_000;
    /** With no tick for this long, in milliseconds, callers read {@code /proc} themselves. */
    static final long STALE_MS = 2_000;

    private static final int VERDICT_SHIFT = 62;
    private static final long IDENTITY_MASK = (1L << VERDICT_SHIFT) - 1;

    /** Per entry: identity | verdict << {@link #VERDICT_SHIFT}; 0 is a free entry. */
    private static final AtomicLongArray WORDS = new AtomicLongArray(CAPACITY);
    /** Per entry: the tick's time when a caller last asked (opaque: written by any asker). */
    private static final AtomicLongArray ASKED = new AtomicLongArray(CAPACITY);
    /** Per entry: when the heartbeat thread last looked (its own). */
    private static final long[] CHECKED = new long[CAPACITY];
    /** The last tick's time, epoch milliseconds. */
    private static volatile long tickMs = Long.MIN_VALUE / 2;

    private ProcessWatch()
    {
    }

    /**
     * What is known of the process an identity names. Data path: no allocation while the heartbeat thread runs and
     * the table has room.
     *
     * @param identity a slot owner's {@link ProcessIdentity}; 0 (no owner) is gone, this process is alive; a word with
     *                 bits no identity has (damaged) is judged by {@code /proc} at once and not kept.
     * @return {@link #ALIVE}, {@link #GONE}, or {@link #UNKNOWN} (added now; looked at within a tick).
     */
    public static int verdict(final long identity)
    {
        if (ProcessIdentity.pid(identity) == 0)
        {
            return GONE;
        }
        if (identity == ProcessIdentity.self())
        {
            return ALIVE;
        }
        final long now = tickMs;
        if ((identity & ~IDENTITY_MASK) != 0 || System.currentTimeMillis() - now > STALE_MS)
        {
            // bits no identity has (an owner word another process damaged) would read as a verdict: not kept
            return ProcessIdentity.isGone(identity) ? GONE : ALIVE;
        }
        int free = -1;
        for (int i = 0; i < CAPACITY; i++)
        {
            final long word = WORDS.get(i);
            if ((word & IDENTITY_MASK) == identity)
            {
                ASKED.setOpaque(i, now);
                return (int)(word >>> VERDICT_SHIFT);
            }
            if (word == 0 && free < 0)
            {
                free = i;
            }
        }
        if (free >= 0)
        {
            ASKED.setOpaque(free, now); // before the word: the heartbeat thread must not find it unasked-for
            if (WORDS.compareAndSet(free, 0, identity))
            {
                return UNKNOWN;
            }
        }
        return ProcessIdentity.isGone(identity) ? GONE : ALIVE; // full, or another asker took the free entry
    }

    /**
     * Look at the processes due, and drop those nobody asks about. Heartbeat thread, once a tick; reads
     * {@code /proc} and allocates.
     *
     * @param now the tick's time, epoch milliseconds.
     */
    static void onTick(final long now)
    {
        tickMs = now;
        for (int i = 0; i < CAPACITY; i++)
        {
            final long word = WORDS.get(i);
            if (word == 0)
            {
                continue;
            }
            if (now - ASKED.getOpaque(i) > FORGET_MS)
            {
                WORDS.compareAndSet(i, word, 0);
                continue;
            }
            final int verdict = (int)(word >>> VERDICT_SHIFT);
            if (verdict == GONE || verdict == ALIVE && now - CHECKED[i] < CHECK_MS)
            {
                continue;
            }
            final long identity = word & IDENTITY_MASK;
            final long found;
            try
            {
                found = ProcessIdentity.isGone(identity) ? GONE : ALIVE;
            }
            catch (final RuntimeException ex)
            {
                continue; // not told: looked at again next tick; the heartbeat must go on
            }
            CHECKED[i] = now;
            WORDS.compareAndSet(i, word, identity | found << VERDICT_SHIFT);
        }
    }
}
