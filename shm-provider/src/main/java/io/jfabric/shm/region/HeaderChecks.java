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
package io.jfabric.shm.region;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import org.agrona.concurrent.AtomicBuffer;

import java.util.zip.CRC32C;

/**
 * The checks every shared file's header shares (domain regions, named address vectors): the identity (magic
 * number and layout version) and the CRC32C checksum of the fields before it. Each header flyweight passes its own
 * offsets and values; the offsets themselves stay in its {@code *Descriptor}.
 * <p>
 * Stateless; any thread.
 */
public final class HeaderChecks
{
    private HeaderChecks()
    {
    }

    /**
     * @param buffer    the header.
     * @param magic     the magic number it holds (read by the caller at its descriptor's offset).
     * @param expected  the magic number of this kind of file.
     * @param version   the layout version it holds.
     * @param supported the layout version this jfabric reads.
     * @param source    what the header was read from, for messages.
     * @param kind      what kind of file it is, such as "domain region".
     * @throws FabricException {@link Errno#FI_EINVAL} for a foreign magic number or another layout version.
     */
    public static void verifyIdentity(
        final AtomicBuffer buffer,
        final long magic,
        final long expected,
        final int version,
        final int supported,
        final String source,
        final String kind)
    {
        if (magic != expected)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is not a jfabric " + kind + ": magic 0x" +
                Long.toHexString(magic) + ", expected 0x" + Long.toHexString(expected));
        }
        if (version != supported)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " has " + kind + " layout version " + version +
                " but this jfabric reads layout version " + supported + ": open it with a matching jfabric, " +
                "or remove it once no process uses it");
        }
    }

    /**
     * For a reader that does not wait (an inspection of a file found under its published name, which jfabric links
     * only once it is ready): check the ready field.
     *
     * @param buffer      the header.
     * @param readyOffset where the ready field (int) is.
     * @param readyValue  what it holds once the header is complete.
     * @param source      what the header was read from, for messages.
     * @throws FabricException {@link Errno#FI_EINVAL} naming the field, its value and the one expected.
     */
    public static void verifyReady(
        final AtomicBuffer buffer, final int readyOffset, final int readyValue, final String source)
    {
        final int ready = buffer.getIntAcquire(readyOffset);
        if (ready != readyValue)
        {
            throw new FabricException(Errno.FI_EINVAL, source + " is not marked ready: its ready field (offset " +
                readyOffset + ") holds 0x" + Integer.toHexString(ready) + ", expected 0x" +
                Integer.toHexString(readyValue) + "; jfabric publishes a file only once it is ready, so this one " +
                "is damaged or was not made by jfabric");
        }
    }

    /**
     * @param buffer the header.
     * @param length how many leading bytes the checksum covers (the checksum's own offset).
     * @return CRC32C of bytes {@code [0, length)} as they are now.
     */
    public static int checksum(final AtomicBuffer buffer, final int length)
    {
        final byte[] covered = new byte[length];
        buffer.getBytes(0, covered);
        final CRC32C crc = new CRC32C();
        crc.update(covered, 0, covered.length);
        return (int)crc.getValue();
    }

    /**
     * @param buffer         the header.
     * @param checksumOffset where the stored checksum (int) is; it covers the bytes before it.
     * @param source         what the header was read from, for messages.
     * @throws FabricException {@link Errno#FI_ECRC} when the stored checksum does not match.
     */
    public static void verifyChecksum(final AtomicBuffer buffer, final int checksumOffset, final String source)
    {
        final int stored = buffer.getInt(checksumOffset);
        final int computed = checksum(buffer, checksumOffset);
        if (stored != computed)
        {
            throw new FabricException(Errno.FI_ECRC, source + " is damaged: header checksum 0x" +
                Integer.toHexString(stored) + " but its fields sum to 0x" + Integer.toHexString(computed));
        }
    }
}
