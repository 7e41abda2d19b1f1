package io.jfabric.shm.cleanup;

import io.jfabric.shm.cleanup.RootEntry.Kind;
import io.jfabric.shm.cleanup.RootEntry.State;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the next opener of a domain does about files gone processes left: it removes the domain's segment files and
 * temporary files whose owner is gone, and its address vector files of earlier regions of the domain, which no
 * process can open any more (see {@link RootEntries} for how each is judged). The region itself, and the AVs of the
 * region that exists, are left to {@code jfabric clean}, which removes them once no process that opened the region
 * is alive.
 * <p>
 * Best effort: a file that cannot be read or removed is left, nothing is thrown, and a domain opens whatever the
 * sweep finds. Files of a live owner are never touched; a removed segment's mappings in other processes stay valid
 * (an unlinked file's pages live as long as a mapping), a peer just can no longer map it anew.
 * <p>
 * Stateless; any thread; control path (a directory listing, a header read per candidate, {@code /proc} reads).
 */
public final class LeftoverSweep
{
    private LeftoverSweep()
    {
    }

    /**
     * Remove the segment and temporary files of {@code domainName} whose owners are gone, and its AV files of
     * regions that no longer exist.
     *
     * @param root       the shm root.
     * @param domainName the domain being opened.
     * @return how many files were removed.
     */
    public static int sweep(final Path root, final String domainName)
    {
        int removed = 0;
        try (DirectoryStream<Path> files =
            Files.newDirectoryStream(root, file -> isOfDomain(file.getFileName().toString(), domainName)))
        {
            for (final Path file : files)
            {
                final RootEntry entry = RootEntries.judge(file);
                if (entry.state() == State.LEFT_BEHIND && entry.kind() != Kind.REGION && !entry.withRegion() &&
                    Files.deleteIfExists(file))
                {
                    removed++;
                }
            }
        }
        catch (final IOException | RuntimeException ignore)
        {
            // Best effort: what is left now, a later opener or jfabric clean removes.
        }
        return removed;
    }

    /**
     * @return true for names of the domain's files and temporary files (of the domain and, harmlessly, of any domain
     * whose name starts with this one and a '.': a gone owner's file may go whatever its domain).
     */
    private static boolean isOfDomain(final String name, final String domainName)
    {
        return name.startsWith(domainName + ".") || name.startsWith("." + domainName + ".");
    }
}
