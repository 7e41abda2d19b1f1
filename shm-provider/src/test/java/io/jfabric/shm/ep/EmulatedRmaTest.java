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
import io.jfabric.Counter;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Ioc;
import io.jfabric.Msg;
import io.jfabric.RmaIov;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.rma.AtomicSupport;
import io.jfabric.shm.rma.SerialAtomics;
import io.jfabric.testsupport.ChildJvm;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The emulated path between two JVMs: the target ({@link EmulatedPeerMain}) registers heap, direct and
 * {@code byte[]} memory for remote access, which no peer can map, so its progress performs every RMA and atomic
 * this JVM issues on it. Checks the results, completions, errnos and counters against what the one-sided path gives
 * ({@link RmaTest}, {@link AtomicEndpointTest}), the limit, writedata's target completion, atomics from two more
 * JVMs on one heap word, the order of a send after an emulated write, the fence that keeps a one-sided operation
 * behind an emulated one, and a response ring that fills (no request lost, none applied twice).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmulatedRmaTest
{
    private static final String DOMAIN = "emul";
    private static final int SIZE = 1 << 20;
    private static final long RW_KEY = 7;
    private static final long RO_KEY = 8;
    private static final long DIRECT_KEY = 9;
    private static final long ARRAY_KEY = 10;
    private static final long SHARED_KEY = 11;

    private ShmTestRoot root;
    private Fabric fabric;
    private Domain domain;
    private Info info;
    private AddressVector av;
    private CompletionQueue cq;
    private Counter reads;
    private Counter writes;
    private Endpoint ep;
    private ChildJvm target;
    private String targetAddress;
    private String secondAddress;
    private long peer;
    private long base;
    private long directBase;
    private long arrayBase;
    private long sharedBase;
    private int limit;

    @BeforeAll
    void start() throws Exception
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN);
        hints.caps(Flags.FI_MSG | Flags.FI_RMA | Flags.FI_ATOMIC);
        info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        target = ChildJvm.start(EmulatedPeerMain.class, List.of("jfabric.shm.dir=" + root.dir()), DOMAIN,
            Integer.toString(SIZE), "running");
        final Map<String, String> hello = target.awaitResult(60);
        targetAddress = hello.get("addr");
        secondAddress = hello.get("addr2");
        base = Long.parseLong(hello.get("base"));
        directBase = Long.parseLong(hello.get("dbase"));
        arrayBase = Long.parseLong(hello.get("abase"));
        sharedBase = Long.parseLong(hello.get("sbase"));
        av = domain.avOpen(new AvAttr(), 0);
        cq = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
        reads = domain.cntrOpen(null, 0);
        writes = domain.cntrOpen(null, 0);
        ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.bind(reads, Flags.FI_READ);
        ep.bind(writes, Flags.FI_WRITE);
        ep.enable();
        final long[] out = new long[1];
        assertEquals(1, av.insert(new String[] {targetAddress}, 1, out, 0, 0));
        peer = out[0];
        limit = ((ShmEndpoint)ep).emulatedLimit();
    }

    @AfterAll
    void stop() throws Exception
    {
        try
        {
            target.tell("exit");
            target.awaitSuccess(30);
        }
        finally
        {
            for (final AutoCloseable c : new AutoCloseable[] {ep, reads, writes, cq, av})
            {
                if (c != null)
                {
                    c.close();
                }
            }
            TwoJvmEndpointTestBase.closeDomain(domain, fabric, root);
        }
    }

    private Map<String, String> ask(final String command) throws Exception
    {
        target.tell(command);
        return target.awaitResult(30);
    }

    private long crcAtTarget(final long offset, final int length) throws Exception
    {
        return Long.parseLong(ask("crc " + offset + " " + length).get("crc"));
    }

    private static long crc(final ByteBuffer b, final int offset, final int length)
    {
        final CRC32C c = new CRC32C();
        c.update(b.duplicate().position(offset).limit(offset + length));
        return c.getValue();
    }

    /** @return a Msg of (buffer, offset, length) triples. */
    private static Msg msg(final Object... pieces)
    {
        final Msg m = new Msg(pieces.length / 3);
        for (int i = 0; i < pieces.length / 3; i++)
        {
            m.iov[i] = (ByteBuffer)pieces[3 * i];
            m.iovOffset[i] = (Integer)pieces[3 * i + 1];
            m.iovLength[i] = (Integer)pieces[3 * i + 2];
        }
        m.iovCount = pieces.length / 3;
        return m;
    }

    private static ByteBuffer pattern(final int size, final int seed, final boolean direct)
    {
        final ByteBuffer b = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        for (int i = 0; i < size; i++)
        {
            b.put(i, (byte)(i * 31 + seed));
        }
        return b;
    }

    /** The call returned 0; @return the next completion's flags, or the negated errno of an error entry. */
    private long complete(final long rc)
    {
        assertEquals(0, rc, "the call");
        return CqWait.next(cq);
    }

    @Test
    void shouldOfferTheDocumentedLimitWithTheDefaultGeometry()
    {
        assertEquals(8016, limit, "an eighth of a 64 KiB lane less the largest request header and a checksum");
    }

    @Test
    void shouldWriteThenReadBackFromOneByteToTheLimit() throws Exception
    {
        final long readsBefore = reads.read();
        final long writesBefore = writes.read();
        int ops = 0;
        for (final int size : new int[] {1, 7, 64, 1000, 4096, limit})
        {
            final ByteBuffer out = pattern(size, size, size % 2 == 0);
            assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.write(out, 0, size, 0, peer, base + 5, RW_KEY, 1)),
                "write of " + size);
            assertEquals(crc(out, 0, size), crcAtTarget(5, size), "the target holds what was written, " + size + " B");
            final ByteBuffer in = ByteBuffer.allocate(size + 3);
            assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(ep.read(in, 3, size, 0, peer, base + 5, RW_KEY, 2)),
                "read of " + size);
            assertEquals(crc(out, 0, size), crc(in, 3, size), "read back " + size + " B");

            assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.write(out, 0, size, 0, peer, directBase + 64,
                DIRECT_KEY, 3)), "write of " + size + " to direct memory");
            assertEquals(crc(out, 0, size), Long.parseLong(ask("dcrc 64 " + size).get("crc")));
            final ByteBuffer back = ByteBuffer.allocateDirect(size);
            assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(ep.read(back, 0, size, 0, peer, directBase + 64,
                DIRECT_KEY, 4)));
            assertEquals(crc(out, 0, size), crc(back, 0, size));
            ops += 2;
        }
        assertEquals(readsBefore + ops, reads.read(), "FI_READ counter");
        assertEquals(writesBefore + ops, writes.read(), "FI_WRITE counter");
    }

    @Test
    void shouldServeEveryRmaCallForm() throws Exception
    {
        // writev / readv: three local buffers, one region; the region spans two iov entries of the target
        final Msg msg = msg(pattern(70, 1, true), 0, 70, pattern(50, 2, false), 0, 50, pattern(30, 3, true), 0, 30);
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.writev(msg, peer, arrayBase + 25, ARRAY_KEY, 5)));
        final ByteBuffer whole = ByteBuffer.allocate(150);
        whole.put(0, msg.iov[0], 0, 70).put(70, msg.iov[1], 0, 50).put(120, msg.iov[2], 0, 30);
        final Msg back = msg(ByteBuffer.allocate(100), 0, 100, ByteBuffer.allocateDirect(60), 10, 50);
        assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(ep.readv(back, peer, arrayBase + 25, ARRAY_KEY, 6)));
        for (int i = 0; i < 150; i++)
        {
            assertEquals(whole.get(i), i < 100 ? back.iov[0].get(i) : back.iov[1].get(10 + i - 100), "byte " + i);
        }
        final StringBuilder hex = new StringBuilder();
        for (int i = 0; i < 150; i++)
        {
            hex.append(String.format("%02x", whole.get(i) & 0xFF));
        }
        assertEquals(hex.toString(), ask("bytes 10 25 150").get("hex"), "across the byte[] and the heap buffer");

        // writemsg / readmsg over two regions of one key
        final RmaIov two = new RmaIov(2);
        two.addr[0] = base + 1000;
        two.length[0] = 120;
        two.key[0] = RW_KEY;
        two.addr[1] = base + 5000;
        two.length[1] = 30;
        two.key[1] = RW_KEY;
        two.count = 2;
        msg.addr = peer;
        msg.context = 7;
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.writemsg(msg, two, Flags.FI_COMPLETION)));
        assertEquals(crc(whole, 0, 120), crcAtTarget(1000, 120));
        assertEquals(crc(whole, 120, 30), crcAtTarget(5000, 30));
        final Msg in = new Msg(1).set(ByteBuffer.allocate(150), 0, 150, 0);
        in.addr = peer;
        in.context = 8;
        assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(ep.readmsg(in, two, Flags.FI_COMPLETION)));
        assertEquals(crc(whole, 0, 150), crc(in.iov[0], 0, 150));

        // inject: the bytes are taken at the call; no completion; the next operation sees them in place
        final ByteBuffer word = ByteBuffer.allocateDirect(8).putLong(0, 0x1122334455667788L);
        assertEquals(0, ep.injectWrite(word, 0, 8, peer, base + 64, RW_KEY));
        word.putLong(0, 0);
        final ByteBuffer got = ByteBuffer.allocateDirect(8);
        assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(ep.read(got, 0, 8, 0, peer, base + 64, RW_KEY, 9)),
            "the read is the first completion: the inject write wrote none");
        assertEquals(0x1122334455667788L, got.getLong(0));
    }

    @Test
    void shouldGiveTheTargetAWriteDataCompletionWithTheExactFlags() throws Exception
    {
        ask("cq 100");
        final ByteBuffer out = pattern(256, 9, true);
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.writedata(out, 0, 256, 0, 0xC0FFEEL, peer, base + 64,
            RW_KEY, 6)));
        Map<String, String> seen = ask("cq 300");
        assertEquals("1", seen.get("count"));
        assertEquals(Long.toString(Flags.FI_RMA | Flags.FI_REMOTE_WRITE | Flags.FI_REMOTE_CQ_DATA), seen.get("flags"));
        assertEquals("256", seen.get("len"));
        assertEquals(Long.toString(0xC0FFEEL), seen.get("data"));
        assertEquals(crc(out, 0, 256), crcAtTarget(64, 256), "the bytes are there with the completion");
        assertEquals(0, ep.injectWritedata(out, 0, 8, 42, peer, base, RW_KEY));
        seen = ask("cq 300");
        assertEquals("42", seen.get("data"));
        assertEquals("8", seen.get("len"));
        final Msg msg = new Msg(1).set(out, 0, 16, 0);
        msg.addr = peer;
        msg.data = 77;
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.writemsg(msg, new RmaIov(1).set(base, 16, RW_KEY),
            Flags.FI_REMOTE_CQ_DATA | Flags.FI_COMPLETION)));
        seen = ask("cq 300");
        assertEquals("77", seen.get("data"));
        assertEquals(Long.toString(Flags.FI_RMA | Flags.FI_REMOTE_WRITE | Flags.FI_REMOTE_CQ_DATA), seen.get("flags"));
    }

    @Test
    void shouldCompleteInErrorAndLeaveTheTargetUntouched() throws Exception
    {
        ask("fill 90");
        ask("cq 100");
        final long before = crcAtTarget(0, SIZE);
        final ByteBuffer out = pattern(64, 5, true);
        final long errorsBefore = writes.readErr();
        assertEquals(-Errno.FI_EKEYREJECTED, complete(ep.write(out, 0, 64, 0, peer, base, 999, 7)), "an unknown key");
        assertEquals(-Errno.FI_EACCES, complete(ep.write(out, 0, 64, 0, peer, base, RO_KEY, 8)),
            "a region registered without FI_REMOTE_WRITE");
        assertEquals(-Errno.FI_EINVAL, complete(ep.write(out, 0, 64, 0, peer, base + SIZE - 32, RW_KEY, 9)),
            "a range past the region's end: found by the target");
        assertEquals(-Errno.FI_EINVAL, complete(ep.write(out, 0, 64, 0, peer, base - 1, RW_KEY, 10)),
            "a range before the region");
        assertEquals(-Errno.FI_EKEYREJECTED, complete(ep.writedata(out, 0, 64, 0, 5, peer, base, 999, 11)),
            "writedata with an unknown key");
        assertEquals(-Errno.FI_EINVAL, complete(ep.writedata(out, 0, 64, 0, 5, peer, base + SIZE, RW_KEY, 12)),
            "writedata past the end");
        final RmaIov two = new RmaIov(2).set(base, 32, RW_KEY);
        two.addr[1] = base + SIZE - 16;
        two.length[1] = 32;
        two.key[1] = RW_KEY;
        two.count = 2;
        final Msg msg = new Msg(1).set(out, 0, 64, 0);
        msg.addr = peer;
        assertEquals(-Errno.FI_EINVAL, complete(ep.writemsg(msg, two, Flags.FI_COMPLETION)),
            "the second region does not fit: the first is not written either");
        two.key[1] = SHARED_KEY;
        two.addr[1] = sharedBase;
        assertEquals(-Errno.FI_EINVAL, complete(ep.writemsg(msg, two, Flags.FI_COMPLETION)),
            "a call mixing local-only and shareable regions");
        assertEquals(before, crcAtTarget(0, SIZE), "the target's memory is untouched");
        assertEquals(errorsBefore + 8, writes.readErr(), "FI_WRITE counter errors");
        assertEquals("0", ask("cq 300").get("count"), "a failed writedata gives the target nothing");
        final ByteBuffer in = ByteBuffer.allocate(64);
        assertEquals(-Errno.FI_EINVAL, complete(ep.read(in, 0, 64, 0, peer, base + SIZE - 1, RW_KEY, 13)));
        assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(ep.read(in, 0, 64, 0, peer, 0, RO_KEY, 14)),
            "reading the read-only region is allowed");
    }

    /**
     * The region's memory is reachable only through its owner's progress: an operation sent to an endpoint of
     * another process (here one of this JVM) fails with FI_EKEYREJECTED, touching nothing.
     */
    @Test
    void shouldRejectTheKeyAtAnEndpointOfAnotherProcess() throws Exception
    {
        try (CompletionQueue otherCq = domain.cqOpen(new CqAttr(), 0);
            Endpoint other = domain.endpoint(info, 0))
        {
            other.bind(av, 0);
            other.bind(otherCq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            other.enable();
            final long[] out = new long[1];
            assertEquals(1, av.insert(new String[] {new String(other.getname(), java.nio.charset.StandardCharsets
                .US_ASCII).trim()}, 1, out, 0, 0));
            final long before = crcAtTarget(0, 4096);
            assertEquals(-Errno.FI_EKEYREJECTED, complete(ep.write(pattern(64, 1, true), 0, 64, 0, out[0], base,
                RW_KEY, 1)));
            assertEquals(before, crcAtTarget(0, 4096));
            av.remove(out, 1, 0);
        }
    }

    @Test
    void shouldCountEverySuccessfulOperationAtTheTargetsEndpointAndRegionCounters() throws Exception
    {
        final Map<String, String> before = ask("counters");
        final ByteBuffer out = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        final ByteBuffer result = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
        for (int i = 0; i < 5; i++)
        {
            assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.write(out, 0, 64, 0, peer, base + 64L * i, RW_KEY,
                i)));
        }
        for (int i = 0; i < 3; i++)
        {
            assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(ep.read(out, 0, 64, 0, peer, base, RW_KEY, i)));
        }
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.writedata(out, 0, 8, 0, 1, peer, base, RW_KEY, 20)));
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.fetchAtomic(null, 0, 1, 0, result, 0, 0, peer,
            base + 4096, RW_KEY, AtomicDatatype.UINT64, AtomicOp.ATOMIC_READ, 29)));
        final long start = result.getLong(0);
        out.putLong(0, 1);
        for (int i = 0; i < 4; i++)
        {
            assertEquals(Flags.FI_ATOMIC | Flags.FI_WRITE, complete(ep.atomic(out, 0, 1, 0, peer, base + 4096, RW_KEY,
                AtomicDatatype.UINT64, AtomicOp.SUM, 30 + i)));
        }
        for (int i = 0; i < 2; i++)
        {
            assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.fetchAtomic(out, 0, 1, 0, result, 0, 0, peer,
                base + 4096, RW_KEY, AtomicDatatype.UINT64, AtomicOp.SUM, 40 + i)));
        }
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.fetchAtomic(out, 0, 1, 0, result, 0, 0, peer,
            base + 4096, RW_KEY, AtomicDatatype.UINT64, AtomicOp.ATOMIC_READ, 50)));
        assertEquals(start + 6, result.getLong(0), "4 adds and 2 fetch-adds of 1 before the atomic read");
        assertEquals(-Errno.FI_EINVAL, complete(ep.write(out, 0, 64, 0, peer, base + SIZE, RW_KEY, 60)),
            "a failed write counts nothing");
        final Map<String, String> after = ask("counters");
        assertEquals(5 + 1 + 4, delta(before, after, "rwrite"), "FI_REMOTE_WRITE: writes, writedata, base atomics");
        assertEquals(3 + 2 + 2, delta(before, after, "rread"), "FI_REMOTE_READ: reads, fetching atomics");
        assertEquals(5 + 1 + 4 + 2, delta(before, after, "mrwrite"), "the region's counter: whatever modified it");
        ask("cq 100"); // the writedata's completion
    }

    private static long delta(final Map<String, String> before, final Map<String, String> after, final String key)
    {
        return Long.parseLong(after.get(key)) - Long.parseLong(before.get(key));
    }

    private long fetch(final long addr, final AtomicDatatype type, final AtomicOp op, final long value)
    {
        final ByteBuffer operand = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).putLong(0, value);
        final ByteBuffer result = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ,
            complete(ep.fetchAtomic(operand, 0, 1, 0, result, 0, 0, peer, addr, RW_KEY, type, op, 1)));
        return type.size() == 8 ? result.getLong(0) : type.size() == 4 ? result.getInt(0) :
            type.size() == 2 ? result.getShort(0) : result.get(0);
    }

    @Test
    void shouldApplyAtomicsOfEveryFormToHeapMemory()
    {
        final ByteBuffer operand = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        final ByteBuffer compare = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
        final ByteBuffer result = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        final long word = base + 8192;
        assertEquals(0, fetch(word, AtomicDatatype.INT64, AtomicOp.ATOMIC_WRITE, 40) & 0, "set");
        assertEquals(40, fetch(word, AtomicDatatype.INT64, AtomicOp.SUM, 2));
        operand.putLong(0, 100);
        assertEquals(Flags.FI_ATOMIC | Flags.FI_WRITE,
            complete(ep.atomic(operand, 0, 1, 0, peer, word, RW_KEY, AtomicDatatype.INT64, AtomicOp.MAX, 2)));
        assertEquals(100, fetch(word, AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, 0));
        compare.putLong(0, 100);
        operand.putLong(0, 7);
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.compareAtomic(operand, 0, 1, 0, compare, 0, 0,
            result, 0, 0, peer, word, RW_KEY, AtomicDatatype.INT64, AtomicOp.CSWAP, 3)));
        assertEquals(100, result.getLong(0));
        assertEquals(7, fetch(word, AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, 0));
        assertEquals(0, ep.injectAtomic(operand, 0, 1, peer, word, RW_KEY, AtomicDatatype.INT64, AtomicOp.SUM));
        assertEquals(14, fetch(word, AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, 0), "the inject's add, no completion");

        final long bytes = base + 8256;
        fetch(bytes, AtomicDatatype.INT64, AtomicOp.ATOMIC_WRITE, 0x0102_0304_0506_0708L);
        assertEquals(0x06, fetch(bytes + 2, AtomicDatatype.UINT8, AtomicOp.MIN, 0x03));
        assertEquals(0x0102_0304_0503_0708L, fetch(bytes, AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, 0),
            "one byte of heap memory changed, its neighbours kept");
        fetch(bytes + 8, AtomicDatatype.DOUBLE, AtomicOp.ATOMIC_WRITE, Double.doubleToRawLongBits(1.5));
        fetch(bytes + 8, AtomicDatatype.DOUBLE, AtomicOp.SUM, Double.doubleToRawLongBits(2.25));
        assertEquals(3.75, Double.longBitsToDouble(fetch(bytes + 8, AtomicDatatype.DOUBLE, AtomicOp.ATOMIC_READ, 0)));

        // vectored and msg forms: operands gathered over two regions, results scattered
        final long first = base + 9000 & ~7L;
        final long second = base + 9500 & ~7L;
        final ByteBuffer zeros = ByteBuffer.allocateDirect(64);
        complete(ep.write(zeros, 0, 64, 0, peer, first, RW_KEY, 30));
        complete(ep.write(zeros, 0, 64, 0, peer, second, RW_KEY, 31));
        final ByteBuffer a = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        final ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
        for (int i = 0; i < 5; i++)
        {
            a.putInt(4 * i, 10 + i);
        }
        final AtomicMsg msg = new AtomicMsg(4, 4);
        msg.msgIov.set(a, 0, 5, 0);
        msg.rmaIov.add(first, 2, RW_KEY).add(second, 3, RW_KEY);
        msg.addr = peer;
        msg.datatype = AtomicDatatype.INT32;
        msg.op = AtomicOp.SUM;
        msg.context = 33;
        assertEquals(Flags.FI_ATOMIC | Flags.FI_WRITE, complete(ep.atomicmsg(msg, Flags.FI_COMPLETION)));
        final AtomicMsg read = new AtomicMsg(1, 4);
        read.rmaIov.add(first, 2, RW_KEY).add(second, 3, RW_KEY);
        read.addr = peer;
        read.datatype = AtomicDatatype.INT32;
        read.op = AtomicOp.ATOMIC_READ;
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.fetchAtomicmsg(read,
            new Ioc(2).add(b, 0, 1, 0).add(b, 16, 4, 0), 0)));
        assertEquals(List.of(10, 11, 12, 13, 14), List.of(b.getInt(0), b.getInt(16), b.getInt(20), b.getInt(24),
            b.getInt(28)), "scattered over two result entries");
        final ByteBuffer cmp = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        cmp.putInt(0, 12).putInt(4, 99).putInt(8, 14);
        a.putInt(0, -1).putInt(4, -2).putInt(8, -3);
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.compareAtomicv(new Ioc(2).add(a, 0, 1, 0)
            .add(a, 4, 2, 0), new Ioc(2).add(cmp, 0, 2, 0).add(cmp, 8, 1, 0), new Ioc(1).set(b, 32, 3, 0), peer,
            second, RW_KEY, AtomicDatatype.INT32, AtomicOp.CSWAP, 35)));
        assertEquals(List.of(12, 13, 14), List.of(b.getInt(32), b.getInt(36), b.getInt(40)), "values before");
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.fetchAtomicv(null, new Ioc(1).set(b, 0, 3, 0), peer,
            second, RW_KEY, AtomicDatatype.INT32, AtomicOp.ATOMIC_READ, 36)));
        assertEquals(List.of(-1, 13, -3), List.of(b.getInt(0), b.getInt(4), b.getInt(8)), "swapped where equal");
        assertEquals(Flags.FI_ATOMIC | Flags.FI_WRITE, complete(ep.atomicv(new Ioc(1).set(a, 0, 1, 0), peer, second,
            RW_KEY, AtomicDatatype.INT32, AtomicOp.BXOR, 37)));

        // errors: nothing changes
        final AtomicMsg bad = new AtomicMsg(1, 4);
        bad.msgIov.set(a.putInt(0, 1).putInt(4, 1), 0, 2, 0);
        bad.rmaIov.add(first, 1, RW_KEY).add(second + 6, 1, RW_KEY);
        bad.addr = peer;
        bad.datatype = AtomicDatatype.INT32;
        bad.op = AtomicOp.SUM;
        assertEquals(-Errno.FI_EINVAL, complete(ep.atomicmsg(bad, 0)), "the second region is misaligned");
        complete(ep.fetchAtomicv(null, new Ioc(1).set(b, 0, 1, 0), peer, first, RW_KEY, AtomicDatatype.INT32,
            AtomicOp.ATOMIC_READ, 38));
        assertEquals(10, b.getInt(0), "the first region is untouched when the second would fail");
        operand.putLong(0, 1);
        assertEquals(-Errno.FI_EKEYREJECTED, complete(ep.atomic(operand, 0, 1, 0, peer, base, 999,
            AtomicDatatype.INT64, AtomicOp.SUM, 39)));
        assertEquals(-Errno.FI_EACCES, complete(ep.atomic(operand, 0, 1, 0, peer, 0, RO_KEY,
            AtomicDatatype.INT64, AtomicOp.SUM, 40)), "a region registered read-only");
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.fetchAtomic(null, 0, 1, 0, result, 0, 0, peer, 0,
            RO_KEY, AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, 41)), "reading it is allowed");
        assertEquals(-Errno.FI_EINVAL, complete(ep.atomic(operand, 0, 1, 0, peer, word + 3, RW_KEY,
            AtomicDatatype.INT32, AtomicOp.SUM, 42)), "a target not aligned to its element");
        assertEquals(-Errno.FI_EINVAL, complete(ep.atomic(operand, 0, 1, 0, peer, base + SIZE, RW_KEY,
            AtomicDatatype.INT64, AtomicOp.SUM, 43)), "past the end");
        assertEquals(-Errno.FI_EINVAL, complete(ep.atomic(operand, 0, 2, 0, peer, arrayBase + 96, ARRAY_KEY,
            AtomicDatatype.INT32, AtomicOp.SUM, 44)), "over two iov entries of the target");
    }

    /**
     * Every (call family, operation, datatype) shm supports, applied through the emulated path to heap memory of the
     * other JVM, against the serial reference ({@link SerialAtomics}): the element after the call and the value
     * returned, as {@link AtomicEndpointTest} checks the one-sided path.
     */
    @Test
    void shouldMatchTheSerialReferenceForEverySupportedOperationAndType()
    {
        final ByteBuffer operand = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        final ByteBuffer compare = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        final ByteBuffer result = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        int checked = 0;
        for (final AtomicSupport.Kind kind : AtomicSupport.Kind.values())
        {
            for (final AtomicDatatype type : AtomicDatatype.values())
            {
                for (final AtomicOp op : AtomicOp.values())
                {
                    if (!AtomicSupport.isSupported(kind, type, op))
                    {
                        continue;
                    }
                    final int size = type.size();
                    final long at = base + 16384 + size;
                    for (final long old : values(type))
                    {
                        for (final long arg : values(type))
                        {
                            final long cmp = arg ^ old;
                            SerialAtomics.putBits(operand, size, old);
                            complete(ep.write(operand, 0, size, 0, peer, at, RW_KEY, 20));
                            SerialAtomics.putBits(operand, size, arg);
                            SerialAtomics.putBits(compare, size,
                                kind == AtomicSupport.Kind.COMPARE && (arg & 1) == 0 ? old : cmp);
                            final long rc = kind == AtomicSupport.Kind.WRITE ?
                                ep.atomic(operand, 0, 1, 0, peer, at, RW_KEY, type, op, 21) :
                                kind == AtomicSupport.Kind.FETCH ?
                                ep.fetchAtomic(operand, 0, 1, 0, result, 0, 0, peer, at, RW_KEY, type, op, 21) :
                                ep.compareAtomic(operand, 0, 1, 0, compare, 0, 0, result, 0, 0, peer, at, RW_KEY,
                                type, op, 21);
                            final String what = kind + " " + op + " " + type + " old " + Long.toHexString(old) +
                                " arg " + Long.toHexString(arg);
                            complete(rc);
                            if (kind != AtomicSupport.Kind.WRITE)
                            {
                                assertEquals(SerialAtomics.mask(type, old), SerialAtomics.getBits(result, size), what);
                            }
                            final long c = SerialAtomics.getBits(compare, size);
                            complete(ep.read(result, 0, size, 0, peer, at, RW_KEY, 22));
                            final long expected = SerialAtomics.after(type, op, old, arg, c);
                            assertTrue(SerialAtomics.same(type, expected, SerialAtomics.getBits(result, size)), what);
                            checked++;
                        }
                    }
                }
            }
        }
        assertTrue(checked > 1000, "combinations: " + checked);
    }

    private static long[] values(final AtomicDatatype type)
    {
        switch (type)
        {
            case FLOAT:
                return new long[] {Float.floatToRawIntBits(1.5f), Float.floatToRawIntBits(-2.0f), 0};
            case DOUBLE:
                return new long[] {Double.doubleToRawLongBits(1.5), Double.doubleToRawLongBits(-2.0), 0};
            case FLOAT_COMPLEX:
                return new long[] {Float.floatToRawIntBits(1.5f) | (long)Float.floatToRawIntBits(-2.0f) << 32, 0};
            default:
                return new long[] {0, 1, 7, SerialAtomics.mask(type, -1)};
        }
    }

    /**
     * Two more JVMs fetch-add and compare-swap one 64-bit word of the target's heap memory through their endpoints,
     * each addressing another endpoint of the target, so two progress threads of the target apply them at once.
     */
    @Test
    void shouldEndExactWhenTwoJvmsAddToOneHeapWord() throws Exception
    {
        final int count = Integer.getInteger("emulated.count", 100_000);
        for (final String mode : new String[] {"add", "cas"})
        {
            final long word = base + ("add".equals(mode) ? 32768 : 32776);
            fetch(word, AtomicDatatype.INT64, AtomicOp.ATOMIC_WRITE, 0);
            final List<ChildJvm> adders = new ArrayList<>();
            final long started = System.nanoTime();
            for (int i = 0; i < 2; i++)
            {
                adders.add(ChildJvm.start(AtomicAdderMain.class, List.of("jfabric.shm.dir=" + root.dir()), DOMAIN,
                    i == 0 ? targetAddress : secondAddress, Long.toString(RW_KEY), Long.toString(word),
                    Integer.toString("add".equals(mode) ? count : count / 10), mode));
            }
            long retries = 0;
            for (final ChildJvm adder : adders)
            {
                final Map<String, String> done = adder.awaitResult(600);
                retries += Long.parseLong(done.get("retries"));
                adder.awaitSuccess(30);
            }
            final long ms = (System.nanoTime() - started) / 1_000_000L;
            final long expected = 2L * ("add".equals(mode) ? count : count / 10);
            assertEquals(expected, fetch(word, AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, 0),
                mode + ": 2 JVMs (" + ms + " ms, " + retries + " compare-swap retries)");
            System.out.println("emulated " + mode + ": " + expected + " in " + ms + " ms, retries " + retries);
        }
    }

    /**
     * FI_ORDER_SAW on the emulated path: a send after an emulated write goes through the same lane, behind the
     * request, and the target applies the request when it drains it, so it takes the send only with the write's
     * bytes in place.
     */
    @Test
    void shouldLetTheTargetSeeAnEmulatedWriteBeforeTheSendThatFollowsIt() throws Exception
    {
        final int rounds = 2000;
        target.tell("ordered " + rounds);
        final ByteBuffer word = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
        final CqEntries entries = new CqEntries(4);
        int sends = 0;
        for (long i = 1; i <= rounds; i++)
        {
            word.putLong(0, i);
            long rc;
            while ((rc = ep.injectWrite(word, 0, 8, peer, base, RW_KEY)) == -Errno.FI_EAGAIN)
            {
                cq.read(entries, 4);
            }
            assertEquals(0, rc);
            while ((rc = ep.inject(word, 0, 8, peer)) == -Errno.FI_EAGAIN)
            {
                cq.read(entries, 4);
            }
            assertEquals(0, rc);
            sends++;
        }
        final Map<String, String> seen = target.awaitResult(60);
        assertEquals(Integer.toString(sends), seen.get("taken"));
        assertEquals("0", seen.get("overtaken"), "sends taken before the write before them landed");
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (cq.read(entries, 4) != -Errno.FI_EAGAIN && System.nanoTime() < deadline)
        {
            Thread.onSpinWait(); // inject writes write no completion; drain anything else
        }
    }

    /**
     * The fence: while an emulated operation to a target is unanswered, a one-sided operation to it would land
     * first, so it returns -FI_EAGAIN; once the emulated one completes it goes.
     */
    @Test
    void shouldHoldAOneSidedOperationBehindAnOutstandingEmulatedOne() throws Exception
    {
        final ByteBuffer word = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).putLong(0, 5);
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.write(word, 0, 8, 0, peer, sharedBase, SHARED_KEY, 1)),
            "one-sided, nothing outstanding");
        ask("pause");
        try
        {
            assertEquals(0, ep.write(word, 0, 8, 0, peer, base + 128, RW_KEY, 2), "emulated, not served yet");
            assertEquals(-Errno.FI_EAGAIN, ep.write(word, 0, 8, 0, peer, sharedBase, SHARED_KEY, 3));
            assertEquals(-Errno.FI_EAGAIN, ep.read(word, 0, 8, 0, peer, sharedBase, SHARED_KEY, 3));
            assertEquals(-Errno.FI_EAGAIN, ep.atomic(word, 0, 1, 0, peer, sharedBase, SHARED_KEY,
                AtomicDatatype.INT64, AtomicOp.SUM, 3));
            assertEquals(-Errno.FI_EAGAIN, ep.atomicv(new Ioc(1).set(word, 0, 1, 0), peer, sharedBase, SHARED_KEY,
                AtomicDatatype.INT64, AtomicOp.SUM, 3));
            assertEquals(-Errno.FI_EAGAIN, ep.writedata(word, 0, 8, 0, 1, peer, sharedBase, SHARED_KEY, 3));
            assertEquals(0, ep.write(word, 0, 8, 0, peer, base + 136, RW_KEY, 4), "another emulated one may follow");
            assertEquals(-Errno.FI_EAGAIN, cq.read(new CqEntries(1), 1), "nothing completes while it is paused");
        }
        finally
        {
            ask("resume");
        }
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, CqWait.next(cq));
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, CqWait.next(cq));
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.write(word, 0, 8, 0, peer, sharedBase, SHARED_KEY, 5)),
            "one-sided again once nothing emulated is outstanding");
    }

    /**
     * More read responses than the initiator's transmit ring holds while the initiator does not progress: the
     * target leaves the requests in its lane until there is room, so every read completes, with its bytes, and the
     * target counts each exactly once.
     */
    @Test
    void shouldLoseAndRepeatNothingWhenTheResponseRingFills() throws Exception
    {
        final int reads = 100;
        final int size = 8000;
        final ByteBuffer out = pattern(size, 77, true);
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.write(out, 0, size, 0, peer, base + 65536, RW_KEY, 1)));
        final Map<String, String> before = ask("counters");
        final ByteBuffer[] in = new ByteBuffer[reads];
        for (int i = 0; i < reads; i++)
        {
            in[i] = ByteBuffer.allocate(size);
            assertEquals(0, ep.read(in[i], 0, size, 0, peer, base + 65536, RW_KEY, 100 + i), "read " + i);
        }
        Thread.sleep(500); // the target serves what fits (256 KiB: about 32 responses) and waits
        final CqEntries entries = new CqEntries(1);
        final boolean[] seen = new boolean[reads];
        for (int i = 0; i < reads; i++)
        {
            assertEquals(Flags.FI_RMA | Flags.FI_READ, CqWait.next(cq), "completion " + i);
        }
        for (int i = 0; i < reads; i++)
        {
            assertEquals(crc(out, 0, size), crc(in[i], 0, size), "read " + i);
            seen[i] = true;
        }
        assertEquals(-Errno.FI_EAGAIN, cq.read(entries, 1));
        assertEquals(reads, delta(before, ask("counters"), "rread"), "each read served exactly once");
    }
}
