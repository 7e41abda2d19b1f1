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
package io.jfabric.shm.soak;

import io.jfabric.AddressVector;
import io.jfabric.Addresses;
import io.jfabric.AvAttr;
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
import io.jfabric.MrIov;
import io.jfabric.Msg;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;
import io.jfabric.shm.ep.ShmEndpoint;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

/**
 * One process of the fault soak ({@link SoakTest}): plays logical peer {@code n} of the named domain with one RDM
 * endpoint (manual progress, one thread), sends checksummed {@link SoakMessage}s of varied sizes to the other peers
 * as fast as they take them and checks every message it receives ({@link ReceiveLedger}).
 * <p>
 * Arguments: domain name, logical peer number, number of peers, control directory, seed. The provider's settings
 * (root, liveness timeout) come from {@code -Djfabric.shm.*}.
 * <p>
 * What it sends, to a peer drawn at random: injects (up to inject_size), sends that fit one lane record, segmented
 * sends (above the lane's inline limit, through the pending-send queue), rendezvous sends from registered shareable
 * memory, and sends with FI_DELIVERY_COMPLETE. Every message names its sender instance and the receiver instance it
 * is meant for (the one whose address the sender resolved), and carries a sequence number per (sender instance,
 * receiver instance), given out only when the provider takes the send.
 * <p>
 * Peers are found through {@link PeerRegistry}: this process takes its predecessor's slot (fi_setname with the
 * address in its registry file), then publishes its own address; it rereads the other peers' files every
 * {@value #REGISTRY_PERIOD_MS} ms and inserts a restarted peer's new address into its AV. A send refused with
 * -FI_EHOSTUNREACH marks the peer unreachable until its file names a new instance.
 * <p>
 * Files it writes in the control directory, named by its instance id in hex:
 * <ul>
 *   <li>{@code <id>.journal}, appended as things happen (so what a SIGKILLed instance saw survives it):
 *   {@code start}, {@code target} (a peer's new instance), {@code senterr R SEQ ERRNO} (a send that completed in
 *   error), {@code gap S FROM TO}, {@code bad corrupted|duplicate|wrong S SEQ LEN}, {@code aborted ERRNO LEN} (a
 *   receive that completed in error), and every second a {@code stat} line with running totals;</li>
 *   <li>{@code <id>.sent}, at {@code quiesce}: one {@code send} line per receiver instance;</li>
 *   <li>{@code <id>.report}, at {@code finish}: the {@code send} lines, one {@code recv} line per sender instance,
 *   and a {@code totals} line.</li>
 * </ul>
 * Commands on standard input: {@code quiesce} (send nothing new; once every send has completed, or after
 * {@value #QUIESCE_TIMEOUT_MS} ms, write the .sent file and print {@code result phase=quiesced ...}), {@code expect S SEQ}
 * (before finishing, wait until the message SEQ from sender instance S has arrived), {@code finish} (once every
 * expectation is met, or after {@value #FINISH_TIMEOUT_MS} ms, write the report, print {@code result phase=done ...}, close
 * everything and exit 0). It keeps receiving and checking until then.
 * <p>
 * With {@code -D}{@value #BREAK_PROPERTY} set it misbehaves on purpose, once every {@value #BREAK_EVERY} messages,
 * to prove the checks catch it (never in a normal run): {@code stamp} names the wrong receiver instance,
 * {@code corrupt} flips a byte after the CRC was computed, {@code skip} skips a sequence number, {@code dup} injects
 * a message twice.
 */
public final class SoakPeerMain
{
    /** System property naming a deliberate misbehaviour: stamp, corrupt, skip or dup. */
    static final String BREAK_PROPERTY = "jfabric.soak.break";
    /** One message in this many misbehaves in a broken mode. */
    static final int BREAK_EVERY = 997;
    /** Largest soak message. */
    static final int MAX_MESSAGE = 40 * 1024;

    private static final int PLAIN_SLOTS = 32;
    private static final int SHAREABLE_SLOTS = 16;
    private static final int RECEIVES = 32;
    private static final long RECV_CONTEXT = 1L << 40;
    private static final long SEND_CONTEXT = 2L << 40;
    private static final long REGISTRY_PERIOD_MS = 50;
    private static final long STAT_PERIOD_MS = 1_000;
    private static final long QUIESCE_TIMEOUT_MS = 30_000;
    private static final long FINISH_TIMEOUT_MS = 30_000;

