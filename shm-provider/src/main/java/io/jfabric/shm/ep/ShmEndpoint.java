package io.jfabric.shm.ep;

import io.jfabric.Addresses;
import io.jfabric.Endpoint;
import io.jfabric.EpType;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MessageClaim;
import io.jfabric.Msg;
import io.jfabric.shm.DomainResources;
import io.jfabric.shm.FidLifecycle;
import io.jfabric.shm.LocalHost;
import io.jfabric.shm.ProcessIdentity;
import io.jfabric.shm.av.ShmAddress;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.eq.ShmEventQueue;
import io.jfabric.shm.match.AddressResolver;
import io.jfabric.shm.mr.MemoryRegistrar;
import io.jfabric.shm.mr.MrEndpoint;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.mr.ShmMemoryRegion;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import io.jfabric.shm.match.ReceiveMatcher;
import io.jfabric.shm.match.RecvCompletionSink;
import io.jfabric.shm.progress.Progressable;
import io.jfabric.shm.progress.SpinGuard;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static io.jfabric.shm.ep.LaneRecordDescriptor.*;

/**
 * The shm provider's reliable datagram endpoint (FI_EP_RDM): fi_endpoint(3), fi_msg(3), fi_tagged(3) and a
 * zero-copy claim.
 * <p>
 * The endpoint holds one slot of the domain region from open to close. A send resolves its destination through
 * the bound AV to the peer's slot and writes one record (or, above {@link #inlineLimit()}, a FIRST record and
 * PIECE records) into the peer's lane for this endpoint's slot: an Agrona {@code OneToOneRingBuffer} that only this
 * endpoint writes, so a send takes no contended atomic and the pair's messages stay in order. Progress drains this
 * endpoint's own lanes and hands each message to the {@link ReceiveMatcher}, which places it in a posted receive or
 * keeps it as unexpected; a message that can be neither stays in its lane, so its sender sees {@code -FI_EAGAIN}
 * and nothing is lost. Completions go to the bound completion queues, counts to the bound counters.
 * <p>
 * Threads: the domain's threading model decides which guards are real ({@link SpinGuard}); under the models that
 * make the application serialize, the data path takes no lock at all.
 */
public final class ShmEndpoint extends FidLifecycle implements Endpoint, Progressable, MrEndpoint
{
    private static final int READ_LIMIT = 64;
    /** Progress calls between looks for new senders while some lane is active. */
    private static final int RESCAN_PERIOD = 1024;
    /** Progress calls between looks for a first sender. */
    private static final int IDLE_RESCAN_PERIOD = 16;
    private static final int OPEN = 0;
    private static final int ENABLED = 1;
    private static final int CLOSED = 2;

    private final FidLifecycle domain;
    private final io.jfabric.shm.ShmDomain shmDomain;
    private final MemoryRegistrar registrar;
    private RemoteMemory remote;
    private RingBuffer txRing;
    private RingBuffer[] ackRings;
    private final AckHandler acks = new AckHandler();
    private final RendezvousReader rendezvousReader = new RendezvousReader();
    private int statRendezvous;
    private final DomainResources resources;
    private final Info info;
    private final String domainName;
    private final AtomicBuffer region;
    private final RegionGeometry geometry;
    private final long maxMsgSize;
    private final int injectSize;
    private final int inlineLimit;
    private final int pieceLimit;
    private final int rendezvousMin;
    private final boolean directedRecv;
    private final long txOpFlags;
    private final long rxOpFlags;
    private final SpinGuard txGuard;
    private final SpinGuard rxGuard;
    private final EndpointHooks hooks;
    private final ByteBuffer regionBytes;

    private int slot;
    private int incarnation;
    private int statInline;
    private int statSegmented;
    private int statClaimed;
    private volatile int state = OPEN;

    private ShmAddressVector av;
    private boolean avUserIds;
    private ShmCompletionQueue txCq;
    private ShmCompletionQueue rxCq;
    private boolean selectiveTx;
    private boolean selectiveRx;
    private ShmCounter sendCntr;
    private ShmCounter recvCntr;
    private ShmCounter readCntr;
    private ShmCounter writeCntr;
    private ShmCounter remoteReadCntr;
    private ShmCounter remoteWriteCntr;
    private ShmEventQueue eq;

    // transmit side, by receiver slot
    private RingBuffer[] outLanes;
    private int[] outOwnerOffset;
    private long[] outStamp;
    private int[] peerIncarnation;
    private PendingSends pending;
    private long[] blockedPeers;
    private long rendezvousKey;
    private long rendezvousAddr;
    private long[] destState;
    private int[] destPeer;

    // receive side, by sender slot
    private RingBuffer[] inLanes;
    private int[] inOwnerOffset;
    private long[] senderId;
    private long[] delivery;
    private long[] remaining;
    private int[] active;
    private int activeCount;
    private int rescanCountdown;
    private ReceiveMatcher matcher;
    private final InboundHandler inbound = new InboundHandler();
    private final Completions completions = new Completions();
    private final Resolver resolver;
    private final LaneClaim claim = new LaneClaim();
    private final java.util.List<ShmMemoryRegion> boundRegions = new java.util.ArrayList<>();
    private final OwnerLiveness liveness;

    /**
     * Open an endpoint and claim a slot for it.
     *
     * @param domain     the domain, retained until close.
     * @param registrar  the domain's memory registrar (rendezvous sends find their source's region through it).
     * @param resources  ep_cnt accounting.
     * @param info       the info (ep_attr type RDM).
     * @param domainName the domain's name (for getname).
     * @param region     the region.
     * @param geometry   its geometry.
     * @param injectSize the inject.size setting.
     * @param rendezvousMin the rendezvous.min setting: the smallest send from registered shareable memory that
     *                   goes by rendezvous.
     * @param safeTx     whether the transmit side needs a guard (threading model and progress).
     * @param safeRx     whether the receive side needs a guard.
     * @param hooks      what the domain does at enable and close (automatic progress registration).
     * @param context    user context.
     */
    public ShmEndpoint(
        final io.jfabric.shm.ShmDomain domain,
        final MemoryRegistrar registrar,
        final DomainResources resources,
        final Info info,
        final String domainName,
        final AtomicBuffer region,
        final RegionGeometry geometry,
        final int injectSize,
        final int rendezvousMin,
        final boolean safeTx,
        final boolean safeRx,
        final EndpointHooks hooks,
        final long context)
    {
        super(FidClass.EP, context);
        if (info == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_endpoint: info is null");
        }
        final Info copy = info.copy();
        final EpType type = copy.epAttr() == null ? EpType.RDM : copy.epAttr().type();
        if (type != EpType.RDM && type != EpType.UNSPEC)
        {
            throw new FabricException(Errno.FI_EINVAL,
                "fi_endpoint: ep_attr.type " + type + " is not supported; the shm provider offers FI_EP_RDM");
        }
        this.domain = domain;
        this.shmDomain = domain;
        this.registrar = registrar;
        this.resources = resources;
        this.info = copy;
        this.domainName = domainName;
        this.region = region;
        this.geometry = geometry;
        this.hooks = hooks;
        this.regionBytes = region.byteBuffer();
        this.resolver = new Resolver();
        this.liveness = new OwnerLiveness(geometry.slotCount());
        final int laneMax = geometry.rxRingBytes() / 8;
        inlineLimit = (laneMax + org.agrona.concurrent.ringbuffer.RecordDescriptor.HEADER_LENGTH) /
            RECORD_ALIGNMENT * RECORD_ALIGNMENT - org.agrona.concurrent.ringbuffer.RecordDescriptor.HEADER_LENGTH -
            HEADER_LENGTH;
        pieceLimit = inlineLimit - (FIRST_PAYLOAD_OFFSET - PAYLOAD_OFFSET);
        this.injectSize = Math.min(injectSize, inlineLimit);
        this.rendezvousMin = rendezvousMin;
        maxMsgSize = copy.epAttr() != null && copy.epAttr().maxMsgSize() > 0 ? copy.epAttr().maxMsgSize() :
            Integer.MAX_VALUE;
        final long caps = copy.caps();
        directedRecv = (caps & Flags.FI_DIRECTED_RECV) != 0 ||
            (copy.rxAttr() != null && (copy.rxAttr().caps() & Flags.FI_DIRECTED_RECV) != 0);
        txOpFlags = copy.txAttr() == null ? 0 : copy.txAttr().opFlags();
        rxOpFlags = copy.rxAttr() == null ? 0 : copy.rxAttr().opFlags();
        txGuard = safeTx ? SpinGuard.spin() : SpinGuard.NONE;
        rxGuard = safeRx ? SpinGuard.spin() : SpinGuard.NONE;

        domain.retain("fi_endpoint");
        boolean ok = false;
        try
        {
            resources.acquire(DomainResources.Kind.ENDPOINT, "fi_endpoint");
            try
            {
                slot = claimSlot(-1);
                ok = true;
            }
            finally
            {
                if (!ok)
                {
                    resources.release(DomainResources.Kind.ENDPOINT);
                }
            }
        }
        finally
        {
            if (!ok)
            {
                domain.release();
            }
        }
    }

