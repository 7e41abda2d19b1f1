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
package io.jfabric.shm.rx;

import io.jfabric.shm.liveness.Heartbeats;

/**
 * The lanes of a receive context that have a sender, in the order receive progress polls them. Polling an empty lane
 * costs a load or two in its own pages, so with many senders attached a scan of every lane on every progress call
 * would cost more than the message being waited for (64 endpoints made a 64-byte round trip 3.2 times as long). From
 * {@link #TIERED_FROM} lanes on the lanes are split:
 * <ul>
 *   <li><b>hot</b>: a record came through within the last {@link #HOT_MS} ms of {@link Heartbeats#nowMs()}: polled
 *   on every progress call;</li>
 *   <li><b>cold</b>: the others: one of them on every {@link #COLD_STRIDE}-th progress call, in turn, and all of
 *   them on the first call of each heartbeat tick ({@link Heartbeats#TICK_MS} ms). A cold lane that gives a record
 *   turns hot at once.</li>
 * </ul>
 * So a message on a cold lane waits at most {@link #COLD_STRIDE} progress calls per cold lane, or one tick, before it
 * is read; one on a hot lane is read as before. With fewer lanes every lane is hot. (Polling a cold lane on every call
 * instead cost the 64-endpoint round trip 5-15 % at p50 and more at p99: each poll loads lines of two pages of its own,
 * so it misses the TLB.)
 * <p>
 * Positions of the list: {@code [0, hotCount)} hot, {@code [hotCount, count)} cold. Slots are those of the domain.
 * <p>
 * Receive guard held: one thread at a time. Nothing here allocates. Public for the endpoint tests that pin its
 * periods ({@code ManySendersTest}); the package is not exported.
 */
public final class ActiveLanes
{
    /** Lanes from which the list is split into hot and cold. */
    public static final int TIERED_FROM = 8;
    /** Progress calls per cold lane polled in turn (besides the sweep of all on a tick's first call). */
    public static final int COLD_STRIDE = 4;
    /** How long a lane stays hot after its last record, in milliseconds of {@link Heartbeats#nowMs()}. */
    public static final long HOT_MS = 2 * Heartbeats.TICK_MS;

    private final int[] order;
    private final long[] lastRecordMs;
    private final boolean[] listed;
    private final int[] seenAt;
    private int rebuilds;
    private int count;
    private int hotCount;
    private int coldCursor;
    private long sweptMs;
    private int calls;

    /**
     * @param slots the domain's slot count.
     */
    ActiveLanes(final int slots)
    {
        order = new int[slots];
        lastRecordMs = new long[slots];
        listed = new boolean[slots];
        seenAt = new int[slots];
    }

    /** @return lanes listed. */
    int count()
    {
        return count;
    }

    /** @return lanes polled on every call: positions {@code [0, hotCount())}. */
    int hotCount()
    {
        return hotCount;
    }

    /**
     * @param position a position of the list.
     * @return the slot whose lane is there.
     */
    int slotAt(final int position)
    {
        return order[position];
    }

    /**
     * Rebuild the list from the slots given, hot ones first. A slot not listed before counts as hot: its sender just
     * connected, so a record is likely on its way.
     *
     * @param slots the slots whose lanes have a sender, from {@code slots[0]}; not modified.
     * @param n     how many.
     * @param nowMs {@link Heartbeats#nowMs()}.
     */
    void rebuild(final int[] slots, final int n, final long nowMs)
    {
        final int stamp = ++rebuilds;
        for (int i = 0; i < n; i++)
        {
            final int s = slots[i];
            seenAt[s] = stamp;
            if (!listed[s])
            {
                listed[s] = true;
                lastRecordMs[s] = nowMs;
            }
        }
        for (int i = 0; i < count; i++)
        {
            final int s = order[i];
            if (seenAt[s] != stamp)
            {
                listed[s] = false;
            }
        }
        final boolean tiered = n >= TIERED_FROM;
        int hot = 0;
        int cold = n;
        for (int i = 0; i < n; i++)
        {
            final int s = slots[i];
            if (!tiered || nowMs - lastRecordMs[s] <= HOT_MS)
            {
                order[hot++] = s;
            }
            else
            {
                order[--cold] = s;
            }
        }
        count = n;
        hotCount = hot;
    }

    /**
     * The lane at a hot position gave records.
     *
     * @param slot  its slot.
     * @param nowMs {@link Heartbeats#nowMs()}.
     */
    void recordsFrom(final int slot, final long nowMs)
    {
        lastRecordMs[slot] = nowMs;
    }

    /**
     * The lane at a hot position gave nothing: it turns cold when the list is split and its last record is older
     * than {@link #HOT_MS}; the last hot lane takes its position.
     *
     * @param position the lane's position, below {@link #hotCount()}.
     * @param nowMs    {@link Heartbeats#nowMs()}.
     * @return whether it turned cold (then poll the same position again: another lane is there).
     */
    boolean cooled(final int position, final long nowMs)
    {
        if (count < TIERED_FROM || nowMs - lastRecordMs[order[position]] <= HOT_MS)
        {
            return false;
        }
        swap(position, --hotCount);
        return true;
    }

    /**
     * @param nowMs {@link Heartbeats#nowMs()}.
     * @return how many cold lanes to poll on this call, from {@link #nextCold()}: all of them on the first call of a
     * tick, else one on every {@link #COLD_STRIDE}-th call (none when there are none).
     */
    int coldToPoll(final long nowMs)
    {
        final int cold = count - hotCount;
        if (cold == 0)
        {
            return 0;
        }
        if (nowMs != sweptMs)
        {
            sweptMs = nowMs;
            return cold;
        }
        return ++calls % COLD_STRIDE == 0 ? 1 : 0;
    }

    /** @return the position of the next cold lane to poll, in turn. */
    int nextCold()
    {
        int p = coldCursor;
        if (p < hotCount || p >= count)
        {
            p = hotCount;
        }
        coldCursor = p + 1;
        return p;
    }

    /**
     * The cold lane at a position gave records: it turns hot.
     *
     * @param position its position, at or above {@link #hotCount()}.
     * @param nowMs    {@link Heartbeats#nowMs()}.
     */
    void warmed(final int position, final long nowMs)
    {
        lastRecordMs[order[position]] = nowMs;
        swap(position, hotCount++);
        coldCursor = position; // another cold lane is there now (or none, and the next turn starts over)
    }

    private void swap(final int a, final int b)
    {
        final int s = order[a];
        order[a] = order[b];
        order[b] = s;
    }
}