    private static final int INJECT = 0;
    private static final int SEND = 1;
    private static final int SEGMENTED = 2;
    private static final int RENDEZVOUS = 3;
    private static final int DELIVERY = 4;
    private static final String[] KIND_NAMES = { "inject", "send", "segmented", "rendezvous", "delivery" };

    private final int logical;
    private final int peers;
    private final long instance;
    private final PeerRegistry registry;
    private final Path controlDir;
    private final String breakMode;
    private final SplittableRandom random;
    private final Writer journal;
    private final CRC32C crc = new CRC32C();
    private final ReceiveLedger received;
    private final Map<Long, SendLedger> ledgers = new LinkedHashMap<>();

    private final Endpoint ep;
    private final CompletionQueue cq;
    private final AddressVector av;
    private final int injectSize;
    private final int inlineLimit;
    private final ByteBuffer plain = ByteBuffer.allocateDirect(PLAIN_SLOTS * MAX_MESSAGE);
    private final ByteBuffer shareable;
    private final long shareableDesc;
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(MAX_MESSAGE);
    private final ByteBuffer receives = ByteBuffer.allocateDirect(RECEIVES * MAX_MESSAGE);
    private final Msg msg = new Msg(1);
    private final CqEntries entries = new CqEntries(16);
    private final CqErrEntry err = new CqErrEntry();

    // Peers: who plays each logical peer now, its fi_addr, and whether it refused us.
    private final long[] targetInstance;
    private final long[] targetAddr;
    private final boolean[] unreachable;

    // Send slots: 0..PLAIN_SLOTS-1 in plain memory, then SHAREABLE_SLOTS in registered shareable memory.
    private final ArrayDeque<Integer> freePlain = new ArrayDeque<>();
    private final ArrayDeque<Integer> freeShareable = new ArrayDeque<>();
    private final SendLedger[] slotLedger = new SendLedger[PLAIN_SLOTS + SHAREABLE_SLOTS];
    private final long[] slotSeq = new long[PLAIN_SLOTS + SHAREABLE_SLOTS];
    private final int[] slotLength = new int[PLAIN_SLOTS + SHAREABLE_SLOTS];
    private final int[] slotKind = new int[PLAIN_SLOTS + SHAREABLE_SLOTS];
    private final long[] succeededByKind = new long[KIND_NAMES.length];
    private int outstanding;

    private final ArrayDeque<Integer> unposted = new ArrayDeque<>();
    private final Map<Long, Long> expectations = new HashMap<>();
    private boolean journalDirty;
    private long prepared;
    private long aborted;
    private long refused;
    private long eagain;
    private long sendErrors;

