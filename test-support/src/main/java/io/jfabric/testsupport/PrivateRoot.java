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
package io.jfabric.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A root directory of a test's own for shm files, under /dev/shm (the tmpfs the provider uses; the temporary
 * directory where there is none), named by a prefix and a random part. It is not created here, so a test also
 * covers its creation by the provider. {@link #empty()} removes what is in it, {@link #close()} removes it with
 * everything in it; a file that cannot be removed fails the test ({@link UncheckedIOException}).
 * <p>
 * The test's thread only.
 */
public final class PrivateRoot implements AutoCloseable
{
    private final Path dir;

    /**
     * @param prefix the directory's name before the random part, such as {@code "jfabric-test-"}.
     */
    public PrivateRoot(final String prefix)
    {
        final Path shm = Path.of("/dev/shm");
        final Path parent = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        dir = parent.resolve(prefix + UUID.randomUUID());
    }

    /**
     * @return the directory (not created here).
     */
    public Path dir()
    {
        return dir;
    }

    /** Remove everything in the directory, and keep it. */
    public void empty()
    {
        delete(dir, false);
    }

    /** Remove the directory and everything in it; idempotent. */
    @Override
    public void close()
    {
        delete(dir, true);
    }

    /**
     * Remove a directory and everything in it, if it exists.
     *
     * @param dir the directory.
     * @throws UncheckedIOException when something in it cannot be removed.
     */
    public static void removeTree(final Path dir)
    {
        delete(dir, true);
    }

    private static void delete(final Path dir, final boolean itself)
    {
        if (!Files.exists(dir))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path path : (Iterable<Path>)paths.sorted(Comparator.reverseOrder())::iterator)
            {
                if (itself || !path.equals(dir))
                {
                    Files.deleteIfExists(path);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
