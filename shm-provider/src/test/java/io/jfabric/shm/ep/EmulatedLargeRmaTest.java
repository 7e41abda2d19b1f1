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
import io.jfabric.CompletionQueue;
import io.jfabric.Counter;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Msg;
import io.jfabric.RmaIov;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 27: an RMA on memory the target registered from a heap or direct buffer (the emulated path) larger than one
 * lane record (8,016 B) works up to max_msg_size, through the initiator's bounce ({@link io.jfabric.shm.rma.EmulatedBounce}), with the
 * errors and counters of the one-sided path: 8,017 B, 64 KiB, 1 MiB and 16 MiB written and read back between two
 * JVMs (the target is {@link EmulatedPeerMain}), in every RMA call form, with the initiator's FI_WRITE/FI_READ
 * counters, the target endpoint's FI_REMOTE_WRITE/FI_REMOTE_READ counters and the region's counter each counting one
 * per operation; an unknown key, a read-only region and a range past the region complete in error as small ones do.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmulatedLargeRmaTest
{
    private static final String DOMAIN = "emulbig";
    private static final int SIZE = (16 << 20) + 8192;
    private static final int[] SIZES = {8017, 64 << 10, 1 << 20, 16 << 20};
    private static final long RW_KEY = 7;
    private static final long RO_KEY = 8;
    private static final long DIRECT_KEY = 9;

    private EmulatedTargetSession session;
    private Domain domain;
    private AddressVector av;
    private CompletionQueue cq;
    private Counter reads;
    private Counter writes;
    private Endpoint ep;
    private long peer;
    private long base;
    private long directBase;

    @BeforeAll
    void start() throws Exception
    {
        session = new EmulatedTargetSession(DOMAIN, SIZE);
        domain = session.domain;
        av = session.av;
        cq = session.cq;
        reads = session.reads;
        writes = session.writes;
        ep = session.ep;
        peer = session.peer;
        base = session.address("base");
        directBase = session.address("dbase");
        assertEquals(8016, ((ShmEndpoint)ep).emulatedLimit(), "the largest RMA one ring record carries");
    }

    @AfterAll
    void stop() throws Exception
    {
        session.close();
    }

    private Map<String, String> ask(final String command) throws Exception
    {
        return session.ask(command);
    }

    private static ByteBuffer pattern(final int size, final int seed, final boolean direct)
    {
        final ByteBuffer b = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        for (int i = 0; i < size; i++)
        {
            b.put(i, (byte)(i * 31 + seed + (i >> 12)));
        }
        return b;
    }

    private static long crc(final ByteBuffer b, final int offset, final int length)
    {
        final CRC32C c = new CRC32C();
        c.update(b.duplicate().position(offset).limit(offset + length));
        return c.getValue();
    }

    /** The call returned 0; @return the next completion's flags, or the negated errno of an error entry. */
    private long complete(final long rc)
    {
        assertEquals(0, rc, "the call");
        return CqWait.next(cq);
    }

    private static long delta(final Map<String, String> before, final Map<String, String> after, final String key)
    {
        return Long.parseLong(after.get(key)) - Long.parseLong(before.get(key));
    }

    @Test
    void shouldWriteAndReadBackHeapMemoryFromOneByteAboveARecordTo16MiB() throws Exception
    {
        final Map<String, String> before = ask("counters");
        final long readsBefore = reads.read();
        final long writesBefore = writes.read();
        for (final int size : SIZES)
        {
            final ByteBuffer out = pattern(size, size, size % 2 == 0);
            assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.write(out, 0, size, 0, peer, base + 3, RW_KEY,
                size)), "write of " + size + " B");
            assertEquals(crc(out, 0, size), Long.parseLong(ask("crc 3 " + size).get("crc")), size + " B landed");
            final ByteBuffer in = size % 2 == 0 ? ByteBuffer.allocate(size + 5) : ByteBuffer.allocateDirect(size + 5);
            assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(ep.read(in, 5, size, 0, peer, base + 3, RW_KEY,
                size)), "read of " + size + " B");
            assertEquals(crc(out, 0, size), crc(in, 5, size), size + " B read back");
        }
        final Map<String, String> after = ask("counters");
        assertEquals(SIZES.length, writes.read() - writesBefore, "the initiator's FI_WRITE counter");
        assertEquals(SIZES.length, reads.read() - readsBefore, "the initiator's FI_READ counter");
        assertEquals(SIZES.length, delta(before, after, "rwrite"), "the target endpoint's FI_REMOTE_WRITE counter");
        assertEquals(SIZES.length, delta(before, after, "rread"), "the target endpoint's FI_REMOTE_READ counter");
        assertEquals(SIZES.length, delta(before, after, "mrwrite"), "the region's counter: one per write");
    }

    @Test
    void shouldWriteAndReadBackDirectMemoryAboveARecord() throws Exception
    {
        for (final int size : new int[] {8017, 64 << 10, 1 << 20})
        {
            final ByteBuffer out = pattern(size, 7, true);
            assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.write(out, 0, size, 0, peer, directBase + 64,
                DIRECT_KEY, 1)), "write of " + size + " B to direct memory");
            assertEquals(crc(out, 0, size), Long.parseLong(ask("dcrc 64 " + size).get("crc")));
            final ByteBuffer back = ByteBuffer.allocate(size);
            assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(ep.read(back, 0, size, 0, peer, directBase + 64,
                DIRECT_KEY, 2)));
            assertEquals(crc(out, 0, size), crc(back, 0, size));
        }
    }

    @Test
    void shouldServeEveryCallFormAboveARecord() throws Exception
    {
        final int piece = 40_000;
        final Msg msg = new Msg(3);
        for (int i = 0; i < 3; i++)
        {
            msg.iov[i] = pattern(piece, i, i == 1);
            msg.iovLength[i] = piece;
        }
        msg.iovCount = 3;
        msg.addr = peer;
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.writev(msg, peer, base + 100, RW_KEY, 1)), "writev");
        final ByteBuffer whole = ByteBuffer.allocate(3 * piece);
        for (int i = 0; i < 3; i++)
        {
            whole.put(i * piece, msg.iov[i], 0, piece);
        }
        assertEquals(crc(whole, 0, 3 * piece), Long.parseLong(ask("crc 100 " + 3 * piece).get("crc")));

        final Msg back = new Msg(2);
        back.iov[0] = ByteBuffer.allocateDirect(piece);
        back.iovLength[0] = piece;
        back.iov[1] = ByteBuffer.allocate(2 * piece);
        back.iovLength[1] = 2 * piece;
        back.iovCount = 2;
        back.addr = peer;
        assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(ep.readv(back, peer, base + 100, RW_KEY, 2)), "readv");
        assertEquals(crc(whole, 0, piece), crc(back.iov[0], 0, piece));
        assertEquals(crc(whole, piece, 2 * piece), crc(back.iov[1], 0, 2 * piece));

        final RmaIov two = new RmaIov(2).set(base + 200_000, 50_000, RW_KEY);
        two.addr[1] = base + 400_000;
        two.length[1] = 70_000;
        two.key[1] = RW_KEY;
        two.count = 2;
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.writemsg(msg, two, 0)), "writemsg over two ranges");
        assertEquals(crc(whole, 0, 50_000), Long.parseLong(ask("crc 200000 50000").get("crc")));
        assertEquals(crc(whole, 50_000, 70_000), Long.parseLong(ask("crc 400000 70000").get("crc")));
        assertEquals(Flags.FI_RMA | Flags.FI_READ, complete(ep.readmsg(back, two, 0)), "readmsg");
        assertEquals(crc(whole, 0, piece), crc(back.iov[0], 0, piece));
        assertEquals(crc(whole, piece, 2 * piece), crc(back.iov[1], 0, 2 * piece));

        final ByteBuffer data = pattern(100_000, 9, true);
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.writedata(data, 0, 100_000, 0, 0x5EED, peer,
            base + 600_000, RW_KEY, 3)), "writedata");
        final Map<String, String> remote = ask("cq 500");
        assertEquals("1", remote.get("count"), "the target's completion: " + remote);
        assertEquals("100000", remote.get("len"));
        assertEquals("" + 0x5EED, remote.get("data"));
        assertEquals(crc(data, 0, 100_000), Long.parseLong(ask("crc 600000 100000").get("crc")));
    }

    @Test
    void shouldCompleteInErrorAsSmallOnesDo() throws Exception
    {
        final Map<String, String> before = ask("counters");
        final long errorsBefore = writes.readErr();
        final ByteBuffer big = pattern(70_000, 5, true);
        assertEquals(-Errno.FI_EKEYREJECTED, complete(ep.write(big, 0, 70_000, 0, peer, base, 999, 1)),
            "a key nobody registered");
        assertEquals(-Errno.FI_EACCES, complete(ep.write(big, 0, 70_000, 0, peer, 0, RO_KEY, 2)),
            "a region registered without FI_REMOTE_WRITE");
        assertEquals(-Errno.FI_EINVAL, complete(ep.write(big, 0, 70_000, 0, peer, base + SIZE - 100, RW_KEY, 3)),
            "a range past the region's end");
        assertEquals(-Errno.FI_EINVAL, complete(ep.read(big, 0, 70_000, 0, peer, base + SIZE - 100, RW_KEY, 4)));
        assertEquals(3, writes.readErr() - errorsBefore, "the FI_WRITE counter's errors");
        final Map<String, String> after = ask("counters");
        assertEquals(0, delta(before, after, "rwrite"), "failures count nothing at the target");
        assertEquals(0, delta(before, after, "mrwrite"));
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, complete(ep.write(big, 0, 70_000, 0, peer, base, RW_KEY, 5)),
            "and the next one works");
    }

    @Test
    void shouldTakeOneBouncedOperationAtATimeAndFreeTheBounceAtClose() throws Exception
    {
        final long segmentsBefore = segmentsOfThisProcess();
        final CompletionQueue cq2 = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
        final Endpoint ep2 = domain.endpoint(domain.info(), 0);
        try
        {
            ep2.bind(av, 0);
            ep2.bind(cq2, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep2.enable();
            final ByteBuffer big = pattern(100_000, 2, false);
            ask("pause");
            try
            {
                assertEquals(0, ep2.write(big, 0, 100_000, 0, peer, base, RW_KEY, 1));
                assertEquals(-Errno.FI_EAGAIN, ep2.write(big, 0, 100_000, 0, peer, base, RW_KEY, 2),
                    "the bounce is the first one's until it is answered");
                assertEquals(0, ep2.write(big, 0, 100, 0, peer, base, RW_KEY, 3), "one that fits a record still goes");
            }
            finally
            {
                ask("resume");
            }
            assertEquals(Flags.FI_RMA | Flags.FI_WRITE, CqWait.next(cq2));
            assertEquals(Flags.FI_RMA | Flags.FI_WRITE, CqWait.next(cq2));
            assertEquals(-Errno.FI_EAGAIN, cq2.read(new CqEntries(1), 1));
            assertEquals(0, ep2.write(big, 0, 100_000, 0, peer, base, RW_KEY, 4), "free again once answered");
            assertEquals(Flags.FI_RMA | Flags.FI_WRITE, CqWait.next(cq2));
            assertEquals(segmentsBefore + 1, segmentsOfThisProcess(), "the bounce is a segment file of this process");
        }
        finally
        {
            ep2.close();
            cq2.close();
        }
        assertEquals(segmentsBefore, segmentsOfThisProcess(), "closing the endpoint frees its bounce");
    }

    private long segmentsOfThisProcess() throws Exception
    {
        try (Stream<Path> files = Files.list(session.root.dir()))
        {
            final String prefix = DOMAIN + ".seg." + ProcessHandle.current().pid() + ".";
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)).count();
        }
    }
}