    private SoakPeerMain(
        final int logical,
        final int peers,
        final long instance,
        final Path controlDir,
        final long seed,
        final Endpoint ep,
        final CompletionQueue cq,
        final AddressVector av,
        final ShareableMemory memory,
        final long shareableDesc) throws IOException
    {
        this.logical = logical;
        this.peers = peers;
        this.instance = instance;
        this.controlDir = controlDir;
        this.registry = new PeerRegistry(controlDir);
        this.breakMode = System.getProperty(BREAK_PROPERTY, "");
        this.random = new SplittableRandom(seed ^ instance);
        this.journal = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(
            controlDir.resolve(Long.toHexString(instance) + ".journal"), StandardOpenOption.CREATE,
            StandardOpenOption.APPEND), StandardCharsets.US_ASCII));
        this.received = new ReceiveLedger(instance);
        this.ep = ep;
        this.cq = cq;
        this.av = av;
        this.injectSize = (int)ep.getOpt(Endpoint.FI_OPT_INJECT_MSG_SIZE);
        this.inlineLimit = ((ShmEndpoint)ep).inlineLimit();
        this.shareable = memory.buffer();
        this.shareableDesc = shareableDesc;
        targetInstance = new long[peers];
        targetAddr = new long[peers];
        unreachable = new boolean[peers];
        for (int i = 0; i < PLAIN_SLOTS; i++)
        {
            freePlain.add(i);
        }
        for (int i = 0; i < SHAREABLE_SLOTS; i++)
        {
            freeShareable.add(PLAIN_SLOTS + i);
        }
    }

    /**
     * @param args domain, logical peer number, number of peers, control directory, seed.
     * @throws Exception on any failure: the coordinator sees the output and the exit status.
     */
    public static void main(final String[] args) throws Exception
    {
        final String domainName = args[0];
        final int logical = Integer.parseInt(args[1]);
        final int peers = Integer.parseInt(args[2]);
        final Path controlDir = Path.of(args[3]);
        final long seed = Long.parseLong(args[4]);
        final long pid = ProcessHandle.current().pid();
        final long instance = (pid << 40) | (System.nanoTime() & ((1L << 40) - 1)) | 1;

        final LinkedBlockingQueue<String> commands = new LinkedBlockingQueue<>();
        final Thread reader = new Thread(() -> readCommands(commands), "stdin");
        reader.setDaemon(true);
        reader.start();

        final Info hints = new Info();
        hints.domainAttr().name(domainName);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final PeerRegistry registry = new PeerRegistry(controlDir);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            ShareableMemory memory = domain.allocShareable((long)SHAREABLE_SLOTS * MAX_MESSAGE);
            MemoryRegion mr = domain.mrRegv(new MrIov[] { MrIov.of(memory, 0, memory.length()) }, Flags.FI_SEND,
                0, instance, 0, 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            final PeerRegistry.Entry predecessor = registry.read(logical);
            String takeover = "none";
            if (predecessor != null)
            {
                try
                {
                    ep.setname(predecessor.address().getBytes(StandardCharsets.US_ASCII));
                    takeover = predecessor.address();
                }
                catch (final FabricException ex)
                {
                    takeover = "refused(" + Errno.name(ex.errno()) + ")";
                }
            }
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            final String address = new String(ep.getname(), StandardCharsets.US_ASCII);
            final SoakPeerMain peer = new SoakPeerMain(
                logical, peers, instance, controlDir, seed, ep, cq, av, memory, mr.desc());
            peer.line("start inst=" + instance + " logical=" + logical + " pid=" + pid + " addr=" + address +
                " predecessor=" + takeover + " inject=" + peer.injectSize + " inline=" + peer.inlineLimit +
                " break=" + peer.breakMode);
            peer.postReceives();
            registry.publish(logical, instance, address);
            System.out.println("result phase=ready inst=" + instance + " addr=" + address);
            System.out.flush();
            peer.run(commands);
            peer.journal.close();
        }
    }

    private static void readCommands(final LinkedBlockingQueue<String> commands)
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                commands.add(line.trim());
            }
        }
        catch (final IOException ignored)
        {
            // the coordinator is gone: it kills us, or we finish on our own below.
        }
        commands.add("eof");
    }

    private void run(final LinkedBlockingQueue<String> commands) throws IOException
    {
        boolean sending = true;
        boolean quiesced = false;
        boolean finishing = false;
        long quiesceDeadline = 0;
        long finishDeadline = 0;
        long nextRegistry = 0;
        long nextStat = System.currentTimeMillis() + STAT_PERIOD_MS;
        int idle = 0;
        while (true)
        {
            final long now = System.currentTimeMillis();
            final String command = commands.poll();
            if (command != null)
            {
                final String[] words = command.split(" ");
                switch (words[0])
                {
                    case "quiesce":
                        sending = false;
                        quiesceDeadline = now + QUIESCE_TIMEOUT_MS;
                        break;
                    case "expect":
                        expectations.put(Long.parseLong(words[1]), Long.parseLong(words[2]));
                        break;
                    case "finish":
                        finishing = true;
                        finishDeadline = now + FINISH_TIMEOUT_MS;
                        break;
                    case "eof":
                        line("eof: the coordinator went away");
                        journal.flush();
                        return;
                    default:
                        throw new IllegalStateException("unknown command " + command);
                }
            }
            if (now >= nextRegistry)
            {
                refreshTargets();
                nextRegistry = now + REGISTRY_PERIOD_MS;
            }
            int work = poll();
            if (sending)
            {
                work += trySend();
            }
            else if (!quiesced && (outstanding == 0 || now > quiesceDeadline))
            {
                quiesced = true;
                writeFile(".sent", sendLines());
                System.out.println("result phase=quiesced inst=" + instance + " unfinished=" + outstanding);
                System.out.flush();
            }
            if (finishing && quiesced && (expectationsMet() || now > finishDeadline))
            {
                finish();
                return;
            }
            if (now >= nextStat)
            {
                line("stat t=" + now + " recv=" + received.count() + " bytes=" + received.bytes() + " sent=" +
                    sentOk() + " senterr=" + sendErrors + kinds());
                nextStat = now + STAT_PERIOD_MS;
            }
            if (journalDirty)
            {
                journal.flush();
                journalDirty = false;
            }
            idle = work > 0 ? 0 : idle + 1;
            if (idle > 1_000)
            {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
            }
        }
    }

    private void finish() throws IOException
    {
        final StringBuilder report = new StringBuilder();
        report.append("instance ").append(instance).append(" logical=").append(logical).append('\n');
        report.append(sendLines());
        for (final Map.Entry<Long, ReceiveLedger.FromSender> e : received.senders().entrySet())
        {
            final ReceiveLedger.FromSender from = e.getValue();
            report.append("recv ").append(e.getKey()).append(" last=").append(from.last).append(" count=")
                .append(from.count).append(" bytes=").append(from.bytes).append(" dup=").append(from.duplicates)
                .append(" wrong=").append(from.wrongIncarnation).append(" gaps=").append(from.gaps).append('\n');
        }
        report.append("totals corrupted=").append(received.corrupted()).append(" aborted=").append(aborted)
            .append(" refused=").append(refused).append(" eagain=").append(eagain).append(" unfinished=")
            .append(outstanding).append(" unmet=").append(unmetExpectations()).append(kinds()).append('\n');
        writeFile(".report", report.toString());
        line("finish recv=" + received.count() + " sent=" + sentOk());
        journal.flush();
        System.out.println("result phase=done inst=" + instance + " recv=" + received.count());
        System.out.flush();
    }

    private String sendLines()
    {
        final StringBuilder b = new StringBuilder();
        for (final SendLedger l : ledgers.values())
        {
            b.append("send ").append(l.receiver).append(" posted=").append(l.posted).append(" ok=")
                .append(l.succeeded).append(" bytes=").append(l.bytes).append(" outstanding=").append(l.outstanding)
                .append(" failed=").append(l.failed).append(" last=").append(l.highestSucceeded()).append('\n');
        }
        return b.toString();
    }

    private void writeFile(final String suffix, final String text) throws IOException
    {
        final Path file = controlDir.resolve(Long.toHexString(instance) + suffix);
        final Path aside = controlDir.resolve("." + Long.toHexString(instance) + suffix);
        Files.writeString(aside, text, StandardCharsets.US_ASCII);
        Files.move(aside, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** @return " inject=N send=N ...": sends that succeeded, by path. */
    private String kinds()
    {
        final StringBuilder b = new StringBuilder();
        for (int i = 0; i < KIND_NAMES.length; i++)
        {
            b.append(' ').append(KIND_NAMES[i]).append('=').append(succeededByKind[i]);
        }
        return b.toString();
    }

    private boolean expectationsMet()
    {
        return unmetExpectations() == 0;
    }

    private int unmetExpectations()
    {
        int unmet = 0;
        for (final Map.Entry<Long, Long> e : expectations.entrySet())
        {
            if (received.last(e.getKey()) < e.getValue())
            {
                unmet++;
            }
        }
        return unmet;
    }

    private long sentOk()
    {
        long n = 0;
        for (final SendLedger l : ledgers.values())
        {
            n += l.succeeded;
        }
        return n;
    }

    private void line(final String text) throws IOException
    {
        journal.write(text);
        journal.write('\n');
        journalDirty = true;
    }

    // ------------------------------------------------------------------ peers

    private void refreshTargets() throws IOException
    {
        for (int k = 0; k < peers; k++)
        {
            if (k == logical)
            {
                continue;
            }
            final PeerRegistry.Entry entry = registry.read(k);
            if (entry != null && entry.instance() != targetInstance[k])
            {
                final long[] out = new long[1];
                final int n = av.insert(new String[] { entry.address() }, 1, out, 0, 0);
                if (n != 1)
                {
                    throw new IllegalStateException("av insert of " + entry.address() + " gave " + n);
                }
                targetInstance[k] = entry.instance();
                targetAddr[k] = out[0];
                unreachable[k] = false;
                ledgers.computeIfAbsent(entry.instance(), SendLedger::new);
                line("target logical=" + k + " inst=" + entry.instance() + " addr=" + entry.address() + " fi=" +
                    out[0]);
            }
        }
    }

    // ------------------------------------------------------------------ sending

    private int trySend() throws IOException
    {
        final int k = pickPeer();
        if (k < 0)
        {
            return 0;
        }
        final SendLedger ledger = ledgers.get(targetInstance[k]);
        final int pick = random.nextInt(100);
        final int kind = pick < 40 ? INJECT : pick < 65 ? SEND : pick < 80 ? SEGMENTED : pick < 92 ? RENDEZVOUS :
            DELIVERY;
        final int length;
        switch (kind)
        {
            case INJECT:
            case SEND:
                length = SoakMessage.HEADER_LENGTH + random.nextInt(injectSize - SoakMessage.HEADER_LENGTH + 1);
                break;
            case SEGMENTED:
                length = inlineLimit + 1 + random.nextInt(MAX_MESSAGE - inlineLimit);
                break;
            case RENDEZVOUS:
                length = 2048 + random.nextInt(MAX_MESSAGE - 2048 + 1);
                break;
            default:
                length = SoakMessage.HEADER_LENGTH + random.nextInt(16 * 1024);
                break;
        }
        final boolean broken = !breakMode.isEmpty() && ++prepared % BREAK_EVERY == 0;
        if (broken && "skip".equals(breakMode))
        {
            ledger.next(); // a number never sent and never failed: the receiver sees a gap nothing explains
        }
        final long seq = ledger.posted + 1;
        final long stamped = broken && "stamp".equals(breakMode) ? ledger.receiver ^ 2 : ledger.receiver;

        if (kind == INJECT)
        {
            SoakMessage.write(scratch, 0, length, instance, stamped, seq, crc);
            corruptIfBroken(broken, scratch, 0, length);
            final long rc = ep.inject(scratch, 0, length, targetAddr[k]);
            if (rc == 0)
            {
                ledger.next();
                ledger.succeeded(length);
                succeededByKind[INJECT]++;
                if (broken && "dup".equals(breakMode))
                {
                    ep.inject(scratch, 0, length, targetAddr[k]); // the same sequence number again
                }
                return 1;
            }
            return refusedSend(rc, k);
        }

        final ArrayDeque<Integer> pool = kind == RENDEZVOUS ? freeShareable : freePlain;
        final Integer slotBox = pool.poll();
        if (slotBox == null)
        {
            return 0;
        }
        final int slot = slotBox;
        final ByteBuffer buf = kind == RENDEZVOUS ? shareable : plain;
        final int offset = (kind == RENDEZVOUS ? slot - PLAIN_SLOTS : slot) * MAX_MESSAGE;
        SoakMessage.write(buf, offset, length, instance, stamped, seq, crc);
        corruptIfBroken(broken, buf, offset, length);
        final long rc;
        if (kind == DELIVERY)
        {
            msg.set(buf, offset, length, 0);
            msg.addr = targetAddr[k];
            msg.context = SEND_CONTEXT + slot;
            rc = ep.sendmsg(msg, Flags.FI_DELIVERY_COMPLETE | Flags.FI_COMPLETION);
        }
        else
        {
            rc = ep.send(buf, offset, length, kind == RENDEZVOUS ? shareableDesc : 0, targetAddr[k],
                SEND_CONTEXT + slot);
        }
        if (rc == 0)
        {
            slotLedger[slot] = ledger;
            slotSeq[slot] = ledger.next();
            slotLength[slot] = length;
            slotKind[slot] = kind;
            ledger.outstanding++;
            outstanding++;
            return 1;
        }
        pool.addFirst(slot);
        return refusedSend(rc, k);
    }

    private void corruptIfBroken(final boolean broken, final ByteBuffer buf, final int offset, final int length)
    {
        if (broken && "corrupt".equals(breakMode))
        {
            buf.put(offset + length - 1, (byte)~buf.get(offset + length - 1));
        }
    }

    private int pickPeer()
    {
        final int start = random.nextInt(peers);
        for (int i = 0; i < peers; i++)
        {
            final int k = (start + i) % peers;
            if (k != logical && targetInstance[k] != 0 && !unreachable[k])
            {
                return k;
            }
        }
        return -1;
    }

    private int refusedSend(final long rc, final int k) throws IOException
    {
        if (rc == -Errno.FI_EAGAIN)
        {
            eagain++;
            return 0;
        }
        if (rc == -Errno.FI_EHOSTUNREACH)
        {
            refused++;
            unreachable[k] = true;
            line("unreachable logical=" + k + " inst=" + targetInstance[k]);
            return 0;
        }
        throw new IllegalStateException("send to logical peer " + k + " returned " + rc + " (" +
            Errno.name((int)-rc) + ")");
    }

    // ------------------------------------------------------------------ completions

    private void postReceives()
    {
        for (int i = 0; i < RECEIVES; i++)
        {
            unposted.add(i);
        }
        repost();
    }

    private void repost()
    {
        while (!unposted.isEmpty())
        {
            final int i = unposted.peek();
            if (ep.recv(receives, i * MAX_MESSAGE, MAX_MESSAGE, 0, Addresses.FI_ADDR_UNSPEC, RECV_CONTEXT + i) != 0)
            {
                return;
            }
            unposted.poll();
        }
    }

    private int poll() throws IOException
    {
        final int n = cq.read(entries, entries.capacity());
        if (n > 0)
        {
            for (int i = 0; i < n; i++)
            {
                final long context = entries.opContext[i];
                if (context >= SEND_CONTEXT)
                {
                    sendCompleted((int)(context - SEND_CONTEXT), 0);
                }
                else
                {
                    receiveCompleted((int)(context - RECV_CONTEXT), (int)entries.len[i]);
                }
            }
            repost();
            return n;
        }
        if (n == -Errno.FI_EAVAIL)
        {
            if (cq.readErr(err, 0) == 1)
            {
                if (err.opContext >= SEND_CONTEXT)
                {
                    sendCompleted((int)(err.opContext - SEND_CONTEXT), err.err);
                }
                else
                {
                    aborted++;
                    line("aborted " + Errno.name(err.err) + " len=" + err.len);
                    unposted.add((int)(err.opContext - RECV_CONTEXT));
                    repost();
                }
            }
            return 1;
        }
        if (n != -Errno.FI_EAGAIN)
        {
            throw new IllegalStateException("cq read returned " + n);
        }
        return 0;
    }

    private void sendCompleted(final int slot, final int errno) throws IOException
    {
        final SendLedger ledger = slotLedger[slot];
        if (errno == 0)
        {
            ledger.succeeded(slotLength[slot]);
            succeededByKind[slotKind[slot]]++;
        }
        else
        {
            ledger.failed.add(slotSeq[slot]);
            sendErrors++;
            line("senterr " + ledger.receiver + " " + slotSeq[slot] + " " + Errno.name(errno));
        }
        ledger.outstanding--;
        outstanding--;
        slotLedger[slot] = null;
        (slot < PLAIN_SLOTS ? freePlain : freeShareable).add(slot);
    }

    private void receiveCompleted(final int index, final int length) throws IOException
    {
        final int offset = index * MAX_MESSAGE;
        final ReceiveLedger.Outcome outcome = received.accept(receives, offset, length);
        switch (outcome)
        {
            case IN_ORDER:
                break;
            case AFTER_GAP:
                line("gap " + SoakMessage.sender(receives, offset) + " " + received.lastGapFrom() + " " +
                    received.lastGapTo());
                break;
            case CORRUPTED:
                line("bad corrupted " + (length >= SoakMessage.HEADER_LENGTH ? SoakMessage.sender(receives, offset) +
                    " " + SoakMessage.sequence(receives, offset) : "? ?") + " " + length);
                break;
            case DUPLICATE:
                line("bad duplicate " + SoakMessage.sender(receives, offset) + " " +
                    SoakMessage.sequence(receives, offset) + " " + length);
                break;
            default:
                line("bad wrong " + SoakMessage.sender(receives, offset) + " " +
                    SoakMessage.sequence(receives, offset) + " " + length + " to=" +
                    SoakMessage.receiver(receives, offset));
                break;
        }
        unposted.add(index);
    }
}
