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

import io.jfabric.shm.av.AvDescriptor;
import io.jfabric.shm.cleanup.RootEntry.Kind;
import io.jfabric.shm.cleanup.RootEntry.State;
import io.jfabric.shm.region.OwnedFiles;
import io.jfabric.shm.region.RegionFile;

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
     * regions that no longer exist. What needs no look inside is skipped by name: regions, the AVs of the region the
     * opener holds (their nonce is its nonce) and this process's own files ({@link OwnedFiles}).
     *
     * @param root        the shm root.
     * @param domainName  the domain being opened.
     * @param regionNonce the nonce of the region the opener has open.
     * @return how many files were removed.
     */
    public static int sweep(final Path root, final String domainName, final long regionNonce)
    {
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(root, file -> isCandidate(file, domainName,
            regionNonce)))
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
     * whose name starts with this one and a '.': what is judged left behind may go whatever its domain), but for
     * regions and the AVs of the opener's region.
     */
    private static boolean isCandidate(final Path file, final String domainName, final long regionNonce)
    {
        final String name = file.getFileName().toString();
        return (name.startsWith(domainName + ".") || name.startsWith("." + domainName + ".")) &&
            !name.endsWith(RegionFile.FILE_SUFFIX) && AvDescriptor.regionNonceOf(name) != regionNonce &&
            !OwnedFiles.isListed(file);
    }
}
