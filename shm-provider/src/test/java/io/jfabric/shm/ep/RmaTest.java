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
import io.jfabric.AtomicOp;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.Counter;
import io.jfabric.CqAttr;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Msg;
import io.jfabric.RmaIov;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RMA (fi_rma(3)) between two JVMs: the target ({@link RmaPeerMain}) registers shareable memory; this JVM writes
 * into it and reads it back one-sidedly, at sizes from 1 byte to 16 MiB, through every call form, and checks
 * completions, counters, fi_writedata's completion at the target, the error completions (the target's memory left
 * untouched), and that a read of memory the target keeps rewriting never returns a torn aligned 8-byte word.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RmaTest
{
    private static final String DOMAIN = "rma";
    private static final int SIZE = 16 << 20;
    private static final long RW_KEY = 7;
    private static final long RO_KEY = 8;

    private ShmTestRoot root;
    private Fabric fabric;
    private Domain domain;
    private AddressVector av;
    private CompletionQueue cq;
    private Counter reads;
    private Counter writes;
    private Endpoint ep;
    private ChildJvm target;
    private long peer;
    private long base;
    private long roBase;

    @BeforeAll
    void start() throws Exception
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN);
        hints.caps(Flags.FI_MSG | Flags.FI_RMA | Flags.FI_ATOMIC);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        assertTrue((info.caps() & Flags.FI_RMA) != 0);
        assertEquals(4, info.txAttr().rmaIovLimit());
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        target = ChildJvm.start(RmaPeerMain.class, List.of("jfabric.shm.dir=" + root.dir()), DOMAIN,
            Integer.toString(SIZE));
        final Map<String, String> hello = target.awaitResult(60);
        base = Long.parseLong(hello.get("base"));
        roBase = Long.parseLong(hello.get("robase"));
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
        assertEquals(1, av.insert(new String[] {hello.get("addr")}, 1, out, 0, 0));
        peer = out[0];
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

    private long crcAtTarget(final long offset, final int length) throws Exception
    {
        target.tell("crc " + offset + " " + length);
        return Long.parseLong(target.awaitResult(30).get("crc"));
    }

    private static long crc(final ByteBuffer b, final int length)
    {
        final CRC32C c = new CRC32C();
        c.update(b.duplicate().position(0).limit(length));
        return c.getValue();
    }

    /** Read one completion: the flags of a success, or the negated errno of an error entry. */
    private long complete()
    {
        return CqWait.next(cq);
    }

    @Test
    void shouldWriteThenReadBackFromOneByteToSixteenMebibytes() throws Exception
    {
        final long readsBefore = reads.read();
        final long writesBefore = writes.read();
        int ops = 0;
        for (final int size : new int[] {1, 7, 64, 4096, 65537, 1 << 20, SIZE})
        {
            final ByteBuffer out = ByteBuffer.allocateDirect(size);
            for (int i = 0; i < size; i++)
            {
                out.put(i, (byte)(i * 31 + size));
            }
            assertEquals(0, ep.write(out, 0, size, 0, peer, base, RW_KEY, 1));
            assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(), "write of " + size);
            assertEquals(crc(out, size), crcAtTarget(0, size), "the target holds what was written, " + size + " B");
            final ByteBuffer in = ByteBuffer.allocate(size);
            assertEquals(0, ep.read(in, 0, size, 0, peer, base, RW_KEY, 2));
            assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(), "read of " + size);
            assertEquals(crc(out, size), crc(in, size), "read back " + size + " B");
            ops++;
        }
        assertEquals(readsBefore + ops, reads.read(), "FI_READ counter");
        assertEquals(writesBefore + ops, writes.read(), "FI_WRITE counter");
    }

    @Test
    void shouldGatherAndScatterOverSeveralLocalBuffersAndTargetRegions() throws Exception
    {
        final Msg msg = new Msg(3);
        final ByteBuffer a = ByteBuffer.allocateDirect(100);
        final ByteBuffer b = ByteBuffer.allocate(50);
        final ByteBuffer c = ByteBuffer.allocateDirect(30);
        for (int i = 0; i < 100; i++)
        {
            a.put(i, (byte)i);
        }
        for (int i = 0; i < 50; i++)
        {
            b.put(i, (byte)(100 + i));
        }
        for (int i = 0; i < 30; i++)
        {
            c.put(i, (byte)(150 + i));
        }
        msg.iov[0] = a;
        msg.iovLength[0] = 100;
        msg.iov[1] = b;
        msg.iovLength[1] = 50;
        msg.iov[2] = c;
        msg.iovLength[2] = 30;
        msg.iovCount = 3;
        msg.addr = peer;
        msg.context = 3;
        final RmaIov rma = new RmaIov(2);
        rma.addr[0] = base + 1000;
        rma.length[0] = 120;
        rma.key[0] = RW_KEY;
        rma.addr[1] = base + 5000;
        rma.length[1] = 60;
        rma.key[1] = RW_KEY;
        rma.count = 2;
        assertEquals(0, ep.writemsg(msg, rma, Flags.FI_COMPLETION));
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete());
        final ByteBuffer whole = ByteBuffer.allocate(180);
        for (int i = 0; i < 180; i++)
        {
            whole.put(i, (byte)i);
        }
        final ByteBuffer first = ByteBuffer.allocate(120);
        assertEquals(0, ep.read(first, 0, 120, 0, peer, base + 1000, RW_KEY, 4));
        assertEquals(Flags.FI_RMA | Flags.FI_READ, complete());
        final ByteBuffer second = ByteBuffer.allocate(60);
        assertEquals(0, ep.read(second, 0, 60, 0, peer, base + 5000, RW_KEY, 5));
        assertEquals(Flags.FI_RMA | Flags.FI_READ, complete());
        for (int i = 0; i < 180; i++)
        {
            assertEquals(whole.get(i), i < 120 ? first.get(i) : second.get(i - 120), "byte " + i);
        }
        rma.length[1] = 59;
        assertEquals(-Errno.FI_EINVAL, ep.writemsg(msg, rma, 0), "local and remote lengths must match");
    }

    @Test
    void shouldGiveTheTargetAWriteDataCompletionWithTheExactFlags() throws Exception
    {
        final ByteBuffer out = ByteBuffer.allocateDirect(256);
        assertEquals(0, ep.writedata(out, 0, 256, 0, 0xC0FFEEL, peer, base + 64, RW_KEY, 6));
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete());
        target.tell("cq 500");
        final Map<String, String> seen = target.awaitResult(30);
        assertEquals("1", seen.get("count"));
        assertEquals(Long.toString(Flags.FI_RMA | Flags.FI_REMOTE_WRITE | Flags.FI_REMOTE_CQ_DATA), seen.get("flags"));
        assertEquals("256", seen.get("len"));
        assertEquals(Long.toString(0xC0FFEEL), seen.get("data"));
        assertEquals(0, ep.injectWritedata(out, 0, 8, 42, peer, base, RW_KEY));
        target.tell("cq 300");
        assertEquals("42", target.awaitResult(30).get("data"));
    }

    @Test
    void shouldCompleteInErrorAndLeaveTheTargetUntouched() throws Exception
    {
        target.tell("fill 90");
        target.awaitResult(30);
        final long before = crcAtTarget(0, 8192);
        final ByteBuffer out = ByteBuffer.allocateDirect(64);
        final long errorsBefore = writes.readErr();
        assertEquals(0, ep.write(out, 0, 64, 0, peer, base, 999, 7));
        assertEquals(-Errno.FI_EKEYREJECTED, complete(), "an unknown key");
        assertEquals(0, ep.write(out, 0, 64, 0, peer, roBase, RO_KEY, 8));
        assertEquals(-Errno.FI_EACCES, complete(), "a region registered without FI_REMOTE_WRITE");
        assertEquals(0, ep.write(out, 0, 64, 0, peer, base + SIZE - 32, RW_KEY, 9));
        assertEquals(-Errno.FI_EINVAL, complete(), "a range past the region's end");
        assertEquals(0, ep.writedata(out, 0, 64, 0, 5, peer, base, 999, 10));
        assertEquals(-Errno.FI_EKEYREJECTED, complete(), "writedata with an unknown key");
        assertEquals(before, crcAtTarget(0, 8192), "the target's memory is untouched");
        assertEquals(errorsBefore + 4, writes.readErr(), "FI_WRITE counter errors");
        target.tell("cq 300");
        assertEquals("0", target.awaitResult(30).get("count"), "a failed writedata gives the target nothing");
        assertEquals(-Errno.FI_EINVAL, ep.write(out, 0, 64, 0, 12345, base, RW_KEY, 11), "an unknown peer");
        final int tooBig = (int)ep.getOpt(Endpoint.FI_OPT_INJECT_MSG_SIZE) + 1;
        assertEquals(-Errno.FI_EMSGSIZE, ep.injectWrite(ByteBuffer.allocateDirect(tooBig), 0, tooBig, peer, base,
            RW_KEY), "an inject above inject_size");
    }

    @Test
    void shouldCountEverySuccessfulOperationAtTheTargetsEndpointAndRegionCounters() throws Exception
    {
        final Map<String, String> before = counters();
        final ByteBuffer out = ByteBuffer.allocateDirect(64);
        final ByteBuffer result = ByteBuffer.allocateDirect(8);
        for (int i = 0; i < 5; i++)
        {
            assertEquals(0, ep.write(out, 0, 64, 0, peer, base + 64L * i, RW_KEY, i));
            assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete());
        }
        for (int i = 0; i < 3; i++)
        {
            assertEquals(0, ep.read(out, 0, 64, 0, peer, base, RW_KEY, i));
            assertEquals(Flags.FI_RMA | Flags.FI_READ, complete());
        }
        assertEquals(0, ep.writedata(out, 0, 8, 0, 1, peer, base, RW_KEY, 20));
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete());
        assertEquals(0, ep.fetchAtomic(null, 0, 1, 0, result, 0, 0, peer, base + 4096, RW_KEY,
            AtomicDatatype.UINT64, AtomicOp.ATOMIC_READ, 29));
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete());
        final long start = result.getLong(0);
        out.putLong(0, 1);
        for (int i = 0; i < 4; i++)
        {
            assertEquals(0, ep.atomic(out, 0, 1, 0, peer, base + 4096, RW_KEY, AtomicDatatype.UINT64,
                AtomicOp.SUM, 30 + i));
            assertEquals(Flags.FI_ATOMIC | Flags.FI_WRITE, complete());
        }
        for (int i = 0; i < 2; i++)
        {
            assertEquals(0, ep.fetchAtomic(out, 0, 1, 0, result, 0, 0, peer, base + 4096, RW_KEY,
                AtomicDatatype.UINT64, AtomicOp.SUM, 40 + i));
            assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete());
        }
        assertEquals(0, ep.fetchAtomic(out, 0, 1, 0, result, 0, 0, peer, base + 4096, RW_KEY,
            AtomicDatatype.UINT64, AtomicOp.ATOMIC_READ, 50));
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete());
        assertEquals(start + 6, result.getLong(0), "4 adds and 2 fetch-adds of 1 before the atomic read");
        assertEquals(0, ep.write(out, 0, 64, 0, peer, base, 999, 60));
        assertEquals(-Errno.FI_EKEYREJECTED, complete(), "a failed write counts nothing");
        final Map<String, String> after = counters();
        assertEquals(5 + 1 + 4, delta(before, after, "rwrite"), "FI_REMOTE_WRITE: writes, writedata, base atomics");
        assertEquals(3 + 2 + 2, delta(before, after, "rread"), "FI_REMOTE_READ: reads, fetching atomics");
        assertEquals(5 + 1 + 4 + 2, delta(before, after, "mrwrite"), "the region's counter: whatever modified it");
        target.tell("cq 100");
        target.awaitResult(30); // the writedata's completion, so that later tests see only their own
    }

    private Map<String, String> counters() throws Exception
    {
        target.tell("counters");
        return target.awaitResult(30);
    }

    private static long delta(final Map<String, String> before, final Map<String, String> after, final String key)
    {
        return Long.parseLong(after.get(key)) - Long.parseLong(before.get(key));
    }

    /**
     * FI_ORDER_SAW as getinfo reports it: a send after a write is taken by the target only once the write's bytes
     * are in its memory. Each round writes the round number into the target's first word, then sends it.
     */
    @Test
    void shouldLetTheTargetSeeAWriteBeforeTheSendThatFollowsIt() throws Exception
    {
        final int rounds = 2000;
        target.tell("ordered " + rounds);
        final ByteBuffer word = ByteBuffer.allocateDirect(8).order(java.nio.ByteOrder.nativeOrder());
        for (long i = 1; i <= rounds; i++)
        {
            word.putLong(0, i);
            assertEquals(0, ep.injectWrite(word, 0, 8, peer, base, RW_KEY));
            long rc;
            while ((rc = ep.send(word, 0, 8, 0, peer, i)) == -Errno.FI_EAGAIN)
            {
                cq.read(new io.jfabric.CqEntries(1), 1);
            }
            assertEquals(0, rc);
            assertEquals(Flags.FI_MSG | Flags.FI_SEND, complete(), "the send's completion");
        }
        final Map<String, String> seen = target.awaitResult(60);
        assertEquals(Integer.toString(rounds), seen.get("taken"));
        assertEquals("0", seen.get("overtaken"), "sends taken before the write before them landed");
    }

    @Test
    void shouldNeverReadATornAlignedWordWhileTheTargetRewritesIt() throws Exception
    {
        target.tell("fill 17");
        target.awaitResult(30);
        target.tell("change 1500");
        final ByteBuffer in = ByteBuffer.allocateDirect(8192);
        final long until = System.nanoTime() + 1_000_000_000L;
        int reads = 0;
        try
        {
            while (System.nanoTime() < until)
            {
                assertEquals(0, ep.read(in, 0, 8192, 0, peer, base, RW_KEY, 12));
                assertEquals(Flags.FI_RMA | Flags.FI_READ, complete());
                for (int i = 0; i < 8192; i += 8)
                {
                    final long w = in.getLong(i);
                    assertEquals((w & 0xFF) * 0x0101_0101_0101_0101L, w, "a torn word at " + i);
                }
                reads++;
            }
        }
        finally
        {
            target.awaitResult(30);
        }
        assertTrue(reads > 10, "reads: " + reads);
    }
}
