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

import java.nio.ByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Builds a matcher over a {@link RecordingSink} and a {@link TableResolver}, and plays messages into it. */
class MatcherFixture
{
    static final long SENDER_A = TableResolver.senderId(3, 7);
    static final long SENDER_B = TableResolver.senderId(5, 1);

    final RecordingSink sink = new RecordingSink();
    final TableResolver resolver = new TableResolver();
    /** Where message payloads come from, like a ring record in shared memory. */
    final UnsafeBuffer ring = new UnsafeBuffer(ByteBuffer.allocateDirect(1 << 20));

    ReceiveMatcher matcher(final int posted, final int unexpected, final int unexpectedBytes, final boolean directed)
    {
        return new ReceiveMatcher(posted, unexpected, unexpectedBytes, directed, resolver, sink);
    }

    /** @return {@code length} bytes that differ for every seed and position. */
    static byte[] payload(final int length, final int seed)
    {
        final byte[] b = new byte[length];
        for (int i = 0; i < length; i++)
        {
            b[i] = (byte)(seed * 31 + i * 7 + 1);
        }
        return b;
    }

    /** Deliver a whole message in one piece; asserts the matcher took it. */
    long send(
        final ReceiveMatcher m, final long sender, final boolean tagged, final long tag, final byte[] payload)
    {
        return send(m, sender, tagged, tag, 0, 0, payload);
    }

    long send(
        final ReceiveMatcher m, final long sender, final boolean tagged, final long tag, final long data,
        final long msgFlags, final byte[] payload)
    {
        final long d = m.begin(sender, tagged, tag, data, msgFlags, payload.length);
        assertNotEquals(ReceiveMatcher.DELIVERY_NONE, d, "begin took the message");
        piece(m, d, payload, 0, payload.length);
        m.end(d);
        return d;
    }

    /** Write {@code payload[from, from + length)} as one piece, staged at a ring index that depends on it. */
    void piece(final ReceiveMatcher m, final long d, final byte[] payload, final int from, final int length)
    {
        final int at = 4096 + (from % 1024) * 8;
        ring.putBytes(at, payload, from, length);
        m.write(d, ring, at, length);
    }

    static byte[] bytes(final ByteBuffer b, final int index, final int length)
    {
        final byte[] out = new byte[length];
        for (int i = 0; i < length; i++)
        {
            out[i] = b.get(index + i);
        }
        return out;
    }
}
