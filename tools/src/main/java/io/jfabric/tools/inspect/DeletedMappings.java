package io.jfabric.tools.inspect;

import io.jfabric.shm.region.TempFiles;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds processes that still map a removed file of a given name: after a live domain region file is removed (or
 * replaced), its processes keep talking among themselves through the old mapping while a process that opens the
 * domain now gets another region, a second domain under the same name. The kernel shows such a mapping in
 * {@code /proc/<pid>/maps} as a path followed by {@code (deleted)}: the region's path, or for the process that
 * created the region the temporary name it was built under ({@code .<name>.<owner>.<random>.tmp}, linked to the
 * region's name and then removed). A mapping of the file the path names now (same inode) is not stale. Processes
 * of other users, whose maps cannot be read, are not seen. Control path; any thread.
 */
final class DeletedMappings
{
    private static final String DELETED = " (deleted)";

    private DeletedMappings()
    {
    }

    /**
     * @param file      the file's path (as the processes mapped it).
     * @param liveInode the inode of the file the path names now, or -1 when there is none.
     * @return the pids of the processes that map a removed file of that path, in /proc order.
     */
    static List<Long> pidsMapping(final Path file, final long liveInode)
    {
        final Path absolute = file.toAbsolutePath();
        final String exact = absolute + DELETED;
        final String tempPrefix = absolute.getParent() + "/." + absolute.getFileName() + ".";
        final String tempSuffix = TempFiles.SUFFIX + DELETED;
        final List<Long> pids = new ArrayList<>();
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*"))
        {
            for (final Path process : processes)
            {
                try (Stream<String> lines = Files.lines(process.resolve("maps")))
                {
                    if (lines.anyMatch((line) -> isStale(line, exact, tempPrefix, tempSuffix, liveInode)))
                    {
                        pids.add(Long.parseLong(process.getFileName().toString()));
                    }
                }
                catch (final IOException | RuntimeException ex)
                {
                    // gone meanwhile, or another user's
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // No /proc (not Linux): nothing can be said.
        }
        return pids;
    }

    /** A maps line: address perms offset dev inode path. */
    private static boolean isStale(
        final String line, final String exact, final String tempPrefix, final String tempSuffix, final long liveInode)
    {
        if (!line.endsWith(DELETED))
        {
            return false;
        }
        final String[] fields = line.trim().split("\\s+", 6);
        if (fields.length < 6)
        {
            return false;
        }
        final String path = fields[5]; // ends with " (deleted)"
        final boolean ours = path.equals(exact) || (path.startsWith(tempPrefix) && path.endsWith(tempSuffix));
        return ours && Long.parseLong(fields[4]) != liveInode;
    }
}
