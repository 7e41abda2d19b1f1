package io.jfabric.shm.mr;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.shm.FidLifecycle;
import io.jfabric.shm.cntr.CounterTable;
import io.jfabric.shm.region.RegionDirectory;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One-sided access to memory that processes of the domain registered for remote access: resolves a key in the
 * domain's key table, checks it, and copies straight between the caller's buffer and the owner's shareable
 * segment, which this view maps on first use and keeps mapped until {@link #close()}. It is what the RMA data path
 * builds on.
 * <p>
 * Addressing: {@code addr} is the registrant's base address plus an offset when the owner's domain works with
 * FI_MR_VIRT_ADDR ({@link io.jfabric.MemoryRegion#baseAddress()}, as raw_attr reports), else the 0-based offset.
 * Return codes, negated: {@link Errno#FI_EKEYREJECTED} when no enabled region has the key (never registered,
 * closed, not yet enabled, or refreshing, or its segment is gone); {@link Errno#FI_EACCES} when the region lacks
 * FI_REMOTE_READ (for read) or FI_REMOTE_WRITE (for write); {@link Errno#FI_EINVAL} when the range is not inside
 * the region or the local buffer; {@link Errno#FI_EBADF} once closed; the errno of a segment file that fails
 * validation. A read whose region was withdrawn or changed while copying fails with FI_EKEYREJECTED rather than
 * return bytes that may be torn. A write into a region bound to a counter raises that counter by one.
 * <p>
 * Never throws, and allocates only when it maps a segment for the first time. Not thread safe: one thread at a
 * time (one view per thread, or external locking). The domain stays open (close fails with FI_EBUSY) until the
 * view is closed.
 */
public final class RemoteMemory extends FidLifecycle
{
    private final MemoryRegistrar registrar;
    private final MrTable table;
    private final CounterTable counters;
    private final String domainName;
    private final Long2ObjectHashMap<SegmentFile> segments = new Long2ObjectHashMap<>();

    RemoteMemory(final MemoryRegistrar registrar)
    {
        super(FidClass.UNSPEC, 0);
        this.registrar = registrar;
        this.table = registrar.table();
        this.counters = registrar.domain().counterTable();
        this.domainName = registrar.domain().attr().name();
        registrar.domain().retain("remoteMemory");
    }

    /**
     * Copy {@code length} bytes of a peer's region into {@code dst}.
     *
     * @param key       the region's key.
     * @param addr      where in the region (see the class description).
     * @param dst       destination.
     * @param dstOffset first byte in {@code dst}.
     * @param length    bytes.
     * @return 0, or a negated errno.
     */
    public int read(final long key, final long addr, final MutableDirectBuffer dst, final int dstOffset, final int length)
    {
        if (dst == null || dstOffset < 0 || length < 0 || dstOffset > dst.capacity() - length)
        {
            return -Errno.FI_EINVAL;
        }
        return copy(key, addr, dst, null, dstOffset, length);
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
        return copy(key, addr, null, src, srcOffset, length);
    }

    private int copy(
        final long key,
        final long addr,
        final MutableDirectBuffer dst,
        final DirectBuffer src,
        final int localOffset,
        final int length)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        final int index = table.find(key);
        if (index < 0)
        {
            return -Errno.FI_EKEYREJECTED;
        }
        final long control = table.control(index);
        final long entryKey = table.key(index);
        final int access = table.access(index);
        final long ownerPid = table.ownerPid(index);
        final long segmentId = table.segmentId(index);
        final long segmentOffset = table.segmentOffset(index);
        final long regionLength = table.length(index);
        final long base = table.baseAddress(index);
        if (MrTableDescriptor.state(control) != MrTableDescriptor.STATE_PUBLISHED || entryKey != key ||
            !table.unchanged(index, control))
        {
            return -Errno.FI_EKEYREJECTED;
        }
        final long right = dst != null ? Flags.FI_REMOTE_READ : Flags.FI_REMOTE_WRITE;
        if ((access & right) == 0)
        {
            return -Errno.FI_EACCES;
        }
        final long offset = addr - base;
        if (offset < 0 || offset > regionLength - length)
        {
            return -Errno.FI_EINVAL;
        }
        if (segmentId == 0)
        {
            return -Errno.FI_EACCES;
        }
        final SegmentFile segment;
        try
        {
            segment = segment(ownerPid, segmentId);
        }
        catch (final FabricException ex)
        {
            return -ex.errno();
        }
        if (segment == null || segmentOffset + offset + length > segment.dataLength())
        {
            return -Errno.FI_EKEYREJECTED;
        }
        final UnsafeBuffer memory = segment.buffer();
        final int at = (int)(SegmentDescriptor.DATA_OFFSET + segmentOffset + offset);
        if (dst != null)
        {
            dst.putBytes(localOffset, memory, at, length);
            return table.unchanged(index, control) ? 0 : -Errno.FI_EKEYREJECTED;
        }
        memory.putBytes(at, src, localOffset, length);
        if (!table.unchanged(index, control))
        {
            return -Errno.FI_EKEYREJECTED;
        }
        final int boundCounter = table.counter(index);
        if (boundCounter > 0)
        {
            counters.add(boundCounter - 1, 1);
        }
        return 0;
    }

    private SegmentFile segment(final long ownerPid, final long segmentId)
    {
        final long cacheKey = segmentId ^ (ownerPid * 0x9E3779B97F4A7C15L);
        final SegmentFile cached = segments.get(cacheKey);
        if (cached != null && cached.ownerPid() == ownerPid && cached.segmentId() == segmentId)
        {
            return cached;
        }
        final RegionDirectory directory = registrar.directory();
        final SegmentFile opened = SegmentFile.open(directory, domainName, ownerPid, segmentId);
        if (opened != null)
        {
            if (cached != null)
            {
                cached.close();
            }
            segments.put(cacheKey, opened);
        }
        return opened;
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

    @Override
    protected void doClose()
    {
        for (final SegmentFile segment : segments.values())
        {
            segment.close();
        }
        segments.clear();
        registrar.domain().release();
    }
}
