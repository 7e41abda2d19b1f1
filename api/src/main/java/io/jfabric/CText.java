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
package io.jfabric;

/**
 * How fi_tostr's C prints what has no libfabric name: a null string ({@code (null)}), a null pointer
 * ({@code (nil)}), a pointer (for which jfabric prints {@code 0x} and the object's identity hash), and hexadecimal
 * padded with zeros.
 * <p>
 * Stateless; any thread.
 */
final class CText
{
    static final String NULL_STRING = "(null)";
    static final String NULL_POINTER = "(nil)";

    private CText()
    {
    }

    static void appendPointer(final StringBuilder sb, final Object object)
    {
        if (object == null)
        {
            sb.append(NULL_POINTER);
        }
        else
        {
            sb.append("0x").append(Integer.toHexString(System.identityHashCode(object)));
        }
    }

    static StringBuilder appendPaddedHex(final StringBuilder sb, final long value, final int digits)
    {
        final String hex = Long.toHexString(value);
        for (int i = hex.length(); i < digits; i++)
        {
            sb.append('0');
        }
        return sb.append(hex);
    }

    static String orNull(final String s)
    {
        return s == null ? NULL_STRING : s;
    }
}
