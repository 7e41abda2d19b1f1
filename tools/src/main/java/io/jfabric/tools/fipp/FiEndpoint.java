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
package io.jfabric.tools.fipp;

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.EpType;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.Mode;
import io.jfabric.MrMode;
import io.jfabric.Versions;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The endpoint of a fi_pingpong-compatible run (pp_init_fabric in util/pingpong.c) over any jfabric provider: the
 * hints fi_pingpong gives (FI_MSG or FI_TAGGED, FI_EP_RDM, FI_CONTEXT modes, FI_MR_LOCAL and the basic map), the
 * client's getinfo aimed at the server's name, a transmit and a receive CQ of FI_CQ_FORMAT_CONTEXT, the buffers
 * registered when the domain asks for FI_MR_LOCAL, and busy-polling waits for completions. One thread.
 */
final class FiEndpoint implements AutoCloseable
{
    /** fi_pingpong's tag. */
    static final long TAG = 1234;
    private static final long NO_PROGRESS_NS = 120_000_000_000L;

    final Info info;
    final ByteBuffer tx;
    final ByteBuffer rx;
    final boolean tagged;
    private final Fabric fabric;
    private final Domain domain;
    private final AddressVector av;
    private final CompletionQueue txcq;
    private final CompletionQueue rxcq;
    final Endpoint ep;
    private final MemoryRegion txMr;
    private final MemoryRegion rxMr;
    final long txDesc;
    final long rxDesc;
    private final CqEntries entries = new CqEntries(16);
    private final CqErrEntry error = new CqErrEntry(256);
    long peer;

