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

import java.nio.ByteBuffer;

/**
 * The checks of a receive's arguments before the {@link ReceiveMatcher} posts it: which flag combinations
 * fi_msg(3) and fi_tagged(3) allow (FI_MULTI_RECV untagged with exactly one buffer; FI_PEEK, FI_CLAIM and FI_DISCARD
 * tagged, FI_DISCARD only with FI_PEEK or FI_CLAIM), and whether buffers can take data.
 * <p>
 * Stateless; any thread.
 */
final class RecvArguments
{
    private RecvArguments()
    {
    }

    /** @return whether the flags are a valid combination for a receive of this kind with {@code iovCount} buffers. */
    static boolean validFlags(final boolean tagged, final int iovCount, final long flags)
    {
        final boolean multi = (flags & Flags.FI_MULTI_RECV) != 0;
        final boolean peek = (flags & Flags.FI_PEEK) != 0;
        final boolean claim = (flags & Flags.FI_CLAIM) != 0;
        final boolean discard = (flags & Flags.FI_DISCARD) != 0;
        if (multi && (tagged || peek || claim || iovCount != 1))
        {
            return false;
        }
        if ((peek || claim || discard) && !tagged)
        {
            return false;
        }
        return !discard || peek || claim;
    }

    /** @return whether {@code buf} can take {@code length} bytes from {@code offset} (null only when 0 bytes). */
    static boolean validBuffer(final ByteBuffer buf, final int offset, final int length)
    {
        if (length < 0 || offset < 0)
        {
            return false;
        }
        if (buf == null)
        {
            return length == 0;
        }
        return !buf.isReadOnly() && offset <= buf.capacity() - length;
    }

    /** @return whether the arrays hold {@code iovCount} entries, each a valid buffer. */
    static boolean validIov(final ByteBuffer[] iov, final int[] iovOffset, final int[] iovLength, final int iovCount)
    {
        if (iovCount > 0 && (iov == null || iovOffset == null || iovLength == null ||
            iov.length < iovCount || iovOffset.length < iovCount || iovLength.length < iovCount))
        {
            return false;
        }
        for (int i = 0; i < iovCount; i++)
        {
            if (!validBuffer(iov[i], iovOffset[i], iovLength[i]))
            {
                return false;
            }
        }
        return true;
    }
}
