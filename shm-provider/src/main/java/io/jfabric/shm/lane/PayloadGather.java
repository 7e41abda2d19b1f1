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
package io.jfabric.shm.lane;

import io.jfabric.Msg;

import org.agrona.concurrent.AtomicBuffer;

import java.nio.ByteBuffer;

/**
 * Copies what an operation sends into the payload of a lane record: the buffers of a {@link Msg}, or one buffer of
 * the single-buffer calls, which so allocate and fill no descriptor.
 * <p>
 * Stateless; called by the sending side that holds the record's claim.
 */
public final class PayloadGather
{
    private PayloadGather()
    {
    }

    /**
     * Copy an operation's data into a lane record: {@code msg}'s buffers, or, when {@code msg} is null, {@code length}
     * bytes of {@code buf} from {@code offset}. Sending side; stateless.
     */
    public static void gather(
        final AtomicBuffer b, final int at, final Msg msg, final ByteBuffer buf, final int offset, final int length)
    {
        if (msg == null)
        {
            if (length > 0)
            {
                b.putBytes(at, buf, offset, length);
            }
            return;
        }
        int to = at;
        for (int i = 0; i < msg.iovCount; i++)
        {
            final int l = msg.iovLength[i];
            if (l > 0)
            {
                b.putBytes(to, msg.iov[i], msg.iovOffset[i], l);
                to += l;
            }
        }
    }
}
