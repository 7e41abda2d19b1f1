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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The files this process made in the shm root and must not leave behind when its JVM shuts down (normal exit,
 * {@code System.exit}, SIGTERM, SIGINT): each temporary file while a shared file is built in it ({@link TempFiles}),
 * each shareable memory segment until it is freed. One shutdown hook, added with the first file, deletes whatever
 * is still listed; it uses nothing but {@code java.nio.file}, so it works in a JVM where Agrona does not.
 * <p>
 * Files shared by every process of a domain (the region, named address vectors) are not listed: they outlive their
 * users by design, and {@code jfabric clean} removes them once every user is gone. A killed process (SIGKILL, a
 * crash) runs no hook: the next opener of the domain, or {@code jfabric clean}, removes its files.
 * <p>
 * Thread safe.
 */
public final class OwnedFiles
{
    private static final Set<Path> FILES = ConcurrentHashMap.newKeySet();

    private OwnedFiles()
    {
    }

    /**
     * List a file this process made, to be deleted at JVM shutdown unless {@link #delete}d first.
     *
     * @param file the file.
     */
    public static void add(final Path file)
    {
        if (Hook.INSTALLED)
        {
            FILES.add(file);
        }
    }

    /**
     * Delete a listed file now, ignoring failures, and forget it.
     *
     * @param file the file, or null.
     */
    public static void delete(final Path file)
    {
        if (null != file)
        {
            deleteQuietly(file);
            FILES.remove(file);
        }
    }

    /**
     * @param file a file.
     * @return true while this process lists it: it is this process's, and alive.
     */
    public static boolean isListed(final Path file)
    {
        return FILES.contains(file);
    }

    /**
     * Delete a file, ignoring failures.
     *
     * @param file the file, or null.
     */
    public static void deleteQuietly(final Path file)
    {
        if (null != file)
        {
            try
            {
                Files.deleteIfExists(file);
            }
            catch (final IOException ignore)
            {
                // A leftover temporary file is harmless (never opened as a shared file), and named for its owner,
                // so the next opener of the domain or jfabric clean removes it once the owner is gone.
            }
        }
    }

    private static void deleteAll()
    {
        for (final Path file : FILES)
        {
            deleteQuietly(file);
        }
        FILES.clear();
    }

    /** Installs the shutdown hook on first use. */
    private static final class Hook
    {
        static final boolean INSTALLED = install();

        private static boolean install()
        {
            try
            {
                Runtime.getRuntime().addShutdownHook(new Thread(OwnedFiles::deleteAll, "jfabric-owned-files"));
                return true;
            }
            catch (final IllegalStateException ex)
            {
                return false; // The JVM is already shutting down: whoever lists a file deletes it in its finally.
            }
        }
    }
}