    private int claimSlot(final int wanted)
    {
        final long self = ProcessIdentity.self();
        final int from = wanted < 0 ? 0 : wanted;
        final int to = wanted < 0 ? geometry.slotCount() : wanted + 1;
        for (int i = from; i < to; i++)
        {
            final int ownerOffset = SlotDescriptor.ownerOffset(geometry, i);
            final long owner = region.getLongVolatile(ownerOffset);
            if ((owner == 0 || ProcessIdentity.isGone(owner)) && region.compareAndSetLong(ownerOffset, owner, self))
            {
                final int incOffset = SlotDescriptor.incarnationOffset(geometry, i);
                int inc = region.getIntVolatile(incOffset) + 1;
                if (inc <= 0)
                {
                    inc = 1;
                }
                region.putIntOrdered(incOffset, inc);
                region.putIntOrdered(SlotDescriptor.stateOffset(geometry, i), SlotDescriptor.STATE_CLAIMED);
                incarnation = inc;
                return i;
            }
        }
        if (wanted >= 0)
        {
            throw new FabricException(Errno.FI_EADDRINUSE, "fi_setname: slot " + wanted + " of domain '" +
                domainName + "' is held by " + ProcessIdentity.describe(
                region.getLongVolatile(SlotDescriptor.ownerOffset(geometry, wanted))));
        }
        throw new FabricException(Errno.FI_ENOSPC, "fi_endpoint: all " + geometry.slotCount() +
            " endpoint slots of domain '" + domainName + "' are held (raise jfabric.shm.ep.count)");
    }

    private void releaseSlot(final int s)
    {
        for (int i = 0; i < geometry.slotCount(); i++)
        {
            region.putLongOrdered(SlotDescriptor.laneOwnerOffset(geometry, s, i), 0);
        }
        region.putIntOrdered(SlotDescriptor.stateOffset(geometry, s), SlotDescriptor.STATE_FREE);
        region.putLongOrdered(SlotDescriptor.heartbeatOffset(geometry, s), System.currentTimeMillis());
        region.compareAndSetLong(SlotDescriptor.ownerOffset(geometry, s), ProcessIdentity.self(), 0);
    }

    // ------------------------------------------------------------------ control path

    @Override
    public Info info()
    {
        return info.copy();
    }

    /** @return the slot this endpoint holds. */
    public int slot()
    {
        return slot;
    }

    /** @return this endpoint's incarnation of its slot. */
    public int incarnation()
    {
        return incarnation;
    }

    /** @return the largest message that travels in one lane record. */
    public int inlineLimit()
    {
        return inlineLimit;
    }

    /** @return the inject size in force. */
    public int injectSize()
    {
        return injectSize;
    }

