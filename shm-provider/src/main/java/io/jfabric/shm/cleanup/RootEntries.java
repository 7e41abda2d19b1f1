package io.jfabric.shm.cleanup;

import io.jfabric.shm.ProcessIdentity;
import io.jfabric.shm.cleanup.RootEntry.Kind;
import io.jfabric.shm.cleanup.RootEntry.State;
import io.jfabric.shm.mr.SegmentDescriptor;
import io.jfabric.shm.mr.SegmentFile;
import io.jfabric.shm.region.TempFiles;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Tells what each file of the shm root is and who uses it, from what the file itself records (nothing is mapped,
 * nothing written):
 * <ul>
 *   <li>a temporary file: the owner {@link TempFiles} put in its name;</li>
 *   <li>a segment: the owner identity in its header ({@link SegmentFile#recordedOwner}), or the pid in its name.</li>
 * </ul>
 * An owner is judged by {@link ProcessIdentity#isGone} (pid and start time, so a process that reuses a dead owner's
 * pid is not taken for it). A file whose owner cannot be told is {@link State#UNKNOWN} and kept.
 * <p>
 * Stateless; any thread. Control path: reads {@code /proc} and file headers.
 */
public final class RootEntries
{
    private RootEntries()
    {
    }

    /**
     * @param root the shm root.
     * @return every file in it, judged, in name order; empty when the root does not exist.
     * @throws IOException when the directory cannot be listed.
     */
    public static List<RootEntry> list(final Path root) throws IOException
    {
        final List<RootEntry> entries = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(root))
        {
            for (final Path file : files)
            {
                entries.add(judge(file));
            }
        }
        catch (final NoSuchFileException ex)
        {
            return entries;
        }
        entries.sort(Comparator.comparing(entry -> entry.path().getFileName().toString()));
        return entries;
    }

    /**
     * Judge one file of the root. A file that cannot be read is {@link State#UNKNOWN}, never an exception.
     *
     * @param file the file.
     * @return what it is and who uses it.
     */
    public static RootEntry judge(final Path file)
    {
        final String name = file.getFileName().toString();
        try
        {
            if (name.startsWith("."))
            {
                return owned(file, Kind.TEMPORARY, TempFiles.ownerOf(name));
            }
            final long segmentPid = SegmentDescriptor.ownerPidOf(name);
            if (segmentPid >= 0)
            {
                return owned(file, Kind.SEGMENT, SegmentFile.recordedOwner(file, segmentPid));
            }
            return new RootEntry(file, Kind.OTHER, State.UNKNOWN, 0, "not a file this jfabric makes");
        }
        catch (final IOException ex)
        {
            return new RootEntry(file, Kind.OTHER, State.UNKNOWN, 0, "cannot read it: " + ex);
        }
    }

    private static RootEntry owned(final Path file, final Kind kind, final long owner)
    {
        if (owner == 0)
        {
            return new RootEntry(file, kind, State.UNKNOWN, 0, "its name records no owner (left by an older " +
                "jfabric, or not jfabric's): remove it by hand once no process uses it");
        }
        if (ProcessIdentity.isGone(owner))
        {
            return new RootEntry(file, kind, State.LEFT_BEHIND, owner,
                "its owner, " + ProcessIdentity.describe(owner) + ", is gone");
        }
        return new RootEntry(file, kind, State.IN_USE, owner, "owned by live " + ProcessIdentity.describe(owner));
    }
}
