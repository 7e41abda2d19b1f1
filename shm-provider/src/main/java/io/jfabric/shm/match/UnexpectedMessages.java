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

import io.jfabric.shm.core.IndexLists;

import org.agrona.DirectBuffer;

/**
 * The bounded store of unexpected messages of one {@link ReceiveMatcher}: messages that arrived before a receive
 * matched them, kept in arrival order on two lists (untagged and tagged) until a receive, a claim or a discard
 * takes them.
 * <p>
 * The limit is exact and documented: at most {@code messageCapacity} messages whose lengths sum to at most
 * {@code byteCapacity}. The payload lives in a {@link BlockArena} of {@link #BLOCK_SIZE}-byte blocks; a message
 * takes {@code ceil(length / BLOCK_SIZE)} blocks chained in order, taken as its pieces arrive. The arena holds up to
 * {@code byteCapacity + messageCapacity * (BLOCK_SIZE - 1)} bytes, so any set of messages within the two limits
 * finds its blocks (no fragmentation failure). A message is admitted whole (its total length is reserved when it
 * begins), so a message being delivered never runs out of room.
 * <p>
 * Called only by the thread that holds the endpoint's receive side. The message table is allocated by the
 * constructor; the arena grows 64 KiB at a time as the store first needs it, unless it was preallocated (then
 * nothing is allocated after construction).
 */
final class UnexpectedMessages
{
    /** Bytes of one arena block. */
    static final int BLOCK_SIZE = BlockArena.BLOCK_SIZE;
    static final int NONE = IndexLists.NONE;

    final int messageCapacity;
    final long byteCapacity;

    final long[] senderId;
    final boolean[] tagged;
    final long[] tag;
    final long[] data;
    final long[] msgFlags;
    final long[] totalLength;
    /** Bytes written so far. */
    final long[] received;
    /** The delivery still writing this message, or {@link #NONE} once it has ended. */
    final int[] delivery;
    final boolean[] claimed;
    final long[] claimContext;
    /** Discarded while still being delivered: its remaining pieces are dropped and it is freed when it ends. */
    final boolean[] discarded;

    private final int[] firstBlock;
    private final int[] lastBlock;
    private final IndexLists lists;
    private long bytesInUse;

    /** The payload: each message's blocks, chained in order. */
    private final BlockArena arena;

    /**
     * @param messageCapacity messages the store may hold at once.
     * @param byteCapacity    payload bytes they may hold together.
     * @param preallocate     whether to allocate the whole arena now rather than as the store first needs it.
     */
    UnexpectedMessages(final int messageCapacity, final long byteCapacity, final boolean preallocate)
    {
        this.messageCapacity = messageCapacity;
        this.byteCapacity = byteCapacity;
        senderId = new long[messageCapacity];
        tagged = new boolean[messageCapacity];
        tag = new long[messageCapacity];
        data = new long[messageCapacity];
        msgFlags = new long[messageCapacity];
        totalLength = new long[messageCapacity];
        received = new long[messageCapacity];
        delivery = new int[messageCapacity];
        claimed = new boolean[messageCapacity];
        claimContext = new long[messageCapacity];
        discarded = new boolean[messageCapacity];
        firstBlock = new int[messageCapacity];
        lastBlock = new int[messageCapacity];
        lists = new IndexLists(messageCapacity, 2);

        arena = new BlockArena((int)(arenaBytes(messageCapacity, byteCapacity) / BLOCK_SIZE), preallocate);
    }

    /** @return the largest arena a store of these limits needs, in bytes (the constructor's check). */
    static long arenaBytes(final int messageCapacity, final long byteCapacity)
    {
        return byteCapacity + (long)messageCapacity * (BLOCK_SIZE - 1);
    }

    int count()
    {
        return lists.allocated();
    }

    long bytesInUse()
    {
        return bytesInUse;
    }

    /** @return payload bytes the arena has allocated so far. */
    long arenaAllocatedBytes()
    {
        return arena.allocatedBytes();
    }

    /** @return whether a message of this length may be admitted now (count and byte limits). */
    boolean hasRoom(final long length)
    {
        return lists.allocated() < messageCapacity && length <= byteCapacity - bytesInUse;
    }

    /** Admit a message at the tail of its list; the caller checked {@link #hasRoom}. */
    int add(
        final long senderId, final boolean tagged, final long tag, final long data, final long msgFlags,
        final long totalLength, final int delivery)
    {
        final int m = lists.allocate();
        this.senderId[m] = senderId;
        this.tagged[m] = tagged;
        this.tag[m] = tag;
        this.data[m] = data;
        this.msgFlags[m] = msgFlags;
        this.totalLength[m] = totalLength;
        this.delivery[m] = delivery;
        received[m] = 0;
        claimed[m] = false;
        claimContext[m] = 0;
        discarded[m] = false;
        firstBlock[m] = NONE;
        lastBlock[m] = NONE;
        lists.append(PostedReceives.listOf(tagged), m);
        bytesInUse += totalLength;
        return m;
    }

    /** Unlink a message, give back its blocks and its reserved bytes. */
    void remove(final int m)
    {
        int b = firstBlock[m];
        while (b != NONE)
        {
            final int following = arena.link(b);
            arena.free(b);
            b = following;
        }
        firstBlock[m] = NONE;
        lastBlock[m] = NONE;
        lists.free(m);
        bytesInUse -= totalLength[m];
    }

    int head(final int list)
    {
        return lists.head(list);
    }

    int next(final int m)
    {
        return lists.next(m);
    }

    /** Append a piece of a message's payload; the caller keeps {@code received + length <= totalLength}. */
    void append(final int m, final DirectBuffer src, final int srcIndex, final int length)
    {
        int copied = 0;
        long at = received[m];
        while (copied < length)
        {
            final int inBlock = (int)(at % BLOCK_SIZE);
            if (inBlock == 0)
            {
                final int b = arena.take();
                if (lastBlock[m] == NONE)
                {
                    firstBlock[m] = b;
                }
                else
                {
                    arena.link(lastBlock[m], b);
                }
                lastBlock[m] = b;
            }
            final int chunk = Math.min(BLOCK_SIZE - inBlock, length - copied);
            arena.put(lastBlock[m], inBlock, src, srcIndex + copied, chunk);
            copied += chunk;
            at += chunk;
        }
        received[m] = at;
    }

    /**
     * Copy the bytes received so far of a message into a posted receive.
     *
     * @param m        the message.
     * @param posted   the pool of the receive.
     * @param e        the receive.
     * @param start    position in the receive's space where the message's first byte goes.
     * @param limit    bytes of the message the receive may take.
     */
    void copyTo(final int m, final PostedReceives posted, final int e, final long start, final long limit)
    {
        final long n = Math.min(received[m], limit);
        long done = 0;
        int b = firstBlock[m];
        while (done < n)
        {
            final int chunk = (int)Math.min(BLOCK_SIZE, n - done);
            posted.place(e, start + done, arena.buffer(b), BlockArena.offset(b), chunk);
            done += chunk;
            b = arena.link(b);
        }
    }
}
