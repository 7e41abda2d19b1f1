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
package io.jfabric.shm.stat;

import io.jfabric.FabricException;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.RegionHeader;

import java.nio.file.Path;
import java.util.List;

/**
 * A snapshot of a named domain's region, for monitoring: the header (layout version, geometry, creator, creation
 * time, nonce, attach count), the user table, every endpoint slot in use with its rings and per-path send counts.
 * Read through the layout descriptors from a read-only mapping ({@link RegionImage}); reading never writes to the
 * region. Slots change while they are read: a snapshot's values may be stale or from slightly different moments,
 * and reading one never fails because of that.
 * <pre>
 * DomainStat stat = DomainStat.read(Path.of("/dev/shm/jfabric-alice/orders.domain"));
 * for (SlotStat slot : stat.slots()) { ... slot.sends().inline() ... slot.lanes() ... }
 *
 * try (RegionImage image = RegionImage.open(file))        // sampling repeatedly maps the file once
 * {
 *     DomainStat first = DomainStat.sample(image);
 *     ...
 * }
 * </pre>
 * Immutable value; any thread.
 */
public final class DomainStat
{
    private final Path path;
    private final long inode;
    private final long fileLength;
    private final boolean stillLinked;
    private final long sampledAtMs;
    private final int layoutVersion;
    private final String domainName;
    private final RegionSizes geometry;
    private final long creatorPid;
    private final long creatorStartTimeMs;
    private final long creationTimeMs;
    private final long regionNonce;
    private final long attachCount;
    private final long remover;
    private final List<RegionUser> users;
    private final List<SlotStat> slots;

    DomainStat(
        final Path path,
        final long inode,
        final long fileLength,
        final boolean stillLinked,
        final long sampledAtMs,
        final int layoutVersion,
        final String domainName,
        final RegionSizes geometry,
        final long creatorPid,
        final long creatorStartTimeMs,
        final long creationTimeMs,
        final long regionNonce,
        final long attachCount,
        final long remover,
        final List<RegionUser> users,
        final List<SlotStat> slots)
    {
        this.path = path;
        this.inode = inode;
        this.fileLength = fileLength;
        this.stillLinked = stillLinked;
        this.sampledAtMs = sampledAtMs;
        this.layoutVersion = layoutVersion;
        this.domainName = domainName;
        this.geometry = geometry;
        this.creatorPid = creatorPid;
        this.creatorStartTimeMs = creatorStartTimeMs;
        this.creationTimeMs = creationTimeMs;
        this.regionNonce = regionNonce;
        this.attachCount = attachCount;
        this.remover = remover;
        this.users = List.copyOf(users);
        this.slots = List.copyOf(slots);
    }

    /**
     * Check, map, sample and unmap a region file.
     *
     * @param regionFile the file, {@code <root>/<domain>.domain}.
     * @return the snapshot.
     * @throws FabricException as {@link RegionImage#open} says, for a file that is missing, foreign, of another
     *                         layout, not ready, damaged or truncated; never for a slot changing meanwhile.
     */
    public static DomainStat read(final Path regionFile)
    {
        try (RegionImage image = RegionImage.open(regionFile))
        {
            return sample(image);
        }
    }

    /**
     * Sample a mapped region now; call as often as wanted while the image is open.
     *
     * @param image the region.
     * @return the snapshot.
     */
    public static DomainStat sample(final RegionImage image)
    {
        final DomainSampler sampler = new DomainSampler(image);
        final RegionHeader header = image.header();
        final List<RegionUser> users = sampler.users();
        final List<SlotStat> slots = sampler.slots(header.domainName());
        // Read after every heartbeat word: a heartbeat stored while the slots were read is not in the future.
        final long now = System.currentTimeMillis();
        return new DomainStat(image.file().path(), image.file().inode(), image.file().length(),
            image.file().isStillLinked(), now, header.layoutVersion(), header.domainName(),
            RegionSizes.of(image.geometry()), header.creatorPid(), header.creatorStartTime(), header.creationTime(),
            header.regionNonce(), image.liveHeader().attachCount(), sampler.remover(), users, slots);
    }

    /** @return the region file's real path. */
    public Path path()
    {
        return path;
    }

    /** @return the file's inode number. */
    public long inode()
    {
        return inode;
    }

    /** @return the file's length in bytes. */
    public long fileLength()
    {
        return fileLength;
    }

    /**
     * @return true when the file's path still named the sampled file; false once it was removed, or removed and
     * created anew: processes opening the domain now use another region than the one sampled.
     */
    public boolean stillLinked()
    {
        return stillLinked;
    }

    /** @return when the snapshot was taken, epoch ms. */
    public long sampledAtMs()
    {
        return sampledAtMs;
    }

    /** @return the header's layout version. */
    public int layoutVersion()
    {
        return layoutVersion;
    }

    /** @return the domain name the header records. */
    public String domainName()
    {
        return domainName;
    }

    /** @return slots, ring capacities and table sizes. */
    public RegionSizes geometry()
    {
        return geometry;
    }

    /** @return pid of the process that created the region. */
    public long creatorPid()
    {
        return creatorPid;
    }

    /** @return start time of that process, epoch ms, 0 when unknown. */
    public long creatorStartTimeMs()
    {
        return creatorStartTimeMs;
    }

    /** @return when the region was created, epoch ms. */
    public long creationTimeMs()
    {
        return creationTimeMs;
    }

    /** @return the region's age when sampled, ms. */
    public long ageMs()
    {
        return sampledAtMs - creationTimeMs;
    }

    /** @return the region's nonce: random, drawn at creation, so a region created anew under the name has another. */
    public long regionNonce()
    {
        return regionNonce;
    }

    /** @return how many opens the region has seen, in all processes. */
    public long attachCount()
    {
        return attachCount;
    }

    /** @return the {@code ProcessIdentity} of a process removing the region ({@code jfabric clean}), else 0. */
    public long remover()
    {
        return remover;
    }

    /** @return the user table's entries in use: the processes that have the region open, or had when they died. */
    public List<RegionUser> users()
    {
        return users;
    }

    /** @return the slots in use: held by an endpoint, or with a completion ring a completion queue uses. */
    public List<SlotStat> slots()
    {
        return slots;
    }

    /**
     * @param index a slot index.
     * @return that slot's snapshot, or null when it was not in use.
     */
    public SlotStat slot(final int index)
    {
        for (final SlotStat slot : slots)
        {
            if (slot.slot() == index)
            {
                return slot;
            }
        }
        return null;
    }

    @Override
    public String toString()
    {
        return "DomainStat{" + domainName + " " + path + ", layout " + layoutVersion + ", nonce " +
            Long.toHexString(regionNonce) + ", users " + users + ", slots " + slots + '}';
    }
}
