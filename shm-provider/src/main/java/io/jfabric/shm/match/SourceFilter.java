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
import io.jfabric.Flags;

/**
 * The source a receive accepts (FI_DIRECTED_RECV), checked against one message's sender: FI_ADDR_UNSPEC takes any
 * sender; with FI_AUTH_KEY among the receive's flags the source is an authorization key handle and takes any sender
 * the AV holds within that key (fi_av(3)); otherwise it takes the sender whose fi_addr it is. {@link #of} names the
 * sender; while a search tries many receives for one message, the sender's fi_addr is resolved once.
 * <p>
 * Not thread safe: the matcher's, under its receive guard. No allocation.
 */
final class SourceFilter
{
    private final AddressResolver resolver;
    private long senderId;
    private boolean resolved;
    private long from;

    /**
     * @param resolver sender id to fi_addr, and key membership.
     */
    SourceFilter(final AddressResolver resolver)
    {
        this.resolver = resolver;
    }

    /**
     * @param senderId the sender of the message the next {@link #accepts} calls are about.
     * @return this.
     */
    SourceFilter of(final long senderId)
    {
        this.senderId = senderId;
        resolved = false;
        return this;
    }

    /**
     * @param src     the receive's source: FI_ADDR_UNSPEC, an fi_addr, or with FI_AUTH_KEY a key handle.
     * @param opFlags the receive's flags.
     * @return whether the receive takes a message of the sender named by {@link #of}.
     */
    boolean accepts(final long src, final long opFlags)
    {
        if (src == Addresses.FI_ADDR_UNSPEC)
        {
            return true;
        }
        if ((opFlags & Flags.FI_AUTH_KEY) != 0)
        {
            return resolver.isUnderKey(senderId, src);
        }
        if (!resolved)
        {
            from = resolver.fiAddrOf(senderId);
            resolved = true;
        }
        return from == src;
    }
}
