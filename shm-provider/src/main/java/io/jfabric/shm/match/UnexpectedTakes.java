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

import io.jfabric.Errno;
import io.jfabric.Flags;

/**
 * A receive being posted to one {@link ReceiveMatcher} (its entry allocated and described) takes the messages already
 * in the unexpected store that it matches, in arrival order: a message that has ended completes the receive at once,
 * one still arriving continues its delivery into the receive. A plain receive takes the first match, or is listed to
 * wait; a multi-receive buffer is listed first and takes matches until it is released; a receive with FI_CLAIM takes
 * the message its context claimed ({@link PeekClaimDiscard#claimedBy}). A receive that would complete at once without
 * room in the completion queue is undone (-FI_EAGAIN).
 * <p>
 * Not thread safe: called by the matcher, which its caller serializes. Allocates nothing.
 */
final class UnexpectedTakes
{
    private final PostedReceives posted;
    private final UnexpectedMessages unexpected;
    private final Deliveries deliveries;
    private final PeekClaimDiscard peeks;
    private final SourceFilter sources;
    private final RecvCompletionSink sink;
    private final ReceiveCompletions completions;

    /**
     * @param posted      the matcher's posted receives.
     * @param unexpected  the matcher's unexpected store.
     * @param deliveries  the matcher's deliveries in progress.
     * @param peeks       the matcher's peek/claim/discard handling (what a context claimed).
     * @param sources     the matcher's source filter.
     * @param sink        where completions go (asked for room).
     * @param completions completes a receive that took a message.
     */
    UnexpectedTakes(
        final PostedReceives posted,
        final UnexpectedMessages unexpected,
        final Deliveries deliveries,
        final PeekClaimDiscard peeks,
        final SourceFilter sources,
        final RecvCompletionSink sink,
        final ReceiveCompletions completions)
    {
        this.posted = posted;
        this.unexpected = unexpected;
        this.deliveries = deliveries;
        this.peeks = peeks;
        this.sources = sources;
        this.sink = sink;
        this.completions = completions;
    }

    /**
     * Post described receive {@code e}: take what it matches in the store, and list it if it still waits.
     *
     * @return 0, -FI_EAGAIN when its completion would not fit (the receive is undone), -FI_EINVAL for a claim of a
     * context that claimed nothing.
     */
    long post(final int e, final boolean tagged, final long context, final long flags)
    {
        if ((flags & Flags.FI_CLAIM) != 0)
        {
            return claim(e, context);
        }

        final int list = PostedReceives.listOf(tagged);
        final boolean multi = posted.isMulti(e);
        if (multi)
        {
            posted.append(e);
        }
        int m = unexpected.head(list);
        boolean took = false;
        while (m != UnexpectedMessages.NONE)
        {
            final int following = unexpected.next(m);
            if (!unexpected.claimed[m] && !unexpected.discarded[m] && matches(e, m) &&
                (!multi || posted.accepts(e, unexpected.totalLength[m])))
            {
                if (!roomToTake(e, multi, took))
                {
                    return -Errno.FI_EAGAIN;
                }
                take(e, m);
                took = true;
                if (!multi || !posted.isListed(e))
                {
                    return 0;
                }
            }
            m = following;
        }
        if (!multi)
        {
            posted.append(e);
        }
        return 0;
    }

    /**
     * Whether receive {@code e} may take a stored message now, whose completion is written at once: the completion
     * queue has room for it. A first take without room undoes the post (-FI_EAGAIN). A multi-receive buffer with room
     * for this completion only is released with it (FI_MULTI_RECV), so that a later one never finds the queue full;
     * the messages it leaves stay stored, in order, for the next receive.
     */
    private boolean roomToTake(final int e, final boolean multi, final boolean took)
    {
        if (!took && !sink.hasRoom(1))
        {
            posted.free(e);
            return false;
        }
        if (multi && !sink.hasRoom(2))
        {
            posted.unlink(e);
        }
        return true;
    }

    private long claim(final int e, final long context)
    {
        final int m = peeks.claimedBy(context);
        if (m == UnexpectedMessages.NONE)
        {
            posted.free(e);
            return -Errno.FI_EINVAL;
        }
        if (!sink.hasRoom(1))
        {
            posted.free(e);
            return -Errno.FI_EAGAIN;
        }
        posted.extraCqFlags[e] = Flags.FI_CLAIM;
        take(e, m);
        return 0;
    }

    /** A posted receive takes a stored message: now if it has ended, else its delivery continues into the receive. */
    private void take(final int e, final int m)
    {
        final long total = unexpected.totalLength[m];
        final int d = unexpected.delivery[m];
        if (d == UnexpectedMessages.NONE)
        {
            final long start = posted.reserveSpace(e, total);
            final long limit = posted.placeable(e, start, total);
            unexpected.copyTo(m, posted, e, start, limit);
            final long placed = Math.min(unexpected.received[m], limit);
            final long sender = unexpected.senderId[m];
            final long tag = unexpected.tag[m];
            final long data = unexpected.data[m];
            final long msgFlags = unexpected.msgFlags[m];
            unexpected.remove(m);
            completions.complete(e, start, placed, total, sender, tag, data, msgFlags, 0);
        }
        else
        {
            deliveries.toPosted(d, posted, e, total);
            unexpected.copyTo(m, posted, e, deliveries.start[d], deliveries.limit[d]);
            unexpected.remove(m);
        }
    }

    private boolean matches(final int e, final int m)
    {
        if (posted.tagged[e] && ((unexpected.tag[m] ^ posted.tag[e]) & ~posted.ignore[e]) != 0)
        {
            return false;
        }
        return sources.of(unexpected.senderId[m]).accepts(posted.srcAddr[e], posted.opFlags[e]);
    }
}
