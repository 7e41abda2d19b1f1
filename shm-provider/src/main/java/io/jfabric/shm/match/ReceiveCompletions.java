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
 * Completes the posted receives of one {@link ReceiveMatcher} that took a message (whole, from the unexpected store,
 * or at the end or abort of a delivery): frees the receive's entry (a multi-receive buffer only when it was released
 * and its last message ended, which then carries FI_MULTI_RECV), and reports the completion to the
 * {@link RecvCompletionSink}, in error with the errno given or FI_ETRUNC when the message did not fit.
 * <p>
 * Not thread safe: called by the matcher, which its caller serializes. Allocates nothing.
 */
final class ReceiveCompletions
{
    private final PostedReceives posted;
    private final AddressResolver resolver;
    private final RecvCompletionSink sink;

    /**
     * @param posted   the matcher's posted receives.
     * @param resolver sender id to fi_addr.
     * @param sink     where completions go.
     */
    ReceiveCompletions(final PostedReceives posted, final AddressResolver resolver, final RecvCompletionSink sink)
    {
        this.posted = posted;
        this.resolver = resolver;
        this.sink = sink;
    }

    /** Complete receive {@code e}: in error with {@code errno} when it is not 0, else with FI_ETRUNC when short. */
    void complete(
        final int e,
        final long start,
        final long placed,
        final long total,
        final long senderId,
        final long tag,
        final long data,
        final long msgFlags,
        final int errno)
    {
        final boolean tagged = posted.tagged[e];
        long cqFlags = recvCqFlags(tagged, msgFlags) | posted.extraCqFlags[e];
        final long context = posted.context[e];
        final long opFlags = posted.opFlags[e];
        final long bufOffset = posted.firstOffset(e) + start;
        if (posted.isMulti(e))
        {
            if (--posted.inFlight[e] == 0 && !posted.isListed(e))
            {
                cqFlags |= Flags.FI_MULTI_RECV;
                posted.free(e);
            }
        }
        else
        {
            posted.free(e);
        }
        final boolean failed = errno != 0 || placed < total;
        final long from = failed || sink.wantsSource() ? resolver.fiAddrOf(senderId) : Addresses.FI_ADDR_NOTAVAIL;
        if (failed)
        {
            sink.error(senderId, context, cqFlags, placed, bufOffset, data, tag, total - placed, errno != 0 ? errno :
                Errno.FI_ETRUNC, from);
        }
        else
        {
            sink.complete(senderId, context, opFlags, cqFlags, placed, bufOffset, data, tag, from);
        }
    }

    /** @return the completion flags of a received message: FI_RECV, its kind, and FI_REMOTE_CQ_DATA if it has data. */
    static long recvCqFlags(final boolean tagged, final long msgFlags)
    {
        return Flags.FI_RECV | (tagged ? Flags.FI_TAGGED : Flags.FI_MSG) | (msgFlags & Flags.FI_REMOTE_CQ_DATA);
    }
}
