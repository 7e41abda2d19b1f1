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
package io.jfabric.shm.soak;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The layout of one soak message, as a sender writes it and a receiver checks it. The payload is the whole message
 * (no part of it belongs to the provider):
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                  sender instance id (64 bits)                 |  0
 *  +---------------------------------------------------------------+
 *  |       intended receiver instance id (64 bits)                 |  8
 *  +---------------------------------------------------------------+
 *  |   sequence of (sender instance, receiver instance), from 1    | 16
 *  +-------------------------------+-------------------------------+
 *  |   length of the whole message |   CRC32C                      | 24
 *  +-------------------------------+-------------------------------+
 *  |   body: a pattern drawn from the sequence ...                 | 32
 *  +---------------------------------------------------------------+
 * </pre>
 * The CRC32C covers every byte of the message but its own four: the header fields and the body. Big endian, as
 * {@link ByteBuffer} writes by default.
 * <p>
 * Stateless apart from the {@link CRC32C} the caller passes; any thread, each with its own CRC32C.
 */
final class SoakMessage
{
    /** Offset of the sender's instance id. */
    static final int SENDER_OFFSET = 0;
    /** Offset of the intended receiver's instance id. */
    static final int RECEIVER_OFFSET = 8;
    /** Offset of the sequence number. */
    static final int SEQUENCE_OFFSET = 16;
    /** Offset of the message length. */
    static final int LENGTH_OFFSET = 24;
    /** Offset of the CRC32C. */
    static final int CRC_OFFSET = 28;
    /** Length of the header, and the shortest message. */
    static final int HEADER_LENGTH = 32;

    private SoakMessage()
    {
    }

    /**
     * Write a whole message: header, body pattern, then the CRC32C over both.
     *
     * @param buf      where.
     * @param offset   absolute index of its first byte.
     * @param length   message length, at least {@link #HEADER_LENGTH}.
     * @param sender   the sender's instance id.
     * @param receiver the intended receiver's instance id.
     * @param sequence the sequence number.
     * @param crc      a CRC32C to use (reset here).
     */
    static void write(
        final ByteBuffer buf,
        final int offset,
        final int length,
        final long sender,
        final long receiver,
        final long sequence,
        final CRC32C crc)
    {
        buf.putLong(offset + SENDER_OFFSET, sender);
        buf.putLong(offset + RECEIVER_OFFSET, receiver);
        buf.putLong(offset + SEQUENCE_OFFSET, sequence);
        buf.putInt(offset + LENGTH_OFFSET, length);
        long x = sequence * 0x9E3779B97F4A7C15L ^ sender;
        int i = HEADER_LENGTH;
        for (; i + 8 <= length; i += 8)
        {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            buf.putLong(offset + i, x);
        }
        for (; i < length; i++)
        {
            buf.put(offset + i, (byte)(x >>> (i & 7)));
        }
        buf.putInt(offset + CRC_OFFSET, crcOf(buf, offset, length, crc));
    }

    /**
     * @param buf    the message.
     * @param offset absolute index of its first byte.
     * @param length its length, at least {@link #HEADER_LENGTH}.
     * @param crc    a CRC32C to use (reset here).
     * @return the CRC32C of every byte but the CRC field.
     */
    static int crcOf(final ByteBuffer buf, final int offset, final int length, final CRC32C crc)
    {
        crc.reset();
        crc.update(buf.slice(offset, CRC_OFFSET));
        crc.update(buf.slice(offset + HEADER_LENGTH, length - HEADER_LENGTH));
        return (int)crc.getValue();
    }

    /**
     * @param buf    a received message.
     * @param offset absolute index of its first byte.
     * @param length the length the completion reported.
     * @param crc    a CRC32C to use.
     * @return whether it is whole and unchanged: at least a header long, its length field equal to {@code length},
     *         its CRC32C right.
     */
    static boolean intact(final ByteBuffer buf, final int offset, final int length, final CRC32C crc)
    {
        return length >= HEADER_LENGTH && buf.getInt(offset + LENGTH_OFFSET) == length &&
            buf.getInt(offset + CRC_OFFSET) == crcOf(buf, offset, length, crc);
    }

    /** @return the sender instance of the message at {@code offset}. */
    static long sender(final ByteBuffer buf, final int offset)
    {
        return buf.getLong(offset + SENDER_OFFSET);
    }

    /** @return the intended receiver instance of the message at {@code offset}. */
    static long receiver(final ByteBuffer buf, final int offset)
    {
        return buf.getLong(offset + RECEIVER_OFFSET);
    }

    /** @return the sequence number of the message at {@code offset}. */
    static long sequence(final ByteBuffer buf, final int offset)
    {
        return buf.getLong(offset + SEQUENCE_OFFSET);
    }
}
