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
package io.jfabric.shm.ep;

import io.jfabric.Addresses;
import io.jfabric.EpType;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MessageClaim;
import io.jfabric.shm.av.AuthKeys;
import io.jfabric.shm.av.ShmAddress;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.DomainResources;
import io.jfabric.shm.core.FidLifecycle;
import io.jfabric.shm.core.LocalHost;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.core.ShmCapabilities;
import io.jfabric.shm.liveness.EndpointDamage;
import io.jfabric.shm.liveness.Heartbeats;
import io.jfabric.shm.liveness.SlotHeaderWatch;
import io.jfabric.shm.match.ReceiveMatcher;
import io.jfabric.shm.mr.MemoryRegistrar;
import io.jfabric.shm.mr.MrEndpoint;
import io.jfabric.shm.progress.ThreadingGuards;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.rma.EmulatedRequest;
import io.jfabric.shm.rma.RmaInitiator;
import io.jfabric.shm.rx.RxContext;
import io.jfabric.shm.rx.RxParams;
import io.jfabric.shm.rx.SourceErrors;
import io.jfabric.shm.tx.LaneClaim;
import io.jfabric.shm.tx.TxContext;
import io.jfabric.shm.tx.TxParams;

import org.agrona.concurrent.AtomicBuffer;

import java.nio.charset.StandardCharsets;

import static io.jfabric.shm.lane.LaneRecordDescriptor.FLAG_CQ_DATA;
import static io.jfabric.shm.lane.LaneRecordDescriptor.FLAG_TAGGED;

/**
 * The shm provider's reliable datagram endpoint (FI_EP_RDM): fi_endpoint(3), fi_msg(3), fi_tagged(3) and a
 * zero-copy claim.
 * <p>
 * The endpoint holds one slot of the domain region from open to close. It is the shell: lifecycle, bindings,
 * names, options here, and the data-path entry points ({@link EndpointDataPath}, which it extends), which check their
 * arguments and hand over to its
 * {@link TxContext transmit context} (destinations, the lanes into peers, queued sends, acknowledgements) and its
 * {@link RxContext receive context} (the lanes from peers, matching, receive completions). Both are made at
 * {@link #enable}.
 * <p>
 * Threads: control calls are synchronized. The data path follows the domain's threading model; which guards are
 * real is decided in one place, {@link ThreadingGuards}, and each context says what it guards. {@link #progress}
 * may be called by any thread (CQ and counter reads, a progress agent). {@link #close} waits until no send, post
 * or progress is inside either context.
 * <p>
 * Faults: a region whose file another process truncated faults on access (SIGBUS, raised by the JVM as an
 * {@link InternalError}). Each data-path entry point catches it around its whole body, marks the region unusable
 * ({@link RegionFile#faulted}) and answers {@code -FI_EIO}, as every call does from then on. The region's watch
 * usually sees the truncation first (see {@code RegionWatch}).
 */
