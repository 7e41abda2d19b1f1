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

import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.RxAttr;
import io.jfabric.ScalableEndpoint;
import io.jfabric.TxAttr;
import io.jfabric.shm.av.ShmAddress;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.DomainResources;
import io.jfabric.shm.core.FidLifecycle;
import io.jfabric.shm.core.LocalHost;
import io.jfabric.shm.core.ShmCapabilities;
import io.jfabric.shm.eq.ShmEventQueue;
import io.jfabric.shm.liveness.Heartbeats;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;

import java.nio.charset.StandardCharsets;

/**
 * A scalable endpoint (fi_endpoint(3), {@code fi_scalable_ep}): one address, several transmit and receive contexts.
 * <p>
 * It holds one slot of the region for its address; each context it opens is an {@link ShmEndpoint} of class
 * {@link FidClass#TX_CTX} or {@link FidClass#RX_CTX} in a slot of its own, with its own lanes, guards, CQ and
 * counter bindings, so threads driving different contexts share nothing (under FI_THREAD_FID no lock between
 * them). The address slot names the receive contexts ({@link SlotDescriptor}: RX context count and entries): a
 * sender that resolves it writes the lane of the context its {@code fi_rx_addr} index names (context 0 without an
 * index); a context's slot names the address slot back ("context of"), so receivers report its sends with the
 * scalable endpoint's fi_addr.
 * <p>
 * Threads: control path, synchronized; any thread.
 */
public final class ShmScalableEndpoint extends FidLifecycle implements ScalableEndpoint, ShmEndpoint.ScalableParent
{
    private static final boolean BROKEN_ACTIVE_BEFORE_COUNT = BrokenVariant.active("sep.active-before-count");

    /**
     * Opens one context endpoint: the domain's endpoint factory with its threading guards and progress hooks.
     */
    @FunctionalInterface
    public interface ContextOpener
    {
        /**
         * @param info     the context's info.
         * @param fidClass TX_CTX or RX_CTX.
         * @param context  the application's context.
         * @return the context endpoint, holding a slot of its own, not enabled.
         */
        ShmEndpoint open(Info info, FidClass fidClass, long context);
    }

    private final DomainContext domain;
    private final DomainResources resources;
    private final ContextOpener opener;
    private final Info info;
    private final AtomicBuffer region;
    private final RegionGeometry geometry;
    private final EndpointSlots slots;
    private final String domainName;
    private final ShmEndpoint[] txContexts;
    private final ShmEndpoint[] rxContexts;
    private final int slot;
    private final int incarnation;
    private ShmAddressVector av;
    private ShmEventQueue eq;
    private boolean enabled;
    private Heartbeats.Registration heartbeat;

