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

import java.nio.ByteBuffer;

/**
 * The position-dependent payload of the two-JVM endpoint tests: byte {@code i} of a message with seed {@code s}
 * depends on {@code i}, on {@code i}'s higher bytes (so a shifted or repeated page shows) and on {@code s} (so a
 * message delivered to the wrong receive, or twice, shows). Both processes compute it, so a check is byte exact.
 */
final class Pattern
{
    /** What the tests write around a receive window to see that nothing was written outside it. */
    static final byte GUARD = 0x5A;

    private static final int CHUNK = 64 * 1024;

    private Pattern()
    {
    }

    /**
     * @param seed the message's seed.
     * @param i    the byte's position in the message.
     * @return the byte.
     */
    static byte at(final long seed, final int i)
    {
        return (byte)(i + (i >>> 8) * 3 + (i >>> 16) * 5 + (i >>> 24) * 11 + seed * 37 + (seed >>> 8));
    }

    /**
     * Write message {@code seed} of {@code length} bytes at {@code offset}.
     *
     * @param buf    the buffer.
     * @param offset absolute index.
     * @param length bytes.
     * @param seed   the message's seed.
     */
    static void fill(final ByteBuffer buf, final int offset, final int length, final long seed)
    {
        final byte[] chunk = new byte[Math.min(length, CHUNK)];
        for (int done = 0; done < length; done += chunk.length)
        {
            final int n = Math.min(chunk.length, length - done);
            for (int i = 0; i < n; i++)
            {
                chunk[i] = at(seed, done + i);
            }
            buf.put(offset + done, chunk, 0, n);
        }
    }

    /**
     * @param buf    the buffer.
     * @param offset absolute index of the message.
     * @param length bytes to check.
     * @param seed   the message's seed.
     * @return null when the bytes are message {@code seed}, else a description of the first wrong byte.
     */
    static String check(final ByteBuffer buf, final int offset, final int length, final long seed)
    {
        final byte[] chunk = new byte[Math.min(length, CHUNK)];
        for (int done = 0; done < length; done += chunk.length)
        {
            final int n = Math.min(chunk.length, length - done);
            buf.get(offset + done, chunk, 0, n);
            for (int i = 0; i < n; i++)
            {
                if (chunk[i] != at(seed, done + i))
                {
                    return "byte " + (done + i) + " of " + length + " (seed " + seed + ") is " + chunk[i] +
                        ", expected " + at(seed, done + i);
                }
            }
        }
        return null;
    }

    /**
     * @param buf    the buffer.
     * @param offset absolute index.
     * @param length bytes.
     * @return null when all are {@link #GUARD}, else where the first other byte is.
     */
    static String checkGuard(final ByteBuffer buf, final int offset, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            if (buf.get(offset + i) != GUARD)
            {
                return "guard byte at " + (offset + i) + " was overwritten with " + buf.get(offset + i);
            }
        }
        return null;
    }

    /**
     * @param capacity bytes.
     * @return a direct buffer filled with {@link #GUARD}.
     */
    static ByteBuffer guarded(final int capacity)
    {
        final ByteBuffer buf = ByteBuffer.allocateDirect(Math.max(1, capacity));
        guard(buf);
        return buf;
    }

    /**
     * Fill all of {@code buf} with {@link #GUARD}.
     *
     * @param buf the buffer.
     */
    static void guard(final ByteBuffer buf)
    {
        final byte[] chunk = new byte[Math.min(buf.capacity(), CHUNK)];
        java.util.Arrays.fill(chunk, GUARD);
        for (int done = 0; done < buf.capacity(); done += chunk.length)
        {
            buf.put(done, chunk, 0, Math.min(chunk.length, buf.capacity() - done));
        }
    }
}
