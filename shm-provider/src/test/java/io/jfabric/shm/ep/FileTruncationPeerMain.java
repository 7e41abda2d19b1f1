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
import io.jfabric.Addresses;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.EqAttr;
import io.jfabric.EqErrEntry;
import io.jfabric.Errno;
import io.jfabric.EventQueue;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.MrMode;
import io.jfabric.ShareableMemory;
import io.jfabric.Versions;
import io.jfabric.shm.mr.ShmShareableMemory;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A JVM of {@link FileTruncationTest}: two of them (an {@code owner} and a {@code peer}) use one named domain, with
 * the domain's event queue bound, and one of them (the owner) truncates a file that backs one object: a shareable
 * memory segment ({@code segment} mode: two segments of the owner, keys 31 and 32, which both JVMs write one-sidedly
 * in a loop, the owner through its own address) or a named AV ({@code av} mode: two named AVs, "peers" and "other",
 * each bound to its own endpoint, through which both JVMs send each other messages and look addresses up in a loop).
 * <p>
 * Standard input: the other JVM's two addresses (and, in segment mode, the owner's region addresses), then in av
 * mode a line once the owner inserted the addresses, then {@code run}; then (owner) {@code truncate FILE LENGTH} or
 * (peer) {@code mark}, after which counts are "after."; then {@code report FILENAME}:
 * the loop stops and the JVM prints its counts per object (successes, each errno, and any {@link Throwable} a call
 * let out, before and after the truncation), and the domain event queue's error (err and whether its text names
 * the truncated file); then {@code ping} (a message each way through an untouched object), then {@code exit}:
 * everything is closed, {@code result closed=yes}. Exits 0 unless something threw out of a jfabric call.
 */
public final class FileTruncationPeerMain
{
    private static final int SEGMENT = 1 << 20;

    private final boolean owner;
    private final boolean avMode;
    private final Map<String, Long> counts = new TreeMap<>();
    private final java.util.Set<String> failed = new java.util.HashSet<>();
    private final AtomicBoolean truncated = new AtomicBoolean();
    private volatile boolean stop;

    private FileTruncationPeerMain(final boolean owner, final boolean avMode)
    {
        this.owner = owner;
        this.avMode = avMode;
    }

    /**
     * @param args the domain name, {@code owner} or {@code peer}, {@code segment} or {@code av}.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        new FileTruncationPeerMain("owner".equals(args[1]), "av".equals(args[2])).run(args[0]);
    }

    /**
     * Count an outcome of an operation on an object (after the truncation, once the object has failed, a success
     * counts as {@code okAfterError}: it would have to be a garbage answer).
     */
    private void count(final String object, final String outcome)
    {
        final boolean after = truncated.get();
        String what = object + "." + outcome;
        if (after && !"ok".equals(outcome))
        {
            failed.add(object);
        }
        else if (after && failed.contains(object))
        {
            what = object + ".okAfterError";
        }
        counts.merge((after ? "after." : "before.") + what, 1L, Long::sum);
    }

