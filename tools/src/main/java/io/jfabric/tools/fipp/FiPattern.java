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
package io.jfabric.tools.fipp;

import java.nio.ByteBuffer;

/**
 * fi_pingpong's data check (-c): each message filled from the alphabet 0-9a-zA-Z starting at (n * 7) mod 62 for the
 * n-th message this side sends, and checked against the same rule for the n-th message it receives; the two counts
 * run independently, over every size of the run. One per side; one thread.
 */
public final class FiPattern
{
    private static final byte[] ALPHABET =
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int SEED = 7;

    private int filled;
    private int checked;

    /**
     * @param buf  the message buffer.
     * @param size bytes from index 0.
     */
    public void fill(final ByteBuffer buf, final int size)
    {
        int index = (int)(((long)(filled++) * SEED) % ALPHABET.length);
        for (int i = 0; i < size; i++)
        {
            buf.put(i, ALPHABET[index++]);
            if (index >= ALPHABET.length)
            {
                index = 0;
            }
        }
    }

    /**
     * @param buf  the received message.
     * @param size its bytes from index 0.
     * @return -1 when it is as expected, else the first byte that differs.
     */
    public int check(final ByteBuffer buf, final int size)
    {
        int index = (int)(((long)(checked++) * SEED) % ALPHABET.length);
        for (int i = 0; i < size; i++)
        {
            if (buf.get(i) != ALPHABET[index++])
            {
                return i;
            }
            if (index >= ALPHABET.length)
            {
                index = 0;
            }
        }
        return -1;
    }

    /** @return messages checked so far. */
    public int checkedCount()
    {
        return checked;
    }
}
