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
import io.jfabric.CqAttr;
import io.jfabric.Counter;
import io.jfabric.CqEntries;
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
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The target of {@link RmaTest}, in a second JVM: opens the named domain, registers {@code size} bytes of shareable
 * memory for remote read and write (key 7) and its first 4 KiB again read-only (key 8), opens an endpoint with a
 * CQ, and prints {@code result addr=<address> base=<base address> length=<size>}. Then, per command line:
 * {@code fill B} fills the memory with byte B; {@code crc OFF LEN} prints the CRC32C of that range;
 * {@code cq MILLIS} reads the CQ for that long and prints the last entry's flags, len and data and the count;
 * {@code change MILLIS} rewrites the first 8 KiB as 8-byte words, each word all of one byte value (0x11..0x77,
 * again and again) for that long; {@code counters} prints the endpoint's FI_REMOTE_READ and FI_REMOTE_WRITE
 * counters and the FI_REMOTE_WRITE counter bound to key 7 ({@code rread}, {@code rwrite}, {@code mrwrite});
 * {@code ordered N} receives N 8-byte messages and counts those whose value is above the word at offset 0 of the
 * memory when the message is taken (a send that overtook the write before it): {@code taken}, {@code overtaken};
 * {@code exit} ends it.
 */
public final class RmaPeerMain
{
    private RmaPeerMain()
    {
    }

    /**
     * @param args domain, size.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final int size = Integer.parseInt(args[1]);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
            ShareableMemory memory = domain.allocShareable(size);
            Counter remoteReads = domain.cntrOpen(null, 0);
            Counter remoteWrites = domain.cntrOpen(null, 0);
            Counter regionWrites = domain.cntrOpen(null, 0);
            MemoryRegion rw = domain.mrRegv(new MrIov[] {MrIov.of(memory, 0, size)},
                Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE, 0, 7, 0, 0);
            MemoryRegion ro = domain.mrRegv(new MrIov[] {MrIov.of(memory, 0, 4096)}, Flags.FI_REMOTE_READ, 0, 8, 0, 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            rw.bind(regionWrites, Flags.FI_REMOTE_WRITE);
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.bind(remoteReads, Flags.FI_REMOTE_READ);
            ep.bind(remoteWrites, Flags.FI_REMOTE_WRITE);
            ep.enable();
            final ByteBuffer bytes = memory.buffer();
            // fi_mr(3): with FI_MR_VIRT_ADDR a target address is the registrant's address, else an offset
            final boolean virt = (domain.attr().mrMode() & MrMode.FI_MR_VIRT_ADDR) != 0;
            System.out.println("result addr=" + new String(ep.getname(), StandardCharsets.US_ASCII).trim() +
                " base=" + (virt ? rw.baseAddress() : 0) + " length=" + size + " robase=" +
                (virt ? ro.baseAddress() : 0));
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            final CqEntries entries = new CqEntries(4);
            String line;
            while ((line = in.readLine()) != null && !"exit".equals(line.trim()))
            {
                final String[] w = line.trim().split(" ");
                switch (w[0])
                {
                    case "fill":
                        final byte value = (byte)Integer.parseInt(w[1]);
                        for (int i = 0; i < size; i++)
                        {
                            bytes.put(i, value);
                        }
                        System.out.println("result filled=" + value);
                        break;
                    case "crc":
                        final CRC32C crc = new CRC32C();
                        crc.update(bytes.duplicate().position(Integer.parseInt(w[1]))
                            .limit(Integer.parseInt(w[1]) + Integer.parseInt(w[2])));
                        System.out.println("result crc=" + crc.getValue());
                        break;
                    case "cq":
                        final long until = System.nanoTime() + Long.parseLong(w[1]) * 1_000_000L;
                        int n = 0;
                        String last = "last=none";
                        while (System.nanoTime() < until)
                        {
                            final int r = cq.read(entries, 1);
                            if (r == 1)
                            {
                                n++;
                                last = "flags=" + entries.flags[0] + " len=" + entries.len[0] + " data=" +
                                    entries.data[0];
                            }
                            else if (r != -Errno.FI_EAGAIN)
                            {
                                last = "error=" + r;
                            }
                        }
                        System.out.println("result count=" + n + " " + last);
                        break;
                    case "change":
                        final long stop = System.nanoTime() + Long.parseLong(w[1]) * 1_000_000L;
                        long v = 0x11;
                        while (System.nanoTime() < stop)
                        {
                            for (int i = 0; i < 8192; i += 8)
                            {
                                bytes.putLong(i, v * 0x0101_0101_0101_0101L);
                            }
                            v = v == 0x77 ? 0x11 : v + 0x11;
                        }
                        System.out.println("result changed=1");
                        break;
                    case "ordered":
                        final int messages = Integer.parseInt(w[1]);
                        final ByteBuffer message = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
                        final ByteBuffer memoryWords = bytes.duplicate().order(ByteOrder.nativeOrder());
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
                                overtaken += message.getLong(0) > memoryWords.getLong(0) ? 1 : 0;
                                taken++;
                            }
                        }
                        System.out.println("result taken=" + taken + " overtaken=" + overtaken);
                        break;
                    case "counters":
                        System.out.println("result rread=" + remoteReads.read() + " rwrite=" + remoteWrites.read() +
                            " mrwrite=" + regionWrites.read());
                        break;
                    default:
                        System.out.println("result unknown=" + w[0]);
                }
            }
        }
    }
}
