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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * How soak peers find each other: one small file per logical peer, {@code peer-<n>}, holding the instance id and
 * endpoint address (fi_getname form, with its incarnation) of the process that plays that peer now. A process
 * writes its file once its endpoint is enabled, replacing its predecessor's atomically (write aside, rename), and
 * every peer rereads the files every few tens of milliseconds: a new instance id in a file means the peer was
 * restarted, and its new address is inserted into the reader's AV. A restarted process also reads its own file
 * first, to take its predecessor's endpoint slot.
 * <p>
 * Stateless apart from the directory; any thread.
 */
final class PeerRegistry
{
    /** One peer's entry. */
    record Entry(long instance, String address)
    {
    }

    private final Path dir;

    /**
     * @param dir the directory of the files, which exists.
     */
    PeerRegistry(final Path dir)
    {
        this.dir = dir;
    }

    /**
     * Publish this process as logical peer {@code logical}.
     *
     * @param logical  the logical peer.
     * @param instance this process's instance id.
     * @param address  its endpoint's address.
     */
    void publish(final int logical, final long instance, final String address)
    {
        final Path file = dir.resolve("peer-" + logical);
        final Path aside = dir.resolve(".peer-" + logical + "." + instance);
        try
        {
            Files.writeString(aside, instance + " " + address + "\n", StandardCharsets.US_ASCII);
            Files.move(aside, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @param logical a logical peer.
     * @return who plays it now, or null when nobody has yet.
     */
    Entry read(final int logical)
    {
        try
        {
            final String text = Files.readString(dir.resolve("peer-" + logical), StandardCharsets.US_ASCII).trim();
            final int space = text.indexOf(' ');
            return new Entry(Long.parseLong(text.substring(0, space)), text.substring(space + 1));
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
