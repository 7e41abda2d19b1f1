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
import io.jfabric.FabricException;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.shm.cntr.CounterTable;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.core.MappedFileWatch;
import io.jfabric.shm.core.FidLifecycle;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * One-sided access to memory that processes of the domain registered for remote access: resolves a key in the
 * domain's key table, checks it, and copies straight between the caller's buffer and the owner's shareable
 * segment. Segments are mapped on first use and kept in a small per-view cache ({@link SegmentCache}: at most
 * {@link SegmentCache#CAPACITY} mappings, a mapping dropped as soon as the key it served is rejected or names
 * another segment), so a view never pins much memory its owners freed. It is what the RMA data path builds on.
 * <p>
 * Addressing: {@code addr} is the registrant's base address plus an offset when the owner's domain works with
 * FI_MR_VIRT_ADDR ({@link io.jfabric.MemoryRegion#baseAddress()}, as raw_attr reports), else the 0-based offset.
 * Return codes, negated: {@link Errno#FI_EKEYREJECTED} when no enabled region has the key (never registered,
 * closed, not yet enabled, or refreshing, or its segment is gone, or its segment's name now holds another segment:
 * the nonces differ); {@link Errno#FI_EACCES} when the region lacks FI_REMOTE_READ (for read) or FI_REMOTE_WRITE
 * (for write), or when its entry names no segment (segment id 0: local-only memory, a heap or direct buffer no other
 * process can reach) and the view is an application's; an endpoint's view answers {@link #LOCAL_ONLY} instead, once
 * the rights and the authorization key held, and leaves the entry's control word and owner in
 * {@link #resolvedControl()} and {@link #resolvedOwner()}: the endpoint then asks the owner's progress to do the
 * access (the emulated path, see {@code ep.EmulatedOps});
 * {@link Errno#FI_EINVAL} when the range is not inside
 * the region or the local buffer; {@link Errno#FI_EIO} when the key table entry is damaged (a length, segment
 * offset or counter index no registration writes, or a region larger than its segment): nothing is copied and
 * nothing outside the segment is touched; {@link Errno#FI_EBADF} once closed; the errno of a segment file that
 * fails validation.
 * <p>
 * Consistency: every field of the entry (segment, offset, length, access, counter) is read inside the entry's
 * sequence-locked window and checked before any byte moves; after the copy the entry's control word is checked
 * again. A read whose region was withdrawn or changed while copying fails with FI_EKEYREJECTED rather than return
 * bytes that may be torn. A write that raced a close, refresh or re-registration of the key also fails with
 * FI_EKEYREJECTED and counts nothing, but its bytes may already have landed in the memory the old registration
 * described (memory its owner is releasing or re-registering): as with any RMA write that completes in error, the
 * target bytes are undefined. A write that succeeds raises the counter bound when its entry was read by one,
 * exactly once.
 * <p>
 * Counting is per operation: an operation of several copies into one region ({@link #beginOperation}, a writev of
 * three buffers) raises that region's counter once, after its last copy, and not at all when a copy failed.
 * <p>
 * The one gap, documented rather than closed: the counter add follows the entry's final re-check, and the counter
 * table entry carries no generation a single atomic add could check. If, between that re-check and the add, this
 * thread stalls while the owner closes the region, then closes the counter (allowed once no region is bound), and a
 * new counter (of any process) claims the same counter table entry, the stalled write adds 1 to that new counter.
 * All three steps must fit in one stall of the writer between two adjacent instructions (for an operation of several
 * copies, between its last copy and its end); the copy itself did happen
 * while the registration was live. A check of a generation before the add would only narrow the window (two words,
 * not one atomic step), so none is made.
 * <p>
 * Never throws, and allocates only when it maps a segment. Not thread safe: one thread at a time (one view per
 * thread, or external locking). The domain stays open (close fails with FI_EBUSY) until the view is closed.
 * <p>
 * Close: {@link #close()} may come from any thread, also while the view's thread is inside a copy, and never crashes
 * that copy: it marks the view closed and releases the domain, but does not unmap. A copy already running finishes
 * on mappings that are still there (its result is as without the close); every later call returns
 * {@link Errno#FI_EBADF}, and the first of them, on the view's own thread, unmaps the view's segments. A view that is
 * never called again keeps its mappings until the garbage collector finds it unreachable (the mapped buffers are
 * released with it), as the address vector's table is. Unmapping on eviction ({@link SegmentCache}) also happens only
 * on the view's own thread, inside its calls. What stays the caller's duty: closing the <em>domain</em> while a copy
 * of a closed view still runs unmaps the domain region under it; the domain refuses to close (FI_EBUSY) only until
 * the view is closed.
 */
public final class RemoteMemory extends FidLifecycle
{
    /**
     * What an endpoint's view returns for a key whose region has no segment (memory only its owner's process can
     * reach) once the access rights held: nothing was copied; the operation must go through the target's progress.
     * Positive, so never an errno nor 0.
     */
    public static final int LOCAL_ONLY = Integer.MAX_VALUE;
    /** The right {@link #readTo} asks for: none (the owner offered the bytes), and no authorization key checked. */
    private static final long OFFERED = 0;

    private final DomainContext domain;
    private final MrTable table;
    private final CounterTable counters;
    private final SegmentCache segments;
    /** The digest of the authorization key this view presents ({@link #presentKey}); the domain's at first. */
    private long authDigest;
    /** Whether this view counts as an object opened from the domain (an application's does; an endpoint's not). */
    private final boolean holdsDomain;
    /** What a key of local-only memory gives: -FI_EACCES for an application's view, LOCAL_ONLY for an endpoint's. */
    private final int localOnly;
    /** What the access in progress resolved: refilled by every call. */
    private final ResolvedRegion resolved = new ResolvedRegion();
    /** The regions (key table entries) the operation in progress wrote, and their counters + 1; -1: none begun. */
    private final int[] writtenEntries = new int[4];
    private final int[] writtenCounters = new int[4];
    private int written = -1;

    /**
     * @param domain      the domain, whose counter table a write raises.
     * @param table       its key table.
     * @param authDigest  the digest of the domain's authorization key, presented until {@link #presentKey}.
     * @param segments    how a peer's segment is mapped.
     * @param holdsDomain whether the view counts as an object opened from the domain (retains it until close).
     */
    RemoteMemory(
        final DomainContext domain,
        final MrTable table,
        final long authDigest,
        final SegmentOpener segments,
        final boolean holdsDomain)
    {
        super(FidClass.UNSPEC, 0);
        this.domain = domain;
        this.holdsDomain = holdsDomain;
        this.localOnly = holdsDomain ? -Errno.FI_EACCES : LOCAL_ONLY;
        this.table = table;
        this.authDigest = authDigest;
        this.counters = domain.counterTable();
        this.segments = new SegmentCache(segments, table);
        if (holdsDomain)
        {
            domain.retain("remoteMemory");
        }
    }

    /**
     * Present another authorization key from now on: an endpoint's view presents the key the endpoint's messages to
     * the target use (its {@code ep_attr.auth_key}, or under FI_AV_AUTH_KEY the key the destination was inserted
     * with), not its domain's. A region registered with another key refuses the access with FI_EACCES.
     *
     * @param digest the key's {@code AuthKeyDigest}, 0 for no key.
     */
    public void presentKey(final long digest)
    {
        authDigest = digest;
    }

    /**
     * Copy {@code length} bytes of a peer's region into {@code dst}.
     *
     * @param key       the region's key.
     * @param addr      where in the region (see the class description).
     * @param dst       destination: not a view of a read-only {@link java.nio.ByteBuffer} (-FI_EINVAL).
     * @param dstOffset first byte in {@code dst}.
     * @param length    bytes.
     * @return 0, or a negated errno.
     */
    public int read(final long key, final long addr, final MutableDirectBuffer dst, final int dstOffset, final int length)
    {
        if (dst == null || dstOffset < 0 || length < 0 || dstOffset > dst.capacity() - length ||
            dst.byteBuffer() != null && dst.byteBuffer().isReadOnly())
        {
            return -Errno.FI_EINVAL;
        }
        final int rc = resolve(key, addr, length, Flags.FI_REMOTE_READ);
        if (rc != 0)
        {
            return rc;
        }
        try
        {
            dst.putBytes(dstOffset, resolved.memory(), resolved.index(), length);
        }
        catch (final InternalError ex)
        {
            return segmentFaulted(key, ex);
        }
        return confirm();
    }

    /**
     * Copy {@code length} bytes from {@code src} into a peer's region.
     *
     * @param key       the region's key.
     * @param addr      where in the region.
     * @param src       source.
     * @param srcOffset first byte in {@code src}.
     * @param length    bytes.
     * @return 0, or a negated errno.
     */
    public int write(final long key, final long addr, final DirectBuffer src, final int srcOffset, final int length)
    {
        if (src == null || srcOffset < 0 || length < 0 || srcOffset > src.capacity() - length)
        {
            return -Errno.FI_EINVAL;
        }
        final int rc = resolve(key, addr, length, Flags.FI_REMOTE_WRITE);
        if (rc != 0)
        {
            return rc;
        }
        try
        {
            resolved.memory().putBytes(resolved.index(), src, srcOffset, length);
        }
        catch (final InternalError ex)
        {
            return segmentFaulted(key, ex);
        }
        return confirmWrite();
    }

    /**
     * Where {@link #readTo} hands the peer's bytes: a view of the peer's segment, valid during the call only.
     */
    @FunctionalInterface
    public interface SegmentReader
    {
        /**
         * @param memory the peer's segment.
         * @param index  first byte.
         * @param length bytes.
         */
        void read(DirectBuffer memory, int index, int length);
    }

    /**
     * The provider's own one-copy transfer (rendezvous): hand {@code length} bytes of a peer's shareable region to
     * {@code reader} straight from its segment, with every check of {@link #read} but the remote access right (the
     * owner offered the bytes by sending them, whatever rights its region gives peers).
     *
     * @param key    the region's key.
     * @param addr   where in the region.
     * @param length bytes.
     * @param reader receives the bytes.
     * @return 0, or a negated errno as {@link #read}; a registration that changed while the reader ran gives
     * {@code -FI_EKEYREJECTED} (the reader may have seen torn bytes).
     */
    public int readTo(final long key, final long addr, final int length, final SegmentReader reader)
    {
        if (reader == null || length < 0)
        {
            return -Errno.FI_EINVAL;
        }
        final int rc = resolve(key, addr, length, OFFERED);
        if (rc != 0)
        {
            return rc;
        }
        try
        {
            reader.read(resolved.memory(), resolved.index(), length);
        }
        catch (final InternalError ex)
        {
            return segmentFaulted(key, ex);
        }
        return confirm();
    }

    /**
     * What {@link #access} runs on the peer's memory in place: an atomic operation (fi_atomic(3)) on the whole
     * segment's buffer at an index, valid during the call only.
     */
    @FunctionalInterface
    public interface SegmentAccess
    {
        /**
         * @param memory the peer's segment, whole (atomic operations on sub-word elements use the aligned word).
         * @param index  the first byte of the range the call named.
         * @param length its bytes.
         * @return 0, or a negated errno (nothing was changed), or a positive value for an access that only checked
         * the range (nothing changed, nothing counted): {@link #access} returns it as it is.
         */
        int access(AtomicBuffer memory, int index, int length);
    }

    /**
     * Run {@code op} in place on {@code length} bytes of a peer's region, with every check of {@link #read} and
     * {@link #write} for the rights the operation needs; a write that succeeds raises the region's counter as
     * {@link #write} does.
     *
     * @param key    the region's key.
     * @param addr   where in the region.
     * @param length bytes.
     * @param rights FI_REMOTE_READ and/or FI_REMOTE_WRITE: what the region must grant.
     * @param op     the operation.
     * @return 0, or a negated errno as {@link #read}, or the operation's.
     */
    public int access(final long key, final long addr, final int length, final long rights, final SegmentAccess op)
    {
        if (op == null || length < 0 || rights == 0)
        {
            return -Errno.FI_EINVAL;
        }
        final int rc = resolve(key, addr, length, rights);
        if (rc != 0)
        {
            return rc;
        }
        final int done;
        try
        {
            done = op.access(resolved.memory(), resolved.index(), length);
        }
        catch (final InternalError ex)
        {
            return segmentFaulted(key, ex);
        }
        if (done != 0)
        {
            return done;
        }
        return (rights & Flags.FI_REMOTE_WRITE) != 0 ? confirmWrite() : confirm();
    }

    /**
     * Check {@code length} bytes at {@code addr} of the region of {@code key} for an access with {@code rights}, as
     * {@link #access} would, without touching them: what an operation over several regions does before it moves
     * anything, so that it learns whether every region is shareable and passes.
     *
     * @param key    the region's key.
     * @param addr   where in the region.
     * @param length bytes.
     * @param rights FI_REMOTE_READ and/or FI_REMOTE_WRITE.
     * @return 0 (a shareable region that passes), {@link #LOCAL_ONLY} (an endpoint's view, local-only memory whose
     * rights hold; the range is its owner's to check), or a negated errno as {@link #access}.
     */
    public int probe(final long key, final long addr, final int length, final long rights)
    {
        return length < 0 || rights == 0 ? -Errno.FI_EINVAL : resolve(key, addr, length, rights);
    }

    /**
     * @return the control word of the key table entry the last call resolved and checked (its registration: any
     * later change of the entry changes it), valid after it returned {@link #LOCAL_ONLY}.
     */
    public long resolvedControl()
    {
        return resolved.control();
    }

    /**
     * @return the owner identity ({@code ProcessIdentity}) of that entry, valid after {@link #LOCAL_ONLY}.
     */
    public long resolvedOwner()
    {
        return resolved.owner();
    }

    /**
     * The resolve step every access shares: find the key's entry, read it inside its sequence-locked window, check it
     * for this access, and map its segment; on success {@link #resolved} says where the range is. Nothing is copied.
     *
     * @param right what the region must grant (FI_REMOTE_READ and/or FI_REMOTE_WRITE), or {@link #OFFERED} for the
     *              provider's own read of bytes their owner offered (no right, no authorization key checked).
     * @return 0, {@link #LOCAL_ONLY} (an endpoint's view, a region with no segment; {@link #resolved} holds its
     * entry), or a negated errno.
     */
    private int resolve(final long key, final long addr, final int length, final long right)
    {
        if (isClosed())
        {
            segments.clear(); // The view's own thread: no access of this view runs now, so unmapping is safe.
            return -Errno.FI_EBADF;
        }
        final int index = table.find(key);
        final ResolvedRegion region = resolved;
        if (index < 0 || !region.read(table, index, key))
        {
            segments.forget(key);
            return -Errno.FI_EKEYREJECTED;
        }
        if (right != OFFERED && ((region.access() & right) != right || region.authDigest() != authDigest))
        {
            return -Errno.FI_EACCES; // not opened for this access, or registered with another authorization key
        }
        if (region.isDamaged(counters.entries()))
        {
            return -Errno.FI_EIO; // the table says something no registration writes
        }
        if (region.segmentId() == 0)
        {
            // Local-only memory: no segment a peer could map. An endpoint asks the owner's progress to do it.
            return right == OFFERED ? -Errno.FI_EACCES : localOnly;
        }
        final long offset = addr - region.base();
        if (offset < 0 || offset > region.length() - length)
        {
            return -Errno.FI_EINVAL;
        }
        return resolveSegment(key, region, offset);
    }

    /**
     * Map the segment of the entry {@link #resolve} checked, check the segment, and leave where the range starts.
     *
     * @param offset where the range starts in the region.
     */
    private int resolveSegment(final long key, final ResolvedRegion region, final long offset)
    {
        final SegmentFile segment;
        try
        {
            segment = segments.get(key, region.owner(), region.segmentId(), region.nonce());
        }
        catch (final FabricException ex)
        {
            return -ex.errno();
        }
        if (segment == null)
        {
            segments.forget(key);
            return -Errno.FI_EKEYREJECTED;
        }
        if (region.segmentOffset() + region.length() > segment.dataLength())
        {
            return -Errno.FI_EIO; // The entry describes more than its segment holds.
        }
        if (segment.fault() != null)
        {
            return -Errno.FI_EIO; // its file was truncated: the regions it backs fail, and it is never touched again
        }
        region.range(segment, (int)(SegmentDescriptor.DATA_OFFSET + region.segmentOffset() + offset));
        return 0;
    }

    /**
     * The seqlock re-check after a read: the entry {@link #resolved} names still holds the registration it was read
     * under, so the bytes were the registration's and are not torn by a close, refresh or re-registration.
     *
     * @return 0, or -FI_EKEYREJECTED.
     */
    private int confirm()
    {
        return table.lvControlUnchanged(resolved.entry(), resolved.control()) ? 0 : -Errno.FI_EKEYREJECTED;
    }

    /**
     * The seqlock re-check after a write, then the count of the region's bound counter.
     *
     * @return 0, or -FI_EKEYREJECTED (nothing counted).
     */
    private int confirmWrite()
    {
        final ResolvedRegion region = resolved;
        if (!table.lvControlUnchanged(region.entry(), region.control()))
        {
            // Raced a close or refresh: the bytes may have landed in memory whose registration just changed, but
            // the write did not happen to the registration the key named, so it fails and counts nothing.
            return -Errno.FI_EKEYREJECTED;
        }
        if (region.counterPlusOne() > 0)
        {
            countWrite(region.entry(), region.counterPlusOne());
        }
        return 0;
    }

    /**
     * An access faulted: a mapped file was truncated. The JVM raises the error of a compiled access at the thread's
     * next safepoint poll, so it may be an earlier access's, to another file: the files found shorter than their
     * mappings ({@link MappedFileWatch#check()}) are the ones that fail, each reported once on the domain's event
     * queue ({@link SegmentFile#faulted}), naming the file; only when none is found is the segment {@link #resolved}
     * names taken for the culprit. Either way this call answers FI_EIO (where the error met it is unknown). Error
     * path (allocates).
     *
     * @return -FI_EIO.
     */
    private int segmentFaulted(final long key, final InternalError ex)
    {
        if (MappedFileWatch.check() > 0)
        {
            return -Errno.FI_EIO; // the files found short fail (the error may be another access's, raised late)
        }
        final SegmentFile segment = resolved.segment();
        segment.faulted("shareable memory segment " + segment.path() + " (owner pid " + segment.ownerPid() +
            ", reached through region key 0x" + Long.toHexString(key) + ") faulted: was the file truncated by another" +
            " process? (" + ex.getMessage() + "); the regions it backs now fail with FI_EIO in this process");
        return -Errno.FI_EIO;
    }

    /**
     * Count one operation on the regions it writes (fi_mr(3) FI_REMOTE_WRITE: an event per operation that modifies
     * the region, not per copy): from here to {@link #endOperation}, the writes of this view raise each region's
     * counter once, at the end, and only if the operation succeeded. Without it, each write counts at once.
     */
    public void beginOperation()
    {
        written = 0;
    }

    /**
     * End what {@link #beginOperation} began: raise the counter of every region the operation wrote, once each.
     *
     * @param succeeded whether the operation succeeded (a failed one counts nothing).
     */
    public void endOperation(final boolean succeeded)
    {
        for (int i = 0; succeeded && i < written; i++)
        {
            counters.add(writtenCounters[i] - 1, 1);
        }
        written = -1;
    }

    /** A write to key table entry {@code entry} succeeded: count it now, or once at the operation's end. */
    private void countWrite(final int entry, final int counterPlusOne)
    {
        final int n = written;
        for (int i = 0; i < n; i++)
        {
            if (writtenEntries[i] == entry)
            {
                return;
            }
        }
        if (n < 0 || n == writtenEntries.length)
        {
            counters.add(counterPlusOne - 1, 1);
            return;
        }
        writtenEntries[n] = entry;
        writtenCounters[n] = counterPlusOne;
        written = n + 1;
    }

    /**
     * Raise a target endpoint's remote access counter after an operation on it succeeded (FI_RMA_EVENT): the entry
     * its slot names, if any. A word outside the counter table (a damaged slot) counts nothing. Like a region's
     * bound counter, the add follows the check of the slot, so a target that closes meanwhile may see its freed
     * entry's next owner counted once.
     *
     * @param counterPlusOne counter table index + 1, 0 for none.
     */
    public void countEvent(final int counterPlusOne)
    {
        if (counterPlusOne > 0 && counterPlusOne <= counters.entries())
        {
            counters.add(counterPlusOne - 1, 1);
        }
    }

    /** @return segments mapped now. */
    public int mappedSegments()
    {
        return segments.size();
    }

    @Override
    protected String describe()
    {
        return "remote memory view";
    }

    /**
     * Mark the view closed and let the domain go; never unmaps (see the class description): the close may come from
     * another thread while the view's thread is inside a copy.
     */
    @Override
    protected void doClose()
    {
        if (holdsDomain)
        {
            domain.release();
        }
    }
}