public final class ShmEndpoint extends EndpointDataPath
    implements MrEndpoint, EndpointBindings.SharedReceiveContext
{
    /**
     * The scalable endpoint a context endpoint serves ({@link #serve}): told when the context is enabled (a receive
     * context becomes reachable through the address slot) and when it starts closing.
     */
    interface ScalableParent
    {
        /**
         * @param context the context, just enabled.
         */
        void contextEnabled(ShmEndpoint context);

        /**
         * @param context the context, about to release its slot.
         */
        void contextClosing(ShmEndpoint context);
    }

    private static final boolean BROKEN_PUBLISHED_BEFORE_BUILT =
        BrokenVariant.active("sep.rx-published-before-built");
    private static final boolean BROKEN_TX_FROM_ADDRESS_SLOT = BrokenVariant.active("sep.tx-from-address-slot");
    private static final boolean BROKEN_REMOTE_COUNTERS_LATE =
        BrokenVariant.active("cntr.remote-published-after-active");

    private final DomainContext domain;
    private final MemoryRegistrar registrar;
    private final DomainResources resources;
    private final Info info;
    private final String domainName;
    private final AtomicBuffer region;
    private final RegionGeometry geometry;
    private final ShmConfig config;
    private final boolean directedRecv;
    private final ThreadingGuards guards;
    private final EndpointHooks hooks;
    /** The scalable endpoint this endpoint is a context of, or null. */
    private ScalableParent parent;
    /** {@link SlotDescriptor#slotWord} of the parent's address slot, when there is a parent. */
    private long parentWord;

    private int slot;
    private int incarnation;
    private long minMultiRecv = ReceiveMatcher.DEFAULT_MIN_MULTI_RECV;
    private final EndpointBindings bindings;
    private final java.util.List<FidLifecycle> boundRegions = new java.util.ArrayList<>();

    private final LaneClaim claim;
    private final EndpointSlots slots;
    private Heartbeats.Registration heartbeat;

    /**
     * Open an endpoint, a context of a scalable endpoint ({@code fidClass} TX_CTX or RX_CTX, then {@link #serve}
     * names the scalable endpoint) or a shared receive context (SRX_CTX), and claim a slot for it. What the domain
     * offers (region, settings, ep_cnt accounting, name) is read from it, as Aeron's conductor reads its context.
     *
     * @param domain    the domain, retained until close.
     * @param registrar the domain's memory registrar (rendezvous sends find their source's region through it).
     * @param info      the info (ep_attr type RDM).
     * @param guards    the guards the domain's threading model and progress mode need.
     * @param hooks     what the domain does at enable and close (automatic progress registration).
     * @param context   user context.
     * @param fidClass  EP, TX_CTX, RX_CTX or SRX_CTX.
     */
    public ShmEndpoint(
        final DomainContext domain,
        final MemoryRegistrar registrar,
        final Info info,
        final ThreadingGuards guards,
        final EndpointHooks hooks,
        final long context,
        final FidClass fidClass)
    {
        super(fidClass, context, info, domain);
        final Info copy = info.copy();
        final EpType type = copy.epAttr() == null ? EpType.RDM : copy.epAttr().type();
        if (type != EpType.RDM && type != EpType.UNSPEC)
        {
            throw new FabricException(Errno.FI_EINVAL,
                "fi_endpoint: ep_attr.type " + type + " is not supported; the shm provider offers FI_EP_RDM");
        }
        this.domain = domain;
        this.registrar = registrar;
        this.resources = domain.resources();
        this.info = copy;
        this.domainName = domain.attr().name();
        this.region = regionFile.buffer();
        this.geometry = regionFile.geometry();
        this.config = domain.config();
        this.hooks = hooks;
        this.guards = guards;
        final boolean txShared = copy.epAttr() != null && copy.epAttr().txCtxCnt() == Addresses.FI_SHARED_CONTEXT;
        final boolean rxShared = copy.epAttr() != null && copy.epAttr().rxCtxCnt() == Addresses.FI_SHARED_CONTEXT;
        this.bindings = new EndpointBindings(domain.fid(), txShared, rxShared,
            (copy.caps() & Flags.FI_RMA_EVENT) != 0);
        claim = new LaneClaim(regionFile);
        slots = new EndpointSlots(region, geometry);
        final long caps = copy.caps();
        directedRecv = (caps & Flags.FI_DIRECTED_RECV) != 0 ||
            (copy.rxAttr() != null && (copy.rxAttr().caps() & Flags.FI_DIRECTED_RECV) != 0);

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
        final int claimed = wanted < 0 ? slots.claimAny("fi_endpoint", domainName) : slots.claim(wanted);
        if (claimed < 0)
        {
            throw new FabricException(Errno.FI_EADDRINUSE, "fi_setname: slot " + wanted + " of domain '" +
                domainName + "' is held by " + ProcessIdentity.describe(slots.owner(wanted)));
        }
        incarnation = slots.incarnation(claimed);
        return claimed;
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

    /**
     * @return the most bytes one emulated one-sided operation moves (an RMA to or from memory the target registered
     * but no peer can map; an atomic's operands plus compare values, and its results): larger ones return
     * {@code -FI_EMSGSIZE}. 8016 with the default 64 KiB lanes ({@code TxContext.emulatedLimit}).
     */
    public int emulatedLimit()
    {
        return EmulatedRequest.limit(geometry);
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
        bindings.bind(fid, flags);
    }

    @Override
    public synchronized void enable()
    {
        ensureOpen("fi_enable");
        if (state != OPEN)
        {
            return;
        }
        final EndpointBindings b = bindings;
        final ShmAddressVector av = b.av;
        final boolean srx = fidClass() == FidClass.SRX_CTX;
        if (av == null && srx)
        {
            return; // a shared receive context is enabled by the first endpoint bound to it (sharedReceive)
        }
        if (av == null)
        {
            throw new FabricException(Errno.FI_ENOAV, "fi_enable: no address vector is bound (fi_ep_bind an AV)");
        }
        b.requireSharedContexts(describe());
        final RxContext sharedRx = b.srx == null ? null : b.srx.sharedReceive(av);
        final long caps = info.caps();
        final boolean sends = (caps & Flags.FI_SEND) != 0 || (caps & (Flags.FI_SEND | Flags.FI_RECV)) == 0;
        final boolean recvs = (caps & Flags.FI_RECV) != 0 || (caps & (Flags.FI_SEND | Flags.FI_RECV)) == 0;
        if (sends && b.txCq == null && b.sendCntr == null)
        {
            throw new FabricException(Errno.FI_ENOCQ,
                "fi_enable: the endpoint can send but no CQ (or counter) is bound with FI_TRANSMIT");
        }
        if (recvs && b.rxCq == null && b.recvCntr == null && !srx)
        {
            throw new FabricException(Errno.FI_ENOCQ,
                "fi_enable: the endpoint can receive but no CQ (or counter) is bound with FI_RECV");
        }
        final long txSize = info.txAttr() != null && info.txAttr().size() > 0 ? info.txAttr().size() : 1024;
        final long rxSize = info.rxAttr() != null && info.rxAttr().size() > 0 ? info.rxAttr().size() : 1024;
        final SourceErrors sourceErrors = SourceErrors.of(info, domainName, domain.attr().maxErrData());
        final EndpointKeys keys = b.holdKeys(EndpointKeys.enable(domain.attr(), info, av,
            ShmCapabilities.keysIgnored(domain.fabric().attr().apiVersion())));
        for (int stat = SlotDescriptor.STAT_INLINE_OFFSET; stat <= SlotDescriptor.STAT_DAMAGED_OFFSET; stat += 8)
        {
            region.putLongOrdered(SlotDescriptor.statOffset(geometry, slot, stat), 0);
        }
        AuthKeys.publish(region, geometry, slot, keys.accepted());
        if (!BROKEN_REMOTE_COUNTERS_LATE)
        {
            slots.publishRemoteCounters(slot, EndpointBindings.plusOne(b.remoteReadCntr),
                EndpointBindings.plusOne(b.remoteWriteCntr));
        }
        // Broken variant: a context made reachable (slot ACTIVE, entry in its scalable endpoint) before it is built.
        final boolean publishFirst = BROKEN_PUBLISHED_BEFORE_BUILT && parent != null;
        if (publishFirst)
        {
            heartbeat = Heartbeats.register(new SlotHeaderWatch(region, geometry, slot, b.eq, this));
            slots.activate(slot);
            parent.contextEnabled(this);
        }
        // Broken variant: a transmit context sending from its scalable endpoint's address slot, whose lanes have
        // one producer, shares them with every other transmit context of that endpoint.
        final boolean fromAddressSlot = BROKEN_TX_FROM_ADDRESS_SLOT && parent != null &&
            fidClass() == FidClass.TX_CTX;
        final TxParams t = new TxParams();
        t.region = region;
        t.geometry = geometry;
        t.slot = fromAddressSlot ? SlotDescriptor.wordSlot(parentWord) : slot;
        t.incarnation = fromAddressSlot ? SlotDescriptor.wordIncarnation(parentWord) : incarnation;
        t.av = av;
        t.registrar = registrar;
        t.cq = b.txCq;
        t.selective = b.selectiveTx;
        t.counter = b.sendCntr;
        t.rendezvousMin = config.rendezvousMin();
        t.livenessTimeoutMs = config.livenessTimeoutMs();
        t.checksum = config.checksum();
        t.size = (int)Math.min(txSize, 1 << 16);
        t.iovLimit = iovLimit;
        t.sendGuard = guards.sendGuard();
        t.progressGuard = guards.progressGuard();
        t.claim = claim;
        t.authDigest = keys.digest();
        t.authKeysFromAv = keys.fromAv();
        t.damage = new EndpointDamage(b.eq, this, slot, geometry.slotCount());
        t.rma = new RmaInitiator(registrar, b.txCq, b.readCntr, b.writeCntr, av, keys.digest(), keys.fromAv());
        tx = new TxContext(t);
        final RxParams r = new RxParams();
        r.region = region;
        r.geometry = geometry;
        r.slot = slot;
        r.incarnation = incarnation;
        r.av = av;
        r.cq = b.rxCq;
        r.selective = b.selectiveRx;
        r.counter = b.recvCntr;
        r.remote = registrar.endpointRemoteMemory();
        r.size = (int)Math.min(rxSize, 1 << 20);
        r.unexpectedCount = config.unexpectedCount();
        r.unexpectedBytes = config.unexpectedBytes();
        r.preallocate = config.unexpectedPreallocate();
        r.directedRecv = directedRecv;
        r.minMultiRecv = minMultiRecv;
        r.guard = guards.receiveGuard();
        r.livenessTimeoutMs = config.livenessTimeoutMs();
        r.eq = b.eq;
        r.endpoint = this;
        r.local = registrar.localRegions();
        r.sourceErrors = sourceErrors;
        rx = new RxContext(r, sharedRx);
        if (!publishFirst)
        {
            heartbeat = Heartbeats.register(new SlotHeaderWatch(region, geometry, slot, b.eq, this));
            slots.activate(slot);
        }
        if (b.txCq != null)
        {
            b.txCq.attach(this);
        }
        if (b.rxCq != null && b.rxCq != b.txCq)
        {
            b.rxCq.attach(this);
        }
        if (!hooks.automatic())
        {
            for (final ShmCounter c : b.counters())
            {
                if (c != null)
                {
                    c.attach(this);
                }
            }
        }
        // Broken variant: the remote counter words written after ACTIVE, once the counters are attached: an
        // initiator that saw ACTIVE may read a 0 word and count nothing.
        if (BROKEN_REMOTE_COUNTERS_LATE)
        {
            slots.publishRemoteCounters(slot, EndpointBindings.plusOne(b.remoteReadCntr),
                EndpointBindings.plusOne(b.remoteWriteCntr));
        }
        state = ENABLED;
        hooks.enabled(this);
        if (parent != null && !publishFirst)
        {
            parent.contextEnabled(this);
        }
    }

    /**
     * The receive side of this shared receive context, for an endpoint bound to it that is being enabled; the first
     * such endpoint enables it with its AV (endpoints that share a receive context share their AV, fi_endpoint(3)).
     *
     * @param av the enabling endpoint's AV.
     * @return the receive context whose matcher and guard the endpoint uses.
     */
    @Override
    public synchronized RxContext sharedReceive(final ShmAddressVector av)
    {
        ensureOpen("fi_enable");
        if (state == OPEN)
        {
            bindings.bind(av, 0);
            enable();
        }
        if (bindings.av != av)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_enable: endpoints that share a receive context must " +
                "share their AV (fi_endpoint(3)); this one is bound to another AV than the first");
        }
        return rx;
    }

    /**
     * Make this endpoint a context of a scalable endpoint: its slot names the scalable endpoint's address slot, so
     * receivers report its sends with that address, and {@link #getname} gives that address. Right after open.
     *
     * @param sep  the scalable endpoint.
     * @param word {@link SlotDescriptor#slotWord} of the scalable endpoint's address slot.
     */
    synchronized void serve(final ScalableParent sep, final long word)
    {
        parent = sep;
        parentWord = word;
        slots.serveContext(slot, word);
    }

    /** @return whether {@link #enable} has run (and close has not). */
    public boolean isEnabled()
    {
        return state == ENABLED;
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
        final int addressSlot = parent == null ? slot : SlotDescriptor.wordSlot(parentWord);
        final int addressIncarnation = parent == null ? incarnation : SlotDescriptor.wordIncarnation(parentWord);
        return ShmAddress.format(LocalHost.name(), addressSlot, domainName, addressIncarnation)
            .getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public synchronized void setname(final byte[] addr)
    {
        ensureOpen("fi_setname");
        if (parent != null)
        {
            throw new FabricException(Errno.FI_EINVAL,
                "fi_setname: a context of a scalable endpoint has that endpoint's address; it cannot be renamed");
        }
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
        slots.release(old);
    }

    @Override
    public long getOpt(final int optName)
    {
        ensureOpen("fi_getopt");
        switch (optName)
        {
            case FI_OPT_MIN_MULTI_RECV:
                return rx == null ? minMultiRecv : rx.matcher().minMultiRecv();
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
        if (rx != null)
        {
            rx.minMultiRecv(value);
        }
    }

    @Override
    public Object domain()
    {
        return domain;
    }

    /** @return the endpoint's domain as a fid (for the same-domain checks of bindings). */
    @Override
    public FidLifecycle domainFid()
    {
        return domain.fid();
    }

    @Override
    public synchronized void bindMemoryRegion(final FidLifecycle mr)
    {
        ensureOpen("fi_mr_bind");
        final long mrCnt = domain.attr().mrCnt();
        if (!registrar.countsPerDomain() && boundRegions.size() >= mrCnt)
        {
            throw new FabricException(Errno.FI_ENOSPC, "fi_mr_bind: the endpoint already has " + boundRegions.size() +
                " of the " + mrCnt + " regions mr_cnt allows each endpoint under FI_MR_ENDPOINT; close one or open " +
                "the domain with a higher mr_cnt");
        }
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
        final FidClass c = fidClass();
        return (c == FidClass.SRX_CTX ? "shared receive context" : c == FidClass.TX_CTX ? "transmit context" :
            c == FidClass.RX_CTX ? "receive context" : "endpoint") + " (slot " + slot + ")";
    }

    @Override
    protected void doClose()
    {
        if (parent != null)
        {
            parent.contextClosing(this);
        }
        hooks.closing(this);
        state = CLOSED;
        if (tx != null)
        {
            final boolean faulted = regionFile.fault() != null;
            tx.close(faulted);
            rx.close(faulted);
            Heartbeats.unregister(heartbeat);
        }
        slots.release(slot);
        bindings.releaseAll(this);
        for (final FidLifecycle mr : boundRegions)
        {
            mr.release();
        }
        boundRegions.clear();
        resources.release(DomainResources.Kind.ENDPOINT);
        domain.release();
    }
}
