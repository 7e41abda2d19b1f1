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
package io.jfabric.shm.match;

import io.jfabric.Flags;
import io.jfabric.shm.core.IndexLists;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.agrona.DirectBuffer;

/**
 * The pool of posted receives of one {@link ReceiveMatcher}: a fixed number of entries, preallocated as parallel
 * arrays, each holding a receive's buffers (up to {@code maxIov} entries copied from the caller's arrays), its
 * matching rule and its progress, threaded onto two FIFO lists (untagged and tagged) in post order.
 * <p>
 * An entry leaves its list when it is matched (a plain receive) or released (a multi-receive buffer) but stays
 * allocated until the last delivery into it has completed. A multi-receive buffer hands out its space to messages
 * back to back ({@link #reserveSpace}) and is released once what is left is below the minimum captured at its post.
 * Nothing here allocates after construction.
 * <p>
 * Called only by the thread that holds the endpoint's receive side (the matcher's caller).
 */
final class PostedReceives
{
    static final int NONE = IndexLists.NONE;
    static final int MSG_LIST = 0;
    static final int TAGGED_LIST = 1;

    final int maxIov;

    final boolean[] tagged;
    final long[] tag;
    final long[] ignore;
    final long[] srcAddr;
    final long[] context;
    final long[] opFlags;
    /** Extra completion flags every completion of this receive carries (FI_CLAIM for a claiming receive). */
    final long[] extraCqFlags;
    /** Multi-receive: the free-space minimum captured when the receive was posted. */
    final long[] minFree;
    /** Post order, for cancel's "first pending receive". */
    final long[] sequence;
    final int[] iovCount;
    final ByteBuffer[] iovBuffer;
    final int[] iovOffset;
    final int[] iovLength;
    /** Sum of the iov lengths. */
    final long[] space;
    /** Multi-receive: bytes of the buffer already handed to messages. */
    final long[] used;
    /** Deliveries placing into this entry that have not ended. */
    final int[] inFlight;

    private final IndexLists lists;
    private long nextSequence;

    PostedReceives(final int capacity, final int maxIov)
    {
        this.maxIov = maxIov;
        tagged = new boolean[capacity];
        tag = new long[capacity];
        ignore = new long[capacity];
        srcAddr = new long[capacity];
        context = new long[capacity];
        opFlags = new long[capacity];
        extraCqFlags = new long[capacity];
        minFree = new long[capacity];
        sequence = new long[capacity];
        iovCount = new int[capacity];
        iovBuffer = new ByteBuffer[capacity * maxIov];
        iovOffset = new int[capacity * maxIov];
        iovLength = new int[capacity * maxIov];
        space = new long[capacity];
        used = new long[capacity];
        inFlight = new int[capacity];
        lists = new IndexLists(capacity, 2);
    }

    /** @return a fresh entry with no buffers, on no list, or {@link #NONE} when all are in use. */
    int allocate()
    {
        final int e = lists.allocate();
        if (e != NONE)
        {
            iovCount[e] = 0;
            space[e] = 0;
            used[e] = 0;
            inFlight[e] = 0;
            extraCqFlags[e] = 0;
            sequence[e] = nextSequence++;
        }
        return e;
    }

    /**
     * Set what an entry matches and reports: the tag and ignore mask only for a tagged receive (0 otherwise).
     *
     * @param e       the entry.
     * @param tagged  fi_trecv family.
     * @param tag     tag to match.
     * @param ignore  tag bits to ignore.
     * @param src     FI_ADDR_UNSPEC or the only sender accepted.
     * @param ctx     the operation context.
     * @param flags   the receive's flags.
     * @param minimum FI_OPT_MIN_MULTI_RECV at the post.
     */
    void describe(
        final int e, final boolean tagged, final long tag, final long ignore, final long src, final long ctx,
        final long flags, final long minimum)
    {
        this.tagged[e] = tagged;
        this.tag[e] = tagged ? tag : 0;
        this.ignore[e] = tagged ? ignore : 0;
        srcAddr[e] = src;
        context[e] = ctx;
        opFlags[e] = flags;
        minFree[e] = minimum;
    }

    /** @return whether every entry is allocated. */
    boolean isFull()
    {
        return lists.allocated() == lists.capacity();
    }

    /**
     * Give an entry back to the pool (unlinking it if needed). Its buffer references stay until the entry is
     * posted again or {@link #clear} runs: a receive that reposts the same buffer then stores no reference (with
     * G1, a reference store into this long-lived array runs the card-marking barrier; the store showed as a tenth
     * of a profiled small-message receive path). At most {@code capacity * maxIov} buffers stay reachable this way.
     */
    void free(final int e)
    {
        iovCount[e] = 0;
        lists.free(e);
    }

