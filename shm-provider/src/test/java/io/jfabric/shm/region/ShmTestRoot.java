package io.jfabric.shm.region;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A unique root directory per test under /dev/shm (the tmpfs the provider uses), removed with everything in it
 * after the test. Test thread only.
 */
final class ShmTestRoot implements AutoCloseable
{
    private final Path base;

    ShmTestRoot()
    {
        final Path shm = Path.of("/dev/shm");
        final Path parent = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        base = parent.resolve("jfabric-test-" + UUID.randomUUID());
    }

    /** @return the root directory; not created, so tests also cover its creation. */
    Path dir()
    {
        return base;
    }

    @Override
    public void close()
    {
        if (!Files.exists(base))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(base))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(ShmTestRoot::delete);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void delete(final Path path)
    {
        try
        {
            Files.deleteIfExists(path);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