    FiEndpoint(final String provider, final String domainName, final FiControl.Name server, final int bufferSize,
        final boolean tagged)
    {
        this.tagged = tagged;
        final Info hints = new Info().caps(tagged ? Flags.FI_TAGGED : Flags.FI_MSG)
            .mode(Mode.FI_CONTEXT | Mode.FI_CONTEXT2);
        hints.epAttr().type(EpType.RDM);
        hints.fabricAttr().provName(provider);
        hints.domainAttr().mrMode(MrMode.FI_MR_LOCAL | MrMode.FI_MR_ALLOCATED | MrMode.FI_MR_PROV_KEY |
            MrMode.FI_MR_VIRT_ADDR);
        if (domainName != null)
        {
            hints.domainAttr().name(domainName);
        }
        if (server != null)
        {
            hints.addrFormat(io.jfabric.AddrFormat.of(server.addrFormat()));
            hints.destAddr(server.name());
        }
        info = inDomain(Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints), provider, domainName);
        fabric = Fabrics.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        av = domain.avOpen(new AvAttr().type(info.domainAttr().avType()), 0);
        txcq = domain.cqOpen(new CqAttr().format(CqFormat.CONTEXT).size(info.txAttr().size()), 0);
        rxcq = domain.cqOpen(new CqAttr().format(CqFormat.CONTEXT).size(info.rxAttr().size()), 0);
        ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(txcq, Flags.FI_TRANSMIT);
        ep.bind(rxcq, Flags.FI_RECV);
        ep.enable();
        tx = ByteBuffer.allocateDirect(bufferSize);
        rx = ByteBuffer.allocateDirect(bufferSize);
        if ((info.domainAttr().mrMode() & MrMode.FI_MR_LOCAL) != 0)
        {
            txMr = domain.mrReg(tx, Flags.FI_SEND, 0, 0xC0DE, 0, 0);
            rxMr = domain.mrReg(rx, Flags.FI_RECV, 0, 0xC0DF, 0, 0);
            txDesc = txMr.desc();
            rxDesc = rxMr.desc();
        }
        else
        {
            txMr = null;
            rxMr = null;
            txDesc = 0;
            rxDesc = 0;
        }
    }

    /**
     * The first info of the named domain: tcp;ofi_rxm (libfabric 1.17) does not filter by the hints' domain name, and
     * its first info is the first interface's (eth0), so {@code -d lo} would otherwise run over eth0's address.
     *
     * @param infos      what getinfo answered.
     * @param provider   the provider asked for (for the message).
     * @param domainName the domain asked for, or null: the first info.
     * @return the info.
     * @throws FabricException FI_ENODATA when no info is of that domain.
     */
    static Info inDomain(final List<Info> infos, final String provider, final String domainName)
    {
        if (domainName == null)
        {
            return infos.get(0);
        }
        final Set<String> offered = new LinkedHashSet<>();
        for (final Info candidate : infos)
        {
            if (domainName.equals(candidate.domainAttr().name()))
            {
                return candidate;
            }
            offered.add(candidate.domainAttr().name());
        }
        throw new FabricException(Errno.FI_ENODATA, "provider " + provider + " offers no domain '" + domainName +
            "' with these hints; its domains: " + offered);
    }

    /** @param name the peer's name, inserted into the AV. */
    void insertPeer(final byte[] name)
    {
        final long[] out = new long[1];
        if (av.insert(new byte[][] {name}, 1, out, 0, 0, null) != 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insert of the peer's name inserted nothing");
        }
        peer = out[0];
    }

    /**
     * Post a receive into part of the receive buffer.
     *
     * @param offset where in the receive buffer.
     * @param length bytes.
     */
    void postRecv(final int offset, final int length)
    {
        long rc;
        while ((rc = tagged ? ep.trecv(rx, offset, length, rxDesc, -1L, TAG, 0, 2) :
            ep.recv(rx, offset, length, rxDesc, -1L, 2)) == -Errno.FI_EAGAIN)
        {
            poll(rxcq, 0);
        }
        check(rc, "fi_recv");
    }

    /**
     * Post a send of {@code size} bytes of the transmit buffer without waiting for its completion.
     *
     * @param size bytes.
     */
    void postSend(final int size)
    {
        long rc;
        while ((rc = tagged ? ep.tsend(tx, 0, size, txDesc, peer, TAG, 1) : ep.send(tx, 0, size, txDesc, peer, 1)) ==
            -Errno.FI_EAGAIN)
        {
            poll(txcq, 0);
        }
        check(rc, "fi_send");
    }

    /**
     * Wait for {@code n} receive completions.
     *
     * @param n how many.
     */
    void awaitRx(final int n)
    {
        await(rxcq, n);
    }

    /** Post the receive of the next message (the whole buffer). */
    void postRecv()
    {
        long rc;
        while ((rc = tagged ? ep.trecv(rx, 0, rx.capacity(), rxDesc, -1L, TAG, 0, 2) :
            ep.recv(rx, 0, rx.capacity(), rxDesc, -1L, 2)) == -Errno.FI_EAGAIN)
        {
            poll(rxcq, 0);
        }
        check(rc, "fi_recv");
    }

    /**
     * Send {@code size} bytes of the transmit buffer: inject below inject_size (no completion), else send and wait
     * for its completion, as fi_pingpong.
     */
    void send(final int size)
    {
        if (size < info.txAttr().injectSize())
        {
            long rc;
            while ((rc = tagged ? ep.tinject(tx, 0, size, peer, TAG) : ep.inject(tx, 0, size, peer)) ==
                -Errno.FI_EAGAIN)
            {
                poll(txcq, 0);
            }
            check(rc, "fi_inject");
            return;
        }
        long rc;
        while ((rc = tagged ? ep.tsend(tx, 0, size, txDesc, peer, TAG, 1) : ep.send(tx, 0, size, txDesc, peer, 1)) ==
            -Errno.FI_EAGAIN)
        {
            poll(txcq, 0);
        }
        check(rc, "fi_send");
        awaitTx(1);
    }

    /** Wait for {@code n} transmit completions. */
    void awaitTx(final int n)
    {
        await(txcq, n);
    }

    /** Wait for one receive completion; @return its length. */
    long awaitRx()
    {
        await(rxcq, 1);
        return entries.len[0];
    }

    private void await(final CompletionQueue cq, final int n)
    {
        int got = 0;
        long last = System.nanoTime();
        while (got < n)
        {
            final int rc = poll(cq, n - got);
            if (rc > 0)
            {
                got += rc;
                last = System.nanoTime();
            }
            else if (System.nanoTime() - last > NO_PROGRESS_NS)
            {
                throw new FabricException(Errno.FI_ETIMEDOUT, "no completion for 120 s");
            }
        }
    }

    private int poll(final CompletionQueue cq, final int n)
    {
        final int rc = cq.read(entries, Math.max(1, Math.min(16, n)));
        if (rc > 0 || rc == -Errno.FI_EAGAIN)
        {
            return Math.max(rc, 0);
        }
        if (rc == -Errno.FI_EAVAIL)
        {
            cq.readErr(error, 0);
            throw new FabricException(error.err, "completion error: " + Errno.name(error.err) + ": " +
                cq.strerror(error.provErrno, Arrays.copyOf(error.errData, error.errDataSize)));
        }
        throw new FabricException(-rc, "fi_cq_read: " + Errno.name(-rc));
    }

    private static void check(final long rc, final String call)
    {
        if (rc != 0)
        {
            throw new FabricException((int)-rc, call + ": " + Errno.name((int)-rc));
        }
    }

    /** Send fi_pingpong's closing "fin" message and wait for the peer's. */
    void finish()
    {
        tx.put(0, "fin\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        long rc;
        while ((rc = tagged ? ep.tsend(tx, 0, 4, txDesc, peer, TAG, 1) : ep.send(tx, 0, 4, txDesc, peer, 1)) ==
            -Errno.FI_EAGAIN)
        {
            poll(txcq, 0);
        }
        check(rc, "fi_send(fin)");
        awaitTx(1);
        awaitRx();
    }

    @Override
    public void close()
    {
        ep.close();
        if (txMr != null)
        {
            txMr.close();
            rxMr.close();
        }
        av.close();
        txcq.close();
        rxcq.close();
        domain.close();
        fabric.close();
    }
}
