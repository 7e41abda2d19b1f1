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
package io.jfabric.tools.pingpong;

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.MrMode;
import io.jfabric.ShareableMemory;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;

/**
 * The one-sided modes' side of a {@link PingpongEndpoint} ({@link TransferMode#oneSided()}: write, read, atomic):
 * this side's memory registered for FI_REMOTE_READ | FI_REMOTE_WRITE ({@link #regionText()} says where, {@link
 * #insertPeerRegion} takes the peer's), whose start is what the peer writes into, reads from or adds to, and whose
 * slots (one per transfer of a bw's window) take this side's reads; and the operations on the peer's: fi_write,
 * fi_read, a write ping-pong's sequence numbers, fi_fetch_atomic. They wait through the endpoint's CQ and idle
 * strategy, return 0 or a negated errno as its data path does, and allocate nothing. One thread (the run's).
 */
final class OneSidedOps implements AutoCloseable
{
    private final PingpongEndpoint endpoint;
    private final Endpoint ep;
    private final ByteBuffer tx;
    private final UnsafeBuffer txView = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer rmaView = new UnsafeBuffer(0, 0);
    private final ByteBuffer operand = ByteBuffer.allocateDirect(Long.BYTES).order(ByteOrder.nativeOrder());
    private final ByteBuffer fetchedValue = ByteBuffer.allocateDirect(Long.BYTES).order(ByteOrder.nativeOrder());
    private final ShareableMemory rmaMemory;
    private final ByteBuffer rma;
    private final MemoryRegion region;
    private final long regionBase;
    private long peerKey;
    private long peerBase;

    /**
     * Allocate and register the memory: {@code slots} slots of {@code slotBytes}, filled with {@link
     * PingpongEndpoint#pattern} for a read mode (what the peer reads).
     *
     * @param endpoint  the endpoint whose peer the operations go to, and whose CQ they wait on.
     * @param ep        its libfabric endpoint (enabled).
     * @param tx        its transmit buffer: what a write sends.
     * @param slots     slots of the memory: a bw reader's window, else 1.
     * @param slotBytes bytes of a slot.
     * @param read      whether the peer reads this memory.
     * @param created   told of the shareable segment when it is a file of this run's.
     */
    OneSidedOps(final PingpongEndpoint endpoint, final Endpoint ep, final ByteBuffer tx, final int slots,
        final int slotBytes, final boolean read, final Consumer<ShareableMemory> created)
    {
        this.endpoint = endpoint;
        this.ep = ep;
        this.tx = tx;
        txView.wrap(tx);
        final Domain domain = endpoint.domain();
        final int rmaBytes = slots * slotBytes;
        rmaMemory = domain.allocShareable(rmaBytes);
        created.accept(rmaMemory);
        region = domain.mrRegv(new MrIov[]{MrIov.of(rmaMemory, 0, rmaBytes)}, PingpongEndpoint.REGION_ACCESS, 0, 0,
            0, 0);
        // fi_mr(3): with FI_MR_VIRT_ADDR a target address is the registrant's address, else an offset.
        regionBase = (domain.attr().mrMode() & MrMode.FI_MR_VIRT_ADDR) != 0 ? region.baseAddress() : 0;
        rma = rmaMemory.buffer();
        rmaView.wrap(rma);
        if (read)
        {
            for (int i = 0; i < slotBytes; i++)
            {
                rma.put(i, PingpongEndpoint.pattern(i));
            }
        }
        operand.putLong(0, 1);
    }

    /**
     * Zero the first {@code length} bytes of slot {@code slot} of the one-sided modes' memory, outside any timed
     * pass: where the peer writes, before it does (so that what lands can be told from what was there), or where this
     * side's reads land.
     *
     * @param slot   from 0 (the start, the peer's target) to {@link PingpongEndpoint#dataSlots()} - 1 in the read mode.
     * @param length bytes.
     */
    void clearRma(final int slot, final int length)
    {
        rmaView.setMemory(slot * endpoint.slotBytes(), length, (byte)0);
    }

    /**
     * @return the one-sided modes' registered memory as the control text the peer parses with
     * {@link #insertPeerRegion}: {@code mr key=<key> base=<address>}, the base 0 unless the domain works with
     * FI_MR_VIRT_ADDR.
     */
    String regionText()
    {
        return PingpongEndpoint.REGION_PREFIX + "key=" + region.key() + " base=" + regionBase;
    }

