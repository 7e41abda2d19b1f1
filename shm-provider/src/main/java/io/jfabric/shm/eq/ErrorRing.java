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

import io.jfabric.EqErrEntry;
import io.jfabric.Fid;

/**
 * The bounded first-in first-out store of an event queue's errors (the page's "temporary error queue"). Each
 * slot is an {@link EqErrEntry} that keeps up to the provider's {@code max_err_data} bytes of error data; a slot
 * is made the first time it is used, so an error-free queue costs one array, and later errors allocate nothing.
 * <p>
 * Not thread safe: only {@link ShmEventQueue} uses it, always holding its lock.
 */
final class ErrorRing
{
    private final EqErrEntry[] slots;
    private final int maxErrData;
    private int head;
    private int size;

    /**
     * @param capacity   the most errors it holds.
     * @param maxErrData the most bytes of error data kept per error.
     */
    ErrorRing(final int capacity, final int maxErrData)
    {
        slots = new EqErrEntry[capacity];
        this.maxErrData = maxErrData;
    }

    /**
     * @return the errors held.
     */
    int size()
    {
        return size;
    }

    /**
     * @return true when no error is held.
     */
    boolean isEmpty()
    {
        return size == 0;
    }

    /**
     * Append an error, its data truncated to {@code max_err_data}; the caller has checked there is room.
     *
     * @param fid       the object it concerns.
     * @param context   the failed operation's context.
     * @param data      operation-specific data.
     * @param err       positive libfabric errno.
     * @param provErrno provider error code.
     * @param errData   error data, or null.
     * @param offset    where it starts.
     * @param length    its length in bytes.
     */
    void add(
        final Fid fid,
        final long context,
        final long data,
        final int err,
        final int provErrno,
        final byte[] errData,
        final int offset,
        final int length)
    {
        int tail = head + size;
        if (tail >= slots.length)
        {
            tail -= slots.length;
        }
        EqErrEntry slot = slots[tail];
        if (slot == null)
        {
            slot = new EqErrEntry(maxErrData);
            slots[tail] = slot;
        }
        slot.set(fid, context, data, err, provErrno, errData, offset, length);
        size++;
    }

    /**
     * Copy the oldest error into an entry; the caller has checked there is one.
     *
     * @param entry receives it.
     */
    void peek(final EqErrEntry entry)
    {
        slots[head].copyTo(entry);
    }

    /**
     * Drop the oldest error; the caller has checked there is one.
     */
    void remove()
    {
        slots[head].clear();
        if (++head == slots.length)
        {
            head = 0;
        }
        size--;
    }

    /**
     * Drop every error.
     */
    void clear()
    {
        while (size > 0)
        {
            remove();
        }
        head = 0;
    }
}
