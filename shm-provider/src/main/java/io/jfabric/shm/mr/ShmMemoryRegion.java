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
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.MrMode;
import io.jfabric.MrRawAttr;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.core.DomainResources;
import io.jfabric.shm.core.FidLifecycle;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A registered memory region of the shm provider: an entry of the domain's key table ({@link MrTable}) plus the
 * local memory it describes.
 * <p>
 * Life: built by {@link MemoryRegistrar} (arguments checked), then {@link #register()} claims the key and
 * publishes the entry, at once or, with asynchronous registration, on the registrar's thread; until then
 * {@link #key()} is {@link MemoryRegion#FI_KEY_NOTAVAIL}. Regions that must be enabled (FI_MR_ENDPOINT, or
 * FI_MR_RMA_EVENT with FI_RMA_EVENT) keep their entry claimed but unpublished until {@link #enable()}. Close
 * withdraws the entry first, then drops the references on the counter, the shareable memory and the domain.
 * <p>
 * Control calls are synchronised on the region; {@link #key()}, {@link #desc()} and the getters are plain reads,
 * any thread.
 */
public final class ShmMemoryRegion extends FidLifecycle implements MemoryRegion
{
    /**
     * Where a region is registered: the domain's {@link MemoryRegistrar}. A region reads the domain, its key table
     * and mr_mode from it, and tells it which key table entry the region holds, from registration to close, so that
     * an emulated request or a local descriptor finds the region by its entry.
     * <p>
     * Threads: any (the region's synchronized control path).
     */
    interface Registry
    {
        /** @return the domain the region is registered in. */
        DomainContext domain();

        /** @return the domain's key table. */
        MrTable table();

        /** @return the domain's mr_mode bits. */
        int mrMode();

        /** @return whether registrations count against the domain's mr_cnt (else each endpoint's). */
        boolean countsPerDomain();

        /**
         * @param index the key table entry the region just claimed.
         * @param mr    the region.
         */
        void track(int index, ShmMemoryRegion mr);

        /**
         * @param index the key table entry the region is giving back.
         * @param mr    the region.
         */
        void untrack(int index, ShmMemoryRegion mr);
    }

    /** Size in bytes of a raw key: the 64-bit key, little-endian. */
    public static final int RAW_KEY_SIZE = 8;

    private final Registry registrar;
    private final MrIov[] iov;
    private final long access;
    private final long length;
    private final long baseAddress;
    private final ShmShareableMemory shareable;
    private final long segmentOffset;
    private final long requestedKey;
    private final boolean needsEnable;
    private final boolean rmaEvent;
    private volatile boolean complete;
    private volatile long key = FI_KEY_NOTAVAIL;
    private volatile long desc;
    private int index = -1;
    private boolean enabled;
    private ShmCounter counter;
    private boolean endpointBound;
    /** Run while a refresh has the region disabled (the MMU notification's window); tests use it to observe it. */
    Runnable whileRefreshing = () -> {};

    private final long authDigest;
    /**
     * For a local-only region peers may access (emulated path): a view of each piece's whole memory (the whole
     * buffer or array, so that an 8- or 16-bit atomic finds its aligned 32-bit word inside it), the index of the
     * piece's first byte in that view, and its length; null otherwise. Built once at registration, read-only after:
     * any thread may use them.
     */
    private final UnsafeBuffer[] pieceMemory;
    private final int[] pieceIndex;
    private final int[] pieceLength;

    ShmMemoryRegion(
        final Registry registrar,
        final MrIov[] iov,
        final long access,
        final long flags,
        final long requestedKey,
        final long length,
        final long baseAddress,
        final ShmShareableMemory shareable,
        final long segmentOffset,
        final long authDigest,
        final long context)
    {
        super(FidClass.MR, context);
        this.authDigest = authDigest;
        this.registrar = registrar;
        this.iov = iov;
        this.access = access;
        this.length = length;
        this.baseAddress = baseAddress;
        this.shareable = shareable;
        this.segmentOffset = segmentOffset;
        this.requestedKey = requestedKey;
        final int mode = registrar.mrMode();
        this.rmaEvent = (flags & Flags.FI_RMA_EVENT) != 0;
        this.needsEnable = (mode & MrMode.FI_MR_ENDPOINT) != 0 || ((mode & MrMode.FI_MR_RMA_EVENT) != 0 && rmaEvent);
        if (shareable == null && (access & (Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE)) != 0)
        {
            pieceMemory = new UnsafeBuffer[iov.length];
            pieceIndex = new int[iov.length];
            pieceLength = new int[iov.length];
            for (int i = 0; i < iov.length; i++)
            {
                final MrIov piece = iov[i];
                pieceMemory[i] = piece.array() != null ? new UnsafeBuffer(piece.array()) :
                    new UnsafeBuffer(piece.buffer());
                pieceIndex[i] = (int)piece.offset();
                pieceLength[i] = (int)piece.length();
            }
        }
        else
        {
            pieceMemory = null;
            pieceIndex = null;
            pieceLength = null;
        }
    }

    /** @return pieces of a local-only region peers may access, 0 for any other region. */
    int localPieces()
    {
        return pieceMemory == null ? 0 : pieceMemory.length;
    }

    /**
     * @param piece a piece, below {@link #localPieces()}.
     * @return a view of its whole memory.
     */
    UnsafeBuffer pieceMemory(final int piece)
    {
        return pieceMemory[piece];
    }

    /**
     * @param piece a piece.
     * @return the index of its first byte in {@link #pieceMemory}.
     */
    int pieceIndex(final int piece)
    {
        return pieceIndex[piece];
    }

    /**
     * @param piece a piece.
     * @return its bytes.
     */
    int pieceLength(final int piece)
    {
        return pieceLength[piece];
    }

    /** @return what peers subtract from their addresses: the base address with FI_MR_VIRT_ADDR, else 0. */
    long remoteBase()
    {
        return remoteBaseAddress();
    }

    /**
     * Claim the key and, unless the region must be enabled first, publish it. Called once, by the registering
     * thread or the registrar's asynchronous thread.
     *
     * @throws FabricException {@link Errno#FI_ENOKEY}, {@link Errno#FI_EKEYREJECTED}, {@link Errno#FI_ENOSPC}.
     */
    synchronized void register()
    {
        ensureOpen("fi_mr_reg");
        final MrTable table = registrar.table();
        final boolean providerKey = (registrar.mrMode() & MrMode.FI_MR_PROV_KEY) != 0;
        if (!providerKey && !MrTable.isRequestable(requestedKey))
        {
            throw new FabricException(Errno.FI_EKEYREJECTED, "fi_mr_reg: requested key 0x" +
                Long.toHexString(requestedKey) + " is FI_KEY_NOTAVAIL, which is never a key; any other 64-bit " +
                "value may be requested (mr_key_size 8)");
        }
        int claimed = -1;
        long chosen = requestedKey;
        while (claimed < 0)
        {
            chosen = providerKey ? table.nextProviderKey() : requestedKey;
            try
            {
                claimed = table.claim(chosen, "fi_mr_reg");
            }
            catch (final FabricException ex)
            {
                if (!providerKey || ex.errno() != Errno.FI_ENOKEY)
                {
                    throw ex;
                }
            }
        }
        index = claimed;
        registrar.track(claimed, this);
        describeEntry(table, claimed, 0);
        desc = ((table.laControl(claimed) >>> 8) << 32) | (claimed + 1L);
        if (!needsEnable)
        {
            enabled = true;
            table.publish(claimed);
        }
        key = chosen;
    }

    /** Mark an asynchronous registration complete: {@link #key()} is available from now on. */
    void complete()
    {
        complete = true;
    }

    /**
     * Data path (rendezvous sends): where a peer finds {@code length} bytes of {@code buffer} from {@code offset}, as
     * the {@code addr} of {@link RemoteMemory}, when they lie in this region and the region is shareable.
     *
     * @param buffer a direct buffer.
     * @param offset absolute index of the first byte.
     * @param length bytes.
     * @return the address, or -1 when a peer cannot reach those bytes through this region.
     */
    public long peerAddress(final java.nio.ByteBuffer buffer, final int offset, final long length)
    {
        if (shareable == null || !enabled || buffer == null || !buffer.isDirect())
        {
            return -1;
        }
        final long at = org.agrona.BufferUtil.address(buffer) + offset;
        final long from = at - baseAddress;
        if (from < 0 || from > this.length - length)
        {
            return -1;
        }
        return remoteBaseAddress() + from;
    }

    /** @return the key peers use, even under FI_MR_RAW (the provider's own rendezvous reads use it). */
    public long providerKey()
    {
        return key;
    }

    private long remoteBaseAddress()
    {
        return (registrar.mrMode() & MrMode.FI_MR_VIRT_ADDR) != 0 ? baseAddress : 0;
    }

    @Override
    public long key()
    {
        if (!complete || (registrar.mrMode() & MrMode.FI_MR_RAW) != 0)
        {
            return FI_KEY_NOTAVAIL;
        }
        return key;
    }

    @Override
    public long desc()
    {
        return complete ? desc : 0;
    }

    @Override
    public long baseAddress()
    {
        return baseAddress;
    }

    @Override
    public long length()
    {
        return length;
    }

    @Override
    public long access()
    {
        return access;
    }

    /** @return the shareable memory under the region, or null for local-only memory. */
    public ShmShareableMemory shareable()
    {
        return shareable;
    }

    /** @return true once reachable by peers (registered and, where required, enabled). */
    public synchronized boolean enabled()
    {
        return enabled && index >= 0;
    }

    @Override
    public synchronized void bind(final Fid fid, final long flags)
    {
        ensureOpen("fi_mr_bind");
        ensureComplete("fi_mr_bind");
        if (enabled && needsEnable)
        {
            throw new FabricException(Errno.FI_EINVAL,
                "fi_mr_bind: the memory region is already enabled; fi_mr(3) allows no bindings after fi_mr_enable");
        }
        if (fid instanceof ShmCounter)
        {
            bindCounter((ShmCounter)fid, flags);
        }
        else if (fid instanceof MrEndpoint && fid.fidClass() == FidClass.EP)
        {
            bindEndpoint((MrEndpoint)fid, flags);
        }
        else
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_bind: a memory region binds a counter or an endpoint " +
                "of its domain, not " + (fid == null ? "null" : fid.fidClass() + " " + fid.getClass().getName()));
        }
    }

    private void bindCounter(final ShmCounter cntr, final long flags)
    {
        if (flags != Flags.FI_REMOTE_WRITE)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_mr_bind: flags 0x" + Long.toHexString(flags) +
                " are not supported with a counter; FI_REMOTE_WRITE is the event a memory region counts");
        }
        if (cntr.domain() != registrar.domain())
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_bind: the counter belongs to another domain");
        }
        if ((registrar.mrMode() & MrMode.FI_MR_RMA_EVENT) != 0 && !rmaEvent)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_bind: the domain works with FI_MR_RMA_EVENT, so a " +
                "region counted by a counter must be registered with the FI_RMA_EVENT flag");
        }
        if (counter != null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_bind: the memory region already has a counter bound");
        }
        cntr.retain("fi_mr_bind");
        counter = cntr;
        describeEntry(registrar.table(), index, cntr.index() + 1);
    }

    /**
     * Write this region's key table entry. Shareable memory gives segment, nonce, offset and length as they are
     * (both below 2^31: a segment holds at most {@link SegmentDescriptor#MAX_DATA_LENGTH} bytes); local-only memory
     * names no segment (id and nonce 0: peers without the access rights are refused with FI_EACCES, the others send
     * their operation to an endpoint of this process, whose progress checks the range, {@link LocalRegions}), and its
     * length, which may pass 2^31 over several iov entries, is clamped to the int field.
     */
    private void describeEntry(final MrTable table, final int entry, final int counterPlusOne)
    {
        final SegmentFile segment = shareable == null ? null : shareable.segment();
        table.describe(entry, segment == null ? 0 : segment.segmentId(), segment == null ? 0 : segment.nonce(),
            (int)segmentOffset, (int)Math.min(length, Integer.MAX_VALUE), remoteBaseAddress(), (int)access,
            counterPlusOne, authDigest);
    }

    private void bindEndpoint(final MrEndpoint ep, final long flags)
    {
        if (flags != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_mr_bind: flags 0x" + Long.toHexString(flags) +
                " given with an endpoint; binding an endpoint takes flags 0");
        }
        if (ep.domain() != registrar.domain())
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_bind: the endpoint belongs to another domain");
        }
        ep.bindMemoryRegion(this);
        endpointBound = true;
    }

    @Override
    public synchronized void enable()
    {
        ensureOpen("fi_mr_enable");
        ensureComplete("fi_mr_enable");
        if (enabled)
        {
            return;
        }
        if ((registrar.mrMode() & MrMode.FI_MR_ENDPOINT) != 0 && !endpointBound)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_enable: the domain works with FI_MR_ENDPOINT: bind " +
                "the memory region to an endpoint with fi_mr_bind before enabling it");
        }
        enabled = true;
        registrar.table().publish(index);
    }

    @Override
    public synchronized void refresh(final MrIov[] ranges, final long flags)
    {
        ensureOpen("fi_mr_refresh");
        ensureComplete("fi_mr_refresh");
        if (flags != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS,
                "fi_mr_refresh: flags 0x" + Long.toHexString(flags) + " given; none are defined");
        }
        if (ranges != null)
        {
            for (final MrIov range : ranges)
            {
                if (!covers(range))
                {
                    throw new FabricException(Errno.FI_EINVAL,
                        "fi_mr_refresh: " + range + " is not part of the registered memory");
                }
            }
        }
        if (enabled)
        {
            // Disable, then enable again: a peer access in between fails, one that started before fails its check.
            registrar.table().unpublish(index);
            try
            {
                whileRefreshing.run();
            }
            finally
            {
                registrar.table().publish(index);
            }
        }
    }

    private boolean covers(final MrIov range)
    {
        if (range == null || range.length() <= 0)
        {
            return false;
        }
        for (final MrIov piece : iov)
        {
            final boolean same = (piece.buffer() != null && piece.buffer() == range.buffer()) ||
                (piece.array() != null && piece.array() == range.array()) ||
                (piece.shareable() != null && piece.shareable() == range.shareable());
            if (same && range.offset() >= piece.offset() &&
                range.offset() + range.length() <= piece.offset() + piece.length())
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized void rawAttr(final MrRawAttr attr, final long flags)
    {
        ensureOpen("fi_mr_raw_attr");
        ensureComplete("fi_mr_raw_attr");
        if (flags != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS,
                "fi_mr_raw_attr: flags 0x" + Long.toHexString(flags) + " given; none are defined");
        }
        if (attr == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_raw_attr: attr must not be null");
        }
        final int capacity = attr.keySize();
        attr.keySize(RAW_KEY_SIZE);
        if (capacity < RAW_KEY_SIZE)
        {
            throw new FabricException(Errno.FI_ETOOSMALL, "fi_mr_raw_attr: key_size " + capacity +
                " is too small; the raw key needs " + RAW_KEY_SIZE + " bytes (key_size now says so)");
        }
        if (attr.rawKey() == null || attr.rawKey().length < RAW_KEY_SIZE)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_raw_attr: raw_key buffer of " +
                (attr.rawKey() == null ? "null" : attr.rawKey().length + " bytes") + " cannot hold " + RAW_KEY_SIZE);
        }
        final long k = key;
        for (int i = 0; i < RAW_KEY_SIZE; i++)
        {
            attr.rawKey()[i] = (byte)(k >>> (8 * i));
        }
        attr.baseAddr(remoteBaseAddress());
    }

    private void ensureComplete(final String operation)
    {
        if (!complete)
        {
            throw new FabricException(Errno.FI_EAGAIN,
                operation + ": the asynchronous registration of this memory region has not completed");
        }
    }

    @Override
    protected String describe()
    {
        return "memory region " + Long.toUnsignedString(key);
    }

    @Override
    protected synchronized void doClose()
    {
        if (index >= 0)
        {
            registrar.untrack(index, this);
            registrar.table().free(index); // Withdraw first: peers fail from now on.
            index = -1;
        }
        enabled = false;
        if (counter != null)
        {
            counter.release();
            counter = null;
        }
        if (shareable != null)
        {
            shareable.release();
        }
        if (registrar.countsPerDomain())
        {
            registrar.domain().resources().release(DomainResources.Kind.MR);
        }
        registrar.domain().release();
    }
}
