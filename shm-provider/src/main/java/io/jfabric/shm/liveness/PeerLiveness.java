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

import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;

/**
 * Whether the endpoint in another slot, at the incarnation a caller resolved, is still there and still running,
 * asked on the data path without paying for the answer each time: the answer per slot is kept for
 * {@link #RECHECK_MS} of {@link Heartbeats#nowMs()} (one volatile load to see it is still fresh), and then worked out
 * again from the slot's header ({@link SlotDescriptor}) and, for the owner's process, from what the heartbeat thread
 * last found in {@code /proc} ({@link ProcessWatch}: no file read and no allocation on the caller's thread).
 * <ul>
 *   <li>{@link #GONE}: the slot is free, or holds another incarnation (the endpoint closed, or its process died and
 *   the slot was taken again), or its owner's process is gone. Nothing more reaches that endpoint, ever.</li>
 *   <li>{@link #STOPPED}: the owner's process exists but its heartbeat ({@link Heartbeats}) is older than the
 *   domain's liveness timeout: stopped (SIGSTOP, a debugger) or frozen. What is already in its ring will still be
 *   read if it resumes; nothing new is sent to it meanwhile.</li>
 *   <li>{@link #ALIVE}: otherwise.</li>
 * </ul>
 * A dead or stopped peer is therefore noticed within the timeout (stopped), or within {@link #RECHECK_MS} plus
 * {@link ProcessWatch#CHECK_MS} and a tick (gone) of a caller asking; an owner the watch has not looked at yet counts
 * as alive, and is asked about again a tick later.
 * <p>
 * Not thread safe: one per role that asks (a transmit context's sending side, its transmit progress, a receive
 * context), each used by one thread at a time.
 */
public final class PeerLiveness
{
    /** The peer is there and running. */
    public static final int ALIVE = 0;
    /** The peer's process exists but has not beaten for the liveness timeout. */
    public static final int STOPPED = 1;
    /** The peer's endpoint is gone: closed, dead, or replaced by another incarnation. */
    public static final int GONE = 2;
    /** How long an answer is trusted, in milliseconds. */
    static final long RECHECK_MS = 100;

    private final AtomicBuffer region;
    private final RegionGeometry geometry;
    private final long timeoutMs;
    private final long[] checkedAt;
    private final int[] checkedIncarnation;
    private final byte[] status;

    /**
     * @param region    the domain region.
     * @param geometry  its geometry.
     * @param timeoutMs the domain's liveness timeout.
     */
    public PeerLiveness(final AtomicBuffer region, final RegionGeometry geometry, final long timeoutMs)
    {
        this.region = region;
        this.geometry = geometry;
        this.timeoutMs = timeoutMs;
        final int slots = geometry.slotCount();
        checkedAt = new long[slots];
        checkedIncarnation = new int[slots];
        status = new byte[slots];
        java.util.Arrays.fill(checkedAt, Long.MIN_VALUE / 2);
    }

    /**
     * @param slot        a peer's slot.
     * @param incarnation the incarnation resolved (0: whichever is there).
     * @return {@link #ALIVE}, {@link #STOPPED} or {@link #GONE}, as of at most {@link #RECHECK_MS} ago.
     */
    public int status(final int slot, final int incarnation)
    {
        final long now = Heartbeats.nowMs();
        if (now - checkedAt[slot] < RECHECK_MS && checkedIncarnation[slot] == incarnation)
        {
            return status[slot];
        }
        return recheck(slot, incarnation, now);
    }

    /**
     * Whether the slot header alone says the peer's endpoint left: closed, or the slot taken by another incarnation.
     * No {@code /proc}, no cache: a few loads. A process that died without closing is found by {@link #status}.
     *
     * @param slot        a peer's slot.
     * @param incarnation the incarnation resolved.
     * @return whether it left.
     */
    public boolean leftSlot(final int slot, final int incarnation)
    {
        return left(
            region.getLongVolatile(SlotDescriptor.ownerOffset(geometry, slot)),
            region.getIntVolatile(SlotDescriptor.stateOffset(geometry, slot)),
            region.getIntVolatile(SlotDescriptor.incarnationOffset(geometry, slot)),
            incarnation);
    }

    /** Whether a slot header's owner, state and incarnation say the endpoint of {@code incarnation} left it. */
    private static boolean left(final long owner, final int state, final int inc, final int incarnation)
    {
        return owner == 0 || state == SlotDescriptor.STATE_FREE || incarnation != 0 && inc != incarnation;
    }

    /**
     * @param slot        a peer's slot.
     * @param incarnation the incarnation resolved (0: whichever is there).
     * @return the status worked out now, whatever is cached.
     */
    public int recheck(final int slot, final int incarnation, final long now)
    {
        final long owner = region.getLongVolatile(SlotDescriptor.ownerOffset(geometry, slot));
        final int state = region.getIntVolatile(SlotDescriptor.stateOffset(geometry, slot));
        final int inc = region.getIntVolatile(SlotDescriptor.incarnationOffset(geometry, slot));
        final long heartbeat = region.getLongVolatile(SlotDescriptor.heartbeatOffset(geometry, slot));
        final boolean left = left(owner, state, inc, incarnation);
        final int process = left ? ProcessWatch.GONE : ProcessWatch.verdict(owner);
        final int s;
        if (process == ProcessWatch.GONE)
        {
            s = GONE;
        }
        else if (state == SlotDescriptor.STATE_ACTIVE && now - heartbeat > timeoutMs)
        {
            s = STOPPED;
        }
        else
        {
            s = ALIVE;
        }
        checkedAt[slot] = process == ProcessWatch.UNKNOWN ? now - RECHECK_MS + Heartbeats.TICK_MS : now;
        checkedIncarnation[slot] = incarnation;
        status[slot] = (byte)s;
        return s;
    }
}
