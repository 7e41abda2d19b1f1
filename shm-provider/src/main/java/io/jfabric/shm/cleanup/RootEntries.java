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

import io.jfabric.FabricException;
import io.jfabric.shm.av.AvDescriptor;
import io.jfabric.shm.av.AvHeader;
import io.jfabric.shm.cleanup.RootEntry.Kind;
import io.jfabric.shm.cleanup.RootEntry.State;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.mr.SegmentDescriptor;
import io.jfabric.shm.mr.SegmentFile;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionHeader;
import io.jfabric.shm.region.RegionUsers;
import io.jfabric.shm.region.SharedFile;
import io.jfabric.shm.region.TempFiles;

import org.agrona.concurrent.UnsafeBuffer;

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
 *   <li>a segment: the owner identity in its header ({@link SegmentFile#recordedOwner}), or the pid in its name;</li>
 *   <li>a domain region: the processes in its user table ({@link RegionUsers}); it is {@link State#LEFT_BEHIND} when
 *   none is alive, and only {@link io.jfabric.shm.region.RegionRemoval} may remove it, which decides again under the
 *   region's own protocol;</li>
 *   <li>a named address vector: the region its name's nonce names ({@link AvDescriptor#regionNonceOf}). An AV of a
 *   region that no longer exists (no region of its domain, or one with another nonce) can never be opened again:
 *   {@link State#LEFT_BEHIND}. An AV of the region that exists goes with that region: {@link State#IN_USE} while the
 *   region has a live user, else {@link State#LEFT_BEHIND} but {@link RootEntry#withRegion()}: it may go only once the
 *   region is removed.</li>
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
            if (name.endsWith(RegionFile.FILE_SUFFIX))
            {
                return region(file, name.substring(0, name.length() - RegionFile.FILE_SUFFIX.length()));
            }
            if (AvDescriptor.regionNonceOf(name) != 0)
            {
                return addressVector(file, AvDescriptor.regionNonceOf(name));
            }
            return new RootEntry(file, Kind.OTHER, State.UNKNOWN, 0, "not a file this jfabric makes");
        }
        catch (final IOException ex)
        {
            return new RootEntry(file, Kind.OTHER, State.UNKNOWN, 0, "cannot read it: " + ex);
        }
    }

    private static RootEntry region(final Path file, final String domainName) throws IOException
    {
        final UnsafeBuffer header = regionHeader(file, domainName);
        if (null == header)
        {
            return unreadable(file, Kind.REGION);
        }
        final long live = new RegionUsers(header).liveUser();
        if (live != 0)
        {
            return new RootEntry(file, Kind.REGION, State.IN_USE, live, "open in live " +
                ProcessIdentity.describe(live));
        }
        return new RootEntry(file, Kind.REGION, State.LEFT_BEHIND, 0, "no process that opened it is alive");
    }

    private static RootEntry addressVector(final Path file, final long regionNonce) throws IOException
    {
        final AvHeader av = new AvHeader(copyOrEmpty(file, AvDescriptor.HEADER_LENGTH));
        final String domainName;
        try
        {
            if (!av.isReady())
            {
                return unreadable(file, Kind.ADDRESS_VECTOR);
            }
            av.verify(file.toString());
            domainName = av.domainName();
        }
        catch (final FabricException ex)
        {
            return new RootEntry(file, Kind.ADDRESS_VECTOR, State.UNKNOWN, 0, ex.getMessage());
        }

        final Path regionFile = RegionFile.regionPath(file.getParent(), domainName);
        final UnsafeBuffer region = regionHeader(regionFile, domainName);
        if (null == region && Files.exists(regionFile))
        {
            return new RootEntry(file, Kind.ADDRESS_VECTOR, State.UNKNOWN, 0, "its domain's region " + regionFile +
                " cannot be read, so whether it belongs to that region cannot be told");
        }
        if (null == region || new RegionHeader(region).regionNonce() != regionNonce)
        {
            return new RootEntry(file, Kind.ADDRESS_VECTOR, State.LEFT_BEHIND, 0, "it belongs to an earlier " +
                "region of domain " + domainName + ", which no process can open any more");
        }
        final RootEntry owner = region(regionFile, domainName);
        return new RootEntry(file, Kind.ADDRESS_VECTOR, owner.state(), owner.process(),
            "goes with its region: " + owner.detail(), owner.state() == State.LEFT_BEHIND);
    }

    /**
     * @return the region's verified header copy (read with {@code read(2)}), or null when it is missing, not ready,
     * not a region of this layout, damaged, or of another domain.
     */
    private static UnsafeBuffer regionHeader(final Path file, final String domainName) throws IOException
    {
        final UnsafeBuffer copy = copyOrEmpty(file, RegionDescriptor.HEADER_LENGTH);
        final RegionHeader header = new RegionHeader(copy);
        try
        {
            if (!header.isReady())
            {
                return null;
            }
            header.verify(file.toString());
            return header.domainName().equals(domainName) ? copy : null;
        }
        catch (final FabricException ex)
        {
            return null;
        }
    }

    /** @return a copy of the file's first {@code length} bytes, all zeros when it is missing or shorter. */
    private static UnsafeBuffer copyOrEmpty(final Path file, final int length) throws IOException
    {
        final UnsafeBuffer copy = SharedFile.readHeaderCopy(file, length);
        return null == copy ? new UnsafeBuffer(new byte[length]) : copy;
    }

    private static RootEntry unreadable(final Path file, final Kind kind)
    {
        return new RootEntry(file, kind, State.UNKNOWN, 0, "not a complete " + kind.text() + " of this jfabric's " +
            "layout (another version, damaged, or being replaced): remove it by hand once no process uses it");
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
