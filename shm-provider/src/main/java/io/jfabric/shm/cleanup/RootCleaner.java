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
package io.jfabric.shm.cleanup;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.cleanup.RootEntry.Kind;
import io.jfabric.shm.cleanup.RootEntry.State;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.RegionDirectory;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionRemoval;
import io.jfabric.shm.region.SharedFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code jfabric clean}: removes every file of the shm root whose owners are all gone, and nothing a live process
 * uses. Regions first, each through {@link RegionRemoval} (which decides again under the region's own protocol, so a
 * process opening the region meanwhile keeps it); then the other files, judged again by {@link RootEntries} (an AV
 * of a region just removed is now one of an earlier region): segments and temporary files of gone owners, AVs of
 * regions that no longer exist. Files whose users cannot be told (another layout, damaged, not jfabric's) are kept
 * and listed as skipped.
 * <p>
 * The root directory must pass the same ownership checks as for any open ({@link RegionDirectory}); a missing root
 * has nothing to clean. Control path; any thread.
 */
public final class RootCleaner
{
    /** What was done with a file. */
    public enum Action
    {
        /** Removed. */
        REMOVED("removed"),
        /** Would be removed (a dry run). */
        WOULD_REMOVE("would remove"),
        /** Kept: a live process uses it. */
        KEPT("kept"),
        /** Kept: who uses it cannot be told. */
        SKIPPED("skipped"),
        /** It could not be removed. */
        FAILED("failed");

        private final String text;

        Action(final String text)
        {
            this.text = text;
        }

        /** @return how the listing names it. */
        public String text()
        {
            return text;
        }
    }

    /** One file, as it was judged, and what was done with it. */
    public static final class Result
    {
        private final RootEntry entry;
        private final Action action;
        private final String detail;
        private final long bytes;
        private final int errno;

        Result(final RootEntry entry, final Action action, final String detail, final long bytes, final int errno)
        {
            this.entry = entry;
            this.action = action;
            this.detail = detail;
            this.bytes = bytes;
            this.errno = errno;
        }

        /** @return the file as it was judged: its path and kind. */
        public RootEntry entry()
        {
            return entry;
        }

        /** @return what was done. */
        public Action action()
        {
            return action;
        }

        /** @return why, for people. */
        public String detail()
        {
            return detail;
        }

        /** @return its size when it was judged, 0 when unknown. */
        public long bytes()
        {
            return bytes;
        }

        /** @return the libfabric errno of a {@link Action#FAILED} removal, else 0. */
        public int errno()
        {
            return errno;
        }

        @Override
        public String toString()
        {
            return action.text() + " " + entry.path().getFileName() + " (" + entry.kind().text() + "): " + detail;
        }
    }

    private RootCleaner()
    {
    }

    /**
     * Clean a root.
     *
     * @param root        the shm root.
     * @param groupAccess whether the root is shared with its group (as the provider's setting says).
     * @param dryRun      judge and list only; remove nothing.
     * @return every file of the root and what was done with it, in name order; empty when the root does not exist.
     * @throws FabricException as {@link RegionDirectory#open} for a root that is not safe to use, {@link Errno#FI_EIO}
     *                         when it cannot be listed.
     */
    public static List<Result> clean(final Path root, final boolean groupAccess, final boolean dryRun)
    {
        if (Files.notExists(root, LinkOption.NOFOLLOW_LINKS))
        {
            return List.of();
        }
        final RegionDirectory directory = RegionDirectory.open(root, groupAccess);
        final List<RootEntry> entries;
        try
        {
            entries = RootEntries.list(root);
        }
        catch (final IOException ex)
        {
            throw new FabricException(Errno.FI_EIO, "jfabric clean: cannot list " + root + ": " + ex, ex);
        }

        final List<Result> results = new ArrayList<>(entries.size());
        for (final RootEntry entry : entries)
        {
            if (entry.kind() == Kind.REGION)
            {
                results.add(region(directory, entry, dryRun));
            }
        }
        for (final RootEntry judged : entries)
        {
            if (judged.kind() != Kind.REGION)
            {
                results.add(other(dryRun ? judged : RootEntries.judge(judged.path()), dryRun));
            }
        }
        results.sort(Comparator.comparing(result -> result.entry().path().getFileName().toString()));
        return results;
    }

    private static Result region(final RegionDirectory directory, final RootEntry entry, final boolean dryRun)
    {
        if (entry.state() != State.LEFT_BEHIND)
        {
            return kept(entry);
        }
        final long bytes = size(entry.path());
        if (dryRun)
        {
            return result(entry, Action.WOULD_REMOVE, entry.detail(), bytes);
        }
        final String name = entry.path().getFileName().toString();
        final String domain = name.substring(0, name.length() - RegionFile.FILE_SUFFIX.length());
        try
        {
            final RegionRemoval removal = RegionRemoval.remove(directory, domain);
            switch (removal.outcome())
            {
                case REMOVED:
                    return result(entry, Action.REMOVED, entry.detail(), bytes);
                case IN_USE:
                    return result(entry, Action.KEPT, "opened meanwhile by live " +
                        ProcessIdentity.describe(removal.process()), 0);
                case BEING_REMOVED:
                    return result(entry, Action.KEPT, "being removed by live " +
                        ProcessIdentity.describe(removal.process()), 0);
                default:
                    return result(entry, Action.SKIPPED, "gone meanwhile", 0);
            }
        }
        catch (final FabricException ex)
        {
            return new Result(entry, Action.FAILED, ex.reason(), 0, ex.errno());
        }
    }

    private static Result other(final RootEntry entry, final boolean dryRun)
    {
        if (entry.state() != State.LEFT_BEHIND || (entry.withRegion() && !dryRun))
        {
            return kept(entry);
        }
        final long bytes = size(entry.path());
        if (dryRun)
        {
            return result(entry, Action.WOULD_REMOVE, entry.detail(), bytes);
        }
        try
        {
            return Files.deleteIfExists(entry.path()) ? result(entry, Action.REMOVED, entry.detail(), bytes) :
                result(entry, Action.SKIPPED, "gone meanwhile", 0);
        }
        catch (final IOException ex)
        {
            final FabricException failure = SharedFile.ioFailure("remove " + entry.path(), ex);
            return new Result(entry, Action.FAILED, failure.reason(), 0, failure.errno());
        }
    }

    private static Result kept(final RootEntry entry)
    {
        return result(entry, entry.state() == State.UNKNOWN ? Action.SKIPPED : Action.KEPT,
            entry.withRegion() ? entry.detail() + " (the region was kept)" : entry.detail(), 0);
    }

    private static Result result(final RootEntry entry, final Action action, final String detail, final long bytes)
    {
        return new Result(entry, action, detail, bytes, 0);
    }

    private static long size(final Path file)
    {
        try
        {
            return Files.size(file);
        }
        catch (final IOException ex)
        {
            return 0;
        }
    }
}
