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

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.Flags;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.core.FidLifecycle;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.eq.ShmEventQueue;
import io.jfabric.shm.progress.Progressable;
import io.jfabric.shm.rx.RxContext;

/**
 * What an endpoint has bound (fi_ep_bind): its AV, transmit and receive CQs (with FI_SELECTIVE_COMPLETION),
 * send and receive counters, event queue, and the shared transmit and receive contexts of an endpoint opened with
 * {@code FI_SHARED_CONTEXT}. Checks each binding (same domain, flags, one of each kind), holds a reference on each
 * bound object and gives them all back at close.
 * <p>
 * Threads: the endpoint's synchronized control path only.
 */
final class EndpointBindings
{
    /**
     * A shared receive context (fi_srx_context: an endpoint of class SRX_CTX) as the endpoints bound to it see it.
     */
    interface SharedReceiveContext extends Fid
    {
        /** @return the domain the context was opened from (bindings are of the endpoint's own domain only). */
        FidLifecycle domainFid();

        /** Drop the reference the binding took ({@code FidLifecycle#release}). */
        void release();

        /**
         * The receive side of the shared context, for an endpoint bound to it that is being enabled; the first such
         * endpoint enables it with its AV.
         *
         * @param av the enabling endpoint's AV.
         * @return the receive context whose matcher and guard the endpoint uses.
         */
        RxContext sharedReceive(ShmAddressVector av);
    }

    private final FidLifecycle domain;
    private final boolean txShared;
    private final boolean rxShared;
    private final boolean rmaEvent;
    ShmAddressVector av;
    ShmCompletionQueue txCq;
    ShmCompletionQueue rxCq;
    boolean selectiveTx;
    boolean selectiveRx;
    ShmCounter sendCntr;
    ShmCounter recvCntr;
    ShmCounter readCntr;
    ShmCounter writeCntr;
    ShmCounter remoteReadCntr;
    ShmCounter remoteWriteCntr;
    ShmEventQueue eq;
    ShmSharedTxContext stx;
    SharedReceiveContext srx;
    private EndpointKeys keys;

    /**
     * @param domain   the endpoint's domain.
     * @param txShared whether the endpoint was opened with tx_ctx_cnt FI_SHARED_CONTEXT.
     * @param rxShared whether the endpoint was opened with rx_ctx_cnt FI_SHARED_CONTEXT.
     * @param rmaEvent whether the endpoint was opened with FI_RMA_EVENT (counters may count remote access).
     */
    EndpointBindings(final FidLifecycle domain, final boolean txShared, final boolean rxShared,
        final boolean rmaEvent)
    {
        this.rmaEvent = rmaEvent;
        this.domain = domain;
        this.txShared = txShared;
        this.rxShared = rxShared;
    }

    /**
     * fi_enable: the endpoint's authorization keys, held until {@link #releaseAll} (an earlier enable that failed
     * after deciding them gives its holds back first).
     *
     * @param decided the keys.
     * @return them.
     */
    EndpointKeys holdKeys(final EndpointKeys decided)
    {
        if (keys != null)
        {
            keys.release();
        }
        keys = decided;
        return decided;
    }

