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
        for (int i = 0; i < length; i++)
        {
            buf.put(offset + i, at(seed, i));
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
        for (int i = 0; i < length; i++)
        {
            final byte got = buf.get(offset + i);
            if (got != at(seed, i))
            {
                return "byte " + i + " of " + length + " (seed " + seed + ") is " + got + ", expected " + at(seed, i);
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
        for (int i = 0; i < buf.capacity(); i++)
        {
            buf.put(i, GUARD);
        }
        return buf;
    }
}
