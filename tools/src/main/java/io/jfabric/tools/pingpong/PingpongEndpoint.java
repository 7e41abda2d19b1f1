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

import io.jfabric.Addresses;
import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.MessageClaim;
import io.jfabric.MrIov;
import io.jfabric.ShareableMemory;
import io.jfabric.WaitObj;
import io.jfabric.shm.mr.ShmShareableMemory;
import io.jfabric.shm.stat.RegionBacked;
import io.jfabric.tools.SpinPatience;
import org.agrona.concurrent.IdleStrategy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * One side's libfabric objects for a pingpong or a bw, opened as a libfabric application opens them: from the info
 * fi_getinfo returned ({@link PingpongProvider}: FI_EP_RDM, the mode's capabilities, the named domain,
 * FI_PROGRESS_MANUAL, FI_THREAD_DOMAIN, the provider of {@code -p}), fi_fabric, domain, an unnamed AV into which the
 * peer's address is inserted, one CQ (FI_CQ_FORMAT_MSG, no wait object) bound for FI_TRANSMIT | FI_RECV, and the
 * endpoint; plus the transmit and receive buffers in shareable memory, the transmit one registered for FI_SEND
 * (provider keys, FI_MR_PROV_KEY) and its descriptor passed with every send, so that large messages take the
 * provider's one-copy rendezvous (unless {@code --unregistered}: then they are copied through the provider's
 * segmentation).
 * <p>
 * Buffers are slots as large as the largest size. The receive buffer's slot 0 takes a pingpong's messages and
 * every control message; a bw's messages go to data slots after it, one per transfer of the window ({@link
 * #dataSlots()}, at most {@link #RX_AREA_BYTES} in all, reused in turn beyond that). The one-sided modes
 * ({@link TransferMode#oneSided()}) have a memory of their own and their operations in {@link #oneSided()}
 * ({@link OneSidedOps}), so no one-sided operation ever touches a buffer a posted receive owns.
 * <p>
 * The data-path methods ({@link #postRecv}, {@link #send}, {@link #postSend}, {@link #awaitRx}, {@link #awaitTx},
 * {@link #verify}, and {@link OneSidedOps}'s) poll the CQ (manual progress: reading it is what drains the endpoint's receive ring), waiting
 * between empty polls as {@code --idle} says ({@link IdleMode}: a busy spin by default), allocate nothing, and return
 * 0 or a negated errno; on an error, {@link #failure()} says what failed. One thread (the run's) uses an instance.
 */
final class PingpongEndpoint implements AutoCloseable
{
    /** Context of every send. */
    static final long TX_CONTEXT = 1;
    /** Context of every posted receive. */
    static final long RX_CONTEXT = 2;
    /** Room for the control messages (hello, its answer, fin), at least. */
    static final int CTRL_BYTES = 256;
    /** The most bytes a bw's receive slots take together, unless one slot is larger: 64 MiB. */
    static final int RX_AREA_BYTES = 64 << 20;
    /** Access of the one-sided modes' registered memory. */
    static final long REGION_ACCESS = Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE;
    /** The start of {@link OneSidedOps#regionText()}. */
    static final String REGION_PREFIX = "mr ";


    private final PingpongOptions options;
    private final Info info;
    private final Consumer<Path> created;
    private final SpinPatience patience;
    private final IdleStrategy idleStrategy;
    private final CqEntries entries = new CqEntries(8);
    private final CqErrEntry errEntry = new CqErrEntry();
    private final ByteBuffer ctrl = ByteBuffer.allocateDirect(CTRL_BYTES);
    private final byte[] ctrlBytes = new byte[CTRL_BYTES];

    private Fabric fabric;
    private Domain domain;
    private AddressVector av;
    private CompletionQueue cq;
    private Endpoint ep;
    private ShareableMemory txMemory;
    private ShareableMemory rxMemory;
    private MemoryRegion txRegion;
    private OneSidedOps oneSided;
    private long txDesc;
    private ByteBuffer tx;
    private ByteBuffer rx;
    private int rxCapacity;
    private int dataSlots;
    private MessageClaim claim;
    private long injectSize;
    private long maxMsgSize;
    private long peer = Addresses.FI_ADDR_NOTAVAIL;
    private long txDone;
    private long txPosted;
    private long rxDone;
    private long rxAwaited;
    private long rxBytes;
    private long lastRxLength;
    private boolean repostDue;
    private String failure;

    private PingpongEndpoint(final Info info, final PingpongOptions options, final Consumer<Path> created)
    {
        this.info = info;
        this.options = options;
        this.created = created;
        this.patience = new SpinPatience(options.timeoutSeconds() * 1_000_000_000L);
        this.idleStrategy = options.idle().strategy();
    }

    /**
     * Open everything and enable the endpoint.
     *
     * @param info    what fi_getinfo returned for pingpong's hints ({@link PingpongProvider#info()}).
     * @param options the run's settings.
     * @param created told of every file this open creates, as soon as it exists (before a later step can fail): the
     *                domain's region file when this open created it, and the two shareable-memory segments.
     * @return the endpoint, enabled, with no receive posted yet.
     * @throws FabricException from the control calls, everything opened so far closed again.
     */
    static PingpongEndpoint open(final Info info, final PingpongOptions options, final Consumer<Path> created)
    {
        final PingpongEndpoint endpoint = new PingpongEndpoint(info, options, created);
        try
        {
            endpoint.openAll();
            return endpoint;
        }
        catch (final RuntimeException ex)
        {
            endpoint.close();
            throw ex;
        }
    }

    private void openAll()
    {
        injectSize = info.txAttr().injectSize();
        maxMsgSize = info.epAttr().maxMsgSize();
        fabric = Fabrics.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        if (domain instanceof RegionBacked)
        {
            final RegionBacked region = (RegionBacked)domain;
            if (region.createdRegion())
            {
                created.accept(region.regionFile());
            }
        }
        av = domain.avOpen(new AvAttr().type(AvType.TABLE).count(4), 0);
        cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG).waitObj(WaitObj.NONE), 0);
        ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        claim = ep.messageClaim();

        final long largest = Math.min(options.sizes().within(maxMsgSize).max(), maxMsgSize);
        final int bytes = (int)Math.max(largest, CTRL_BYTES);
        final TransferMode mode = options.mode();
        final boolean windowed = options.window() > 1 || options.tool() == PerfTool.BW;
        dataSlots = windowed ? Math.max(1, Math.min(options.window(), RX_AREA_BYTES / bytes)) : 1;
        final int rxSlotCount = windowed && !mode.oneSided() ? 1 + dataSlots : 1;
        txMemory = domain.allocShareable(bytes);
        createdSegment(txMemory);
        rxMemory = domain.allocShareable((long)rxSlotCount * bytes);
        createdSegment(rxMemory);
        if (options.registered())
        {
            txRegion = domain.mrRegv(new MrIov[]{MrIov.of(txMemory, 0, bytes)}, Flags.FI_SEND, 0, 0, 0, 0);
            txDesc = txRegion.desc();
        }
        tx = txMemory.buffer();
        rx = rxMemory.buffer();
        rxCapacity = bytes;
        if (mode.oneSided())
        {
            final boolean read = mode == TransferMode.READ;
            oneSided = new OneSidedOps(this, ep, tx, read ? dataSlots : 1, bytes, read, this::createdSegment);
        }
        fillTransmit();
    }

    void createdSegment(final ShareableMemory memory)
    {
        if (memory instanceof ShmShareableMemory)
        {
            created.accept(((ShmShareableMemory)memory).segment().path());
        }
    }

    /**
     * @param index a byte's index in a message.
     * @return the byte every message carries there, for {@code -c}.
     */
    static byte pattern(final int index)
    {
        return (byte)(index * 7 + 13);
    }

    /**
     * @param size bytes of a write ping-pong's message, at least 1.
     * @return where in the message its sequence number goes: the last 8-byte-aligned word that lies wholly in it, or
     * for fewer than 8 bytes the last byte.
     */
    static int sequenceOffset(final int size)
    {
        return size >= Long.BYTES ? (size - Long.BYTES) & ~(Long.BYTES - 1) : size - 1;
    }

    /**
     * @param sequence a write ping-pong's sequence number, from 1.
     * @return the byte that stands for it in a message of fewer than 8 bytes: 1 to 255, never 0 (the cleared value),
     * and never the previous number's byte.
     */
    static byte sequenceByte(final long sequence)
    {
        return (byte)(1 + sequence % 255);
    }

    /**
     * Put {@link #pattern} in every byte of the transmit buffer: at the start, and before each size of a write
     * ping-pong (whose sequence numbers an earlier size left in it).
     */
    void fillTransmit()
    {
        for (int i = 0; i < rxCapacity; i++)
        {
            tx.put(i, pattern(i));
        }
    }

    /** @return the one-sided modes' memory and operations ({@link TransferMode#oneSided()}), else null. */
    OneSidedOps oneSided()
    {
        return oneSided;
    }

    /** @return the peer's fi_addr. */
    long peer()
    {
        return peer;
    }

    /** @return {@link #txPosted()} after counting one more operation with a completion to come. */
    long posted()
    {
        return ++txPosted;
    }

    /** @return fi_getname as text. */
    String address()
    {
        final byte[] name = ep.getname();
        int length = 0;
        while (length < name.length && name[length] != 0)
        {
            length++;
        }
        return new String(name, 0, length, StandardCharsets.US_ASCII);
    }

    /**
     * fi_av_insert the peer's address; later sends go to it.
     *
     * @param address the peer's fi_getname text.
     */
    void insertPeer(final String address)
    {
        final long[] fiAddr = new long[1];
        final int inserted = av.insert(new String[]{address}, 1, fiAddr, 0, 0);
        if (inserted != 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insert: the peer's address '" + address +
                "' was not inserted (" + inserted + " inserted)");
        }
        peer = fiAddr[0];
    }

    /**
     * @return the domain this endpoint is attached to, for more endpoints of the same run ({@link Crowd}), which must
     * be closed before this.
     */
    Domain domain()
    {
        return domain;
    }

    /** @return the endpoint's max_msg_size. */
    long maxMsgSize()
    {
        return maxMsgSize;
    }

    /** @return the endpoint's inject_size. */
    long injectSize()
    {
        return injectSize;
    }

    /** @return what made the last data-path call fail. */
    String failure()
    {
        return failure;
    }

    /** @return receive completions so far. */
    long rxDone()
    {
        return rxDone;
    }

    /** @return bytes of every receive completed so far. */
    long rxBytes()
    {
        return rxBytes;
    }

    /** @return sends and one-sided operations handed over with a completion to come, so far. */
    long txPosted()
    {
        return txPosted;
    }

    /**
     * @return the slots of a bw's window: its data receives, or its reads' landing places, up to the window's count
     * (reused in turn when the window has more transfers than slots); 1 for a pingpong.
     */
    int dataSlots()
    {
        return dataSlots;
    }

    /** @return the bytes of a receive slot: the largest size, at least {@link #CTRL_BYTES}. */
    int slotBytes()
    {
        return rxCapacity;
    }

    /** @return the length of the last message received. */
    long lastRxLength()
    {
        return lastRxLength;
    }

    /**
     * Post the receive buffer (its whole capacity) for the next message.
     *
     * @return 0 or a negated errno.
     */
    long postRecv()
    {
        return postRecvAt(0);
    }

    /**
     * Post data slot {@code slot} of a bw receiver (its whole capacity) for a message.
     *
     * @param slot from 0 to {@link #dataSlots()} - 1.
     * @return 0 or a negated errno.
     */
    long postDataRecv(final int slot)
    {
        return postRecvAt((1 + slot) * rxCapacity);
    }

    private long postRecvAt(final int offset)
    {
        startWait();
        while (true)
        {
            final long rc = options.mode() == TransferMode.TAGGED ?
                ep.trecv(rx, offset, rxCapacity, 0, Addresses.FI_ADDR_UNSPEC, TransferMode.TAG, 0, RX_CONTEXT) :
                ep.recv(rx, offset, rxCapacity, 0, Addresses.FI_ADDR_UNSPEC, RX_CONTEXT);
            if (rc != -Errno.FI_EAGAIN)
            {
                return rc < 0 ? fail(rc, "fi_recv") : 0;
            }
            final long idle = idle(poll(), "fi_recv: still FI_EAGAIN");
            if (idle < 0)
            {
                return idle;
            }
        }
    }

    /**
     * Re-post the receive buffer, but not now: right after the next send is handed to the provider (so the post is
     * not between a message's arrival and the answer to it: the peer's answer is at least a round trip away), or at
     * the start of the next wait for a message, whichever comes first. The buffer keeps the message just received
     * until then.
     */
    void repostLater()
    {
        repostDue = true;
    }

    private long repostIfDue()
    {
        if (!repostDue)
        {
            return 0;
        }
        repostDue = false;
        return postRecv();
    }

    /**
     * Send {@code size} bytes of the transmit buffer to the peer, as fi_pingpong does: fi_inject below inject_size
     * (no completion), else fi_send and wait for its completion; with the claim mode, claim + copy + commit up to
     * inject_size. Retries on FI_EAGAIN, progressing the CQ in between.
     *
     * @param size bytes.
     * @return 0 or a negated errno.
     */
    long send(final int size)
    {
        return send(tx, txDesc, size);
    }

    /**
     * Send a control text (hello, its answer, fin) through the same path as the data.
     *
     * @param text at most {@link #CTRL_BYTES} US-ASCII characters.
     * @return 0 or a negated errno.
     */
    long sendText(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        final int length = Math.min(bytes.length, CTRL_BYTES);
        ctrl.put(0, bytes, 0, length);
        return send(ctrl, 0, length);
    }

    /** @return the last message received, as text. */
    String receivedText()
    {
        final int length = (int)Math.min(lastRxLength, CTRL_BYTES);
        rx.get(0, ctrlBytes, 0, length);
        return new String(ctrlBytes, 0, length, StandardCharsets.US_ASCII);
    }

    /**
     * Hand a send of {@code size} bytes of the transmit buffer to the provider without waiting for its completion (a
     * bw's window): as {@link #send(int)} otherwise; {@link #awaitTx} with {@link #txPosted()} waits for every
     * completion due.
     *
     * @param size bytes.
     * @return 0 or a negated errno.
     */
    long postSend(final int size)
    {
        return send(tx, txDesc, size, false);
    }

    private long send(final ByteBuffer buffer, final long desc, final int size)
    {
        return send(buffer, desc, size, true);
    }

    private long send(final ByteBuffer buffer, final long desc, final int size, final boolean complete)
    {
        final TransferMode mode = options.mode();
        final boolean claimed = mode == TransferMode.CLAIM && size <= injectSize;
        final boolean inject = size < injectSize;
        startWait();
        while (true)
        {
            final long rc;
            if (claimed)
            {
                rc = ep.claim(peer, size, 0, 0, 0);
                if (rc == 0)
                {
                    claim.buffer().put(claim.offset(), buffer, 0, size);
                    final long committed = claim.commit();
                    if (committed != 0)
                    {
                        return fail(committed, "MessageClaim.commit");
                    }
                    return repostIfDue();
                }
            }
            else if (inject)
            {
                rc = mode == TransferMode.TAGGED ?
                    ep.tinject(buffer, 0, size, peer, TransferMode.TAG) : ep.inject(buffer, 0, size, peer);
                if (rc == 0)
                {
                    return repostIfDue();
                }
            }
            else
            {
                rc = mode == TransferMode.TAGGED ?
                    ep.tsend(buffer, 0, size, desc, peer, TransferMode.TAG, TX_CONTEXT) :
                    ep.send(buffer, 0, size, desc, peer, TX_CONTEXT);
                if (rc == 0)
                {
                    txPosted++;
                    final long reposted = repostIfDue();
                    return reposted != 0 || !complete ? reposted : awaitTx(txPosted);
                }
            }
            if (rc != -Errno.FI_EAGAIN)
            {
                return fail(rc, claimed ? "Endpoint.claim" : inject ? "fi_inject" : "fi_send");
            }
            final long idle = idle(poll(), "sending: still FI_EAGAIN");
            if (idle < 0)
            {
                return idle;
            }
        }
    }

    /**
     * Poll the CQ until {@code target} receives have completed.
     *
     * @param target receive completions to reach.
     * @return 0 or a negated errno.
     */
    long awaitRx(final long target)
    {
        rxAwaited = Math.max(rxAwaited, target);
        final long reposted = repostIfDue();
        if (reposted != 0)
        {
            return reposted;
        }
        startWait();
        while (rxDone < target)
        {
            final long idle = idle(poll(), "no message from the peer");
            if (idle < 0)
            {
                return idle;
            }
        }
        return 0;
    }

    /**
     * Wait for the next message: {@link #awaitRx} for one more receive than awaited so far.
     *
     * @return 0 or a negated errno.
     */
    long awaitNextRx()
    {
        return awaitRx(rxAwaited + 1);
    }

    /**
     * Poll the CQ until {@code target} sends and one-sided operations have completed.
     *
     * @param target transmit completions to reach ({@link #txPosted()} for all so far).
     * @return 0 or a negated errno.
     */
    long awaitTx(final long target)
    {
        startWait();
        while (txDone < target)
        {
            final long idle = idle(poll(), "no send completion");
            if (idle < 0)
            {
                return idle;
            }
        }
        return 0;
    }

    /** A wait starts: its timeout from now, and the idle strategy from its first step (a backoff from scratch). */
    void startWait()
    {
        patience.reset();
        idleStrategy.reset();
    }

    /**
     * After a poll: pass on its error, wait as {@code --idle} says when it found nothing (a spin by default), and give
     * up once nothing has happened for the timeout (the clock is read every {@link SpinPatience#POLLS_PER_CLOCK_CHECK}
     * empty polls only).
     *
     * @param polled what {@link #poll} returned.
     * @param what   what was awaited, for the failure.
     * @return 0 to go on, or a negated errno.
     */
    long idle(final int polled, final String what)
    {
        if (polled < 0)
        {
            return polled;
        }
        if (polled > 0)
        {
            patience.reset();
            idleStrategy.reset();
            return 0;
        }
        if (patience.exhausted())
        {
            return fail(-Errno.FI_ETIMEDOUT, what + " in " + options.timeoutSeconds() + " s");
        }
        idleStrategy.idle();
        return 0;
    }

    /**
     * Progress once (manual progress: sends still queued in the provider go out only while the CQ is read).
     *
     * @return completions read, or a negated errno.
     */
    int progress()
    {
        return poll();
    }

    /**
     * Check the last received message: its length is {@code size} and every byte is {@link #pattern}.
     *
     * @param size the length expected.
     * @return 0, or {@code -FI_EIO} naming the first wrong byte.
     */
    long verify(final int size)
    {
        if (lastRxLength != size)
        {
            return fail(-Errno.FI_EIO, "-c: received " + lastRxLength + " bytes, expected " + size);
        }
        return verify(rx, 0, size, -1, "a message");
    }

    /**
     * Check data slot {@code slot} of a bw receiver: its first {@code size} bytes are {@link #pattern}.
     *
     * @param slot from 0 to {@link #dataSlots()} - 1.
     * @param size bytes.
     * @return 0, or {@code -FI_EIO} naming the first wrong byte.
     */
    long verifyDataSlot(final int slot, final int size)
    {
        return verify(rx, (1 + slot) * rxCapacity, size, -1, "a received message");
    }

    /** @return whether a wait has found nothing for the timeout (a wait that polls no CQ). */
    boolean patienceExhausted()
    {
        return patience.exhausted();
    }

    /** Idle once, as {@code --idle} says (a wait that polls no CQ). */
    void idleOnce()
    {
        idleStrategy.idle();
    }

    long verify(final ByteBuffer buffer, final int offset, final int size, final int skip, final String what)
    {
        final int i = firstWrong(buffer, offset, size, skip);
        if (i >= 0)
        {
            return fail(-Errno.FI_EIO, "-c: byte " + i + " of " + what + " of " + size + " bytes is " +
                buffer.get(offset + i) + ", expected " + pattern(i));
        }
        return 0;
    }

    static int firstWrong(final ByteBuffer buffer, final int offset, final int size, final int skip)
    {
        for (int i = 0; i < size; i++)
        {
            if (buffer.get(offset + i) != pattern(i) && (skip < 0 || i < skip || i >= skip + sequenceLength(size)))
            {
                return i;
            }
        }
        return -1;
    }

    private static int sequenceLength(final int size)
    {
        return size >= Long.BYTES ? Long.BYTES : 1;
    }

    int poll()
    {
        final int read = cq.read(entries, entries.capacity());
        if (read > 0)
        {
            for (int i = 0; i < read; i++)
            {
                if (entries.opContext[i] == RX_CONTEXT)
                {
                    rxDone++;
                    lastRxLength = entries.len[i];
                    rxBytes += lastRxLength;
                }
                else
                {
                    txDone++;
                }
            }
            return read;
        }
        if (read == -Errno.FI_EAGAIN)
        {
            return 0;
        }
        if (read == -Errno.FI_EAVAIL && cq.readErr(errEntry, 0) == 1)
        {
            return (int)fail(-errEntry.err, "fi_cq_read: error completion " + errEntry + " (" +
                cq.strerror(errEntry.provErrno, errEntry.errData) + ")");
        }
        return (int)fail(read, "fi_cq_read");
    }

    long fail(final long rc, final String what)
    {
        failure = what + ": " + rc + " (" + Errno.strerror((int)-rc) + ")";
        return rc;
    }

    /**
     * Close everything opened, in reverse order; idempotent.
     */
    @Override
    public void close()
    {
        RuntimeException first = null;
        final AutoCloseable[] opened = {ep, cq, av, txRegion, oneSided, txMemory, rxMemory, domain, fabric};
        for (final AutoCloseable closeable : opened)
        {
            if (closeable != null)
            {
                try
                {
                    closeable.close();
                }
                catch (final RuntimeException ex)
                {
                    first = first == null ? ex : first;
                }
                catch (final Exception ex)
                {
                    first = first == null ? new IllegalStateException(ex) : first;
                }
            }
        }
        ep = null;
        cq = null;
        av = null;
        txRegion = null;
        oneSided = null;
        txMemory = null;
        rxMemory = null;
        domain = null;
        fabric = null;
        if (first != null)
        {
            throw first;
        }
    }
}