    /**
     * Take the peer's registered memory, from its {@link #regionText()}.
     *
     * @param text the peer's text.
     * @throws FabricException {@link Errno#FI_EINVAL} when it is not such a text.
     */
    void insertPeerRegion(final String text)
    {
        final String[] words = text.split(" ");
        if (words.length != 3 || !(words[0] + " ").equals(PingpongEndpoint.REGION_PREFIX) ||
            !words[1].startsWith("key=") ||
            !words[2].startsWith("base="))
        {
            throw new FabricException(Errno.FI_EINVAL, "the peer's memory region is not 'mr key=K base=B': '" +
                text + "'");
        }
        try
        {
            peerKey = Long.parseLong(words[1].substring(4));
            peerBase = Long.parseLong(words[2].substring(5));
        }
        catch (final NumberFormatException ex)
        {
            throw new FabricException(Errno.FI_EINVAL, "the peer's memory region: '" + text + "': " + ex);
        }
    }


    /** @return the value the last {@link #fetchAdd} found in the peer's word. */
    long fetched()
    {
        return fetchedValue.getLong(0);
    }


    /**
     * Write {@code size} bytes of the transmit buffer into the peer's registered memory at its start: fi_inject_write
     * below inject_size (no completion), else fi_write, its completion left for
     * {@link PingpongEndpoint#awaitTx}. Retries on
     * FI_EAGAIN, progressing the CQ in between.
     *
     * @param size bytes.
     * @return 0 or a negated errno.
     */
    long postWrite(final int size)
    {
        endpoint.startWait();
        while (true)
        {
            final boolean inject = size < endpoint.injectSize();
            final long rc = inject ?
                ep.injectWrite(tx, 0, size, endpoint.peer(), peerBase, peerKey) :
                ep.write(tx, 0, size, 0, endpoint.peer(), peerBase, peerKey,
                    PingpongEndpoint.TX_CONTEXT);
            if (rc == 0)
            {
                if (!inject)
                {
                    endpoint.posted();
                }
                return 0;
            }
            if (rc != -Errno.FI_EAGAIN)
            {
                return endpoint.fail(rc, inject ? "fi_inject_write" : "fi_write");
            }
            final long idle = endpoint.idle(endpoint.poll(), "fi_write: still FI_EAGAIN");
            if (idle < 0)
            {
                return idle;
            }
        }
    }

    /**
     * Read {@code size} bytes from the start of the peer's registered memory into slot {@code slot} of this side's
     * one-sided memory with fi_read, its completion left for {@link PingpongEndpoint#awaitTx}. Retries on FI_EAGAIN,
     * progressing the
     * CQ in between.
     *
     * @param slot from 0 to {@link PingpongEndpoint#dataSlots()} - 1.
     * @param size bytes.
     * @return 0 or a negated errno.
     */
    long postRead(final int slot, final int size)
    {
        endpoint.startWait();
        while (true)
        {
            final long rc = ep.read(rma, slot * endpoint.slotBytes(), size, 0, endpoint.peer(), peerBase,
                peerKey, PingpongEndpoint.TX_CONTEXT);
            if (rc == 0)
            {
                endpoint.posted();
                return 0;
            }
            if (rc != -Errno.FI_EAGAIN)
            {
                return endpoint.fail(rc, "fi_read");
            }
            final long idle = endpoint.idle(endpoint.poll(), "fi_read: still FI_EAGAIN");
            if (idle < 0)
            {
                return idle;
            }
        }
    }

    /**
     * One RMA read of {@code size} bytes into slot 0 of this side's one-sided memory, to its completion.
     *
     * @param size bytes.
     * @return 0 or a negated errno.
     */
    long read(final int size)
    {
        final long rc = postRead(0, size);
        return rc != 0 ? rc : endpoint.awaitTx(endpoint.txPosted());
    }

    /**
     * One write of a write ping-pong: {@code sequence} into the transmit buffer at
     * {@link PingpongEndpoint#sequenceOffset} (a word, or {@link PingpongEndpoint#sequenceByte} below 8 bytes), then
     * {@link #postWrite} of {@code size} bytes and its completion.
     *
     * @param size     bytes, at least 1.
     * @param sequence the number the peer waits for, from 1.
     * @return 0 or a negated errno.
     */
    long writeSequence(final int size, final long sequence)
    {
        final int at = PingpongEndpoint.sequenceOffset(size);
        if (size >= Long.BYTES)
        {
            txView.putLong(at, sequence);
        }
        else
        {
            txView.putByte(at, PingpongEndpoint.sequenceByte(sequence));
        }
        final long rc = postWrite(size);
        return rc != 0 ? rc : endpoint.awaitTx(endpoint.txPosted());
    }

