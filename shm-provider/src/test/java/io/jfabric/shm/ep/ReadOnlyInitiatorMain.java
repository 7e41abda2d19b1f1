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
import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicMsg;
import io.jfabric.AtomicOp;
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
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Ioc;
import io.jfabric.Msg;
import io.jfabric.RmaIov;
import io.jfabric.Versions;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A child JVM that issues every call that writes into a local buffer (RMA reads in all forms, the results of fetching
 * and compare atomics in all forms) with a read-only {@code FileChannel.MapMode.READ_ONLY} mapping of a real file as
 * that buffer, against a target's shareable region (one-sided) and heap region (emulated), then reads its CQ for a
 * while: a write into such a mapping is a SIGSEGV that kills the JVM. Prints {@code result <call>=<rc> ...}, then
 * {@code result completions=<n>} and exits normally.
 * <p>
 * Arguments: domain, target address, the shareable region's key and address, the heap region's key and address, the
 * file to map.
 */
public final class ReadOnlyInitiatorMain
{
    private ReadOnlyInitiatorMain()
    {
    }

    /**
     * @param args see the class comment.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        hints.caps(Flags.FI_MSG | Flags.FI_RMA | Flags.FI_ATOMIC);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Path file = Path.of(args[6]);
        Files.write(file, new byte[4096]);
        final MappedByteBuffer mapped;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, 4096);
        }
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
            Endpoint ep = domain.endpoint(info, 0))
        {
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            final long[] peer = new long[1];
            av.insert(new String[] {args[1]}, 1, peer, 0, 0);
            final StringBuilder line = new StringBuilder("result");
            callAll(ep, mapped, peer[0], Long.parseLong(args[3]), Long.parseLong(args[2]), "shared")
                .forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
            callAll(ep, mapped, peer[0], Long.parseLong(args[5]), Long.parseLong(args[4]), "heap")
                .forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
            System.out.println(line);
            System.out.println("result completions=" + drain(cq, 500));
        }
    }

    /**
     * Every call form that writes into a local buffer, each with {@code dst} as that buffer, once.
     *
     * @param ep   an enabled endpoint with FI_RMA and FI_ATOMIC.
     * @param dst  the buffer written into: at least 64 bytes.
     * @param peer the target.
     * @param addr an 8-aligned address of the target region, with 64 bytes behind it.
     * @param key  its key.
     * @param tag  a name for the target, in the result keys.
     * @return each call's name (with the tag) and return code, in order.
     */
    static Map<String, Long> callAll(
        final Endpoint ep, final ByteBuffer dst, final long peer, final long addr, final long key, final String tag)
    {
        final ByteBuffer operand = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).putLong(0, 1);
        final ByteBuffer compare = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
        final Map<String, Long> rc = new LinkedHashMap<>();
        final Msg msg = new Msg(2).set(dst, 0, 8, 0);
        msg.iov[1] = dst;
        msg.iovOffset[1] = 8;
        msg.iovLength[1] = 8;
        msg.iovCount = 2;
        msg.addr = peer;
        final RmaIov rma = new RmaIov(1).set(addr, 16, key);
        rc.put("read." + tag, ep.read(dst, 0, 16, 0, peer, addr, key, 1));
        rc.put("readv." + tag, ep.readv(msg, peer, addr, key, 2));
        rc.put("readmsg." + tag, ep.readmsg(msg, rma, 0));
        rc.put("fetch." + tag, ep.fetchAtomic(operand, 0, 1, 0, dst, 0, 0, peer, addr, key, AtomicDatatype.UINT64,
            AtomicOp.SUM, 3));
        rc.put("compare." + tag, ep.compareAtomic(operand, 0, 1, 0, compare, 0, 0, dst, 0, 0, peer, addr, key,
            AtomicDatatype.UINT64, AtomicOp.CSWAP, 4));
        final Ioc operands = new Ioc(1).set(operand, 0, 1, 0);
        final Ioc compares = new Ioc(1).set(compare, 0, 1, 0);
        final Ioc results = new Ioc(1).set(dst, 0, 1, 0);
        rc.put("fetchv." + tag, ep.fetchAtomicv(operands, results, peer, addr, key, AtomicDatatype.UINT64,
            AtomicOp.SUM, 5));
        rc.put("comparev." + tag, ep.compareAtomicv(operands, compares, results, peer, addr, key,
            AtomicDatatype.UINT64, AtomicOp.CSWAP, 6));
        final AtomicMsg atomic = new AtomicMsg(1, 1);
        atomic.msgIov.set(operand, 0, 1, 0);
        atomic.rmaIov.set(addr, 1, key);
        atomic.addr = peer;
        atomic.datatype = AtomicDatatype.UINT64;
        atomic.op = AtomicOp.SUM;
        rc.put("fetchmsg." + tag, ep.fetchAtomicmsg(atomic, results, 0));
        atomic.op = AtomicOp.CSWAP;
        rc.put("comparemsg." + tag, ep.compareAtomicmsg(atomic, compares, results, 0));
        atomic.msgIov.count = 0;
        atomic.op = AtomicOp.ATOMIC_READ;
        rc.put("atomicread." + tag, ep.fetchAtomicmsg(atomic, results, 0));
        return rc;
    }

    /**
     * Read the CQ (which progresses the endpoint, and so completes emulated operations) for {@code millis}.
     *
     * @return completions and error entries read.
     */
    static int drain(final CompletionQueue cq, final long millis)
    {
        final CqEntries entries = new CqEntries(8);
        final CqErrEntry err = new CqErrEntry();
        final long until = System.nanoTime() + millis * 1_000_000L;
        int n = 0;
        while (System.nanoTime() < until)
        {
            final int r = cq.read(entries, 8);
            if (r > 0)
            {
                n += r;
            }
            else if (r == -Errno.FI_EAVAIL && cq.readErr(err, 0) == 1)
            {
                n++;
            }
            else
            {
                Thread.onSpinWait();
            }
        }
        return n;
    }
}
