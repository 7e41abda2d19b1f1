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

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.Counter;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.MrMode;
import io.jfabric.Progress;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.zip.CRC32C;

/**
 * The target of {@link EmulatedRmaTest}, in a second JVM: registers memory no peer can map for remote access, so
 * every RMA and atomic on it takes the emulated path, served by this JVM's progress.
 * <ul>
 *   <li>key 7: {@code size} bytes of a heap {@code ByteBuffer}, FI_REMOTE_READ | FI_REMOTE_WRITE, a counter bound
 *   with FI_REMOTE_WRITE;</li>
 *   <li>key 8: a 4 KiB heap buffer, FI_REMOTE_READ only;</li>
 *   <li>key 9: a 64 KiB direct buffer, read and write;</li>
 *   <li>key 10: a {@code byte[]} of 100 bytes then a heap buffer of 100 bytes as one region (two iov entries);</li>
 *   <li>key 11: 64 KiB of shareable memory, read and write (the one-sided path, for mixing and fencing).</li>
 * </ul>
 * Its endpoint has a CQ and the FI_REMOTE_READ / FI_REMOTE_WRITE counters; a second endpoint ({@code addr2}, with
 * its own CQ and progress thread) serves the same memory at the same time. A progress thread reads the CQ without
 * pause (manual progress: that is what serves the requests) and keeps what it reads; it starts paused when the
 * third argument is {@code paused}, and stays paused with {@code auto}, which opens the domain with
 * FI_PROGRESS_AUTO: the provider's progress agent then serves the requests by itself. Prints {@code result addr= base= dbase= abase= sbase= length=}, then per command
 * line: {@code fill B}; {@code crc OFF LEN} (of key 7's memory); {@code dcrc OFF LEN} (key 9's); {@code long OFF} (the
 * native-order word of key 7's memory); {@code bytes KEY OFF LEN} (hex of key 10's or 7's bytes); {@code cq MILLIS}
 * (entries the progress thread read, waiting up to MILLIS for one: count, last flags, len, data, errors);
 * {@code counters}; {@code pause} and {@code resume} (the progress thread); {@code ordered N} (as RmaPeerMain's, the
 * progress thread paused meanwhile); {@code exit}.
 */
public final class EmulatedPeerMain
{
    private static final int ARRAY_BYTES = 100;

    private static volatile boolean paused;
    private static final java.util.concurrent.atomic.AtomicIntegerArray IDLE =
        new java.util.concurrent.atomic.AtomicIntegerArray(2);
    private static volatile boolean stop;
    private static final ConcurrentLinkedQueue<long[]> SEEN = new ConcurrentLinkedQueue<>();

    private EmulatedPeerMain()
    {
    }

