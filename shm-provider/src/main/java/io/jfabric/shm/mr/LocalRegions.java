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
package io.jfabric.shm.mr;

import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.shm.cntr.CounterTable;
import io.jfabric.shm.core.ProcessIdentity;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The target's half of the emulated path: performs on this process's own memory the reads, writes and atomics that
 * peers send to one of its endpoints for regions no peer can map (heap and direct buffers and {@code byte[]}
 * registered with FI_REMOTE_READ / FI_REMOTE_WRITE: their key table entry names no segment). The endpoint's receive
 * progress takes the request out of its lane and calls this with the key, the address and the key table control
 * word the initiator checked; the bytes go straight between the region's memory and the request or response record.
 * <p>
 * Checks, in order, each a negated errno with nothing touched: {@link Errno#FI_EKEYREJECTED} when the key's entry is
 * not the one the initiator checked (closed, refreshing, re-registered since: its control word moved on), is not
 * published, belongs to another process (the request reached an endpoint of a process that does not own the
 * memory), names a segment, or no region of this domain object holds it (a region registered through another domain
 * object of this process); {@link Errno#FI_EACCES} when the region lacks the rights (the initiator checked them,
 * this is a second look); {@link Errno#FI_EIO} for a counter index no registration writes; {@link Errno#FI_EINVAL}
 * when the range is not inside the region, or, for an atomic, spans two of its iov entries. After the access the
 * entry is checked again, as {@link RemoteMemory} does: a region closed or refreshed meanwhile gives
 * {@link Errno#FI_EKEYREJECTED} (a write's bytes may have landed: undefined, as for any RMA write that fails). A
 * write or a modifying atomic that succeeds raises the counter bound to the region (FI_REMOTE_WRITE), once.
 * <p>
 * Addressing is the one-sided path's: {@code addr} is the registrant's address plus an offset under
 * FI_MR_VIRT_ADDR (the base address is the buffer's native address for direct memory, 0 for heap memory), else the
 * offset; a region of several iov entries is their concatenation.
 * <p>
 * Threads: one instance per receive context, used under its receive guard. Several endpoints of one process may
 * serve the same memory at once: reads and writes are plain copies, as one-sided RMA is; atomics stay atomic across
 * all of them and the application's own threads because the caller's {@link RemoteMemory.SegmentAccess} applies
 * them with hardware atomics ({@code rma.AtomicOps}, which works on heap arrays as on native memory).
 * Allocation-free; never throws.
 */
public final class LocalRegions
{
    private final MrTable table;
    private final CounterTable counters;
    private final SegmentOpener segments;
    private final AtomicReferenceArray<ShmMemoryRegion> byIndex;
    private final long self = ProcessIdentity.self();

    // ---- what the last resolve found
    private ShmMemoryRegion region;
    private int entry;
    private long control;
    private int counterPlusOne;
    private long offset;

    /**
     * @param table    the domain's key table.
     * @param counters its counter table (a write raises the counter bound to the region).
     * @param segments how a peer's bounce segment is mapped.
     * @param byIndex  the regions of this domain object by key table entry, as registration tracks them.
     */
    LocalRegions(
        final MrTable table,
        final CounterTable counters,
        final SegmentOpener segments,
        final AtomicReferenceArray<ShmMemoryRegion> byIndex)
    {
        this.table = table;
        this.counters = counters;
        this.segments = segments;
        this.byIndex = byIndex;
    }

    /**
     * Map another process's segment named by an emulated request's bounce reference ({@link SegmentOpener}); the
     * caller keeps and closes the mapping. Receive progress; allocates and maps on a miss of the caller's cache only.
     *
     * @return the mapping, or null when the segment does not exist (or is damaged or foreign).
     */
    public SegmentFile openSegment(final long owner, final long segmentId, final long nonce)
    {
        try
        {
            return segments.open(owner, segmentId, nonce);
        }
        catch (final RuntimeException ex)
        {
            return null;
        }
    }

    /**
     * Check a region for an access without touching it (a request over several regions checks all first).
     *
     * @param key     the region's key.
     * @param addr    where in the region.
     * @param control the key table control word the initiator checked.
     * @param length  bytes.
     * @param rights  FI_REMOTE_READ and/or FI_REMOTE_WRITE.
     * @return 0, or a negated errno.
     */
    public int check(final long key, final long addr, final long control, final int length, final long rights)
    {
        return resolve(key, addr, control, length, rights);
    }

    /**
     * Copy {@code length} bytes of the region at {@code addr} into {@code dst}.
     *
     * @return 0, or a negated errno.
     */
    public int read(
        final long key, final long addr, final long control, final MutableDirectBuffer dst, final int dstIndex,
        final int length)
    {
        final int rc = resolve(key, addr, control, length, Flags.FI_REMOTE_READ);
        if (rc != 0)
        {
            return rc;
        }
        copy(dst, null, dstIndex, length);
        return table.lvControlUnchanged(entry, this.control) ? 0 : -Errno.FI_EKEYREJECTED;
    }

    /**
     * Copy {@code length} bytes of {@code src} into the region at {@code addr}, and count the write.
     *
     * @return 0, or a negated errno.
     */
    public int write(
        final long key, final long addr, final long control, final DirectBuffer src, final int srcIndex,
        final int length)
    {
        final int rc = resolve(key, addr, control, length, Flags.FI_REMOTE_WRITE);
        if (rc != 0)
        {
            return rc;
        }
        copy(null, src, srcIndex, length);
        return written();
    }

    /**
     * Run {@code op} in place on {@code length} bytes of the region at {@code addr}: the whole memory of the iov
     * entry that holds them, at their index (an atomic's 8- and 16-bit elements need their aligned word). A
     * success with FI_REMOTE_WRITE among the rights counts as a write.
     *
     * @return 0, or a negated errno (of the checks, or the operation's: nothing changed), or the operation's positive
     * answer as it is (a check-only operation).
     */
    public int access(
        final long key, final long addr, final long control, final int length, final long rights,
        final RemoteMemory.SegmentAccess op)
    {
        final int rc = resolve(key, addr, control, length, rights);
        if (rc != 0)
        {
            return rc;
        }
        final ShmMemoryRegion mr = region;
        long skip = offset;
        int piece = 0;
        final int last = mr.localPieces() - 1;
        while (piece < last && skip >= mr.pieceLength(piece))
        {
            skip -= mr.pieceLength(piece++);
        }
        if (skip + length > mr.pieceLength(piece))
        {
            return -Errno.FI_EINVAL; // an atomic over two iov entries could not be one aligned access
        }
        final int done = op.access(mr.pieceMemory(piece), mr.pieceIndex(piece) + (int)skip, length);
        if (done != 0 || (rights & Flags.FI_REMOTE_WRITE) == 0)
        {
            return done != 0 ? done : table.lvControlUnchanged(entry, this.control) ? 0 : -Errno.FI_EKEYREJECTED;
        }
        return written();
    }

    /** After a write: the entry's re-check, then the region's counter. */
    private int written()
    {
        if (!table.lvControlUnchanged(entry, control))
        {
            return -Errno.FI_EKEYREJECTED;
        }
        if (counterPlusOne > 0)
        {
            counters.add(counterPlusOne - 1, 1);
        }
        return 0;
    }

    /**
     * Find and check the region; on success leave it, its entry, control word, counter and the offset in the
     * fields.
     */
    private int resolve(final long key, final long addr, final long expected, final int length, final long rights)
    {
        final int index = table.find(key);
        if (index < 0 || length < 0)
        {
            return index < 0 ? -Errno.FI_EKEYREJECTED : -Errno.FI_EINVAL;
        }
        final long c = table.laControl(index);
        final long entryKey = table.lpKey(index);
        final long owner = table.lpOwner(index);
        final long segmentId = table.lpSegmentId(index);
        final int counter = table.lvCounter(index);
        if (c != expected || MrTableDescriptor.state(c) != MrTableDescriptor.STATE_PUBLISHED || entryKey != key ||
            owner != self || segmentId != 0 || !table.lvControlUnchanged(index, c))
        {
            return -Errno.FI_EKEYREJECTED;
        }
        final ShmMemoryRegion mr = index < byIndex.length() ? byIndex.get(index) : null;
        if (mr == null || mr.localPieces() == 0)
        {
            return -Errno.FI_EKEYREJECTED;
        }
        if ((mr.access() & rights) != rights)
        {
            return -Errno.FI_EACCES;
        }
        if (counter < 0 || counter > counters.entries())
        {
            return -Errno.FI_EIO;
        }
        final long at = addr - mr.remoteBase();
        if (at < 0 || at > mr.length() - length)
        {
            return -Errno.FI_EINVAL;
        }
        region = mr;
        entry = index;
        control = c;
        counterPlusOne = counter;
        offset = at;
        return 0;
    }

    /** Copy between the resolved range and {@code dst} (a read) or {@code src} (a write), piece by piece. */
    private void copy(final MutableDirectBuffer dst, final DirectBuffer src, final int index, final int length)
    {
        final ShmMemoryRegion mr = region;
        long skip = offset;
        int done = 0;
        for (int piece = 0; done < length; piece++)
        {
            final int pieceLength = mr.pieceLength(piece);
            if (skip >= pieceLength)
            {
                skip -= pieceLength;
                continue;
            }
            final int n = (int)Math.min(pieceLength - skip, length - done);
            final int at = mr.pieceIndex(piece) + (int)skip;
            if (dst != null)
            {
                dst.putBytes(index + done, mr.pieceMemory(piece), at, n);
            }
            else
            {
                mr.pieceMemory(piece).putBytes(at, src, index + done, n);
            }
            done += n;
            skip = 0;
        }
    }
}
