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
package io.jfabric.shm.core;

/**
 * A fixed pool of indices {@code 0..capacity-1} with a free list, and a few FIFO lists the allocated indices can be
 * threaded on (doubly linked through parallel arrays, so unlinking from the middle is O(1)). The matcher's pools of
 * receives, unexpected messages and deliveries keep their fields in arrays indexed the same way. A pool whose indices
 * another structure hands out (the emulated operations' {@link OpHandoff}) uses the lists alone and never calls
 * {@link #allocate} or {@link #free}.
 * <p>
 * Allocates nothing after construction; single-threaded (its owner's one thread at a time).
 */
public final class IndexLists
{
    /** No index: the end of a list, or an exhausted pool. */
    public static final int NONE = -1;

    private final int[] next;
    private final int[] prev;
    private final int[] listOf;
    private final int[] head;
    private final int[] tail;
    private int freeHead;
    private int allocated;

    /**
     * @param capacity indices.
     * @param lists    lists they may be threaded on.
     */
    public IndexLists(final int capacity, final int lists)
    {
        next = new int[capacity];
        prev = new int[capacity];
        listOf = new int[capacity];
        head = new int[lists];
        tail = new int[lists];
        for (int i = 0; i < capacity; i++)
        {
            next[i] = i + 1 < capacity ? i + 1 : NONE;
            listOf[i] = NONE;
        }
        for (int l = 0; l < lists; l++)
        {
            head[l] = NONE;
            tail[l] = NONE;
        }
        freeHead = capacity > 0 ? 0 : NONE;
    }

    /** @return a free index, on no list, or {@link #NONE} when all are allocated. */
    public int allocate()
    {
        final int i = freeHead;
        if (i != NONE)
        {
            freeHead = next[i];
            next[i] = NONE;
            prev[i] = NONE;
            allocated++;
        }
        return i;
    }

    /** Give an index back; it is unlinked first if it is on a list. */
    public void free(final int i)
    {
        if (listOf[i] != NONE)
        {
            unlink(i);
        }
        next[i] = freeHead;
        freeHead = i;
        allocated--;
    }

    public int allocated()
    {
        return allocated;
    }

    public int capacity()
    {
        return next.length;
    }

    public void append(final int list, final int i)
    {
        final int t = tail[list];
        prev[i] = t;
        next[i] = NONE;
        if (t == NONE)
        {
            head[list] = i;
        }
        else
        {
            next[t] = i;
        }
        tail[list] = i;
        listOf[i] = list;
    }

    /** Take an index off the list it is on. */
    public void unlink(final int i)
    {
        final int list = listOf[i];
        final int p = prev[i];
        final int n = next[i];
        if (p == NONE)
        {
            head[list] = n;
        }
        else
        {
            next[p] = n;
        }
        if (n == NONE)
        {
            tail[list] = p;
        }
        else
        {
            prev[n] = p;
        }
        next[i] = NONE;
        prev[i] = NONE;
        listOf[i] = NONE;
    }

    public boolean isListed(final int i)
    {
        return listOf[i] != NONE;
    }

    public int head(final int list)
    {
        return head[list];
    }

    /** @return the index after {@code i} on its list, or {@link #NONE}. */
    public int next(final int i)
    {
        return next[i];
    }
}
