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

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.core.ProcessIdentity;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Removes a domain region that no live process has open: the remover's side of {@link RegionUsers}' protocol, for
 * {@code jfabric clean}. The region is validated like any open (owner, type, header, checksum; any geometry), only
 * its header page is mapped, and the file is unlinked only after this process holds the remover word and has found
 * no live entry in the user table: from then on no open can join it (an open that had mapped it already sees the
 * word, gives its entry back and creates the region anew). A region some live process has open is never removed.
 * <p>
 * Processes that still map a removed region keep their mapping (its pages live until the last unmap); only opens
 * by name no longer find it.
 * <p>
 * Control path; any thread.
 */
public final class RegionRemoval
{
    /** What became of the region. */
    public enum Outcome
    {
        /** It was unlinked. */
        REMOVED,
        /** A live process has it open: kept. */
        IN_USE,
        /** Another live process is removing it now: left to that one. */
        BEING_REMOVED,
        /** It no longer exists (or was replaced meanwhile): nothing done. */
        GONE
    }

    private final Outcome outcome;
    private final long process;

    private RegionRemoval(final Outcome outcome, final long process)
    {
        this.outcome = outcome;
        this.process = process;
    }

    /** @return what became of the region. */
    public Outcome outcome()
    {
        return outcome;
    }

    /**
     * @return the live process that has the region open ({@link Outcome#IN_USE}) or is removing it
     * ({@link Outcome#BEING_REMOVED}), as a {@link ProcessIdentity}; else 0.
     */
    public long process()
    {
        return process;
    }

    /**
     * Remove the named domain's region if no live process has it open.
     *
     * @param directory  the checked root directory.
     * @param domainName the domain.
     * @return what became of it.
     * @throws FabricException for a region that is not a valid region of this layout (as an open would refuse it,
     *                         {@link Errno#FI_EINVAL} and so on) or cannot be removed ({@link Errno#FI_EACCES},
     *                         {@link Errno#FI_EIO}).
     */
    public static RegionRemoval remove(final RegionDirectory directory, final String domainName)
    {
        final Path path = RegionFile.regionPath(directory.path(), domainName);
        final SharedFile.Mapped mapped = SharedFile.openExisting(
            directory, path, "domain region", new RegionFormat(domainName, null, 0), false);
        if (null == mapped)
        {
            return new RegionRemoval(Outcome.GONE, 0);
        }
        final RegionUsers users = new RegionUsers(new UnsafeBuffer(mapped.buffer()));
        final long self = ProcessIdentity.self();
        boolean marked = false;
        try
        {
            final long remover = users.remover();
            if ((remover != 0 && !ProcessIdentity.isGone(remover)) || !users.compareAndSetRemover(remover, self))
            {
                return new RegionRemoval(Outcome.BEING_REMOVED, users.remover());
            }
            marked = true;
            final long live = users.liveUser();
            if (live != 0)
            {
                return new RegionRemoval(Outcome.IN_USE, live);
            }
            final boolean linked = mapped.isStillLinked();
            if (linked)
            {
                Files.delete(path);
            }
            marked = false; // Unlinked: the word stays set for good, so a late opener of this file looks again.
            return new RegionRemoval(linked ? Outcome.REMOVED : Outcome.GONE, 0);
        }
        catch (final NoSuchFileException ex)
        {
            marked = false;
            return new RegionRemoval(Outcome.GONE, 0);
        }
        catch (final IOException ex)
        {
            throw SharedFile.ioFailure("remove domain region " + path, ex);
        }
        finally
        {
            if (marked)
            {
                users.compareAndSetRemover(self, 0);
            }
            SharedFile.unmapQuietly(mapped.buffer());
        }
    }
}
