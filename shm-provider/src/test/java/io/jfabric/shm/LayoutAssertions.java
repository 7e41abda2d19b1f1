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
package io.jfabric.shm;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Assertions the {@code *DescriptorTest}s share, in the spirit of libfabric's {@code static_assert}s on its shared
 * structs: the fields of one layout lie inside it, each aligned to its own size, and no byte belongs to two of them.
 * Test thread only.
 */
public final class LayoutAssertions
{
    private LayoutAssertions()
    {
    }

    /**
     * @param what   the layout, for messages.
     * @param length its length in bytes.
     * @param fields {offset, size} pairs, one per field (an array of {@code n} longs is one field of {@code 8n} bytes
     *               aligned to 8: give its alignment as a third element).
     */
    public static void assertFieldsInsideAlignedApart(final String what, final int length, final int[]... fields)
    {
        final boolean[] used = new boolean[length];
        for (final int[] field : fields)
        {
            final int offset = field[0];
            final int size = field[1];
            final int alignment = field.length > 2 ? field[2] : size;
            assertEquals(0, offset % alignment, what + ": the field at " + offset + " is aligned to " + alignment);
            assertTrue(offset >= 0 && offset + size <= length,
                what + ": the field at " + offset + " (" + size + " bytes) lies inside its " + length + " bytes");
            for (int i = offset; i < offset + size; i++)
            {
                assertTrue(!used[i], what + ": byte " + i + " belongs to one field only (the field at " + offset + ")");
                used[i] = true;
            }
        }
    }

    /**
     * On a little-endian host, a file's magic read as a long spells {@code text} in its first seven bytes, then 1.
     *
     * @param text  seven ASCII letters.
     * @param magic the magic long.
     */
    public static void assertMagicSpells(final String text, final long magic)
    {
        if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN)
        {
            final byte[] bytes = new byte[8];
            for (int i = 0; i < 8; i++)
            {
                bytes[i] = (byte)(magic >>> (8 * i));
            }
            assertEquals(text, new String(bytes, 0, 7, StandardCharsets.US_ASCII));
            assertEquals(1, bytes[7]);
        }
    }
}