    private void run(final String domainName) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(domainName);
        hints.caps(Flags.FI_MSG | Flags.FI_RMA);
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            EventQueue eq = fabric.eqOpen(new EqAttr().size(64), 0);
            Domain domain = fabric.domain(info, 0))
        {
            domain.bind(eq, 0);
            try (AddressVector first = domain.avOpen(new AvAttr().name(avMode ? "peers" : null), 0);
                AddressVector second = domain.avOpen(new AvAttr().name(avMode ? "other" : null), 0);
                CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
                Endpoint epFirst = enabled(domain, info, first, cq);
                Endpoint epSecond = enabled(domain, info, second, cq);
                ShareableMemory one = owner ? domain.allocShareable(SEGMENT) : null;
                ShareableMemory two = owner ? domain.allocShareable(SEGMENT) : null;
                MemoryRegion mrOne = owner ? register(domain, one, 31) : null;
                MemoryRegion mrTwo = owner ? register(domain, two, 32) : null)
            {
                final boolean virt = (domain.attr().mrMode() & MrMode.FI_MR_VIRT_ADDR) != 0;
                System.out.println("result addr=" + name(epFirst) + " addr2=" + name(epSecond) +
                    (owner ? " file=" + ((ShmShareableMemory)one).segment().path() +
                    " base31=" + (virt ? mrOne.baseAddress() : 0) + " base32=" + (virt ? mrTwo.baseAddress() : 0) :
                    "") + " avfile=" + ((io.jfabric.shm.av.ShmAddressVector)first).path());
                final String[] other = stdin.readLine().trim().split(" ");
                final long[] to = addresses(first, second, epFirst, epSecond, other, stdin);
                final Thread loop = new Thread(() -> loop(epFirst, epSecond, first, second, cq, to, other),
                    "truncation-loop");
                final String go = stdin.readLine().trim();
                if (!"run".equals(go))
                {
                    throw new IllegalStateException("expected run, got " + go);
                }
                loop.start();
                System.out.println("result running=yes");
                String line;
                while ((line = stdin.readLine()) != null && !"exit".equals(line.trim()))
                {
                    final String[] w = line.trim().split(" ");
                    if ("truncate".equals(w[0]))
                    {
                        truncate(Path.of(w[1]), Long.parseLong(w[2]));
                    }
                    else if ("mark".equals(w[0]))
                    {
                        truncated.set(true);
                        System.out.println("result marked=yes");
                    }
                    else if ("report".equals(w[0]))
                    {
                        stop = true;
                        loop.join(30_000);
                        report(eq, w[1]);
                    }
                    else if ("ping".equals(w[0]))
                    {
                        ping(epSecond, cq, to[1]);
                    }
                }
            }
        }
        System.out.println("result closed=yes");
    }

    private static Endpoint enabled(
        final Domain domain, final Info info, final AddressVector av, final CompletionQueue cq)
    {
        final Endpoint ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        return ep;
    }

    private static MemoryRegion register(final Domain domain, final ShareableMemory memory, final long key)
    {
        return domain.mrRegv(new MrIov[] {MrIov.of(memory, 0, SEGMENT)}, Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE,
            0, key, 0, 0);
    }

    private static String name(final Endpoint ep)
    {
        return new String(ep.getname(), StandardCharsets.US_ASCII).trim();
    }

    /**
     * The fi_addrs the loop uses: [0] the target of the first object (the segment owner's endpoint, or the other
     * JVM's first endpoint), [1] the other JVM's second endpoint. Named AVs are shared: the owner inserts both
     * JVMs' addresses (itself at 0, the peer at 1), the peer waits until they are there.
     */
    private long[] addresses(
        final AddressVector first, final AddressVector second, final Endpoint epFirst, final Endpoint epSecond,
        final String[] other, final BufferedReader stdin) throws Exception
    {
        final long[] out = new long[1];
        if (!avMode)
        {
            final long[] to = new long[2];
            first.insert(new String[] {owner ? name(epFirst) : other[0]}, 1, out, 0, 0);
            to[0] = out[0];
            second.insert(new String[] {other[1]}, 1, out, 0, 0);
            to[1] = out[0];
            return to;
        }
        if (owner)
        {
            first.insert(new String[] {name(epFirst), other[0]}, 2, new long[2], 0, 0);
            second.insert(new String[] {name(epSecond), other[1]}, 2, new long[2], 0, 0);
            System.out.println("result inserted=yes");
            return new long[] {1, 1};
        }
        stdin.readLine(); // the owner inserted
        return new long[] {0, 0};
    }

    /**
     * Until told to stop: one operation through each object in turn (segment mode: a 64-byte write to key 31, then
     * to key 32; av mode: a send through each AV's endpoint, and a lookup in each AV), counting how each ended.
     */
    private void loop(
        final Endpoint epFirst, final Endpoint epSecond, final AddressVector first, final AddressVector second,
        final CompletionQueue cq, final long[] to, final String[] other)
    {
        final ByteBuffer data = ByteBuffer.allocateDirect(64);
        final ByteBuffer[] receives = {ByteBuffer.allocateDirect(64), ByteBuffer.allocateDirect(64)};
        final long base31 = avMode ? 0 : Long.parseLong(other.length > 2 ? other[2] : "0");
        final long base32 = avMode ? 0 : Long.parseLong(other.length > 3 ? other[3] : "0");
        if (avMode)
        {
            epFirst.recv(receives[0], 0, 64, 0, Addresses.FI_ADDR_UNSPEC, 1);
            epSecond.recv(receives[1], 0, 64, 0, Addresses.FI_ADDR_UNSPEC, 2);
        }
        while (!stop)
        {
            // the try holds the inner loop's back edge too: Java 17 raises a fault of a compiled access at the next
            // safepoint poll, which may be that back edge, and an error thrown there must not end this thread
            try
            {
                while (!stop)
                {
                    once(epFirst, epSecond, first, second, cq, to, data, receives, base31, base32);
                }
            }
            catch (final Throwable t)
            {
                // an error the JVM raised late, in this thread's own code (Java 17): counted, and the loop goes on
                count("loop", "thrown." + t.getClass().getSimpleName());
                t.printStackTrace(System.out);
            }
        }
    }

    /** One pass of {@link #loop}: one operation through each object. */
    private void once(
        final Endpoint epFirst, final Endpoint epSecond, final AddressVector first, final AddressVector second,
        final CompletionQueue cq, final long[] to, final ByteBuffer data, final ByteBuffer[] receives,
        final long base31, final long base32)
    {
        if (avMode)
        {
            if (call("send.peers", () -> epFirst.send(data, 0, 64, 0, to[0], 3)) == 0)
            {
                count("send.peers", "ok");
            }
            if (call("send.other", () -> epSecond.send(data, 0, 64, 0, to[1], 4)) == 0)
            {
                count("send.other", "ok");
            }
            lookup("lookup.peers", first, to[0]);
            lookup("lookup.other", second, to[1]);
            drain(cq, epFirst, epSecond, receives, null);
        }
        else
        {
            final long rc31 = call("write31", () -> epFirst.write(data, 0, 64, 0, to[0], base31, 31, 31));
            if (rc31 == 0)
            {
                drain(cq, epFirst, epSecond, receives, "write31");
            }
            final long rc32 = call("write32", () -> epFirst.write(data, 0, 64, 0, to[0], base32, 32, 32));
            if (rc32 == 0)
            {
                drain(cq, epFirst, epSecond, receives, "write32");
            }
        }
    }

    /** A data-path call, its return code counted (0 and -FI_EAGAIN only as "issued" and "busy"). */
    private long call(final String what, final java.util.function.LongSupplier call)
    {
        try
        {
            final long rc = call.getAsLong();
            if (rc != 0 && rc != -Errno.FI_EAGAIN)
            {
                count(what, "rc" + rc);
            }
            return rc;
        }
        catch (final Throwable t)
        {
            count(what, "thrown." + t.getClass().getSimpleName());
            return Long.MIN_VALUE;
        }
    }

    private void lookup(final String what, final AddressVector av, final long fiAddr)
    {
        try
        {
            av.lookup(fiAddr);
            count(what, "ok");
        }
        catch (final FabricException ex)
        {
            count(what, "errno" + ex.errno());
        }
        catch (final Throwable t)
        {
            count(what, "thrown." + t.getClass().getSimpleName());
        }
    }

    /**
     * Read the CQ: with {@code waitFor} (segment mode), until that write completed (counting ".ok" or ".err" + err);
     * otherwise once, reposting consumed receives.
     */
    private void drain(
        final CompletionQueue cq, final Endpoint epFirst, final Endpoint epSecond, final ByteBuffer[] receives,
        final String waitFor)
    {
        final CqEntries entries = new CqEntries(8);
        final CqErrEntry err = new CqErrEntry();
        final long deadline = System.nanoTime() + 5_000_000_000L;
        do
        {
            final int n;
            try
            {
                n = cq.read(entries, 8);
            }
            catch (final Throwable t)
            {
                count("cq", "thrown." + t.getClass().getSimpleName());
                return;
            }
            for (int i = 0; i < n; i++)
            {
                if ((entries.flags[i] & Flags.FI_RECV) != 0)
                {
                    final int which = (int)entries.opContext[i] - 1;
                    count(which == 0 ? "recv.peers" : "recv.other", "ok");
                    (which == 0 ? epFirst : epSecond).recv(receives[which], 0, 64, 0, Addresses.FI_ADDR_UNSPEC,
                        which + 1);
                }
                else if (waitFor != null)
                {
                    count(waitFor, "ok");
                    return;
                }
            }
            if (n == -Errno.FI_EAVAIL && cq.readErr(err, 0) == 1)
            {
                if (waitFor != null)
                {
                    count(waitFor, "err" + err.err);
                    return;
                }
                count("cq", "err" + err.err);
            }
            else if (n < 0 && n != -Errno.FI_EAGAIN && n != -Errno.FI_EAVAIL)
            {
                count("cq", "rc" + n);
                return;
            }
        }
        while (waitFor != null && System.nanoTime() < deadline);
        if (waitFor != null)
        {
            count(waitFor, "nocompletion");
        }
    }

    private void truncate(final Path file, final long length) throws Exception
    {
        truncated.set(true);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(length);
        }
        System.out.println("result truncated=" + length);
    }

    /** Print the counts and the domain event queue's first error (within 2 s): its err, and whether it names the file. */
    private void report(final EventQueue eq, final String fileName)
    {
        final EqErrEntry err = new EqErrEntry(1024);
        int eqErr = 0;
        boolean names = false;
        final long deadline = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < deadline)
        {
            if (eq.readErr(err, 0) == 1)
            {
                final String text = new String(err.errData(), 0, err.errDataSize(), StandardCharsets.UTF_8);
                System.out.println("eq text: " + text);
                if (eqErr == 0)
                {
                    eqErr = err.err();
                    names = text.contains(fileName);
                }
            }
            else if (eqErr != 0)
            {
                break;
            }
        }
        final StringBuilder line = new StringBuilder("result eq=" + eqErr + " eqnames=" + names);
        counts.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        System.out.println(line);
    }

    private static void ping(final Endpoint ep, final CompletionQueue cq, final long to)
    {
        final ByteBuffer in = ByteBuffer.allocateDirect(64);
        final ByteBuffer out = ByteBuffer.allocateDirect(64);
        final CqEntries entries = new CqEntries(4);
        final CqErrEntry err = new CqErrEntry();
        ep.recv(in, 0, 64, 0, Addresses.FI_ADDR_UNSPEC, 77);
        long sent = -1;
        boolean received = false;
        boolean completed = false;
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while ((!received || !completed) && System.nanoTime() < deadline)
        {
            if (sent != 0)
            {
                sent = ep.send(out, 0, 64, 0, to, 78);
            }
            final int n = cq.read(entries, 4);
            for (int i = 0; i < n; i++)
            {
                received |= (entries.flags[i] & Flags.FI_RECV) != 0;
                completed |= entries.opContext[i] == 78;
            }
            if (n == -Errno.FI_EAVAIL)
            {
                cq.readErr(err, 0);
            }
        }
        System.out.println("result ping=" + (received && completed ? "ok" : "failed"));
    }
}
