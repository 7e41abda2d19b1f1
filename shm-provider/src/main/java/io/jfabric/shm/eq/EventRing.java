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

import io.jfabric.EqEntry;
import io.jfabric.Fid;

/**
 * The bounded first-in first-out store of an event queue's events: fixed-capacity parallel arrays, so queueing
 * and taking an event allocate nothing.
 * <p>
 * Not thread safe: only {@link ShmEventQueue} uses it, always holding its lock.
 */
final class EventRing
{
    private final int[] events;
    private final Fid[] fids;
    private final long[] contexts;
    private final long[] data;
    private int head;
    private int size;

    /**
     * @param capacity the most events it holds.
     */
    EventRing(final int capacity)
    {
        events = new int[capacity];
        fids = new Fid[capacity];
        contexts = new long[capacity];
        data = new long[capacity];
    }

    /**
     * @return the events held.
     */
    int size()
    {
        return size;
    }

    /**
     * @return true when no event is held.
     */
    boolean isEmpty()
    {
        return size == 0;
    }

    /**
     * Append an event; the caller has checked there is room.
     *
     * @param event   event type.
     * @param fid     the object it concerns.
     * @param context the operation's context.
     * @param value   event-specific data.
     */
    void add(final int event, final Fid fid, final long context, final long value)
    {
        int tail = head + size;
        if (tail >= events.length)
        {
            tail -= events.length;
        }
        events[tail] = event;
        fids[tail] = fid;
        contexts[tail] = context;
        data[tail] = value;
        size++;
    }

    /**
     * Copy the oldest event into an entry; the caller has checked there is one.
     *
     * @param entry receives it.
     */
    void peek(final EqEntry entry)
    {
        entry.set(events[head], fids[head], contexts[head], data[head]);
    }

    /**
     * Drop the oldest event; the caller has checked there is one.
     */
    void remove()
    {
        fids[head] = null;
        if (++head == events.length)
        {
            head = 0;
        }
        size--;
    }

    /**
     * Drop every event.
     */
    void clear()
    {
        java.util.Arrays.fill(fids, null);
        head = 0;
        size = 0;
    }
}
