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

import io.jfabric.shm.core.ProcessIdentity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;

/**
 * Temporary files in the shm root: every shared file is built complete in one before it is published
 * ({@link SharedFile#tryCreate}), and the root's ownership probe is one ({@link RegionDirectory}). The name says
 * who made it, so a file left by a process that was killed half-way can be told from one still being written:
 * <pre>
 *   .&lt;target&gt;.&lt;owner&gt;.&lt;random&gt;.tmp
 *
 *   target  the name the file is published under (orders.domain, orders.seg.4242.7, ...), or what it is for
 *           (uid-probe)
 *   owner   the creator's {@link ProcessIdentity} (pid and start time): exactly 16 lower-case hex digits
 *   random  what Files.createTempFile draws, so two names never collide
 * </pre>
 * The leading '.' keeps every temporary name apart from the published ones (a domain name cannot start with '.');
 * nothing ever opens a temporary file as a shared file. The creator lists the file in {@link OwnedFiles} until it
 * deletes it, so JVM shutdown removes it too; a file whose owner is gone is removed by the next opener of the
 * domain and by {@code jfabric clean}.
 * <p>
 * Stateless; any thread.
 */
public final class TempFiles
{
    /** Suffix of every temporary file. */
    public static final String SUFFIX = ".tmp";

    private static final int OWNER_DIGITS = 16;

    private TempFiles()
    {
    }

    /**
     * Create a new, empty temporary file named for this process, and list it in {@link OwnedFiles}.
     *
     * @param dir         the shm root.
     * @param target      the name it will be published under, or what it is for; not starting with '.'.
     * @param permissions its permissions.
     * @return the file.
     * @throws IOException when it cannot be created.
     */
    public static Path create(final Path dir, final String target, final FileAttribute<?> permissions)
        throws IOException
    {
        final Path temp = Files.createTempFile(dir, prefix(target), SUFFIX, permissions);
        OwnedFiles.add(temp);
        return temp;
    }

    /**
     * @param target what the file is for.
     * @return the name's part before the random digits: {@code .<target>.<owner>.}.
     */
    static String prefix(final String target)
    {
        final String owner = Long.toHexString(ProcessIdentity.self());
        return "." + target + "." + "0".repeat(OWNER_DIGITS - owner.length()) + owner + ".";
    }

    /**
     * @param fileName a file name in the shm root.
     * @return the {@link ProcessIdentity} of the process that made it, when it is a temporary file named as above;
     * 0 otherwise (a published file, a temporary file of an older jfabric, anything else).
     */
    public static long ownerOf(final String fileName)
    {
        final int ownerEnd = ownerEnd(fileName);
        if (ownerEnd < 0)
        {
            return 0;
        }
        try
        {
            final long owner = Long.parseUnsignedLong(fileName.substring(ownerEnd - OWNER_DIGITS, ownerEnd), 16);
            return ProcessIdentity.pid(owner) == 0 ? 0 : owner;
        }
        catch (final NumberFormatException ex)
        {
            return 0;
        }
    }

    /**
     * @param fileName a file name in the shm root.
     * @return the name a temporary file named as above is published under (or what it is for); null for any other
     * name.
     */
    public static String targetOf(final String fileName)
    {
        final int ownerEnd = ownerEnd(fileName);
        return ownerEnd < 0 || 0 == ownerOf(fileName) ? null : fileName.substring(1, ownerEnd - OWNER_DIGITS - 1);
    }

    /** @return the index just past the owner digits, or -1 when the name has not the temporary form. */
    private static int ownerEnd(final String fileName)
    {
        if (!fileName.startsWith(".") || !fileName.endsWith(SUFFIX))
        {
            return -1;
        }
        final int randomStart = fileName.lastIndexOf('.', fileName.length() - SUFFIX.length() - 1) + 1;
        final int ownerEnd = randomStart - 1;
        final int ownerStart = ownerEnd - OWNER_DIGITS;
        if (randomStart <= 0 || ownerStart < 3 || fileName.charAt(ownerStart - 1) != '.')
        {
            return -1;
        }
        return ownerEnd;
    }
}