    /**
     * @param args domain, size, {@code paused} or {@code running}.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final int size = Integer.parseInt(args[1]);
        final boolean auto = args.length > 2 && "auto".equals(args[2]);
        paused = args.length > 2 && ("paused".equals(args[2]) || auto);
        if (auto)
        {
            hints.domainAttr().dataProgress(Progress.AUTO);
        }
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final ByteBuffer heap = ByteBuffer.allocate(size);
        final ByteBuffer direct = ByteBuffer.allocateDirect(Math.max(65536, Math.min(size, 4 << 20)));
        final byte[] array = new byte[ARRAY_BYTES];
        final ByteBuffer tail = ByteBuffer.allocate(ARRAY_BYTES);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
            CompletionQueue cq2 = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
            ShareableMemory shared = domain.allocShareable(65536);
            Counter remoteReads = domain.cntrOpen(null, 0);
            Counter remoteWrites = domain.cntrOpen(null, 0);
            Counter regionWrites = domain.cntrOpen(null, 0);
            Counter sharedWrites = domain.cntrOpen(null, 0);
            MemoryRegion rw = domain.mrReg(heap, Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE, 0, 7, 0, 0);
            MemoryRegion ro = domain.mrReg(ByteBuffer.allocate(4096), Flags.FI_REMOTE_READ, 0, 8, 0, 0);
            MemoryRegion dm = domain.mrReg(direct, Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE, 0, 9, 0, 0);
            MemoryRegion am = domain.mrRegv(new MrIov[] {MrIov.of(array, 0, ARRAY_BYTES), MrIov.of(tail)},
                Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE, 0, 10, 0, 0);
            MemoryRegion sm = domain.mrRegv(new MrIov[] {MrIov.of(shared, 0, 65536)},
                Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE, 0, 11, 0, 0);
            Endpoint ep = domain.endpoint(info, 0);
            Endpoint ep2 = domain.endpoint(info, 0))
        {
            rw.bind(regionWrites, Flags.FI_REMOTE_WRITE);
            sm.bind(sharedWrites, Flags.FI_REMOTE_WRITE);
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.bind(remoteReads, Flags.FI_REMOTE_READ);
            ep.bind(remoteWrites, Flags.FI_REMOTE_WRITE);
            ep.enable();
            ep2.bind(av, 0);
            ep2.bind(cq2, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep2.enable();
            final Thread progress = new Thread(() -> progress(cq, 0), "peer-progress");
            progress.setDaemon(true);
            progress.start();
            final Thread progress2 = new Thread(() -> progress(cq2, 1), "peer-progress-2");
            progress2.setDaemon(true);
            progress2.start();
            final boolean virt = (domain.attr().mrMode() & MrMode.FI_MR_VIRT_ADDR) != 0;
            System.out.println("result addr=" + new String(ep.getname(), StandardCharsets.US_ASCII).trim() +
                " addr2=" + new String(ep2.getname(), StandardCharsets.US_ASCII).trim() +
                " base=" + (virt ? rw.baseAddress() : 0) + " dbase=" + (virt ? dm.baseAddress() : 0) + " abase=" +
                (virt ? am.baseAddress() : 0) + " sbase=" + (virt ? sm.baseAddress() : 0) + " length=" + size);
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null && !"exit".equals(line.trim()))
            {
                final String[] w = line.trim().split(" ");
                switch (w[0])
                {
                    case "fill":
                        for (int i = 0; i < size; i++)
                        {
                            heap.put(i, (byte)Integer.parseInt(w[1]));
                        }
                        System.out.println("result filled=" + w[1]);
                        break;
                    case "crc":
                        System.out.println("result crc=" + crc(heap, Integer.parseInt(w[1]), Integer.parseInt(w[2])));
                        break;
                    case "dcrc":
                        System.out.println("result crc=" + crc(direct, Integer.parseInt(w[1]),
                            Integer.parseInt(w[2])));
                        break;
                    case "long":
                        System.out.println("result value=" +
                            heap.duplicate().order(ByteOrder.nativeOrder()).getLong(Integer.parseInt(w[1])));
                        break;
                    case "bytes":
                        final int from = Integer.parseInt(w[2]);
                        final StringBuilder hex = new StringBuilder();
                        for (int i = from; i < from + Integer.parseInt(w[3]); i++)
                        {
                            final int b = "10".equals(w[1]) ? (i < ARRAY_BYTES ? array[i] : tail.get(i - ARRAY_BYTES)) :
                                heap.get(i);
                            hex.append(String.format("%02x", b & 0xFF));
                        }
                        System.out.println("result hex=" + hex);
                        break;
                    case "cq":
                        cq(Long.parseLong(w[1]));
                        break;
                    case "counters":
                        System.out.println("result rread=" + remoteReads.read() + " rwrite=" + remoteWrites.read() +
                            " mrwrite=" + regionWrites.read() + " smwrite=" + sharedWrites.read());
                        break;
                    case "pause":
                        pause();
                        System.out.println("result paused=1");
                        break;
                    case "resume":
                        resume();
                        System.out.println("result resumed=1");
                        break;
                    case "ordered":
                        pause();
                        ordered(ep, cq, heap, Integer.parseInt(w[1]));
                        resume();
                        break;
                    default:
                        System.out.println("result unknown=" + w[0]);
                }
            }
            stop = true;
            progress.join(10_000);
            progress2.join(10_000);
        }
    }

    private static void pause() throws InterruptedException
    {
        paused = true;
        while (IDLE.get(0) == 0 || IDLE.get(1) == 0)
        {
            Thread.sleep(1);
        }
    }

    private static void resume()
    {
        IDLE.set(0, 0);
        IDLE.set(1, 0);
        paused = false;
    }

    /**
     * A progress thread, one per endpoint: reads its CQ (which progresses the endpoint) unless paused, keeping every
     * entry. Two threads, so the two endpoints serve requests at the same time.
     */
    private static void progress(final CompletionQueue cq, final int index)
    {
        final CqEntries entries = new CqEntries(16);
        final CqErrEntry err = new CqErrEntry();
        while (!stop)
        {
            if (paused)
            {
                IDLE.set(index, 1);
                Thread.onSpinWait();
                continue;
            }
            final int n = cq.read(entries, 16);
            for (int i = 0; i < n; i++)
            {
                SEEN.add(new long[] {entries.flags[i], entries.len[i], entries.data[i], 0});
            }
            if (n == -Errno.FI_EAVAIL && cq.readErr(err, 0) == 1)
            {
                SEEN.add(new long[] {err.flags, err.len, err.data, err.err});
            }
            else if (n == -Errno.FI_EAGAIN)
            {
                Thread.yield(); // several spinning JVMs share two cores in the tests: let the initiators run
            }
        }
        IDLE.set(index, 1);
    }

    private static void cq(final long millis) throws InterruptedException
    {
        final long until = System.nanoTime() + millis * 1_000_000L;
        int n = 0;
        int errors = 0;
        String last = "last=none";
        while (System.nanoTime() < until)
        {
            final long[] e = SEEN.poll();
            if (e == null)
            {
                Thread.sleep(1);
                continue;
            }
            n++;
            errors += e[3] != 0 ? 1 : 0;
            last = "flags=" + e[0] + " len=" + e[1] + " data=" + e[2] + " err=" + e[3];
        }
        System.out.println("result count=" + n + " errors=" + errors + " " + last);
    }

    private static void ordered(final Endpoint ep, final CompletionQueue cq, final ByteBuffer heap, final int messages)
    {
        final ByteBuffer message = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
        final ByteBuffer word = heap.duplicate().order(ByteOrder.nativeOrder());
        final CqEntries entries = new CqEntries(1);
        int taken = 0;
        int overtaken = 0;
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (taken < messages && System.nanoTime() < deadline)
        {
            if (ep.recv(message, 0, 8, 0, io.jfabric.Addresses.FI_ADDR_UNSPEC, taken) != 0)
            {
                continue;
            }
            int r;
            while ((r = cq.read(entries, 1)) == -Errno.FI_EAGAIN && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            if (r == 1 && (entries.flags[0] & Flags.FI_RECV) != 0)
            {
                overtaken += message.getLong(0) > word.getLong(0) ? 1 : 0;
                taken++;
            }
        }
        System.out.println("result taken=" + taken + " overtaken=" + overtaken);
    }

    private static long crc(final ByteBuffer b, final int offset, final int length)
    {
        final CRC32C crc = new CRC32C();
        crc.update(b.duplicate().position(offset).limit(offset + length));
        return crc.getValue();
    }
}
