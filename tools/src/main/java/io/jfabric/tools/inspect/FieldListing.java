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
package io.jfabric.tools.inspect;

import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.HeaderChecks;

import org.agrona.concurrent.AtomicBuffer;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Prints the fields of a file header, one line each: the field's offset (as its {@code *Descriptor} gives it), its
 * name and its value as stored, decoded where that helps (instants, process identities, names). Prints what is
 * there, valid or not: a damaged header is listed before its checks say what is wrong with it.
 * <p>
 * The command's thread only.
 */
final class FieldListing
{
    private final PrintWriter out;
    private final AtomicBuffer header;

    /**
     * @param out    where the lines go.
     * @param header a private copy of the header.
     */
    FieldListing(final PrintWriter out, final AtomicBuffer header)
    {
        this.out = out;
        this.header = header;
        out.print("header\n");
    }

    /** A magic number: seven ASCII letters and a version byte, read as a little-endian long. */
    FieldListing magic(final int offset)
    {
        final StringBuilder letters = new StringBuilder();
        for (int i = 0; i < 7; i++)
        {
            final int c = header.getByte(offset + i) & 0xFF;
            letters.append(c >= 0x20 && c < 0x7F ? (char)c : '?');
        }
        return line(offset, "magic", Text.hex(header.getLong(offset)) + " (\"" + letters + "\" " +
            header.getByte(offset + 7) + ")");
    }

    FieldListing intField(final int offset, final String name)
    {
        return line(offset, name, Integer.toString(header.getInt(offset)));
    }

    FieldListing hexInt(final int offset, final String name)
    {
        return line(offset, name, String.format(Locale.ROOT, "0x%08x", header.getInt(offset)));
    }

    /** A CRC32C of the bytes before it, with what those bytes sum to now. */
    FieldListing checksum(final int offset, final String name)
    {
        return line(offset, name, String.format(Locale.ROOT, "0x%08x (the bytes before it sum to 0x%08x)",
            header.getInt(offset), HeaderChecks.checksum(header, offset)));
    }

    FieldListing longField(final int offset, final String name)
    {
        return line(offset, name, Long.toString(header.getLong(offset)));
    }

    FieldListing hexLong(final int offset, final String name)
    {
        return line(offset, name, Text.hex(header.getLong(offset)));
    }

    FieldListing instant(final int offset, final String name)
    {
        final long ms = header.getLong(offset);
        return line(offset, name, ms + " (" + Text.instant(ms) + ")");
    }

    /** A {@link ProcessIdentity}: 0 means nobody. */
    FieldListing identity(final int offset, final String name)
    {
        final long identity = header.getLong(offset);
        return line(offset, name, Text.hex(identity) + (identity == 0 ? " (none)" :
            " (" + Text.processInFull(identity, !ProcessIdentity.isGone(identity)) + ")"));
    }

    /** US-ASCII text whose length (int) is at {@code lengthOffset}; a length out of range is shown, not followed. */
    FieldListing text(final int lengthOffset, final int offset, final int capacity, final String name)
    {
        final int length = header.getInt(lengthOffset);
        line(lengthOffset, name + " length", Integer.toString(length));
        if (length < 0 || length > capacity)
        {
            return line(offset, name, "(not read: the length is not in [0, " + capacity + "])");
        }
        final StringBuilder text = new StringBuilder("\"");
        for (int i = 0; i < length; i++)
        {
            final int c = header.getByte(offset + i) & 0xFF;
            text.append(c >= 0x20 && c < 0x7F ? String.valueOf((char)c) : String.format(Locale.ROOT, "\\x%02x", c));
        }
        return line(offset, name, text.append('"').toString());
    }

    /**
     * @param offset the field's offset.
     * @param name   its name.
     * @param value  its value, as text.
     * @return this.
     */
    FieldListing line(final int offset, final String name, final String value)
    {
        out.print(String.format(Locale.ROOT, "  %6d  %-22s %s%n", offset, name, value));
        return this;
    }
}
