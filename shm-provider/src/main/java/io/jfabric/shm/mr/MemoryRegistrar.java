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

import io.jfabric.DomainAttr;
import io.jfabric.EqEvent;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.MrAttr;
import io.jfabric.MrIov;
import io.jfabric.ShareableMemory;
import io.jfabric.shm.av.AuthKeyDigest;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.core.DomainResources;
import io.jfabric.shm.core.ShmCapabilities;
import io.jfabric.shm.eq.ShmEventQueue;
import io.jfabric.shm.region.RegionDirectory;

import org.agrona.BufferUtil;
import org.agrona.collections.Long2LongHashMap;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A domain's memory registration: checks registration requests (fi_mr_reg, fi_mr_regv, fi_mr_regattr), builds
 * {@link ShmMemoryRegion}s and registers them at once or, when the domain's event queue is bound with
 * {@link Flags#FI_REG_MR}, on its own thread with an FI_MR_COMPLETE event; allocates shareable memory; tracks
 * mapped raw keys; opens {@link RemoteMemory} views.
 * <p>
 * Rules, in the order they are checked (each a {@link FabricException}):
 * <ul>
 *   <li>iov: 1 to mr_iov_limit entries ({@link Errno#FI_EINVAL}), each of length &gt; 0 within its memory;
 *   offset 0; flags only {@link Flags#FI_RMA_EVENT} and {@link Flags#FI_AUTH_KEY} ({@link Errno#FI_EBADFLAGS});
 *   access only FI_SEND, FI_RECV, FI_READ, FI_WRITE, FI_REMOTE_READ, FI_REMOTE_WRITE ({@link Errno#FI_EINVAL}); the
 *   region's authorization key as {@link RegionAuthKey} says (in an FI_AV_AUTH_KEY domain a region peers may access
 *   needs one); iface is ignored (fi_mr(3) reads it only with FI_HMEM, which shm does not offer).</li>
 *   <li>Remote access (FI_REMOTE_READ/WRITE) on shareable memory of this domain needs, with several iov entries,
 *   entries that follow each other in one shareable allocation ({@link Errno#FI_EINVAL}): peers reach it one-sidedly
 *   through their own mapping. On local-only memory (heap and direct buffers, {@code byte[]}: no iov entry is
 *   shareable) it is accepted and served by emulation: peers send their reads, writes and atomics to an endpoint of
 *   this process, whose progress performs them ({@link LocalRegions}); FI_REMOTE_WRITE on a read-only buffer gives
 *   {@link Errno#FI_EACCES}.</li>
 *   <li>Keys: see {@link MrTable}; every 64-bit key may be requested but FI_KEY_NOTAVAIL (all ones:
 *   {@link Errno#FI_EKEYREJECTED}), a key in use gives {@link Errno#FI_ENOKEY}; with FI_MR_PROV_KEY the requested
 *   key is ignored and the key comes from the domain-wide sequence, skipping keys in use.</li>
 * </ul>
 * Threads: any (control path); the asynchronous registrations run on one daemon thread per domain.
 */
public final class MemoryRegistrar implements ShmMemoryRegion.Registry
{
    private static final long ACCESS_BITS = Flags.FI_SEND | Flags.FI_RECV | Flags.FI_READ | Flags.FI_WRITE |
        Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE;
    private static final long REMOTE_BITS = Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE;

    private final DomainContext domain;
    private final DomainAttr attr;
    private final MrTable table;
    private final Path rootDir;
    private final boolean groupAccess;
    /**
     * Segment ids of this process, whatever domain object allocates: ids never repeat within a process, so two
     * domain objects of one process, or a domain closed and opened again, never name the same file.
     */
    private static final AtomicLong SEGMENT_SEQUENCE = new AtomicLong();
    /** The process start time's low bits above the sequence, so a reused pid rarely meets an old segment's name. */
    private static final long SEGMENT_ID_BASE = (ProcessHandle.current().info().startInstant()
        .map(i -> i.toEpochMilli()).orElse(0L) & 0xFF_FFFFL) << 32;

    private final Long2LongHashMap mappedKeys = new Long2LongHashMap(0);
    private final java.util.concurrent.atomic.AtomicReferenceArray<ShmMemoryRegion> byIndex;
    private RegionDirectory directory;
    private ExecutorService async;

    /**
     * @param domain      the domain, whose region holds the key table.
     * @param rootDir     root directory of the shared files.
     * @param groupAccess create files for the group too.
     */
    public MemoryRegistrar(final DomainContext domain, final Path rootDir, final boolean groupAccess)
    {
        this.domain = domain;
        this.attr = domain.attr();
        this.table = new MrTable(domain.region().buffer(), domain.region().geometry());
        this.byIndex = new java.util.concurrent.atomic.AtomicReferenceArray<>(domain.region().geometry().mrTableEntries());
        this.rootDir = rootDir;
        this.groupAccess = groupAccess;
    }

    /** @return the domain. */
    @Override
    public DomainContext domain()
    {
        return domain;
    }

    /**
     * fi_domain(3): mr_cnt counts the domain's regions, or each endpoint's under FI_MR_ENDPOINT (the endpoint
     * counts the regions bound to it).
     *
     * @return whether registrations count against the domain's mr_cnt.
     */
    @Override
    public boolean countsPerDomain()
    {
        return (attr.mrMode() & io.jfabric.MrMode.FI_MR_ENDPOINT) == 0;
    }

    /**
     * @return the domain's mr_mode bits.
     */
    @Override
    public int mrMode()
    {
        return attr.mrMode();
    }

    /** @return the key table. */
    @Override
    public MrTable table()
    {
        return table;
    }

    @Override
    public void track(final int index, final ShmMemoryRegion mr)
    {
        byIndex.set(index, mr);
    }

    @Override
    public void untrack(final int index, final ShmMemoryRegion mr)
    {
        byIndex.compareAndSet(index, mr, null);
    }

    /**
     * @return a new server of peers' emulated requests on this domain object's local-only regions, for one endpoint's
     * receive progress. Control path.
     */
    public LocalRegions localRegions()
    {
        return new LocalRegions(table, domain.counterTable(), this::openSegment, byIndex);
    }

    /**
     * Data path: the region of this process a local descriptor ({@code fi_mr_desc}) names.
     *
     * @param desc a descriptor from {@link ShmMemoryRegion#desc()}.
     * @return the region, or null when the descriptor names none of this process's open regions.
     */
    public ShmMemoryRegion regionOf(final long desc)
    {
        final long index = (desc & 0xFFFF_FFFFL) - 1;
        if (index < 0 || index >= byIndex.length())
        {
            return null;
        }
        final ShmMemoryRegion mr = byIndex.get((int)index);
        return mr != null && mr.desc() == desc ? mr : null;
    }

    /**
     * @return the checked root directory, opened on first use.
     */
    synchronized RegionDirectory directory()
    {
        if (directory == null)
        {
            directory = RegionDirectory.open(rootDir, groupAccess);
        }
        return directory;
    }

    /**
     * fi_mr_reg.
     *
     * @param buffer       the memory.
     * @param access       access bits.
     * @param offset       must be 0.
     * @param requestedKey key wanted.
     * @param flags        flags.
     * @param context      context.
     * @return the region.
     */
    public ShmMemoryRegion reg(
        final ByteBuffer buffer,
        final long access,
        final long offset,
        final long requestedKey,
        final long flags,
        final long context)
    {
        if (buffer == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_reg: buffer must not be null");
        }
        return register("fi_mr_reg", new MrIov[]{MrIov.of(buffer)}, access, offset, requestedKey, flags, context,
            null);
    }

    /**
     * fi_mr_regv.
     *
     * @param iov          the memory.
     * @param access       access bits.
     * @param offset       must be 0.
     * @param requestedKey key wanted.
     * @param flags        flags.
     * @param context      context.
     * @return the region.
     */
    public ShmMemoryRegion regv(
        final MrIov[] iov,
        final long access,
        final long offset,
        final long requestedKey,
        final long flags,
        final long context)
    {
        return register("fi_mr_regv", iov, access, offset, requestedKey, flags, context, null);
    }

    /**
     * fi_mr_regattr.
     *
     * @param mrAttr attributes.
     * @param flags  flags.
     * @return the region.
     */
    public ShmMemoryRegion regAttr(final MrAttr mrAttr, final long flags)
    {
        if (mrAttr == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_regattr: attr must not be null");
        }
        if (mrAttr.authKey() != null && mrAttr.authKey().length > ShmCapabilities.MAX_AUTH_KEY_SIZE)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_regattr: auth_key of " + mrAttr.authKey().length +
                " bytes is longer than the " + ShmCapabilities.MAX_AUTH_KEY_SIZE + " shm accepts");
        }
        return register("fi_mr_regattr", mrAttr.iov(), mrAttr.access(), mrAttr.offset(), mrAttr.requestedKey(),
            flags, mrAttr.context(), mrAttr);
    }

    /**
     * @return the digest of this domain's authorization key ({@code domain_attr.auth_key}), 0 for none: what a
     * region registered without a key of its own carries, and what this domain's one-sided accesses present.
     */
    long domainAuthDigest()
    {
        return AuthKeyDigest.of(domain.attr().authKey());
    }

    private ShmMemoryRegion register(
        final String operation,
        final MrIov[] iov,
        final long access,
        final long offset,
        final long requestedKey,
        final long flags,
        final long context,
        final MrAttr mrAttr)
    {
        domain.ensureOpen(operation);
        final MrIov[] pieces = checkIov(operation, iov);
        if (offset != 0)
        {
            throw new FabricException(Errno.FI_EINVAL, operation + ": offset " + offset + " given; fi_mr(3) " +
                "reserves it and requires 0");
        }
        if ((flags & ~(Flags.FI_RMA_EVENT | Flags.FI_AUTH_KEY)) != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, operation + ": flags 0x" +
                Long.toHexString(flags & ~(Flags.FI_RMA_EVENT | Flags.FI_AUTH_KEY)) + " are not supported; shm " +
                "takes FI_RMA_EVENT and, with FI_AV_AUTH_KEY, FI_AUTH_KEY (no persistent memory, so not FI_RMA_PMEM)");
        }
        if ((access & ~ACCESS_BITS) != 0)
        {
            throw new FabricException(Errno.FI_EINVAL, operation + ": access 0x" + Long.toHexString(access) +
                " has bits 0x" + Long.toHexString(access & ~ACCESS_BITS) + " that are not access bits (FI_SEND, " +
                "FI_RECV, FI_READ, FI_WRITE, FI_REMOTE_READ, FI_REMOTE_WRITE)");
        }
        final long authDigest = RegionAuthKey.digest(operation, domain, mrAttr, flags, access);
        // iface is ignored: fi_mr(3) reads it only when the application asked for FI_HMEM, which shm never offers,
        // so the memory is host memory whatever the field says.

        long length = 0;
        for (final MrIov piece : pieces)
        {
            length += piece.length();
        }
        final MrIov first = pieces[0];
        ShmShareableMemory shareable = null;
        long segmentOffset = 0;
        if (first.shareable() != null && sameAllocationContiguous(pieces))
        {
            shareable = (ShmShareableMemory)first.shareable();
            segmentOffset = first.offset();
        }
        if ((access & REMOTE_BITS) != 0 && shareable == null)
        {
            checkLocalRemoteAccess(operation, pieces, access);
        }
        final long baseAddress = address(first);

        domain.retain(operation);
        boolean built = false;
        try
        {
            if (countsPerDomain())
            {
                domain.resources().acquire(DomainResources.Kind.MR, operation);
            }
            try
            {
                if (shareable != null)
                {
                    shareable.retain(operation);
                }
                built = true;
            }
            finally
            {
                if (!built && countsPerDomain())
                {
                    domain.resources().release(DomainResources.Kind.MR);
                }
            }
        }
        finally
        {
            if (!built)
            {
                domain.release();
            }
        }

        final ShmMemoryRegion mr = new ShmMemoryRegion(this, pieces, access, flags, requestedKey, length, baseAddress,
            shareable, segmentOffset, authDigest, context);
        final ShmEventQueue eq = domain.asyncMrRegistration() ? domain.eventQueue() : null;
        if (eq == null)
        {
            try
            {
                mr.register();
            }
            catch (final RuntimeException ex)
            {
                mr.close();
                throw ex;
            }
            mr.complete();
            return mr;
        }
        asyncExecutor().execute(() -> completeAsync(mr, eq, context, mr::register));
        return mr;
    }

    /**
     * Run an asynchronous registration and report it on the event queue: FI_MR_COMPLETE on success, else an error
     * entry carrying the errno of a {@link FabricException}, or {@link Errno#FI_EIO} for any other failure, so the
     * application waiting on the queue always hears about its registration. Registrar thread.
     *
     * @param mr           the region being registered.
     * @param eq           the domain's event queue.
     * @param context      the registration's context.
     * @param registration what registers it ({@link ShmMemoryRegion#register()}).
     */
    static void completeAsync(
        final ShmMemoryRegion mr, final ShmEventQueue eq, final long context, final Runnable registration)
    {
        try
        {
            registration.run();
            mr.complete();
            eq.postEvent(EqEvent.MR_COMPLETE.value(), mr, context, 0);
        }
        catch (final FabricException ex)
        {
            eq.postError(mr, context, 0, ex.errno(), ex.errno(), ex.getMessage());
        }
        catch (final RuntimeException | Error ex)
        {
            eq.postError(mr, context, 0, Errno.FI_EIO, Errno.FI_EIO,
                "fi_mr_reg: the asynchronous registration failed unexpectedly: " + ex);
        }
    }

    private synchronized ExecutorService asyncExecutor()
    {
        if (async == null)
        {
            async = Executors.newSingleThreadExecutor(r ->
            {
                final Thread t = new Thread(r, "jfabric-mr-" + attr.name());
                t.setDaemon(true);
                return t;
            });
        }
        return async;
    }

    private MrIov[] checkIov(final String operation, final MrIov[] iov)
    {
        if (iov == null || iov.length == 0)
        {
            throw new FabricException(Errno.FI_EINVAL, operation + ": iov_count is 0; give 1 to " +
                attr.mrIovLimit() + " (mr_iov_limit) entries");
        }
        if (iov.length > attr.mrIovLimit())
        {
            throw new FabricException(Errno.FI_EINVAL, operation + ": iov_count " + iov.length +
                " is above the domain's mr_iov_limit " + attr.mrIovLimit());
        }
        for (int i = 0; i < iov.length; i++)
        {
            final MrIov piece = iov[i];
            if (piece == null)
            {
                throw new FabricException(Errno.FI_EINVAL, operation + ": iov[" + i + "] is null");
            }
            if (piece.length() <= 0)
            {
                throw new FabricException(Errno.FI_EINVAL,
                    operation + ": iov[" + i + "] has length " + piece.length() + "; a registered length must be > 0");
            }
            final long capacity = piece.shareable() != null ? piece.shareable().length() :
                piece.array() != null ? piece.array().length : piece.buffer().capacity();
            if (piece.offset() < 0 || piece.offset() > capacity - piece.length())
            {
                throw new FabricException(Errno.FI_EINVAL, operation + ": iov[" + i + "] " + piece +
                    " is not within its memory of " + capacity + " bytes");
            }
            if (piece.shareable() != null)
            {
                if (!(piece.shareable() instanceof ShmShareableMemory) ||
                    ((ShmShareableMemory)piece.shareable()).domain() != domain.fid())
                {
                    throw new FabricException(Errno.FI_EINVAL,
                        operation + ": iov[" + i + "] is shareable memory of another domain");
                }
                ((ShmShareableMemory)piece.shareable()).ensureOpen(operation);
            }
        }
        return iov.clone();
    }

    /**
     * Remote access to memory no peer can map: every piece local (no shareable memory that merely fails to be one
     * contiguous range, which would be served half one-sidedly), and writable when peers may write it.
     */
    private static void checkLocalRemoteAccess(final String operation, final MrIov[] pieces, final long access)
    {
        for (int i = 0; i < pieces.length; i++)
        {
            final MrIov piece = pieces[i];
            if (piece.shareable() != null)
            {
                throw new FabricException(Errno.FI_EINVAL, operation + ": access 0x" + Long.toHexString(access) +
                    " asks for remote access over shareable memory, which needs the iov entries to follow each " +
                    "other in one shareable allocation (iov[" + i + "] does not)");
            }
            if ((access & Flags.FI_REMOTE_WRITE) != 0 && piece.buffer() != null && piece.buffer().isReadOnly())
            {
                throw new FabricException(Errno.FI_EACCES, operation + ": access 0x" + Long.toHexString(access) +
                    " lets peers write iov[" + i + "], a read-only buffer");
            }
        }
    }

    private static boolean sameAllocationContiguous(final MrIov[] pieces)
    {
        final ShareableMemory memory = pieces[0].shareable();
        long next = pieces[0].offset() + pieces[0].length();
        for (int i = 1; i < pieces.length; i++)
        {
            if (pieces[i].shareable() != memory || pieces[i].offset() != next)
            {
                return false;
            }
            next += pieces[i].length();
        }
        return true;
    }

    /**
     * The "virtual address" of a piece: native address for direct and shareable memory, 0 for heap memory.
     */
    private static long address(final MrIov piece)
    {
        if (piece.shareable() != null)
        {
            return piece.shareable().address() + piece.offset();
        }
        if (piece.buffer() != null && piece.buffer().isDirect())
        {
            return BufferUtil.address(piece.buffer()) + piece.offset();
        }
        return 0;
    }

    /**
     * Allocate shareable memory.
     *
     * @param length bytes.
     * @return the memory.
     */
    public ShareableMemory allocShareable(final long length)
    {
        domain.ensureOpen("allocShareable");
        final RegionDirectory dir = directory();
        domain.retain("allocShareable");
        SegmentFile segment = null;
        try
        {
            segment = SegmentFile.create(dir, attr.name(), ProcessHandle.current().pid(),
                nextSegmentId(), length, groupAccess);
        }
        finally
        {
            if (segment == null)
            {
                domain.release();
            }
        }
        return new ShmShareableMemory(domain.fid(), reporting(segment));
    }

    /**
     * A shareable segment for the provider's own use, not a domain object: an endpoint's bounce for emulated RMA
     * larger than one ring record ({@code ep.EmulatedBounce}), which peers map by its name from a request
     * ({@link #openSegment}). Its user frees it ({@link SegmentFile#close(boolean)}, deleting the file) before the
     * domain closes; JVM shutdown deletes one it did not. Creates a file: a control-path cost, paid on the data path
     * the first time an endpoint needs it and each time it grows.
     *
     * @param length bytes of data, in {@code [1, SegmentDescriptor.MAX_DATA_LENGTH]}.
     * @return the mapped segment.
     * @throws FabricException as {@link SegmentFile#create} does ({@link Errno#FI_ENOSPC} when tmpfs is full).
     */
    public SegmentFile createSegment(final long length)
    {
        return reporting(SegmentFile.create(directory(), attr.name(), ProcessHandle.current().pid(), nextSegmentId(),
            length, groupAccess));
    }

    /**
     * @param segment a mapping this domain object made, or null.
     * @return it, reporting a fault (its file truncated) on the domain's event queue.
     */
    SegmentFile reporting(final SegmentFile segment)
    {
        if (segment != null)
        {
            segment.reportFaultsTo(this::reportFault);
        }
        return segment;
    }

    /** Post a mapped file's fault on the domain's event queue (fi_domain_bind), if one is bound. Any thread. */
    private void reportFault(final String detail)
    {
        final ShmEventQueue eq = domain.eventQueue();
        if (eq != null)
        {
            eq.postError(domain.fid(), domain.fid().context(), 0, Errno.FI_EIO, Errno.FI_EIO, detail);
        }
    }

    /**
     * Map a segment of a process of this domain by its name, as an emulated request's bounce reference gives it.
     *
     * @param owner     the owner's {@code ProcessIdentity}.
     * @param segmentId the owner's number for it.
     * @param nonce     its nonce.
     * @return the mapping, or null when no such segment exists (freed, or its name holds another nonce).
     * @throws FabricException as {@link SegmentFile#open} does (a damaged or foreign file).
     */
    SegmentFile openSegment(final long owner, final long segmentId, final long nonce)
    {
        return reporting(SegmentFile.open(directory(), attr.name(), io.jfabric.shm.core.ProcessIdentity.pid(owner),
            segmentId, nonce));
    }

    /** @return a segment id no segment of this process had before. */
    static long nextSegmentId()
    {
        return SEGMENT_ID_BASE | (SEGMENT_SEQUENCE.incrementAndGet() & 0xFFFF_FFFFL);
    }

    /**
     * fi_mr_map_raw.
     *
     * @param baseAddr base address from the peer (not needed to map: the key table has it).
     * @param rawKey   raw key bytes.
     * @param flags    0.
     * @return the key.
     */
    public long mapRaw(final long baseAddr, final byte[] rawKey, final long flags)
    {
        domain.ensureOpen("fi_mr_map_raw");
        if (flags != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS,
                "fi_mr_map_raw: flags 0x" + Long.toHexString(flags) + " given; none are defined");
        }
        if (rawKey == null || rawKey.length != ShmMemoryRegion.RAW_KEY_SIZE)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_map_raw: raw key of " +
                (rawKey == null ? "null" : rawKey.length + " bytes") + "; shm raw keys are " +
                ShmMemoryRegion.RAW_KEY_SIZE + " bytes (mr_key_size)");
        }
        long key = 0;
        for (int i = 0; i < ShmMemoryRegion.RAW_KEY_SIZE; i++)
        {
            key |= (rawKey[i] & 0xFFL) << (8 * i);
        }
        domain.retain("fi_mr_map_raw");
        synchronized (mappedKeys)
        {
            mappedKeys.put(key, mappedKeys.get(key) + 1);
        }
        return key;
    }

    /**
     * fi_mr_unmap_key.
     *
     * @param key a key from {@link #mapRaw}.
     */
    public void unmapKey(final long key)
    {
        synchronized (mappedKeys)
        {
            final long count = mappedKeys.get(key);
            if (count <= 0)
            {
                throw new FabricException(Errno.FI_EINVAL, "fi_mr_unmap_key: key " + Long.toUnsignedString(key) +
                    " is not a key mapped with fi_mr_map_raw in this domain");
            }
            if (count == 1)
            {
                mappedKeys.remove(key);
            }
            else
            {
                mappedKeys.put(key, count - 1);
            }
        }
        domain.release();
    }

    /**
     * @return a new view for one-sided access to peers' registered shareable memory; close it when done.
     */
    public RemoteMemory remoteMemory()
    {
        return new RemoteMemory(domain, table, domainAuthDigest(), this::openSegment, true);
    }

    /**
     * @return a view for an endpoint's rendezvous reads: it does not count as an object opened from the domain
     * (the endpoint does, and closes the view before it lets the domain go), so a domain's FI_EBUSY message counts
     * only what the application opened. Control path.
     */
    public RemoteMemory endpointRemoteMemory()
    {
        return new RemoteMemory(domain, table, domainAuthDigest(), this::openSegment, false);
    }

    /** Stop the asynchronous registration thread; the domain calls it when it closes. */
    public synchronized void close()
    {
        if (async != null)
        {
            async.shutdownNow();
            async = null;
        }
    }
}