    /**
     * fi_enable: an endpoint opened with FI_SHARED_CONTEXT must have bound that shared context.
     *
     * @param owner the endpoint, as its messages name it.
     */
    void requireSharedContexts(final String owner)
    {
        final boolean noStx = txShared && stx == null;
        if (noStx || rxShared && srx == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_enable: the " + owner + " was opened with " +
                (noStx ? "tx_ctx_cnt" : "rx_ctx_cnt") + " FI_SHARED_CONTEXT but no " +
                (noStx ? "fi_stx_context" : "fi_srx_context") + " is bound to it (fi_ep_bind it)");
        }
    }

    /**
     * fi_ep_bind of an open, not yet enabled endpoint.
     *
     * @param fid   the object.
     * @param flags the binding flags.
     */
    void bind(final Fid fid, final long flags)
    {
        requireSameDomain(fid);
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
        else if (fid instanceof ShmSharedTxContext)
        {
            bindShared("shared transmit", flags, txShared, stx, fid);
            stx = (ShmSharedTxContext)fid;
        }
        else if (fid instanceof SharedReceiveContext && fid.fidClass() == io.jfabric.FidClass.SRX_CTX)
        {
            bindShared("shared receive", flags, rxShared, srx, fid);
            srx = (SharedReceiveContext)fid;
        }
        else
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_ep_bind: cannot bind a " + fid.fidClass() +
                " of another provider or kind to an shm endpoint");
        }
    }

    private void bindShared(
        final String what, final long flags, final boolean opened, final Fid bound, final Fid fid)
    {
        if (flags != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_ep_bind: a " + what + " context takes flags 0, not 0x" +
                Long.toHexString(flags));
        }
        if (!opened)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_ep_bind: the endpoint was not opened to use a " + what +
                " context (ep_attr." + (what.startsWith("shared transmit") ? "tx" : "rx") +
                "_ctx_cnt FI_SHARED_CONTEXT)");
        }
        if (bound != null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_ep_bind: a " + what + " context is already bound; an " +
                "endpoint uses one");
        }
        ((FidLifecycle)fid).retain("fi_ep_bind");
    }

    /**
     * An AV, CQ, counter or shared context of another domain would route this endpoint's sends and completions through another
     * region's slots and rings: refused, naming both domains.
     */
    private void requireSameDomain(final Fid fid)
    {
        final FidLifecycle other = fid instanceof ShmAddressVector ? ((ShmAddressVector)fid).domain() :
            fid instanceof ShmCompletionQueue ? ((ShmCompletionQueue)fid).domain() :
            fid instanceof ShmCounter ? ((ShmCounter)fid).domain() :
            fid instanceof ShmSharedTxContext ? ((ShmSharedTxContext)fid).domain() :
            fid instanceof SharedReceiveContext ? ((SharedReceiveContext)fid).domainFid() : domain;
        if (other != domain)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_ep_bind: the " + fid.fidClass() + " belongs to " +
                other.description() + ", this endpoint to " + domain.description() +
                (other.description().equals(domain.description()) ? " (another fi_domain of the same name)" : "") +
                "; bind objects of the endpoint's own domain");
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
        final long remote = Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE;
        final long known = Flags.FI_SEND | Flags.FI_RECV | Flags.FI_READ | Flags.FI_WRITE | remote;
        if (flags == 0 || (flags & ~known) != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_ep_bind: counter flags 0x" + Long.toHexString(flags) +
                " must be a non-empty set of FI_SEND, FI_RECV, FI_READ, FI_WRITE, FI_REMOTE_READ and FI_REMOTE_WRITE");
        }
        if ((flags & remote) != 0 && !rmaEvent)
        {
            // fi_endpoint(3): counting remote reads and writes requires an endpoint created with FI_RMA_EVENT
            throw new FabricException(Errno.FI_EINVAL, "fi_ep_bind: counter flags 0x" + Long.toHexString(flags) +
                " include FI_REMOTE_READ or FI_REMOTE_WRITE, which need an endpoint opened with the FI_RMA_EVENT " +
                "capability");
        }
        if ((flags & Flags.FI_REMOTE_READ) != 0)
        {
            remoteReadCntr = swapCounter(remoteReadCntr, c);
        }
        if ((flags & Flags.FI_REMOTE_WRITE) != 0)
        {
            remoteWriteCntr = swapCounter(remoteWriteCntr, c);
        }
        if ((flags & Flags.FI_READ) != 0)
        {
            readCntr = swapCounter(readCntr, c);
        }
        if ((flags & Flags.FI_WRITE) != 0)
        {
            writeCntr = swapCounter(writeCntr, c);
        }
        if ((flags & Flags.FI_SEND) != 0)
        {
            sendCntr = swapCounter(sendCntr, c);
        }
        if ((flags & Flags.FI_RECV) != 0)
        {
            recvCntr = swapCounter(recvCntr, c);
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

    /**
     * @param c a counter, or null.
     * @return its counter table index + 1, 0 for null: the word a slot publishes for initiators to raise.
     */
    static int plusOne(final ShmCounter c)
    {
        return c == null ? 0 : c.index() + 1;
    }

    /**
     * @return the counters bound, any may be null.
     */
    ShmCounter[] counters()
    {
        return new ShmCounter[] {sendCntr, recvCntr, readCntr, writeCntr, remoteReadCntr, remoteWriteCntr};
    }

    /**
     * Give back every binding of a closing endpoint: CQs and counters stop serving it, every bound object loses
     * the reference the binding took.
     *
     * @param endpoint the endpoint, as the CQs and counters progress it.
     */
    void releaseAll(final Progressable endpoint)
    {
        if (keys != null)
        {
            keys.release(); // before the AV goes
        }
        if (txCq != null)
        {
            txCq.detach(endpoint);
            txCq.release();
        }
        if (rxCq != null)
        {
            rxCq.detach(endpoint);
            rxCq.release();
        }
        for (final ShmCounter c : counters())
        {
            if (c != null)
            {
                c.detach(endpoint);
                c.release();
            }
        }
        for (final FidLifecycle f : new FidLifecycle[] {av, eq, stx})
        {
            if (f != null)
            {
                f.release();
            }
        }
        if (srx != null)
        {
            srx.release();
        }
    }
}