    /**
     * Open a scalable endpoint and claim its address slot. Control path.
     *
     * @param domain    the domain, retained until close.
     * @param resources ep_cnt accounting (the address slot counts as one endpoint, each context as one more).
     * @param info      the info; ep_attr.tx_ctx_cnt and rx_ctx_cnt give the contexts (0 means 1).
     * @param region    the region.
     * @param geometry  its geometry.
     * @param opener    how a context endpoint is opened.
     * @param context   the application's context.
     */
    public ShmScalableEndpoint(
        final DomainContext domain,
        final DomainResources resources,
        final Info info,
        final AtomicBuffer region,
        final RegionGeometry geometry,
        final ContextOpener opener,
        final long context)
    {
        super(FidClass.SEP, context);
        if (info == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_scalable_ep: info is null");
        }
        this.info = info.copy();
        final int max = ShmCapabilities.maxEpContexts(geometry.slotCount());
        final int txCount = contextCount("tx_ctx_cnt", info.epAttr() == null ? 0 : info.epAttr().txCtxCnt(), max);
        final int rxCount = contextCount("rx_ctx_cnt", info.epAttr() == null ? 0 : info.epAttr().rxCtxCnt(), max);
        if (this.info.epAttr() != null)
        {
            this.info.epAttr().txCtxCnt(txCount).rxCtxCnt(rxCount);
        }
        this.domain = domain;
        this.resources = resources;
        this.opener = opener;
        this.region = region;
        this.geometry = geometry;
        this.domainName = domain.attr().name();
        this.slots = new EndpointSlots(region, geometry);
        this.txContexts = new ShmEndpoint[txCount];
        this.rxContexts = new ShmEndpoint[rxCount];
        domain.retain("fi_scalable_ep");
        boolean ok = false;
        try
        {
            resources.acquire(DomainResources.Kind.ENDPOINT, "fi_scalable_ep");
            try
            {
                slot = slots.claimAny("fi_scalable_ep", domainName);
                incarnation = slots.incarnation(slot);
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

    private static int contextCount(final String name, final long asked, final int max)
    {
        if (asked == 0)
        {
            return 1;
        }
        if (asked < 0 || asked > max)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_scalable_ep: ep_attr." + name + " " +
                (asked == io.jfabric.Addresses.FI_SHARED_CONTEXT ? "FI_SHARED_CONTEXT" : Long.toString(asked)) +
                " is not supported; a scalable endpoint of this domain has 1 to " + max + " contexts of each kind " +
                "(domain_attr.max_ep_tx_ctx, max_ep_rx_ctx: one slot for its address and one per context must fit " +
                "the domain's ep_cnt; raise jfabric.shm.ep.count for more)");
        }
        return (int)asked;
    }

    @Override
    public Info info()
    {
        return info.copy();
    }

    @Override
    public synchronized void bind(final Fid fid, final long flags)
    {
        ensureOpen("fi_scalable_ep_bind");
        if (fid instanceof ShmAddressVector)
        {
            if (flags != 0)
            {
                throw new FabricException(Errno.FI_EBADFLAGS, "fi_scalable_ep_bind: an AV takes flags 0, not 0x" +
                    Long.toHexString(flags));
            }
            final ShmAddressVector a = (ShmAddressVector)fid;
            if (a.domain() != domain.fid())
            {
                throw new FabricException(Errno.FI_EINVAL, "fi_scalable_ep_bind: the AV belongs to " +
                    a.domain().description() + ", this endpoint to " + domain.description());
            }
            if (av != null)
            {
                throw new FabricException(Errno.FI_EINVAL, "fi_scalable_ep_bind: an AV is already bound");
            }
            if (openContexts() > 0)
            {
                throw new FabricException(Errno.FI_EOPBADSTATE,
                    "fi_scalable_ep_bind: bind the AV before opening contexts (they use it)");
            }
            a.retain("fi_scalable_ep_bind");
            av = a;
        }
        else if (fid instanceof ShmEventQueue && flags == 0)
        {
            if (eq != null)
            {
                throw new FabricException(Errno.FI_EINVAL, "fi_scalable_ep_bind: an EQ is already bound");
            }
            final ShmEventQueue q = (ShmEventQueue)fid;
            q.retain("fi_scalable_ep_bind");
            eq = q;
        }
        else
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_scalable_ep_bind: a scalable endpoint binds an shm AV " +
                "or EQ (flags 0), not " + (fid == null ? "null" : fid.fidClass() + " with flags 0x" +
                Long.toHexString(flags)) + "; bind CQs and counters to its contexts");
        }
    }

    @Override
    public synchronized void enable()
    {
        ensureOpen("fi_enable");
        if (enabled)
        {
            return;
        }
        if (av == null)
        {
            throw new FabricException(Errno.FI_ENOAV, "fi_enable: no address vector is bound (fi_scalable_ep_bind)");
        }
        // The count first, ACTIVE last (release): a sender that acquires ACTIVE sees a non-zero count and goes to
        // the receive contexts, never into the address slot's own lanes, which nobody reads. The broken variant
        // swaps the two stores.
        final int countOffset = SlotDescriptor.rxContextCountOffset(geometry, slot);
        final int stateOffset = SlotDescriptor.stateOffset(geometry, slot);
        if (BROKEN_ACTIVE_BEFORE_COUNT)
        {
            region.putIntOrdered(stateOffset, SlotDescriptor.STATE_ACTIVE);
        }
        else
        {
            region.putIntOrdered(countOffset, rxContexts.length);
        }
        for (final ShmEndpoint rx : rxContexts)
        {
            if (rx != null && rx.isEnabled())
            {
                publish(rx);
            }
        }
        heartbeat = Heartbeats.register(region, SlotDescriptor.heartbeatOffset(geometry, slot));
        if (BROKEN_ACTIVE_BEFORE_COUNT)
        {
            region.putIntOrdered(countOffset, rxContexts.length);
        }
        else
        {
            region.putIntOrdered(stateOffset, SlotDescriptor.STATE_ACTIVE);
        }
        enabled = true;
    }

    @Override
    public byte[] getname()
    {
        ensureOpen("fi_getname");
        return ShmAddress.format(LocalHost.name(), slot, domainName, incarnation).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public Endpoint txContext(final int index, final TxAttr attr, final long context)
    {
        return openContext(true, index, attr, null, context);
    }

    @Override
    public Endpoint rxContext(final int index, final RxAttr attr, final long context)
    {
        return openContext(false, index, null, attr, context);
    }

    private synchronized ShmEndpoint openContext(
        final boolean transmit, final int index, final TxAttr txAttr, final RxAttr rxAttr, final long context)
    {
        final String call = transmit ? "fi_tx_context" : "fi_rx_context";
        ensureOpen(call);
        final ShmEndpoint[] contexts = transmit ? txContexts : rxContexts;
        if (index < 0 || index >= contexts.length)
        {
            throw new FabricException(Errno.FI_EINVAL, call + ": index " + index + " is not in [0, " +
                contexts.length + "), the endpoint's ep_attr." + (transmit ? "tx" : "rx") + "_ctx_cnt");
        }
        if (contexts[index] != null && !contexts[index].isClosed())
        {
            throw new FabricException(Errno.FI_EBUSY, call + ": context " + index + " is already open");
        }
        if (av == null)
        {
            throw new FabricException(Errno.FI_ENOAV, call + ": bind the AV to the scalable endpoint first");
        }
        final Info contextInfo = contextInfo(call, transmit, txAttr, rxAttr);
        final ShmEndpoint ep = opener.open(contextInfo, transmit ? FidClass.TX_CTX : FidClass.RX_CTX, context);
        try
        {
            ep.serve(this, SlotDescriptor.slotWord(slot, incarnation));
            ep.bind(av, 0);
            if (eq != null)
            {
                ep.bind(eq, 0);
            }
        }
        catch (final RuntimeException ex)
        {
            ep.close();
            throw ex;
        }
        retain(call);
        contexts[index] = ep;
        if (txAttr != null)
        {
            copyBack(contextInfo.txAttr(), txAttr);
        }
        if (rxAttr != null)
        {
            copyBack(contextInfo.rxAttr(), rxAttr);
        }
        return ep;
    }

    /**
     * A context inherits the endpoint's info with the capabilities of its direction only; attributes the
     * application gives must ask for a subset of the endpoint's capabilities.
     */
    private Info contextInfo(final String call, final boolean transmit, final TxAttr txAttr, final RxAttr rxAttr)
    {
        final Info i = info.copy();
        final long directionCaps = transmit ? ShmCapabilities.TX_CAPS | Flags.FI_SEND :
            ShmCapabilities.RX_CAPS | Flags.FI_RECV;
        final long inherited = (i.caps() == 0 ? ShmCapabilities.INFO_CAPS : i.caps()) & directionCaps;
        final long asked = transmit ? (txAttr == null ? 0 : txAttr.caps()) : (rxAttr == null ? 0 : rxAttr.caps());
        if ((asked & ~inherited) != 0)
        {
            throw new FabricException(Errno.FI_EINVAL, call + ": attr.caps 0x" + Long.toHexString(asked) +
                " asks for 0x" + Long.toHexString(asked & ~inherited) + ", which the scalable endpoint's " +
                (transmit ? "transmit" : "receive") + " capabilities do not include");
        }
        final long caps = (asked != 0 ? asked : inherited) | (transmit ? Flags.FI_SEND : Flags.FI_RECV);
        i.caps(caps & ~(transmit ? Flags.FI_RECV : Flags.FI_SEND));
        if (i.epAttr() != null)
        {
            i.epAttr().txCtxCnt(1).rxCtxCnt(1);
        }
        if (transmit && txAttr != null)
        {
            final TxAttr t = txAttr.copy().caps(i.caps());
            i.txAttr(t);
        }
        if (!transmit && rxAttr != null)
        {
            final RxAttr r = rxAttr.copy().caps(i.caps());
            i.rxAttr(r);
        }
        return i;
    }

    private static void copyBack(final TxAttr inForce, final TxAttr attr)
    {
        if (inForce != null)
        {
            attr.caps(inForce.caps()).opFlags(inForce.opFlags()).size(inForce.size()).iovLimit(inForce.iovLimit())
                .injectSize(inForce.injectSize());
        }
    }

    private static void copyBack(final RxAttr inForce, final RxAttr attr)
    {
        if (inForce != null)
        {
            attr.caps(inForce.caps()).opFlags(inForce.opFlags()).size(inForce.size()).iovLimit(inForce.iovLimit());
        }
    }

    /**
     * A receive context was enabled: senders may now reach it through the address slot. Called by the context.
     */
    @Override
    public synchronized void contextEnabled(final ShmEndpoint ep)
    {
        if (enabled && ep.fidClass() == FidClass.RX_CTX)
        {
            publish(ep);
        }
    }

    /**
     * A context is closing: its entry is withdrawn before its slot is given back. Called by the context.
     */
    @Override
    public synchronized void contextClosing(final ShmEndpoint ep)
    {
        for (int i = 0; i < rxContexts.length; i++)
        {
            if (rxContexts[i] == ep)
            {
                region.putLongOrdered(SlotDescriptor.rxContextOffset(geometry, slot, i), 0);
            }
        }
        release();
    }

    private void publish(final ShmEndpoint rx)
    {
        for (int i = 0; i < rxContexts.length; i++)
        {
            if (rxContexts[i] == rx)
            {
                region.putLongOrdered(SlotDescriptor.rxContextOffset(geometry, slot, i),
                    SlotDescriptor.slotWord(rx.slot(), rx.incarnation()));
            }
        }
    }

    private int openContexts()
    {
        int n = 0;
        for (final ShmEndpoint ep : txContexts)
        {
            n += ep != null && !ep.isClosed() ? 1 : 0;
        }
        for (final ShmEndpoint ep : rxContexts)
        {
            n += ep != null && !ep.isClosed() ? 1 : 0;
        }
        return n;
    }

    /** @return the slot holding the endpoint's address. */
    public int slot()
    {
        return slot;
    }

    @Override
    protected String describe()
    {
        return "scalable endpoint (slot " + slot + ")";
    }

    @Override
    protected void doClose()
    {
        if (heartbeat != null)
        {
            Heartbeats.unregister(heartbeat);
        }
        region.putIntOrdered(SlotDescriptor.stateOffset(geometry, slot), SlotDescriptor.STATE_CLAIMED);
        for (int i = 0; i < SlotDescriptor.MAX_EP_CONTEXTS; i++)
        {
            region.putLongOrdered(SlotDescriptor.rxContextOffset(geometry, slot, i), 0);
        }
        region.putIntOrdered(SlotDescriptor.rxContextCountOffset(geometry, slot), 0);
        slots.release(slot);
        if (av != null)
        {
            av.release();
        }
        if (eq != null)
        {
            eq.release();
        }
        resources.release(DomainResources.Kind.ENDPOINT);
        domain.release();
    }
}
