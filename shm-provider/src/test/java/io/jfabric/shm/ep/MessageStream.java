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
package io.jfabric.shm.ep;

import io.jfabric.Addresses;
import io.jfabric.CompletionQueue;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.ShareableMemory;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A stream of numbered, patterned, tagged messages from one endpoint to another, whose steps a threading-model test
 * puts on the threads the model allows: sending ({@link #trySend}), taking send completions
 * ({@link #reapSends}), posting receives ({@link #tryPost}) and taking receive completions ({@link #reapReceives},
 * which checks every byte, the length, and the order). Message {@code i} of stream {@code id} has tag and context
 * {@code id << 40 | i}, so several streams can share an endpoint or a CQ and every completion is routed to its
 * stream. The sender keeps a window of {@value #WINDOW} buffers and reuses one only once its send completed (the
 * buffer is the provider's until then, fi_msg(3)); the receiver likewise. {@link #until} gives up after
 * {@value #TIMEOUT_S} s, or when its thread is interrupted, with an {@link AssertionError}.
 * <p>
 * Each step is for one thread at a time: {@link #trySend} for the sending thread, {@link #tryPost} for the posting
 * thread; the counters the other steps share are atomic.
 */
final class MessageStream implements AutoCloseable
{
    static final int WINDOW = 8;
    static final int TIMEOUT_S = 30;
    /** Idle steps spent spinning before {@link #until} yields its core. */
    static final int IDLE_SPINS = 100;

    private final int id;
    private final Endpoint sender;
    private final Endpoint receiver;
    private final long dest;
    private final int size;
    private final int count;
    private final ByteBuffer[] sendBuffers = new ByteBuffer[WINDOW];
    private final long[] sendDesc = new long[WINDOW];
    private final ByteBuffer[] recvBuffers = new ByteBuffer[WINDOW];
    private final AtomicIntegerArray sendBufferFree = new AtomicIntegerArray(WINDOW);
    private final boolean[] sendSeen;
    private final AtomicLong sendsCompleted = new AtomicLong();
    private final AtomicLong receivesCompleted = new AtomicLong();
    private final ShareableMemory shareable;
    private final MemoryRegion region;
    private int nextSend;
    private int nextPost;

    /**
     * @param id         stream number, below 2^20.
     * @param domain     the domain (for shareable memory).
     * @param sender     sending endpoint.
     * @param receiver   receiving endpoint.
     * @param dest       the receiver's fi_addr in the sender's AV.
     * @param size       bytes per message.
     * @param count      messages.
     * @param shareableSource whether the send buffers are registered shareable memory (so sizes from the
     *                   rendezvous threshold up go by rendezvous).
     */
    MessageStream(
        final int id, final Domain domain, final Endpoint sender, final Endpoint receiver, final long dest,
        final int size, final int count, final boolean shareableSource)
    {
        this.id = id;
        this.sender = sender;
        this.receiver = receiver;
        this.dest = dest;
        this.size = size;
        this.count = count;
        sendSeen = new boolean[count];
        final int slice = Math.max(8, size + 7 & ~7);
        shareable = shareableSource ? domain.allocShareable((long)slice * WINDOW) : null;
        region = shareableSource ? domain.mrRegv(new MrIov[] { MrIov.of(shareable, 0, (long)slice * WINDOW) },
            Flags.FI_SEND, 0, 0, 0, 0) : null;
        for (int i = 0; i < WINDOW; i++)
        {
            sendBuffers[i] = shareable == null ? ByteBuffer.allocateDirect(slice) :
                shareable.buffer().position(i * slice).limit(i * slice + slice).slice();
            sendDesc[i] = region == null ? 0 : region.desc();
            recvBuffers[i] = ByteBuffer.allocateDirect(slice);
            sendBufferFree.set(i, 1);
        }
    }

    /** @return whether every message has been handed to the provider. */
    boolean allSent()
    {
        return nextSend == count;
    }

    /** @return whether every send completed. */
    boolean allSendsCompleted()
    {
        return sendsCompleted.get() == count;
    }

    /** @return whether every receive completed. */
    boolean allReceived()
    {
        return receivesCompleted.get() == count;
    }

    /**
     * Sending thread: send the next message if its buffer is back.
     *
     * @return whether a send was accepted (false: all sent, no buffer free, or FI_EAGAIN).
     */
    boolean trySend()
    {
        final int i = nextSend;
        if (i == count || sendBufferFree.get(i % WINDOW) == 0)
        {
            return false;
        }
        final int w = i % WINDOW;
        fill(sendBuffers[w], i, size);
        sendBufferFree.set(w, 0); // before the send: its completion may be taken on another thread at once
        final long rc = sender.tsend(sendBuffers[w], 0, size, sendDesc[w], dest, key(i), key(i));
        if (rc == -Errno.FI_EAGAIN)
        {
            sendBufferFree.set(w, 1);
            return false;
        }
        if (rc != 0)
        {
            throw new AssertionError("stream " + id + ": send of message " + i + " returned " + rc + " (" +
                Errno.name((int)-rc) + ")");
        }
        nextSend = i + 1;
        return true;
    }

    /**
     * Posting thread: post the receive of the next message if a receive buffer is free.
     *
     * @return whether a receive was posted.
     */
    boolean tryPost()
    {
        final int i = nextPost;
        if (i == count || i - receivesCompleted.get() >= WINDOW)
        {
            return false;
        }
        final ByteBuffer dst = recvBuffers[i % WINDOW];
        dst.putLong(0, -1);
        final long rc = receiver.trecv(dst, 0, size, 0, Addresses.FI_ADDR_UNSPEC, key(i), 0, key(i));
        if (rc == -Errno.FI_EAGAIN)
        {
            return false;
        }
        if (rc != 0)
        {
            throw new AssertionError("stream " + id + ": receive post " + i + " returned " + rc);
        }
        nextPost = i + 1;
        return true;
    }

    /** Sending thread: send everything, nothing else. */
    void sendAll()
    {
        until(this::allSent, this::trySend, () -> "stream " + id + ": sent " + nextSend + " of " + count + ", " +
            sendsCompleted.get() + " completed");
    }

    /** Posting thread: post every receive, nothing else. */
    void postAll()
    {
        until(() -> nextPost == count, this::tryPost, () -> "stream " + id + ": posted " + nextPost + " of " + count +
            ", " + receivesCompleted.get() + " completed");
    }

    /**
     * One read of a sender's CQ; each completion goes to its stream.
     *
     * @param cq      the CQ the streams' sends complete in.
     * @param streams the streams.
     * @return completions taken.
     */
    static int reapSends(final CompletionQueue cq, final MessageStream... streams)
    {
        final CqEntries e = ENTRIES.get();
        final int n = readBatch(cq, e, "sender");
        for (int k = 0; k < n; k++)
        {
            streamOf(streams, e.opContext[k]).sendCompleted(e.opContext[k], e.flags[k]);
        }
        return n;
    }

    /**
     * One read of a receiver's CQ; each completion goes to its stream, which checks the message.
     *
     * @param cq      the CQ the streams' receives complete in.
     * @param streams the streams.
     * @return completions taken.
     */
    static int reapReceives(final CompletionQueue cq, final MessageStream... streams)
    {
        final CqEntries e = ENTRIES.get();
        final int n = readBatch(cq, e, "receiver");
        for (int k = 0; k < n; k++)
        {
            streamOf(streams, e.opContext[k]).received(e.opContext[k], e.len[k], e.tag[k]);
        }
        return n;
    }

    /** @return entries read: 0 for FI_EAGAIN; an error (FI_EAVAIL included) fails the test with the entry. */
    private static int readBatch(final CompletionQueue cq, final CqEntries e, final String whose)
    {
        final int n = cq.read(e, e.capacity());
        if (n == -Errno.FI_EAGAIN)
        {
            return 0;
        }
        if (n < 0)
        {
            throw new AssertionError(whose + " CQ read returned " + n + " (" + Errno.name(-n) + ")" + errorOf(cq));
        }
        return n;
    }

    private static final ThreadLocal<CqEntries> ENTRIES = ThreadLocal.withInitial(() -> new CqEntries(16));

    private static MessageStream streamOf(final MessageStream[] streams, final long context)
    {
        for (final MessageStream s : streams)
        {
            if (s.id == context >>> 40)
            {
                return s;
            }
        }
        throw new AssertionError("completion with context 0x" + Long.toHexString(context) + ", of no stream");
    }

    private void sendCompleted(final long context, final long flags)
    {
        final int i = (int)(context & ((1L << 40) - 1));
        if (i >= count || sendSeen[i])
        {
            throw new AssertionError("stream " + id + ": send completion " + i + (i < count ? " twice" :
                ", which no send had"));
        }
        if ((flags & (Flags.FI_SEND | Flags.FI_TAGGED)) != (Flags.FI_SEND | Flags.FI_TAGGED))
        {
            throw new AssertionError("stream " + id + ": send completion " + i + " has flags 0x" +
                Long.toHexString(flags));
        }
        sendSeen[i] = true;
        sendBufferFree.set(i % WINDOW, 1);
        sendsCompleted.incrementAndGet();
    }

    private void received(final long context, final long len, final long tag)
    {
        final long expected = receivesCompleted.get();
        final int i = (int)(context & ((1L << 40) - 1));
        if (i != expected)
        {
            throw new AssertionError("stream " + id + ": receive completion " + i + " where " + expected +
                " was next");
        }
        if (len != size || tag != key(i))
        {
            throw new AssertionError("stream " + id + ": message " + i + " has length " + len + " and tag 0x" +
                Long.toHexString(tag) + ", sent " + size + " and 0x" + Long.toHexString(key(i)));
        }
        verify(recvBuffers[i % WINDOW], i, size);
        receivesCompleted.incrementAndGet();
    }

    private long key(final int i)
    {
        return (long)id << 40 | i;
    }

    private static String errorOf(final CompletionQueue cq)
    {
        final CqErrEntry err = new CqErrEntry(64);
        return cq.readErr(err, 0) == 1 ? ": error entry err=" + err.err + " (" + Errno.name(err.err) + ") context " +
            err.opContext : "";
    }

    /**
     * Repeat a step until a condition holds, spinning while the step does nothing.
     *
     * @param done  the condition.
     * @param step  the step; true when it did something.
     * @param state what to say when {@value #TIMEOUT_S} s pass first.
     */
    static void until(
        final BooleanSupplier done, final BooleanSupplier step, final java.util.function.Supplier<String> state)
    {
        final long deadline = System.nanoTime() + TIMEOUT_S * 1_000_000_000L;
        int idle = 0;
        while (!done.getAsBoolean())
        {
            if (Thread.currentThread().isInterrupted())
            {
                throw new AssertionError("interrupted: " + state.get());
            }
            if (step.getAsBoolean())
            {
                idle = 0;
            }
            else
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw new AssertionError("no progress for " + TIMEOUT_S + " s: " + state.get());
                }
                // These tests run more spinning threads than the 2 cores CI has: after a short spin, give the core
                // to the thread that can make progress (the interleavings stay real; only idle spinning is cut).
                if (++idle < IDLE_SPINS)
                {
                    Thread.onSpinWait();
                }
                else
                {
                    Thread.yield();
                }
            }
        }
    }

    /** Message {@code i}: every 8-byte word is {@code i * 1_000_003 + offset}, the tail bytes {@code i + offset}. */
    static void fill(final ByteBuffer b, final int i, final int size)
    {
        int at = 0;
        for (; at + 8 <= size; at += 8)
        {
            b.putLong(at, i * 1_000_003L + at);
        }
        for (; at < size; at++)
        {
            b.put(at, (byte)(i + at));
        }
    }

    /**
     * @param b    a received message.
     * @param i    its number.
     * @param size its length.
     */
    static void verify(final ByteBuffer b, final int i, final int size)
    {
        int at = 0;
        for (; at + 8 <= size; at += 8)
        {
            final long got = b.getLong(at);
            if (got != i * 1_000_003L + at)
            {
                throw new AssertionError("message " + i + " corrupt at byte " + at + ": word " + got +
                    (got >= 0 ? " (of message " + (got - at) / 1_000_003L + "?)" : ""));
            }
        }
        for (; at < size; at++)
        {
            if (b.get(at) != (byte)(i + at))
            {
                throw new AssertionError("message " + i + " corrupt at byte " + at);
            }
        }
    }

    @Override
    public String toString()
    {
        return "stream " + id + ": sent " + nextSend + ", send completions " + sendsCompleted.get() + ", posted " +
            nextPost + ", received " + receivesCompleted.get() + " of " + count;
    }

    @Override
    public void close()
    {
        if (region != null)
        {
            region.close();
        }
        if (shareable != null)
        {
            shareable.close();
        }
    }
}
