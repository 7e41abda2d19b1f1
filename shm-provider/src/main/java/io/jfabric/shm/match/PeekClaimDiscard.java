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

import io.jfabric.Addresses;
import io.jfabric.Errno;
import io.jfabric.Flags;

/**
 * FI_PEEK, FI_CLAIM and FI_DISCARD (fi_tagged(3)) over the tagged messages in one {@link ReceiveMatcher}'s
 * unexpected store. FI_PEEK searches the store only (messages still arriving included) for the first unclaimed
 * match: found, it completes with the message's length, tag, data and source and FI_PEEK in the completion flags, no
 * data copied ({@code bufOffset} {@link RecvCompletionSink#NO_BUFFER}); not found, an FI_ENOMSG error. FI_PEEK|FI_CLAIM
 * also marks the message claimed for the peek's context (completion flags FI_PEEK|FI_CLAIM): no other receive sees
 * it, and a later receive with FI_CLAIM and the same context takes it (completion flag FI_CLAIM; the matcher finds it
 * with {@link #claimedBy}). FI_PEEK|FI_DISCARD drops the found message after reporting it; FI_CLAIM|FI_DISCARD drops
 * a claimed message and completes with length 0 and FI_CLAIM. A receive with FI_CLAIM for a context that claimed
 * nothing returns -FI_EINVAL.
 * <p>
 * Not thread safe: called by the matcher, which its caller serializes. Allocates nothing.
 */
final class PeekClaimDiscard
{
    private final UnexpectedMessages unexpected;
    private final AddressResolver resolver;
    private final SourceFilter sources;
    private final RecvCompletionSink sink;
    private final boolean directedRecv;

    /**
     * @param unexpected   the matcher's unexpected store.
     * @param resolver     sender id to fi_addr.
     * @param sources      the matcher's source filter (a peek's source, an fi_addr or with FI_AUTH_KEY a key).
     * @param sink         where completions go.
     * @param directedRecv whether a peek's source address filters (FI_DIRECTED_RECV).
     */
    PeekClaimDiscard(
        final UnexpectedMessages unexpected, final AddressResolver resolver, final SourceFilter sources,
        final RecvCompletionSink sink, final boolean directedRecv)
    {
        this.unexpected = unexpected;
        this.resolver = resolver;
        this.sources = sources;
        this.sink = sink;
        this.directedRecv = directedRecv;
    }

    /**
     * A post with FI_PEEK (with or without FI_CLAIM or FI_DISCARD) or with FI_CLAIM|FI_DISCARD: it completes at once
     * and needs no posted entry.
     *
     * @return 0, -FI_EINVAL for a discard of a context that claimed nothing, or -FI_EAGAIN when the completion
     * queue has no room for its completion.
     */
    long post(final long srcAddr, final long tag, final long ignore, final long context, final long flags)
    {
        if (!sink.hasRoom(1))
        {
            return -Errno.FI_EAGAIN; // each of these completes at once: never without room for its completion
        }
        return (flags & Flags.FI_PEEK) != 0 ? peek(srcAddr, tag, ignore, context, flags) :
            discardClaimed(context, flags);
    }

    /**
     * @param context a claiming receive's context.
     * @return the message claimed for it (not discarded), or {@link UnexpectedMessages#NONE}.
     */
    int claimedBy(final long context)
    {
        for (int m = unexpected.head(PostedReceives.TAGGED_LIST); m != UnexpectedMessages.NONE; m = unexpected.next(m))
        {
            if (unexpected.claimed[m] && !unexpected.discarded[m] && unexpected.claimContext[m] == context)
            {
                return m;
            }
        }
        return UnexpectedMessages.NONE;
    }

    private long peek(final long srcAddr, final long tag, final long ignore, final long context, final long flags)
    {
        final long src = directedRecv ? srcAddr : Addresses.FI_ADDR_UNSPEC;
        for (int m = unexpected.head(PostedReceives.TAGGED_LIST); m != UnexpectedMessages.NONE; m = unexpected.next(m))
        {
            if (!unexpected.claimed[m] && !unexpected.discarded[m] && ((tag ^ unexpected.tag[m]) & ~ignore) == 0 &&
                sources.of(unexpected.senderId[m]).accepts(src, flags))
            {
                found(m, context, flags);
                return 0;
            }
        }
        sink.error(RecvCompletionSink.NO_SENDER, context, Flags.FI_RECV | Flags.FI_TAGGED | Flags.FI_PEEK, 0,
            RecvCompletionSink.NO_BUFFER, 0, tag, 0, Errno.FI_ENOMSG, Addresses.FI_ADDR_NOTAVAIL);
        return 0;
    }

    /** A peek found message {@code m}: report it, and discard or claim it as the flags say. */
    private void found(final int m, final long context, final long flags)
    {
        final long cqFlags = Flags.FI_RECV | Flags.FI_TAGGED | Flags.FI_PEEK | (flags & Flags.FI_CLAIM) |
            (unexpected.msgFlags[m] & Flags.FI_REMOTE_CQ_DATA);
        final long length = unexpected.totalLength[m];
        final long data = unexpected.data[m];
        final long msgTag = unexpected.tag[m];
        final long sender = unexpected.senderId[m];
        final long from = resolver.fiAddrOf(sender);
        if ((flags & Flags.FI_DISCARD) != 0)
        {
            discard(m);
        }
        else if ((flags & Flags.FI_CLAIM) != 0)
        {
            unexpected.claimed[m] = true;
            unexpected.claimContext[m] = context;
        }
        sink.complete(sender, context, flags, cqFlags, length, RecvCompletionSink.NO_BUFFER, data, msgTag, from);
    }

    /** FI_CLAIM|FI_DISCARD: drop the message claimed for {@code context}. */
    private long discardClaimed(final long context, final long flags)
    {
        final int m = claimedBy(context);
        if (m == UnexpectedMessages.NONE)
        {
            return -Errno.FI_EINVAL;
        }
        final long cqFlags = Flags.FI_RECV | Flags.FI_TAGGED | Flags.FI_CLAIM |
            (unexpected.msgFlags[m] & Flags.FI_REMOTE_CQ_DATA);
        final long data = unexpected.data[m];
        final long msgTag = unexpected.tag[m];
        final long sender = unexpected.senderId[m];
        final long from = resolver.fiAddrOf(sender);
        discard(m);
        sink.complete(sender, context, flags, cqFlags, 0, RecvCompletionSink.NO_BUFFER, data, msgTag, from);
        return 0;
    }

    /** Drop a stored message now, or, while it is still arriving, once its delivery ends. */
    private void discard(final int m)
    {
        if (unexpected.delivery[m] == UnexpectedMessages.NONE)
        {
            unexpected.remove(m);
        }
        else
        {
            unexpected.discarded[m] = true;
        }
    }
}