    /**
     * Wait until the peer's write of {@code size} bytes with {@code sequence} has landed: its sequence word (or byte)
     * in this side's registered memory, read with volatile semantics, holds it. The CQ is not read: nothing
     * completes here; {@code --idle} and the timeout apply as to any wait.
     *
     * @param size     bytes, at least 1.
     * @param sequence the number awaited.
     * @return 0 or a negated errno.
     */
    long awaitSequence(final int size, final long sequence)
    {
        final int at = PingpongEndpoint.sequenceOffset(size);
        endpoint.startWait();
        if (size >= Long.BYTES)
        {
            while (rmaView.getLongVolatile(at) != sequence)
            {
                final long idle = endpoint.idle(0, "no write from the peer");
                if (idle < 0)
                {
                    return idle;
                }
            }
        }
        else
        {
            final byte expected = PingpongEndpoint.sequenceByte(sequence);
            while (rmaView.getByteVolatile(at) != expected)
            {
                final long idle = endpoint.idle(0, "no write from the peer");
                if (idle < 0)
                {
                    return idle;
                }
            }
        }
        return 0;
    }

    /**
     * Clear where a write ping-pong of {@code size} bytes puts its sequence number in this side's memory, before the
     * peer's first write of that size (whatever an earlier size left there could otherwise read as a number).
     *
     * @param size bytes, at least 1.
     */
    void clearSequence(final int size)
    {
        final int at = PingpongEndpoint.sequenceOffset(size);
        if (size >= Long.BYTES)
        {
            rmaView.putLongVolatile(at, 0);
        }
        else
        {
            rmaView.putByteVolatile(at, (byte)0);
        }
    }

    /**
     * fi_fetch_atomic of FI_UINT64 FI_SUM, operand 1, on the first word of the peer's registered memory, to its
     * completion; {@link #fetched()} is then the word's value before the add.
     *
     * @return 0 or a negated errno.
     */
    long fetchAdd()
    {
        endpoint.startWait();
        while (true)
        {
            final long rc = ep.fetchAtomic(operand, 0, 1, 0, fetchedValue, 0, 0, endpoint.peer(), peerBase,
                peerKey,
                AtomicDatatype.UINT64, AtomicOp.SUM, PingpongEndpoint.TX_CONTEXT);
            if (rc == 0)
            {
                return endpoint.awaitTx(endpoint.posted());
            }
            if (rc != -Errno.FI_EAGAIN)
            {
                return endpoint.fail(rc, "fi_fetch_atomic");
            }
            final long idle = endpoint.idle(endpoint.poll(), "fi_fetch_atomic: still FI_EAGAIN");
            if (idle < 0)
            {
                return idle;
            }
        }
    }


    /**
     * Check slot {@code slot} of the one-sided memory: its first {@code size} bytes are
     * {@link PingpongEndpoint#pattern}, but for a
     * write ping-pong's sequence number at {@code skip}.
     *
     * @param slot from 0 to {@link PingpongEndpoint#dataSlots()} - 1.
     * @param size bytes.
     * @param skip the index of a sequence number not to check ({@link PingpongEndpoint#sequenceOffset}), or -1.
     * @return 0, or {@code -FI_EIO} naming the first wrong byte.
     */
    long verifyRma(final int slot, final int size, final int skip)
    {
        return endpoint.verify(rma, slot * endpoint.slotBytes(), size, skip,
            skip < 0 ? "what was read or written" : "a write");
    }

    /**
     * Wait until the write ping-pong's message of {@code size} bytes in the one-sided memory is all there: every byte
     * {@link PingpongEndpoint#pattern} but the sequence number's. Seeing the sequence number does not mean the rest
     * has landed: the
     * peer's write is one memory copy, whose stores other processors may see in any order (a small copy may well
     * store its end first). Waits as {@link #awaitSequence} waits, up to the timeout.
     *
     * @param size bytes, at least 1.
     * @return 0, or {@code -FI_EIO} naming the first wrong byte when the timeout passed with it still wrong.
     */
    long awaitWritten(final int size)
    {
        final int skip = PingpongEndpoint.sequenceOffset(size);
        endpoint.startWait();
        while (PingpongEndpoint.firstWrong(rma, 0, size, skip) >= 0)
        {
            if (endpoint.patienceExhausted())
            {
                return verifyRma(0, size, skip);
            }
            endpoint.idleOnce();
        }
        return 0;
    }

    /**
     * Close the region, then the memory; idempotent through the endpoint's close, which calls this once.
     */
    @Override
    public void close()
    {
        try
        {
            region.close();
        }
        finally
        {
            rmaMemory.close();
        }
    }
}