    @Override
    public synchronized void bind(final Fid fid, final long flags)
    {
        ensureOpen("fi_ep_bind");
        if (state != OPEN)
        {
            throw new FabricException(Errno.FI_EOPBADSTATE, "fi_ep_bind: the endpoint is already enabled");
        }
        if (fid == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_ep_bind: fid is null");
        }
        if (fid instanceof ShmAddressVector)
        {
            if (flags != 0)
            {
                throw new FabricException(Errno.FI_EBADFLAGS, "fi_ep_bind: an AV takes flags 0, not 0x" +
                    Long.toHexString(flags));
            }
            if (av != null)
            {
                throw new FabricException(Errno.FI_EINVAL, "fi_ep_bind: an AV is already bound");
            }
            final ShmAddressVector a = (ShmAddressVector)fid;
            a.retain("fi_ep_bind");
            av = a;
            avUserIds = (a.attr().flags() & Flags.FI_AV_USER_ID) != 0;
        }
        else if (fid instanceof ShmCompletionQueue)
        {
            bindCq((ShmCompletionQueue)fid, flags);
        }
        else if (fid instanceof ShmCounter)
        {
            bindCounter((ShmCounter)fid, flags);
        }
        else if (fid instanceof ShmEventQueue)
        {
            if (eq != null)
            {
                throw new FabricException(Errno.FI_EINVAL, "fi_ep_bind: an EQ is already bound");
            }
            final ShmEventQueue q = (ShmEventQueue)fid;
            q.retain("fi_ep_bind");
            eq = q;
        }
        else
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_ep_bind: cannot bind a " + fid.fidClass() +
                " of another provider or kind to an shm endpoint");
        }
    }

    private void bindCq(final ShmCompletionQueue cq, final long flags)
    {
        final long known = Flags.FI_TRANSMIT | Flags.FI_RECV | Flags.FI_SELECTIVE_COMPLETION;
        if ((flags & ~known) != 0 || (flags & (Flags.FI_TRANSMIT | Flags.FI_RECV)) == 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_ep_bind: CQ flags 0x" + Long.toHexString(flags) +
                " must name FI_TRANSMIT and/or FI_RECV, optionally FI_SELECTIVE_COMPLETION");
        }
        if ((flags & Flags.FI_TRANSMIT) != 0 && txCq != null || (flags & Flags.FI_RECV) != 0 && rxCq != null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_ep_bind: a CQ is already bound for " +
                ((flags & Flags.FI_TRANSMIT) != 0 && txCq != null ? "FI_TRANSMIT" : "FI_RECV"));
        }
        final boolean selective = (flags & Flags.FI_SELECTIVE_COMPLETION) != 0;
        if ((flags & Flags.FI_TRANSMIT) != 0)
        {
            cq.retain("fi_ep_bind");
            txCq = cq;
            selectiveTx = selective;
        }
        if ((flags & Flags.FI_RECV) != 0)
        {
            cq.retain("fi_ep_bind");
            rxCq = cq;
            selectiveRx = selective;
        }
    }

    private void bindCounter(final ShmCounter c, final long flags)
    {
        final long known = Flags.FI_SEND | Flags.FI_RECV | Flags.FI_READ | Flags.FI_WRITE | Flags.FI_REMOTE_READ |
            Flags.FI_REMOTE_WRITE;
        if (flags == 0 || (flags & ~known) != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_ep_bind: counter flags 0x" + Long.toHexString(flags) +
                " must be a non-empty set of FI_SEND, FI_RECV, FI_READ, FI_WRITE, FI_REMOTE_READ, FI_REMOTE_WRITE");
        }
        if ((flags & Flags.FI_SEND) != 0)
        {
            sendCntr = swapCounter(sendCntr, c);
        }
        if ((flags & Flags.FI_RECV) != 0)
        {
            recvCntr = swapCounter(recvCntr, c);
        }
        if ((flags & Flags.FI_READ) != 0)
        {
            readCntr = swapCounter(readCntr, c);
        }
        if ((flags & Flags.FI_WRITE) != 0)
        {
            writeCntr = swapCounter(writeCntr, c);
        }
        if ((flags & Flags.FI_REMOTE_READ) != 0)
        {
            remoteReadCntr = swapCounter(remoteReadCntr, c);
        }
        if ((flags & Flags.FI_REMOTE_WRITE) != 0)
        {
            remoteWriteCntr = swapCounter(remoteWriteCntr, c);
        }
    }

    private static ShmCounter swapCounter(final ShmCounter old, final ShmCounter c)
    {
        c.retain("fi_ep_bind");
        if (old != null)
        {
            old.release();
        }
        return c;
    }

    @Override
    public synchronized void enable()
    {
        ensureOpen("fi_enable");
        if (state != OPEN)
        {
            return;
        }
        if (av == null)
        {
            throw new FabricException(Errno.FI_ENOAV, "fi_enable: no address vector is bound (fi_ep_bind an AV)");
        }
        final long caps = info.caps();
        final boolean sends = (caps & Flags.FI_SEND) != 0 || (caps & (Flags.FI_SEND | Flags.FI_RECV)) == 0;
        final boolean recvs = (caps & Flags.FI_RECV) != 0 || (caps & (Flags.FI_SEND | Flags.FI_RECV)) == 0;
        if (sends && txCq == null && sendCntr == null)
        {
            throw new FabricException(Errno.FI_ENOCQ,
                "fi_enable: the endpoint can send but no CQ (or counter) is bound with FI_TRANSMIT");
        }
        if (recvs && rxCq == null && recvCntr == null)
        {
            throw new FabricException(Errno.FI_ENOCQ,
                "fi_enable: the endpoint can receive but no CQ (or counter) is bound with FI_RECV");
        }
        final int n = geometry.slotCount();
        final int laneLength = RegionDescriptor.ringLength(geometry.rxRingBytes());
        outLanes = new RingBuffer[n];
        outOwnerOffset = new int[n];
        outStamp = new long[n];
        peerIncarnation = new int[n];
        inLanes = new RingBuffer[n];
        inOwnerOffset = new int[n];
        senderId = new long[n];
        delivery = new long[n];
        remaining = new long[n];
        active = new int[n];
        for (int i = 0; i < n; i++)
        {
            outLanes[i] = new OneToOneRingBuffer(
                new UnsafeBuffer(region, RegionDescriptor.laneOffset(geometry, i, slot), laneLength));
            outOwnerOffset[i] = SlotDescriptor.laneOwnerOffset(geometry, i, slot);
            inLanes[i] = new OneToOneRingBuffer(
                new UnsafeBuffer(region, RegionDescriptor.laneOffset(geometry, slot, i), laneLength));
            inOwnerOffset[i] = SlotDescriptor.laneOwnerOffset(geometry, slot, i);
            delivery[i] = ReceiveMatcher.DELIVERY_NONE;
        }
        final long txSize = info.txAttr() != null && info.txAttr().size() > 0 ? info.txAttr().size() : 1024;
        final long rxSize = info.rxAttr() != null && info.rxAttr().size() > 0 ? info.rxAttr().size() : 1024;
        blockedPeers = new long[(n + 63) >>> 6];
        destState = new long[av.entries()];
        destPeer = new int[av.entries()];
        java.util.Arrays.fill(destState, -1);
        pending = new PendingSends((int)Math.min(txSize, 1 << 16), Math.max(1, iovLimit()), n);
        matcher = new ReceiveMatcher((int)Math.min(rxSize, 1 << 20), UNEXPECTED_MESSAGES, UNEXPECTED_BYTES,
            directedRecv, resolver, completions);
        matcher.minMultiRecv(minMultiRecv);
        for (int i = 0; i < n; i++)
        {
            region.putLongOrdered(inOwnerOffset[i], 0);
        }
        statInline = SlotDescriptor.statOffset(geometry, slot, SlotDescriptor.STAT_INLINE_OFFSET);
        statSegmented = SlotDescriptor.statOffset(geometry, slot, SlotDescriptor.STAT_SEGMENTED_OFFSET);
        statClaimed = SlotDescriptor.statOffset(geometry, slot, SlotDescriptor.STAT_CLAIMED_OFFSET);
        statRendezvous = SlotDescriptor.statOffset(geometry, slot, SlotDescriptor.STAT_RENDEZVOUS_OFFSET);
        final int txOffset = RegionDescriptor.txRingOffset(geometry, slot);
        final int txLength = RegionDescriptor.ringLength(geometry.txRingBytes());
        region.setMemory(txOffset, txLength, (byte)0);
        txRing = new ManyToOneRingBuffer(new UnsafeBuffer(region, txOffset, txLength));
        ackRings = new RingBuffer[n];
        remote = shmDomain.remoteMemory();
        for (int stat = SlotDescriptor.STAT_INLINE_OFFSET; stat <= SlotDescriptor.STAT_CLAIMED_OFFSET; stat += 8)
        {
            region.putLongOrdered(SlotDescriptor.statOffset(geometry, slot, stat), 0);
        }
        region.putLongOrdered(SlotDescriptor.heartbeatOffset(geometry, slot), System.currentTimeMillis());
        region.putIntOrdered(SlotDescriptor.stateOffset(geometry, slot), SlotDescriptor.STATE_ACTIVE);
        if (txCq != null)
        {
            txCq.attach(this);
        }
        if (rxCq != null && rxCq != txCq)
        {
            rxCq.attach(this);
        }
        if (!hooks.automatic())
        {
            for (final ShmCounter c : counters())
            {
                if (c != null)
                {
                    c.attach(this);
                }
            }
        }
        state = ENABLED;
        hooks.enabled(this);
    }

    /** Unexpected messages an endpoint keeps (count). */
    public static final int UNEXPECTED_MESSAGES = 4096;
    /** Unexpected payload bytes an endpoint keeps. */
    public static final int UNEXPECTED_BYTES = 8 << 20;

    private int iovLimit()
    {
        return info.txAttr() != null && info.txAttr().iovLimit() > 0 ? (int)info.txAttr().iovLimit() : 4;
    }

    @Override
    public int getname(final byte[] addr)
    {
        ensureOpen("fi_getname");
        final byte[] name = name();
        if (addr == null || addr.length < name.length)
        {
            throw new FabricException(Errno.FI_ETOOSMALL, "fi_getname: the address needs " + name.length +
                " bytes, the buffer has " + (addr == null ? 0 : addr.length));
        }
        System.arraycopy(name, 0, addr, 0, name.length);
        return name.length;
    }

    @Override
    public byte[] getname()
    {
        ensureOpen("fi_getname");
        return name();
    }

    private byte[] name()
    {
        return ShmAddress.format(LocalHost.name(), slot, domainName, incarnation).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public synchronized void setname(final byte[] addr)
    {
        ensureOpen("fi_setname");
        if (state != OPEN)
        {
            throw new FabricException(Errno.FI_EOPBADSTATE, "fi_setname: the endpoint is already enabled");
        }
        if (addr == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_setname: addr is null");
        }
        int len = addr.length;
        while (len > 0 && addr[len - 1] == 0)
        {
            len--;
        }
        final ShmAddress a = ShmAddress.parse(new String(addr, 0, len, StandardCharsets.US_ASCII));
        if (a == null || !a.isLocal() || !domainName.equals(a.domain()))
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_setname: '" + new String(addr, 0, len,
                StandardCharsets.US_ASCII) + "' is not an address of this host's domain '" + domainName + "'");
        }
        if (a.slot() < 0 || a.slot() >= geometry.slotCount())
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_setname: slot " + a.slot() + " is not in [0, " +
                geometry.slotCount() + ")");
        }
        if (a.slot() == slot)
        {
            return;
        }
        final int old = slot;
        slot = claimSlot(a.slot());
        releaseSlot(old);
    }

    @Override
    public long getOpt(final int optName)
    {
        ensureOpen("fi_getopt");
        switch (optName)
        {
            case FI_OPT_MIN_MULTI_RECV:
                return matcher == null ? minMultiRecv : matcher.minMultiRecv();
            case FI_OPT_CM_DATA_SIZE:
                return 0;
            case FI_OPT_MAX_MSG_SIZE:
            case FI_OPT_MAX_TAGGED_SIZE:
                return maxMsgSize;
            case FI_OPT_INJECT_MSG_SIZE:
            case FI_OPT_INJECT_TAGGED_SIZE:
                return injectSize;
            default:
                throw new FabricException(Errno.FI_ENOPROTOOPT, "fi_getopt: option " + optName +
                    " is not an option of an shm endpoint");
        }
    }

    private long minMultiRecv = ReceiveMatcher.DEFAULT_MIN_MULTI_RECV;

    @Override
    public synchronized void setOpt(final int optName, final long value)
    {
        ensureOpen("fi_setopt");
        if (optName != FI_OPT_MIN_MULTI_RECV)
        {
            throw new FabricException(Errno.FI_ENOPROTOOPT, "fi_setopt: option " + optName +
                " cannot be set on an shm endpoint (FI_OPT_MIN_MULTI_RECV can)");
        }
        if (value < 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_setopt: FI_OPT_MIN_MULTI_RECV " + value + " is negative");
        }
        minMultiRecv = value;
        if (matcher != null)
        {
            matcher.minMultiRecv(value);
        }
    }

    @Override
    public Object domain()
    {
        return shmDomain;
    }

    @Override
    public synchronized void bindMemoryRegion(final ShmMemoryRegion mr)
    {
        ensureOpen("fi_mr_bind");
        mr.retain("fi_mr_bind");
        boundRegions.add(mr);
    }

    @Override
    public MessageClaim messageClaim()
    {
        return claim;
    }

    @Override
    protected String describe()
    {
        return "endpoint (slot " + slot + ")";
    }

    @Override
    protected void doClose()
    {
        hooks.closing(this);
        txGuard.lock();
        rxGuard.lock();
        try
        {
            state = CLOSED;
            releaseSlot(slot);
            if (matcher != null)
            {
                matcher.releaseBuffers();
            }
            if (txCq != null)
            {
                txCq.detach(this);
                txCq.release();
            }
            if (rxCq != null)
            {
                rxCq.detach(this);
                rxCq.release();
            }
            if (remote != null)
            {
                remote.close();
            }
            releaseIfBound(av);
            releaseIfBound(eq);
            for (final ShmMemoryRegion mr : boundRegions)
            {
                mr.release();
            }
            boundRegions.clear();
            for (final ShmCounter c : counters())
            {
                if (c != null)
                {
                    c.detach(this);
                    c.release();
                }
            }
        }
        finally
        {
            rxGuard.unlock();
            txGuard.unlock();
        }
        resources.release(DomainResources.Kind.ENDPOINT);
        domain.release();
    }

    private ShmCounter[] counters()
    {
        return new ShmCounter[] { sendCntr, recvCntr, readCntr, writeCntr, remoteReadCntr, remoteWriteCntr };
    }

    private static void releaseIfBound(final FidLifecycle f)
    {
        if (f != null)
        {
            f.release();
        }
    }

    // ------------------------------------------------------------------ transmit data path

    @Override
    public long send(final ByteBuffer buf, final int offset, final int len, final long desc, final long destAddr,
        final long context)
    {
        return sendOne(buf, offset, len, desc, destAddr, 0, 0, 0, txOpFlags, context, false);
    }

    @Override
    public long sendv(final Msg msg, final long destAddr, final long context)
    {
        return sendMany(msg, destAddr, 0, 0, 0, txOpFlags, context);
    }

    @Override
    public long sendmsg(final Msg msg, final long flags)
    {
        if (msg == null)
        {
            return -Errno.FI_EINVAL;
        }
        final int recordFlags = (flags & Flags.FI_REMOTE_CQ_DATA) != 0 ? FLAG_CQ_DATA : 0;
        return sendMany(msg, msg.addr, msg.tag, msg.data, recordFlags, flags, msg.context);
    }

    @Override
    public long inject(final ByteBuffer buf, final int offset, final int len, final long destAddr)
    {
        return sendOne(buf, offset, len, 0, destAddr, 0, 0, 0, Flags.FI_INJECT, 0, true);
    }

    @Override
    public long senddata(final ByteBuffer buf, final int offset, final int len, final long desc, final long data,
        final long destAddr, final long context)
    {
        return sendOne(buf, offset, len, desc, destAddr, 0, data, FLAG_CQ_DATA, txOpFlags, context, false);
    }

    @Override
    public long injectdata(final ByteBuffer buf, final int offset, final int len, final long data,
        final long destAddr)
    {
        return sendOne(buf, offset, len, 0, destAddr, 0, data, FLAG_CQ_DATA, Flags.FI_INJECT, 0, true);
    }

    @Override
    public long tsend(final ByteBuffer buf, final int offset, final int len, final long desc, final long destAddr,
        final long tag, final long context)
    {
        return sendOne(buf, offset, len, desc, destAddr, tag, 0, FLAG_TAGGED, txOpFlags, context, false);
    }

    @Override
    public long tsendv(final Msg msg, final long destAddr, final long tag, final long context)
    {
        return sendMany(msg, destAddr, tag, 0, FLAG_TAGGED, txOpFlags, context);
    }

    @Override
    public long tsendmsg(final Msg msg, final long flags)
    {
        if (msg == null)
        {
            return -Errno.FI_EINVAL;
        }
        final int recordFlags = FLAG_TAGGED | ((flags & Flags.FI_REMOTE_CQ_DATA) != 0 ? FLAG_CQ_DATA : 0);
        return sendMany(msg, msg.addr, msg.tag, msg.data, recordFlags, flags, msg.context);
    }

    @Override
    public long tinject(final ByteBuffer buf, final int offset, final int len, final long destAddr, final long tag)
    {
        return sendOne(buf, offset, len, 0, destAddr, tag, 0, FLAG_TAGGED, Flags.FI_INJECT, 0, true);
    }

    @Override
    public long tsenddata(final ByteBuffer buf, final int offset, final int len, final long desc, final long data,
        final long destAddr, final long tag, final long context)
    {
        return sendOne(buf, offset, len, desc, destAddr, tag, data, FLAG_TAGGED | FLAG_CQ_DATA, txOpFlags, context,
            false);
    }

    @Override
    public long tinjectdata(final ByteBuffer buf, final int offset, final int len, final long data,
        final long destAddr, final long tag)
    {
        return sendOne(buf, offset, len, 0, destAddr, tag, data, FLAG_TAGGED | FLAG_CQ_DATA, Flags.FI_INJECT, 0,
            true);
    }

    private long sendOne(
        final ByteBuffer buf, final int offset, final int len, final long desc, final long destAddr, final long tag,
        final long data, final int recordFlags, final long opFlags, final long context, final boolean inject)
    {
        final int unusable = unusable();
        if (unusable != 0)
        {
            return unusable;
        }
        if (invalidBuffer(buf, offset, len))
        {
            return -Errno.FI_EINVAL;
        }
        if (inject && len > injectSize || len > maxMsgSize)
        {
            return -Errno.FI_EMSGSIZE;
        }
        txGuard.lock();
        try
        {
            return sendLocked(null, buf, offset, desc, len, destAddr, tag, data, recordFlags, opFlags, context, inject);
        }
        finally
        {
            txGuard.unlock();
        }
    }

    private long sendMany(
        final Msg msg, final long destAddr, final long tag, final long data, final int recordFlags,
        final long opFlags, final long context)
    {
        final int unusable = unusable();
        if (unusable != 0)
        {
            return unusable;
        }
        if (msg == null || msg.iovCount < 0 || msg.iovCount > msg.iov.length || msg.iovCount > iovLimit())
        {
            return -Errno.FI_EINVAL;
        }
        long total = 0;
        for (int i = 0; i < msg.iovCount; i++)
        {
            if (invalidBuffer(msg.iov[i], msg.iovOffset[i], msg.iovLength[i]))
            {
                return -Errno.FI_EINVAL;
            }
            total += msg.iovLength[i];
        }
        final boolean inject = (opFlags & Flags.FI_INJECT) != 0;
        if (inject && total > injectSize || total > maxMsgSize)
        {
            return -Errno.FI_EMSGSIZE;
        }
        txGuard.lock();
        try
        {
            return sendLocked(msg, null, 0, 0, total, destAddr, tag, data, recordFlags, opFlags, context, inject);
        }
        finally
        {
            txGuard.unlock();
        }
    }

    /** @return 0 when the data path may be used, else the negated errno a call returns. */
    private int unusable()
    {
        final int s = state;
        return s == ENABLED ? 0 : s == CLOSED ? -Errno.FI_EBADF : -Errno.FI_EOPBADSTATE;
    }

    private static boolean invalidBuffer(final ByteBuffer buf, final int offset, final int len)
    {
        return len < 0 || (buf == null ? len != 0 : offset < 0 || offset > buf.capacity() - len);
    }

    /**
     * One send, arguments checked, transmit guard held: inline when it can, else queued behind the peer's lane.
     * The data is {@code msg}'s buffers, or, when {@code msg} is null, {@code buf} from {@code offset} (the single
     * buffer calls, which so allocate and copy no descriptor).
     */
    private long sendLocked(
        final Msg msg, final ByteBuffer buf, final int offset, final long desc, final long total,
        final long destAddr, final long tag, final long data, final int recordFlags, final long opFlags,
        final long context, final boolean inject)
    {
        final int peer = connect(destAddr);
        if (peer < 0)
        {
            return peer;
        }
        final boolean completion = wantsTxCompletion(opFlags, inject);
        if (completion && txCq != null && !txCq.hasRoom())
        {
            return -Errno.FI_EAGAIN;
        }
        final boolean deliveryAck = (opFlags & Flags.FI_DELIVERY_COMPLETE) != 0 && !inject;
        final boolean rendezvous = !inject && total >= rendezvousMin && (msg == null ?
            findRendezvous(desc, buf, offset, total) :
            msg.iovCount == 1 && findRendezvous(msg.desc[0], msg.iov[0], msg.iovOffset[0], total));
        if (total <= inlineLimit && !deliveryAck && !rendezvous && !pending.hasPendingFor(peer))
        {
            final int len = (int)total;
            final int index = claimRecord(peer, len, tag, data, recordFlags);
            if (index < 0)
            {
                return index;
            }
            final RingBuffer lane = outLanes[peer];
            final AtomicBuffer b = lane.buffer();
            if (msg == null)
            {
                if (len > 0)
                {
                    b.putBytes(index + PAYLOAD_OFFSET, buf, offset, len);
                }
            }
            else
            {
                int at = index + PAYLOAD_OFFSET;
                for (int i = 0; i < msg.iovCount; i++)
                {
                    final int l = msg.iovLength[i];
                    if (l > 0)
                    {
                        b.putBytes(at, msg.iov[i], msg.iovOffset[i], l);
                        at += l;
                    }
                }
            }
            lane.commit(index);
            count(statInline);
            sendCompleted(completion, context, recordFlags);
            return 0;
        }
        if (inject || !pending.hasRoom())
        {
            return -Errno.FI_EAGAIN;
        }
        final int op = pending.add(peer);
        final int base = op * pending.maxIov;
        if (msg == null)
        {
            pending.iov[base] = buf;
            pending.iovOffset[base] = offset;
            pending.iovLength[base] = (int)total;
            pending.iovCount[op] = 1;
        }
        else
        {
            for (int i = 0; i < msg.iovCount; i++)
            {
                pending.iov[base + i] = msg.iov[i];
                pending.iovOffset[base + i] = msg.iovOffset[i];
                pending.iovLength[base + i] = msg.iovLength[i];
            }
            pending.iovCount[op] = msg.iovCount;
        }
        if (rendezvous)
        {
            pending.rendezvous[op] = true;
            pending.rtsKey[op] = rendezvousKey;
            pending.rtsAddr[op] = rendezvousAddr;
        }
        pending.deliveryAck[op] = deliveryAck;
        queue(op, total, tag, data, recordFlags, context, completion);
        return 0;
    }

    /**
     * Claim a whole-message (MSG) record in the peer's lane and write its header.
     *
     * @return the record's body index, or a negated errno: FI_EAGAIN when the lane is full, FI_EHOSTUNREACH when
     * the peer's process is gone.
     */
    private int claimRecord(final int peer, final int len, final long tag, final long data, final int recordFlags)
    {
        final RingBuffer lane = outLanes[peer];
        final int index = lane.tryClaim(MSG, bodyLength(HEADER_LENGTH + len));
        if (index < 0)
        {
            return peerGone(peer) ? -Errno.FI_EHOSTUNREACH : -Errno.FI_EAGAIN;
        }
        final AtomicBuffer b = lane.buffer();
        b.putLong(index + TAG_OFFSET, tag);
        b.putLong(index + DATA_OFFSET, data);
        b.putInt(index + LENGTH_OFFSET, len);
        b.putInt(index + FLAGS_OFFSET, flagsWord(recordFlags, peerIncarnation[peer]));
        return index;
    }

    /**
     * Whether a send of at least {@code rendezvousMin} bytes can go by rendezvous (the peer copies the bytes once,
     * straight from registered shareable memory): when so, its key and address are left in {@link #rendezvousKey}
     * and {@link #rendezvousAddr}. Transmit guard held.
     */
    private boolean findRendezvous(final long desc, final ByteBuffer buf, final int offset, final long len)
    {
        if (desc == 0)
        {
            return false;
        }
        final ShmMemoryRegion mr = registrar.regionOf(desc);
        final long addr = mr == null ? -1 : mr.peerAddress(buf, offset, len);
        if (addr < 0)
        {
            return false;
        }
        rendezvousKey = mr.providerKey();
        rendezvousAddr = addr;
        return true;
    }

    private void queue(
        final int op, final long total, final long tag, final long data, final int recordFlags, final long context,
        final boolean completion)
    {
        pending.total[op] = total;
        pending.tag[op] = tag;
        pending.data[op] = data;
        pending.recordFlags[op] = recordFlags;
        pending.context[op] = context;
        pending.complete[op] = completion;
        pushPending();
    }

    private void count(final int statOffset)
    {
        region.putLongOrdered(statOffset, region.getLong(statOffset) + 1);
    }

    private boolean wantsTxCompletion(final long opFlags, final boolean inject)
    {
        if (inject || (opFlags & Flags.FI_INJECT) != 0)
        {
            return false;
        }
        return !selectiveTx || (opFlags & Flags.FI_COMPLETION) != 0;
    }

    private void sendCompleted(final boolean completion, final long context, final int recordFlags)
    {
        if (completion && txCq != null)
        {
            txCq.write(context, Flags.FI_SEND | ((recordFlags & FLAG_TAGGED) != 0 ? Flags.FI_TAGGED : Flags.FI_MSG),
                0, 0, 0, 0, Addresses.FI_ADDR_NOTAVAIL);
        }
        final ShmCounter c = sendCntr;
        if (c != null)
        {
            c.add(1);
        }
    }

    /**
     * Write as much of the queued sends as their lanes take, in order per peer. Transmit guard held.
     *
     * @return records written.
     */
    private int pushPending()
    {
        int work = 0;
        int previous = PendingSends.NONE;
        int op = pending.first();
        final long[] blocked = blockedPeers;
        java.util.Arrays.fill(blocked, 0);
        while (op != PendingSends.NONE)
        {
            final int peer = pending.peer[op];
            if (pending.awaitingAck[op] || (blocked[peer >>> 6] & (1L << peer)) != 0)
            {
                previous = op;
                op = pending.next(op);
                continue;
            }
            final int written = pushOne(op, peer);
            work += written;
            if (pending.awaitingAck[op])
            {
                previous = op;
                op = pending.next(op);
                continue;
            }
            if (pending.sent[op] == pending.total[op] && (pending.total[op] > 0 || written > 0) &&
                !pending.deliveryAck[op])
            {
                count(pending.total[op] <= inlineLimit ? statInline : statSegmented);
                sendCompleted(pending.complete[op], pending.context[op], pending.recordFlags[op]);
                op = pending.remove(op, previous);
            }
            else
            {
                blocked[peer >>> 6] |= 1L << peer;
                previous = op;
                op = pending.next(op);
            }
        }
        return work;
    }

    private int pushOne(final int op, final int peer)
    {
        final RingBuffer lane = outLanes[peer];
        final AtomicBuffer b = lane.buffer();
        final long total = pending.total[op];
        final int inc = peerIncarnation[peer];
        int written = 0;
        if (pending.rendezvous[op])
        {
            final int index = lane.tryClaim(RTS, bodyLength(RTS_LENGTH));
            if (index < 0)
            {
                return 0;
            }
            writeHeader(b, index, op, 0, inc);
            b.putLong(index + TOTAL_LENGTH_OFFSET, total);
            b.putLong(index + RTS_KEY_OFFSET, pending.rtsKey[op]);
            b.putLong(index + RTS_ADDR_OFFSET, pending.rtsAddr[op]);
            b.putLong(index + RTS_COOKIE_OFFSET, pending.cookie(op));
            lane.commit(index);
            pending.sent[op] = total;
            pending.awaitAck(op);
            return 1;
        }
        if (total <= inlineLimit && pending.sent[op] == 0)
        {
            final int len = (int)total;
            final int index = lane.tryClaim(MSG, bodyLength(HEADER_LENGTH + len));
            if (index < 0)
            {
                return 0;
            }
            writeHeader(b, index, op, len, inc);
            gather(b, index + PAYLOAD_OFFSET, op, 0, len);
            lane.commit(index);
            pending.sent[op] = total;
            written = 1;
        }
        while (pending.sent[op] < total)
        {
            final long sent = pending.sent[op];
            final boolean first = sent == 0;
            final int room = first ? pieceLimit : inlineLimit;
            final int len = (int)Math.min(room, total - sent);
            final int headerAndPayload = (first ? FIRST_PAYLOAD_OFFSET : PAYLOAD_OFFSET) + len;
            final int index = lane.tryClaim(first ? FIRST : PIECE, bodyLength(headerAndPayload));
            if (index < 0)
            {
                break;
            }
            writeHeader(b, index, op, len, inc);
            if (first)
            {
                b.putLong(index + TOTAL_LENGTH_OFFSET, total);
            }
            gather(b, index + (first ? FIRST_PAYLOAD_OFFSET : PAYLOAD_OFFSET), op, sent, len);
            lane.commit(index);
            pending.sent[op] = sent + len;
            written++;
        }
        if (pending.deliveryAck[op] && pending.sent[op] == total)
        {
            final int index = lane.tryClaim(ACK_REQUEST, bodyLength(ACK_REQUEST_LENGTH));
            if (index >= 0)
            {
                writeHeader(b, index, op, 0, inc);
                b.putLong(index + ACK_REQUEST_COOKIE_OFFSET, pending.cookie(op));
                lane.commit(index);
                pending.awaitAck(op);
                written++;
            }
        }
        return written;
    }

    private void writeHeader(final AtomicBuffer b, final int index, final int op, final int len, final int inc)
    {
        b.putLong(index + TAG_OFFSET, pending.tag[op]);
        b.putLong(index + DATA_OFFSET, pending.data[op]);
        b.putInt(index + LENGTH_OFFSET, len);
        b.putInt(index + FLAGS_OFFSET, flagsWord(pending.recordFlags[op], inc));
    }

    private void gather(final AtomicBuffer b, final int at, final int op, final long from, final int len)
    {
        final int base = op * pending.maxIov;
        long skip = from;
        int dst = at;
        int left = len;
        for (int i = 0; i < pending.iovCount[op] && left > 0; i++)
        {
            final int l = pending.iovLength[base + i];
            if (skip >= l)
            {
                skip -= l;
                continue;
            }
            final int n = (int)Math.min(l - skip, left);
            b.putBytes(dst, pending.iov[base + i], pending.iovOffset[base + i] + (int)skip, n);
            dst += n;
            left -= n;
            skip = 0;
        }
    }

    /**
     * Resolve a destination and make sure this endpoint may write its lane into the peer.
     *
     * @return the peer's slot, or a negated errno.
     */
    private int connect(final long destAddr)
    {
        final ShmAddressVector a = av;
        final int index = a.indexOf(destAddr);
        if (index < 0 || index >= destState.length)
        {
            return -Errno.FI_EINVAL;
        }
        final long entry = a.entryStateAt(index);
        int peer = destPeer[index];
        if (entry != destState[index] || entry == -1)
        {
            peer = a.slotOf(destAddr);
            if (peer < 0 || peer >= outLanes.length)
            {
                return -Errno.FI_EINVAL;
            }
            destPeer[index] = peer;
            destState[index] = entry;
            outStamp[peer] = 0;
        }
        final long stamp = outStamp[peer];
        if (stamp != 0 && region.getLongVolatile(outOwnerOffset[peer]) == stamp)
        {
            return peer;
        }
        return connectSlow(peer, a.incarnationOf(destAddr));
    }

    private int connectSlow(final int peer, final long wantedIncarnation)
    {
        outStamp[peer] = 0;
        final int peerState = region.getIntVolatile(SlotDescriptor.stateOffset(geometry, peer));
        final int inc = region.getIntVolatile(SlotDescriptor.incarnationOffset(geometry, peer));
        if (peerState == SlotDescriptor.STATE_CLAIMED)
        {
            return wantedIncarnation != 0 && wantedIncarnation != inc ? -Errno.FI_EHOSTUNREACH : -Errno.FI_EAGAIN;
        }
        if (peerState != SlotDescriptor.STATE_ACTIVE || wantedIncarnation > 0 && wantedIncarnation != inc ||
            peerGone(peer))
        {
            return -Errno.FI_EHOSTUNREACH;
        }
        final long want = SlotDescriptor.laneStamp(incarnation, inc);
        final int ownerOffset = outOwnerOffset[peer];
        final long current = region.getLongVolatile(ownerOffset);
        if (current != want)
        {
            if (current != 0 && SlotDescriptor.receiverIncarnation(current) == inc)
            {
                return -Errno.FI_EAGAIN;
            }
            if (!region.compareAndSetLong(ownerOffset, current, want))
            {
                return -Errno.FI_EAGAIN;
            }
        }
        peerIncarnation[peer] = inc;
        outStamp[peer] = want;
        return peer;
    }

    private boolean peerGone(final int peer)
    {
        final long owner = region.getLongVolatile(SlotDescriptor.ownerOffset(geometry, peer));
        return owner == 0 || liveness.isGone(peer, owner);
    }

    // ------------------------------------------------------------------ zero copy

    @Override
    public long claim(final long destAddr, final int length, final long tag, final long data, final long flags)
    {
        final int unusable = unusable();
        if (unusable != 0)
        {
            return unusable;
        }
        if (length < 0 || length > injectSize || (flags & ~(Flags.FI_TAGGED | Flags.FI_REMOTE_CQ_DATA)) != 0)
        {
            return -Errno.FI_EINVAL;
        }
        if (claim.lane != null)
        {
            return -Errno.FI_EBUSY;
        }
        txGuard.lock();
        try
        {
            final int peer = connect(destAddr);
            if (peer < 0)
            {
                return peer;
            }
            if (pending.hasPendingFor(peer))
            {
                return -Errno.FI_EAGAIN;
            }
            final int recordFlags = ((flags & Flags.FI_TAGGED) != 0 ? FLAG_TAGGED : 0) |
                ((flags & Flags.FI_REMOTE_CQ_DATA) != 0 ? FLAG_CQ_DATA : 0);
            final int index = claimRecord(peer, length, tag, data, recordFlags);
            if (index < 0)
            {
                return index;
            }
            final RingBuffer lane = outLanes[peer];
            final AtomicBuffer b = lane.buffer();
            claim.lane = lane;
            claim.index = index;
            claim.length = length;
            claim.offset = (int)(b.addressOffset() - region.addressOffset()) + index + PAYLOAD_OFFSET;
            return 0;
        }
        finally
        {
            txGuard.unlock();
        }
    }

    private final class LaneClaim implements MessageClaim
    {
        RingBuffer lane;
        int index;
        int offset;
        int length;

        @Override
        public ByteBuffer buffer()
        {
            return regionBytes;
        }

        @Override
        public int offset()
        {
            return offset;
        }

        @Override
        public int length()
        {
            return length;
        }

        @Override
        public long commit()
        {
            final RingBuffer l = lane;
            if (l == null)
            {
                return state == CLOSED ? -Errno.FI_EBADF : -Errno.FI_EINVAL;
            }
            lane = null;
            l.commit(index);
            count(statClaimed);
            final ShmCounter c = sendCntr;
            if (c != null)
            {
                c.add(1);
            }
            return 0;
        }

        @Override
        public long abort()
        {
            final RingBuffer l = lane;
            if (l == null)
            {
                return state == CLOSED ? -Errno.FI_EBADF : -Errno.FI_EINVAL;
            }
            lane = null;
            l.abort(index);
            return 0;
        }
    }

    // ------------------------------------------------------------------ receive data path

    @Override
    public long recv(final ByteBuffer buf, final int offset, final int len, final long desc, final long srcAddr,
        final long context)
    {
        return postOne(false, buf, offset, len, srcAddr, 0, 0, context, rxOpFlags);
    }

    @Override
    public long recvv(final Msg msg, final long srcAddr, final long context)
    {
        return postMany(false, msg, srcAddr, 0, 0, context, rxOpFlags);
    }

    @Override
    public long recvmsg(final Msg msg, final long flags)
    {
        if (msg == null)
        {
            return -Errno.FI_EINVAL;
        }
        return postMany(false, msg, msg.addr, 0, 0, msg.context, flags);
    }

    @Override
    public long trecv(final ByteBuffer buf, final int offset, final int len, final long desc, final long srcAddr,
        final long tag, final long ignore, final long context)
    {
        return postOne(true, buf, offset, len, srcAddr, tag, ignore, context, rxOpFlags & ~Flags.FI_MULTI_RECV);
    }

    @Override
    public long trecvv(final Msg msg, final long srcAddr, final long tag, final long ignore, final long context)
    {
        return postMany(true, msg, srcAddr, tag, ignore, context, rxOpFlags & ~Flags.FI_MULTI_RECV);
    }

    @Override
    public long trecvmsg(final Msg msg, final long flags)
    {
        if (msg == null)
        {
            return -Errno.FI_EINVAL;
        }
        return postMany(true, msg, msg.addr, msg.tag, msg.ignore, msg.context, flags);
    }

    private long postOne(
        final boolean tagged, final ByteBuffer buf, final int offset, final int len, final long srcAddr,
        final long tag, final long ignore, final long context, final long flags)
    {
        final int unusable = unusable();
        if (unusable != 0)
        {
            return unusable;
        }
        if (invalidBuffer(buf, offset, len))
        {
            return -Errno.FI_EINVAL;
        }
        rxGuard.lock();
        try
        {
            return matcher.post(tagged, buf, offset, len, directedRecv ? srcAddr : Addresses.FI_ADDR_UNSPEC, tag,
                ignore, context, flags);
        }
        finally
        {
            rxGuard.unlock();
        }
    }

    private long postMany(
        final boolean tagged, final Msg msg, final long srcAddr, final long tag, final long ignore,
        final long context, final long flags)
    {
        final int unusable = unusable();
        if (unusable != 0)
        {
            return unusable;
        }
        if (msg == null || msg.iovCount < 0 || msg.iovCount > msg.iov.length)
        {
            return -Errno.FI_EINVAL;
        }
        rxGuard.lock();
        try
        {
            return matcher.post(tagged, msg.iov, msg.iovOffset, msg.iovLength, msg.iovCount,
                directedRecv ? srcAddr : Addresses.FI_ADDR_UNSPEC, tag, ignore, context, flags);
        }
        finally
        {
            rxGuard.unlock();
        }
    }

    @Override
    public long cancel(final long context)
    {
        final int unusable = unusable();
        if (unusable != 0)
        {
            return unusable;
        }
        rxGuard.lock();
        try
        {
            return matcher.cancel(context);
        }
        finally
        {
            rxGuard.unlock();
        }
    }

    // ------------------------------------------------------------------ progress

    @Override
    public int progress()
    {
        if (state != ENABLED)
        {
            return 0;
        }
        int work = 0;
        if (pending.size() > 0 && txGuard.tryLock())
        {
            try
            {
                if (state == ENABLED)
                {
                    work += txRing.read(acks, READ_LIMIT);
                    work += pushPending();
                }
            }
            finally
            {
                txGuard.unlock();
            }
        }
        if (!rxGuard.tryLock())
        {
            return work;
        }
        try
        {
            if (state != ENABLED)
            {
                return work;
            }
            if (--rescanCountdown <= 0)
            {
                rescan();
                rescanCountdown = activeCount == 0 ? IDLE_RESCAN_PERIOD : RESCAN_PERIOD;
            }
            final InboundHandler handler = inbound;
            for (int i = 0; i < activeCount; i++)
            {
                final int s = active[i];
                handler.sender = s;
                work += inLanes[s].controlledRead(handler, READ_LIMIT);
            }
            return work;
        }
        finally
        {
            rxGuard.unlock();
        }
    }

    /** Find the lanes that have a sender, and free those whose sender is gone and that are drained. */
    private void rescan()
    {
        int n = 0;
        for (int s = 0; s < inLanes.length; s++)
        {
            final long owner = region.getLongVolatile(inOwnerOffset[s]);
            if (owner == 0 || SlotDescriptor.receiverIncarnation(owner) != incarnation)
            {
                continue;
            }
            final int senderInc = SlotDescriptor.senderIncarnation(owner);
            senderId[s] = ((long)s << 32) | (senderInc & 0xFFFF_FFFFL);
            final RingBuffer lane = inLanes[s];
            if (lane.producerPosition() != lane.consumerPosition())
            {
                if (LaneRecovery.headIsAbandoned(lane) && senderGone(s, senderInc))
                {
                    LaneRecovery.discardAbandoned(lane);
                }
            }
            if (lane.producerPosition() == lane.consumerPosition() && senderGone(s, senderInc))
            {
                if (delivery[s] != ReceiveMatcher.DELIVERY_NONE)
                {
                    // the sender died or closed part-way through a message and no piece of it is left in the lane
                    matcher.abort(delivery[s], Errno.FI_EIO);
                    delivery[s] = ReceiveMatcher.DELIVERY_NONE;
                }
                region.compareAndSetLong(inOwnerOffset[s], owner, 0);
                continue;
            }
            active[n++] = s;
        }
        activeCount = n;
    }

    private boolean senderGone(final int s, final int senderInc)
    {
        final int inc = region.getIntVolatile(SlotDescriptor.incarnationOffset(geometry, s));
        final int st = region.getIntVolatile(SlotDescriptor.stateOffset(geometry, s));
        if (inc != senderInc || st == SlotDescriptor.STATE_FREE)
        {
            return true;
        }
        final long owner = region.getLongVolatile(SlotDescriptor.ownerOffset(geometry, s));
        return owner == 0 || liveness.isGone(s, owner);
    }

    private final class InboundHandler implements ControlledMessageHandler
    {
        int sender;

        @Override
        public Action onMessage(final int msgTypeId, final MutableDirectBuffer b, final int index, final int length)
        {
            final int flagsWord = b.getInt(index + FLAGS_OFFSET);
            if (!isFor(flagsWord, incarnation))
            {
                return Action.CONTINUE;
            }
            final int s = sender;
            final int len = b.getInt(index + LENGTH_OFFSET);
            if (length < HEADER_LENGTH || len < 0 ||
                len > length - (msgTypeId == FIRST ? FIRST_PAYLOAD_OFFSET : PAYLOAD_OFFSET))
            {
                return Action.CONTINUE; // a damaged record: its length says more than the record holds; never read it
            }
            if (msgTypeId == PIECE)
            {
                final long d = delivery[s];
                if (d == ReceiveMatcher.DELIVERY_NONE)
                {
                    return Action.CONTINUE;
                }
                matcher.write(d, b, index + PAYLOAD_OFFSET, len);
                final long left = remaining[s] - len;
                remaining[s] = left;
                if (left <= 0)
                {
                    delivery[s] = ReceiveMatcher.DELIVERY_NONE;
                    matcher.end(d);
                }
                return Action.CONTINUE;
            }
            if (rxCq != null && !rxCq.hasRoom())
            {
                return Action.ABORT;
            }
            final int f = flags(flagsWord);
            final boolean tagged = (f & FLAG_TAGGED) != 0;
            final long msgFlags = (f & FLAG_CQ_DATA) != 0 ? Flags.FI_REMOTE_CQ_DATA : 0;
            final long tag = b.getLong(index + TAG_OFFSET);
            final long data = b.getLong(index + DATA_OFFSET);
            if (msgTypeId == MSG)
            {
                return matcher.deliver(senderId[s], tagged, tag, data, msgFlags, b, index + PAYLOAD_OFFSET, len) ?
                    Action.CONTINUE : Action.ABORT;
            }
            if (msgTypeId == ACK_REQUEST)
            {
                acknowledge(s, b.getLong(index + ACK_REQUEST_COOKIE_OFFSET), 0);
                return Action.CONTINUE;
            }
            if (msgTypeId == RTS)
            {
                final long total = b.getLong(index + TOTAL_LENGTH_OFFSET);
                final long d = matcher.begin(senderId[s], tagged, tag, data, msgFlags, total);
                if (d == ReceiveMatcher.DELIVERY_NONE)
                {
                    return Action.ABORT;
                }
                final RendezvousReader r = rendezvousReader;
                r.delivery = d;
                final int status = total > Integer.MAX_VALUE ? -Errno.FI_EMSGSIZE :
                    remote.readTo(b.getLong(index + RTS_KEY_OFFSET), b.getLong(index + RTS_ADDR_OFFSET), (int)total, r);
                matcher.end(d);
                acknowledge(s, b.getLong(index + RTS_COOKIE_OFFSET), status);
                return Action.CONTINUE;
            }
            if (msgTypeId == FIRST)
            {
                final long total = b.getLong(index + TOTAL_LENGTH_OFFSET);
                final long d = matcher.begin(senderId[s], tagged, tag, data, msgFlags, total);
                if (d == ReceiveMatcher.DELIVERY_NONE)
                {
                    return Action.ABORT;
                }
                matcher.write(d, b, index + FIRST_PAYLOAD_OFFSET, len);
                final long left = total - len;
                if (left <= 0)
                {
                    matcher.end(d);
                }
                else
                {
                    delivery[s] = d;
                    remaining[s] = left;
                }
                return Action.CONTINUE;
            }
            return Action.CONTINUE;
        }
    }

    private void acknowledge(final int sender, final long cookie, final int status)
    {
        RingBuffer ring = ackRings[sender];
        if (ring == null)
        {
            final int offset = RegionDescriptor.txRingOffset(geometry, sender);
            ring = new ManyToOneRingBuffer(
                new UnsafeBuffer(region, offset, RegionDescriptor.ringLength(geometry.txRingBytes())));
            ackRings[sender] = ring;
        }
        for (int attempt = 0; attempt < 1000; attempt++)
        {
            final int index = ring.tryClaim(TxRecordDescriptor.ACK, TxRecordDescriptor.ACK_LENGTH);
            if (index > 0)
            {
                final AtomicBuffer b = ring.buffer();
                b.putLong(index + TxRecordDescriptor.COOKIE_OFFSET, cookie);
                b.putInt(index + TxRecordDescriptor.STATUS_OFFSET, status);
                b.putInt(index + TxRecordDescriptor.INCARNATION_OFFSET, (int)senderId[sender]);
                ring.commit(index);
                return;
            }
            Thread.onSpinWait();
        }
    }

    /** Hands a peer's shareable bytes straight to the matcher: the one copy of a rendezvous. */
    private final class RendezvousReader implements RemoteMemory.SegmentReader
    {
        long delivery;

        @Override
        public void read(final DirectBuffer memory, final int index, final int length)
        {
            matcher.write(delivery, memory, index, length);
        }
    }

    /** Completes rendezvous sends as their receivers acknowledge them. Transmit guard held. */
    private final class AckHandler implements org.agrona.concurrent.MessageHandler
    {
        @Override
        public void onMessage(final int msgTypeId, final MutableDirectBuffer b, final int index, final int length)
        {
            if (msgTypeId != TxRecordDescriptor.ACK ||
                b.getInt(index + TxRecordDescriptor.INCARNATION_OFFSET) != incarnation)
            {
                return;
            }
            final int op = pending.ofCookie(b.getLong(index + TxRecordDescriptor.COOKIE_OFFSET));
            if (op == PendingSends.NONE)
            {
                return;
            }
            final int status = b.getInt(index + TxRecordDescriptor.STATUS_OFFSET);
            if (status == 0)
            {
                count(pending.rendezvous[op] ? statRendezvous :
                    pending.total[op] <= inlineLimit ? statInline : statSegmented);
                sendCompleted(pending.complete[op], pending.context[op], pending.recordFlags[op]);
            }
            else
            {
                if (txCq != null)
                {
                    txCq.writeError(pending.context[op], Flags.FI_SEND | ((pending.recordFlags[op] & FLAG_TAGGED) != 0 ?
                        Flags.FI_TAGGED : Flags.FI_MSG), 0, 0, 0, pending.tag[op], 0, -status,
                        Addresses.FI_ADDR_NOTAVAIL);
                }
                if (sendCntr != null)
                {
                    sendCntr.addErr(1);
                }
            }
            pending.removeAnywhere(op);
        }
    }

    private final class Completions implements RecvCompletionSink
    {
        @Override
        public boolean wantsSource()
        {
            return rxCq != null && rxCq.needsSource();
        }

        @Override
        public void complete(
            final long context, final long opFlags, final long cqFlags, final long len, final long bufOffset,
            final long data, final long tag, final long srcAddr)
        {
            if (rxCq != null && (!selectiveRx || (opFlags & Flags.FI_COMPLETION) != 0 ||
                (cqFlags & (Flags.FI_PEEK | Flags.FI_MULTI_RECV)) != 0))
            {
                rxCq.write(context, cqFlags, len, bufOffset, data, tag, srcAddr);
            }
            final ShmCounter c = recvCntr;
            if (c != null && (cqFlags & Flags.FI_PEEK) == 0)
            {
                c.add(1);
            }
        }

        @Override
        public void error(
            final long context, final long cqFlags, final long len, final long bufOffset, final long data,
            final long tag, final long olen, final int errno, final long srcAddr)
        {
            if (rxCq != null)
            {
                rxCq.writeError(context, cqFlags, len, bufOffset, data, tag, olen, errno, srcAddr);
            }
            final ShmCounter c = recvCntr;
            if (c != null)
            {
                c.addErr(1);
            }
        }
    }

    /**
     * Maps a sender to its fi_addr in the bound AV (or, with FI_AV_USER_ID, to that entry's user id), remembering per
     * sender slot which entry it is while the entry's state word is unchanged. The user id is read each time:
     * fi_av_set_user_id changes it without changing the state word.
     */
    private final class Resolver implements AddressResolver
    {
        private final long[] cachedId = new long[geometry.slotCount()];
        private final long[] cachedAddr = new long[geometry.slotCount()];
        private final long[] cachedState = new long[geometry.slotCount()];

        @Override
        public long fiAddrOf(final long id)
        {
            final ShmAddressVector a = av;
            final int s = (int)(id >>> 32);
            if (s < 0 || s >= cachedId.length)
            {
                return Addresses.FI_ADDR_NOTAVAIL;
            }
            final long cached = cachedAddr[s];
            if (cachedId[s] == id && cached != Addresses.FI_ADDR_NOTAVAIL && a.entryState(cached) == cachedState[s])
            {
                return userIdOrAddr(a, cached);
            }
            final long inc = id & 0xFFFF_FFFFL;
            final long base = a.mapAddr();
            final int entries = a.entries();
            for (int i = 0; i < entries; i++)
            {
                final long fiAddr = base + i;
                if (a.slotOf(fiAddr) == s)
                {
                    final long gen = a.incarnationOf(fiAddr);
                    if (gen == 0 || gen == inc)
                    {
                        final long state = a.entryState(fiAddr);
                        final long result = userIdOrAddr(a, fiAddr);
                        if (a.entryState(fiAddr) == state)
                        {
                            cachedId[s] = id;
                            cachedAddr[s] = fiAddr;
                            cachedState[s] = state;
                        }
                        return result;
                    }
                }
            }
            return Addresses.FI_ADDR_NOTAVAIL;
        }

        private long userIdOrAddr(final ShmAddressVector a, final long fiAddr)
        {
            return avUserIds ? a.userId(fiAddr) : fiAddr;
        }
    }
}