    /** Drop every buffer reference (the endpoint is closing). */
    void clear()
    {
        Arrays.fill(iovBuffer, null);
    }

    void addIov(final int e, final ByteBuffer buffer, final int offset, final int length)
    {
        final int i = e * maxIov + iovCount[e]++;
        if (iovBuffer[i] != buffer)
        {
            iovBuffer[i] = buffer;
        }
        iovOffset[i] = offset;
        iovLength[i] = length;
        space[e] += length;
    }

    /** @return the absolute index in the first buffer where the receive's data starts (0 without buffers). */
    long firstOffset(final int e)
    {
        return iovCount[e] > 0 ? iovOffset[e * maxIov] : 0;
    }

    int allocatedCount()
    {
        return lists.allocated();
    }

    /** @return the list an entry of this kind goes on. */
    static int listOf(final boolean tagged)
    {
        return tagged ? TAGGED_LIST : MSG_LIST;
    }

    int head(final int list)
    {
        return lists.head(list);
    }

    int next(final int e)
    {
        return lists.next(e);
    }

    /** Put an entry at the tail of its kind's list: it can match from now on. */
    void append(final int e)
    {
        lists.append(listOf(tagged[e]), e);
    }

    /** Take an entry off its list: it matches nothing more. */
    void unlink(final int e)
    {
        lists.unlink(e);
    }

    /** @return whether the entry is on its list (can still match). */
    boolean isListed(final int e)
    {
        return lists.isListed(e);
    }

    /**
     * @param context a receive's context.
     * @return the first entry in post order, of either list, that has this context, or {@link #NONE}.
     */
    int firstListedWith(final long context)
    {
        int found = NONE;
        for (int list = MSG_LIST; list <= TAGGED_LIST; list++)
        {
            for (int e = head(list); e != NONE; e = next(e))
            {
                if (this.context[e] == context)
                {
                    if (found == NONE || sequence[e] < sequence[found])
                    {
                        found = e;
                    }
                    break;
                }
            }
        }
        return found;
    }

    /** @return whether the entry is a multi-receive buffer (FI_MULTI_RECV). */
    boolean isMulti(final int e)
    {
        return (opFlags[e] & Flags.FI_MULTI_RECV) != 0;
    }

    /** A multi-receive buffer accepts a message that fits what is left, or that could never fit the buffer. */
    boolean accepts(final int e, final long total)
    {
        final long left = space[e] - used[e];
        return total <= left || total > space[e];
    }

    /**
     * Claim a message's space in entry {@code e}: unlink a plain receive, advance and maybe release a buffer.
     *
     * @return where in the entry's space the message starts.
     */
    long reserveSpace(final int e, final long total)
    {
        if (!isMulti(e))
        {
            if (isListed(e))
            {
                unlink(e);
            }
            return 0;
        }
        final long start = used[e];
        final long left = space[e] - start;
        used[e] += Math.min(total, left);
        inFlight[e]++;
        final long after = space[e] - used[e];
        if (after < minFree[e] || after == 0)
        {
            unlink(e);
        }
        return start;
    }

    /** @return bytes of a message starting at {@code start} that its (reserved) entry can take. */
    long placeable(final int e, final long start, final long total)
    {
        return Math.min(total, isMulti(e) ? used[e] - start : space[e]);
    }

    /**
     * Copy bytes into an entry's buffers at a position of its concatenated iov space.
     *
     * @param e        the entry.
     * @param position where in the entry's space the first byte goes.
     * @param src      where the bytes come from.
     * @param srcIndex index of the first byte in {@code src}.
     * @param length   bytes to copy; the caller keeps {@code position + length <= space[e]}.
     */
    void place(final int e, final long position, final DirectBuffer src, final int srcIndex, final int length)
    {
        final int base = e * maxIov;
        long skip = position;
        int copied = 0;
        for (int i = 0, n = iovCount[e]; i < n && copied < length; i++)
        {
            final int segment = iovLength[base + i];
            if (skip >= segment)
            {
                skip -= segment;
                continue;
            }
            final int chunk = (int)Math.min(segment - skip, length - copied);
            src.getBytes(srcIndex + copied, iovBuffer[base + i], iovOffset[base + i] + (int)skip, chunk);
            copied += chunk;
            skip = 0;
        }
    }
}
