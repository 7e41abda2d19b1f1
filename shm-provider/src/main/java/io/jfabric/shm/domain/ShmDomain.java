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
package io.jfabric.shm.domain;

import io.jfabric.AddressVector;
import io.jfabric.Addresses;
import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.AvAttr;
import io.jfabric.CntrAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.Counter;
import io.jfabric.CqAttr;
import io.jfabric.Domain;
import io.jfabric.DomainAttr;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.HmemOverrideOps;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.MrAttr;
import io.jfabric.MrIov;
import io.jfabric.Progress;
import io.jfabric.RxAttr;
import io.jfabric.ScalableEndpoint;
import io.jfabric.ShareableMemory;
import io.jfabric.Threading;
import io.jfabric.TxAttr;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.cleanup.LeftoverSweep;
import io.jfabric.shm.cntr.CounterTable;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.context.FabricContext;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.DomainResources;
import io.jfabric.shm.core.FidLifecycle;
import io.jfabric.shm.core.MappedFileWatch;
import io.jfabric.shm.core.ShmCapabilities;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.ep.EndpointHooks;
import io.jfabric.shm.liveness.Heartbeats;
import io.jfabric.shm.ep.SharedContextAttrs;
import io.jfabric.shm.ep.ShmEndpoint;
import io.jfabric.shm.ep.ShmScalableEndpoint;
import io.jfabric.shm.ep.ShmSharedTxContext;
import io.jfabric.shm.eq.ShmEventQueue;
import io.jfabric.shm.mr.MemoryRegistrar;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.progress.ProgressRunners;
import io.jfabric.shm.progress.Progressable;
import io.jfabric.shm.progress.ThreadingGuards;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.RegionWatch;
import io.jfabric.shm.rma.AtomicSupport;
import io.jfabric.shm.stat.RegionBacked;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A named shm domain: this process's view of one region file that every process opening the same name maps.
 * <p>
 * Opening checks the info with the same rules as getinfo (so an info getinfo would refuse is refused here with
 * the same reason, {@link Errno#FI_ENODATA}), resolves what the info leaves unspecified as getinfo does, and maps
 * {@code <root>/<name>.domain}, creating it when absent. The region's geometry (endpoint slots, ring sizes, key
 * and counter table entries) comes from {@link ShmConfig} alone, so every process with the same settings joins
 * the same region whatever counts its info asks for; a process with other settings is refused with
 * {@link Errno#FI_EINVAL} naming the difference. Counts an info lowers (ep_cnt, cq_cnt, cntr_cnt, mr_cnt) are
 * limits on this domain object, enforced by {@link DomainResources}.
 * <p>
 * Region files outlive the processes that use them; see the README for removing them. Opening a domain removes the
 * segment and temporary files of the domain that processes now gone left ({@link LeftoverSweep}).
 * <p>
 * Memory registration, shareable memory and one-sided access are {@link MemoryRegistrar}'s (package
 * {@code io.jfabric.shm.mr}); counters are {@link ShmCounter}s over the region's counter table (package
 * {@code io.jfabric.shm.cntr}). The domain only delegates to them.
 * <p>
 * Control calls are thread safe. Objects opened from the domain hold a reference, so closing the domain while
 * any remains open fails with {@link Errno#FI_EBUSY}.
 */
public final class ShmDomain extends FidLifecycle implements Domain, DomainContext, RegionBacked
{
    /** Broken variant: a shared receive context with the domain's own guards (no lock under COMPLETION, DOMAIN). */
    private static final boolean BROKEN_SRX_NO_LOCK = BrokenVariant.active("srx.no-lock");

    private final FabricContext fabric;
    private final Info info;
    private final DomainAttr attr;
    private final DomainResources resources;
    private final RegionFile region;
    private volatile ShmEventQueue eq;
    private final RegionWatch watch;
    private final Heartbeats.Registration watchRegistration;
    private final ConcurrentLinkedQueue<RegionFinding> unposted = new ConcurrentLinkedQueue<>();
    private boolean asyncMrRegistration;
    private final MemoryRegistrar memory;
    private final CounterTable counterTable;
    private ProgressRunners progressRunners;

    ShmDomain(final FabricContext fabric, final Info requested, final long flags, final long context)
    {
        super(FidClass.DOMAIN, context);
        if (requested == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_domain: info must not be null");
        }
        if (requested.domainAttr() == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_domain: info has no domain attributes");
        }
        if (flags != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS,
                "fi_domain2: flags 0x" + Long.toHexString(flags) + " are not supported; shm supports none (not FI_PEER)");
        }
        this.fabric = fabric;
        // domain_attr.domain and fabric_attr.fabric are getinfo's: an input restriction and an output reference
        // (fi_domain(3), fi_fabric(3)). fi_domain ignores them, as libfabric does, so the info of an open domain
        // (domain.info()) opens a new domain with the same name and attributes.
        this.info = resolve(fabric, withoutInstances(requested));
        this.attr = info.domainAttr();
        this.resources = new DomainResources(attr);

        final ShmConfig config = fabric.provider().config();
        fabric.retain("fi_domain");
        RegionFile opened = null;
        try
        {
            opened = RegionFile.openOrCreate(
                config.rootDir(), attr.name(), RegionGeometry.from(config), config.groupAccess());
        }
        finally
        {
            if (opened == null)
            {
                fabric.release();
            }
        }
        region = opened;
        LeftoverSweep.sweep(config.rootDir(), attr.name(), region.regionNonce());
        counterTable = new CounterTable(region.buffer(), region.geometry());
        memory = new MemoryRegistrar(this, config.rootDir(), config.groupAccess());
        watch = new RegionWatch(region);
        watchRegistration = Heartbeats.register((nowMs) -> watchRegion(nowMs));
        fabric.provider().opened(this);
    }

    /** The info without its references to open instances: a copy only when it has one. */
    private static Info withoutInstances(final Info requested)
    {
        final boolean fabricSet = requested.fabricAttr() != null && requested.fabricAttr().fabric() != null;
        if (requested.domainAttr().domain() == null && !fabricSet)
        {
            return requested;
        }
        final Info copy = requested.copy();
        copy.domainAttr().domain(null);
        if (fabricSet)
        {
            copy.fabricAttr().fabric(null);
        }
        return copy;
    }

    /**
     * On the heartbeat thread, each tick: look at the region's file; report what is new on the event queue. And
     * look at the segment and AV files this process maps ({@link MappedFileWatch}, once a tick for all domains).
     */
    private void watchRegion(final long nowMs)
    {
        MappedFileWatch.check(nowMs);
        final RegionWatch.Finding finding = watch.check();
        if (finding != RegionWatch.Finding.NONE)
        {
            final int err = finding == RegionWatch.Finding.TRUNCATED ? Errno.FI_EIO : Errno.FI_ENOENT;
            unposted.add(new RegionFinding(err, watch.message()));
            postRegionFindings();
        }
    }

    /** A region watch finding not yet on the event queue: its error number and text. */
    private record RegionFinding(int err, String message)
    {
    }

    /**
     * Post the region watch's findings on the bound event queue, each exactly once whichever thread gets there
     * (the heartbeat thread, or the one binding the queue). Never takes the domain's lock.
     */
    private void postRegionFindings()
    {
        final ShmEventQueue queue = eq;
        if (queue != null)
        {
            RegionFinding finding;
            while ((finding = unposted.poll()) != null)
            {
                queue.postError(this, context(), 0, finding.err, finding.err, finding.message);
            }
        }
    }

    private static Info resolve(final FabricContext fabric, final Info requested)
    {
        final List<Info> matched = fabric.provider().getInfo(fabric.apiVersion(), null, null, 0, requested);
        final Info resolved = matched.get(0);
        final DomainAttr asked = requested.domainAttr();
        final DomainAttr out = resolved.domainAttr();
        // getinfo referenced the open instances, if any; this domain's info names itself instead (info(), attr()).
        out.domain(null);
        resolved.fabricAttr().fabric(null);
        // Counts the application lowered are this domain's limits; zero takes the provider's.
        out.epCnt(askedOr(asked.epCnt(), out.epCnt()))
            .txCtxCnt(askedOr(asked.txCtxCnt(), out.txCtxCnt()))
            .rxCtxCnt(askedOr(asked.rxCtxCnt(), out.rxCtxCnt()))
            .cqCnt(askedOr(asked.cqCnt(), out.cqCnt()))
            .cntrCnt(askedOr(asked.cntrCnt(), out.cntrCnt()))
            .mrCnt(askedOr(asked.mrCnt(), out.mrCnt()))
            .mrIovLimit(askedOr(asked.mrIovLimit(), out.mrIovLimit()));
        // The mr_mode passed to fi_domain is the mode the application works in (fi_mr(3)), within what shm implements.
        out.mrMode(ShmCapabilities.domainMrMode(asked.mrMode()));
        return resolved;
    }

    private static long askedOr(final long asked, final long limit)
    {
        return asked != 0 ? asked : limit;
    }

    @Override
    public Fabric fabric()
    {
        return fabric;
    }

    /** @return the domain's name (for getinfo's references to open domains). */
    String name()
    {
        return attr.name();
    }

    @Override
    public Info info()
    {
        final Info copy = info.copy();
        copy.domainAttr().domain(this);
        copy.fabricAttr().fabric(fabric);
        return copy;
    }

    @Override
    public DomainAttr attr()
    {
        return attr.copy().domain(this);
    }

    @Override
    public synchronized void bind(final Fid fid, final long flags)
    {
        ensureOpen("fi_domain_bind");
        if (!(fid instanceof ShmEventQueue))
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_domain_bind: a domain binds only an event queue opened " +
                "from the shm fabric, not " + (fid == null ? "null" : fid.fidClass() + " " + fid.getClass().getName()));
        }
        final ShmEventQueue queue = (ShmEventQueue)fid;
        if (queue.fabric() != fabric)
        {
            throw new FabricException(Errno.FI_EINVAL,
                "fi_domain_bind: the event queue was opened from another fabric than this domain's");
        }
        if ((flags & ~Flags.FI_REG_MR) != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_domain_bind: flags 0x" +
                Long.toHexString(flags & ~Flags.FI_REG_MR) + " are not supported; only FI_REG_MR is");
        }
        if (eq != null)
        {
            throw new FabricException(Errno.FI_EINVAL,
                "fi_domain_bind: the domain already has an event queue bound; a domain binds one");
        }
        queue.retain("fi_domain_bind");
        eq = queue;
        asyncMrRegistration = (flags & Flags.FI_REG_MR) != 0;
        postRegionFindings();
    }

    /**
     * @return the event queue bound with {@link #bind}, or null.
     */
    @Override
    public synchronized ShmEventQueue eventQueue()
    {
        return eq;
    }

    /**
     * @return true when the bound event queue was bound with {@link Flags#FI_REG_MR}: registrations complete
     * asynchronously on it.
     */
    @Override
    public synchronized boolean asyncMrRegistration()
    {
        return asyncMrRegistration;
    }

    @Override
    public Object openOps(final String name, final long flags, final long context)
    {
        ensureOpen("fi_open_ops");
        throw new FabricException(Errno.FI_ENOSYS,
            "fi_open_ops: shm has no provider-specific interface named '" + name + "'");
    }

    @Override
    public void setOps(final String name, final long flags, final Object ops, final long context)
    {
        ensureOpen("fi_set_ops");
        if (!HmemOverrideOps.FI_SET_OPS_HMEM_OVERRIDE.equals(name))
        {
            throw new FabricException(Errno.FI_ENOSYS, "fi_set_ops: shm supports no override named '" + name +
                "'; it supports '" + HmemOverrideOps.FI_SET_OPS_HMEM_OVERRIDE + "'");
        }
        if (flags != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS,
                "fi_set_ops: flags 0x" + Long.toHexString(flags) + " are not supported; no flag is defined");
        }
        if (!(ops instanceof HmemOverrideOps))
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_set_ops: '" + name + "' takes an " +
                HmemOverrideOps.class.getSimpleName() + ", not " + (ops == null ? "null" : ops.getClass().getName()));
        }
        // It used to be stored and never called. shm has no FI_HMEM: every copy it makes is of host memory, which
        // it does itself, so there is nothing to override. fi_domain(3): an override not supported is FI_ENOSYS.
        throw new FabricException(Errno.FI_ENOSYS, "fi_set_ops: shm does not support '" + name + "': it has no " +
            "FI_HMEM capability and copies only host memory (FI_HMEM_SYSTEM) itself, so the callbacks would never run");
    }

    /**
     * @return the count limits this domain enforces.
     */
    @Override
    public DomainResources resources()
    {
        return resources;
    }

    @Override
    public FidLifecycle fid()
    {
        return this;
    }

    @Override
    public ShmConfig config()
    {
        return fabric.provider().config();
    }

    @Override
    public Path regionFile()
    {
        return region.path();
    }

    @Override
    public boolean createdRegion()
    {
        return region.created();
    }

    /**
     * @return the mapped region file.
     */
    @Override
    public RegionFile region()
    {
        return region;
    }

    /**
     * {@code fi_av_open}; see {@link ShmAddressVector} for the rules.
     */
    @Override
    public AddressVector avOpen(final AvAttr attr, final long context)
    {
        return ShmAddressVector.open(this, attr, context, fabric.provider().config().avMaxCount());
    }

    @Override
    protected String describe()
    {
        return "domain '" + attr.name() + "'";
    }

    @Override
    protected synchronized void doClose()
    {
        fabric.provider().closed(this);
        Heartbeats.unregister(watchRegistration);
        if (eq != null)
        {
            eq.release();
            eq = null;
        }
        if (progressRunners != null)
        {
            progressRunners.close();
        }
        memory.close();
        region.close();
        fabric.release();
    }

    // ---- memory registration (fi_mr(3)) and counters (fi_cntr(3)): delegations into shm.mr and shm.cntr ----

    @Override
    public MemoryRegion mrReg(
        final java.nio.ByteBuffer buffer,
        final long access,
        final long offset,
        final long requestedKey,
        final long flags,
        final long context)
    {
        return memory.reg(buffer, access, offset, requestedKey, flags, context);
    }

    @Override
    public MemoryRegion mrRegv(
        final MrIov[] iov, final long access, final long offset, final long requestedKey, final long flags, final long context)
    {
        return memory.regv(iov, access, offset, requestedKey, flags, context);
    }

    @Override
    public MemoryRegion mrRegAttr(final MrAttr mrAttr, final long flags)
    {
        return memory.regAttr(mrAttr, flags);
    }

    @Override
    public ShareableMemory allocShareable(final long length)
    {
        return memory.allocShareable(length);
    }

    @Override
    public long mrMapRaw(final long baseAddr, final byte[] rawKey, final long flags)
    {
        return memory.mapRaw(baseAddr, rawKey, flags);
    }

    @Override
    public void mrUnmapKey(final long key)
    {
        memory.unmapKey(key);
    }

    @Override
    public Counter cntrOpen(final CntrAttr cntrAttr, final long context)
    {
        ensureOpen("fi_cntr_open");
        return new ShmCounter(this, resources, counterTable, cntrAttr, context);
    }

    @Override
    public Endpoint endpoint(final Info epInfo, final long context)
    {
        ensureOpen("fi_endpoint");
        final io.jfabric.EpAttr ep = epInfo == null ? null : epInfo.epAttr();
        if (ep != null && (ep.txCtxCnt() != Addresses.FI_SHARED_CONTEXT && Long.compareUnsigned(ep.txCtxCnt(), 1) > 0 ||
            ep.rxCtxCnt() != Addresses.FI_SHARED_CONTEXT && Long.compareUnsigned(ep.rxCtxCnt(), 1) > 0))
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_endpoint: ep_attr.tx_ctx_cnt " +
                Long.toUnsignedString(ep.txCtxCnt()) + " and rx_ctx_cnt " + Long.toUnsignedString(ep.rxCtxCnt()) +
                ": an endpoint has one context of each kind; open several with fi_scalable_ep");
        }
        return openEndpoint(epInfo, FidClass.EP, context);
    }

    @Override
    public ScalableEndpoint scalableEndpoint(final Info epInfo, final long context)
    {
        ensureOpen("fi_scalable_ep");
        return new ShmScalableEndpoint(this, resources, epInfo, region.buffer(), region.geometry(),
            this::openEndpoint, context);
    }

    @Override
    public int queryAtomic(final AtomicDatatype datatype, final AtomicOp op, final long flags)
    {
        return datatype == null || op == null ? -Errno.FI_EINVAL :
            AtomicSupport.query(datatype.value(), op.value(), flags);
    }

    @Override
    public Fid stxContext(final TxAttr txAttr, final long context)
    {
        ensureOpen("fi_stx_context");
        final TxAttr defaults = info.txAttr() == null ? new TxAttr() : info.txAttr();
        final TxAttr inForce = SharedContextAttrs.transmit("fi_stx_context", defaults, txAttr);
        return new ShmSharedTxContext(this, inForce, context);
    }

    @Override
    public Endpoint srxContext(final RxAttr rxAttr, final long context)
    {
        ensureOpen("fi_srx_context");
        final Info srxInfo = info.copy();
        final RxAttr defaults = srxInfo.rxAttr() == null ? new RxAttr() : srxInfo.rxAttr();
        srxInfo.rxAttr(SharedContextAttrs.receive("fi_srx_context", defaults, rxAttr));
        srxInfo.caps(srxInfo.rxAttr().caps());
        if (srxInfo.epAttr() != null) // it is the shared context: it binds none, even when the domain's info asks
        {
            srxInfo.epAttr().txCtxCnt(1).rxCtxCnt(1);
        }
        return openEndpoint(srxInfo, FidClass.SRX_CTX, context);
    }

    private ShmEndpoint openEndpoint(final Info epInfo, final FidClass fidClass, final long context)
    {
        final boolean auto = isAutoProgress();
        // the endpoints bound to a shared receive context may progress on several threads whatever the model:
        // its matcher is guarded by a real lock
        final boolean sharedRx = fidClass == FidClass.SRX_CTX && !BROKEN_SRX_NO_LOCK;
        return new ShmEndpoint(this, memory, epInfo,
            ThreadingGuards.of(sharedRx ? Threading.SAFE : attr.threading(), auto),
            auto ? progressHooks() : EndpointHooks.NONE, context, fidClass);
    }

    @Override
    public CompletionQueue cqOpen(final CqAttr cqAttr, final long context)
    {
        ensureOpen("fi_cq_open");
        final ShmConfig config = fabric.provider().config();
        final ThreadingGuards guards = ThreadingGuards.of(attr.threading(), isAutoProgress());
        return new ShmCompletionQueue(this, resources, region, region.geometry(), cqAttr, config.cqSize(),
            (int)Math.min(attr.maxErrData(), Integer.MAX_VALUE), guards.cqReadGuard(), !isAutoProgress(),
            guards.concurrentCqWriters(), context);
    }

    /** @return whether this domain's data progress is automatic (a provider agent) rather than manual. */
    public boolean isAutoProgress()
    {
        return attr.dataProgress() == Progress.AUTO;
    }

    private synchronized EndpointHooks progressHooks()
    {
        if (progressRunners == null)
        {
            progressRunners = new ProgressRunners(attr.name(), fabric.provider().config());
        }
        final ProgressRunners runners = progressRunners;
        return new EndpointHooks()
        {
            @Override
            public void enabled(final Progressable endpoint)
            {
                runners.add(endpoint);
            }

            @Override
            public void closing(final Progressable endpoint)
            {
                runners.remove(endpoint);
            }

            @Override
            public boolean automatic()
            {
                return true;
            }
        };
    }

    /** @return the memory registrar (endpoints resolve local descriptors for rendezvous sends through it). */
    public MemoryRegistrar memoryRegistrar()
    {
        return memory;
    }

    /**
     * @return a new view for one-sided reads and writes of peers' registered shareable memory (the RMA data path
     * builds on it); the domain cannot close until the view is closed.
     */
    public RemoteMemory remoteMemory()
    {
        ensureOpen("remoteMemory");
        return memory.remoteMemory();
    }

    /**
     * @return the region's counter table.
     */
    @Override
    public CounterTable counterTable()
    {
        return counterTable;
    }
}
