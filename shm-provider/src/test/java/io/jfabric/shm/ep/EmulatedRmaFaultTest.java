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
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an initiator sees of its emulated operations when the target ({@link EmulatedPeerMain}, started with its
 * progress paused so that the requests wait in its lane) is SIGKILLed or SIGSTOPped, and what the target does
 * with requests its initiator gave up. The liveness timeout is {@value #TIMEOUT_MS} ms here.
 * <ul>
 *   <li>A target that dies: every operation in flight completes with FI_EHOSTUNREACH, soon, and later calls fail
 *   at once.</li>
 *   <li>A target that stops: nothing fails before the timeout; after it every operation completes with
 *   FI_EHOSTUNREACH; when the target runs again it applies none of them (they were cancelled in its lane).</li>
 *   <li>An initiator that closes with operations in flight: no completions, and the target never applies them.</li>
 *   <li>A target with automatic progress serves them although its application never reads its CQ.</li>
 * </ul>
 */
class EmulatedRmaFaultTest
{
    private static final long TIMEOUT_MS = 1000;
    private static final String DOMAIN = "emulfault";
    private static final long RW_KEY = 7;

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private Domain domain;
    private Info info;
    private AddressVector av;
    private CompletionQueue cq;
    private Counter reads;
    private Counter writes;
    private Endpoint ep;
    private ChildJvm child;
    private long peer;
    private long base;

    @BeforeEach
    void open(final TestInfo test) throws Exception
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider(key -> "liveness.timeout.ms".equals(key) ? "" + TIMEOUT_MS : null);
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN);
        hints.caps(Flags.FI_MSG | Flags.FI_RMA | Flags.FI_ATOMIC);
        info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        domain = opened.keep(fabric.domain(info, 0));
        av = opened.keep(domain.avOpen(new AvAttr(), 0));
        cq = opened.keep(domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0));
        reads = opened.keep(domain.cntrOpen(null, 0));
        writes = opened.keep(domain.cntrOpen(null, 0));
        ep = opened.keep(domain.endpoint(info, 0));
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.bind(reads, Flags.FI_READ);
        ep.bind(writes, Flags.FI_WRITE);
        ep.enable();
        child = ChildJvm.start(EmulatedPeerMain.class, List.of("jfabric.shm.dir=" + root.dir(),
            "jfabric.shm.liveness.timeout.ms=" + TIMEOUT_MS), DOMAIN, "65536",
            test.getDisplayName().contains("AutomaticProgress") ? "auto" : "paused");
        final Map<String, String> hello = child.awaitResult(60);
        base = Long.parseLong(hello.get("base"));
        final long[] out = new long[1];
        assertEquals(1, av.insert(new String[] {hello.get("addr")}, 1, out, 0, 0));
        peer = out[0];
    }

    @AfterEach
    void close() throws Exception
    {
        if (child != null)
        {
            child.kill();
        }
        opened.close();
        root.close();
    }

    /** Issue four emulated operations (contexts 1 to 4) the paused target does not serve. */
    private void issue(final Endpoint on) throws Exception
    {
        final ByteBuffer bytes = ByteBuffer.allocateDirect(64);
        for (int i = 0; i < 64; i++)
        {
            bytes.put(i, (byte)(i + 1));
        }
        final ByteBuffer operand = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).putLong(0, 5);
        final ByteBuffer result = ByteBuffer.allocate(8);
        assertEquals(0, on.write(bytes, 0, 64, 0, peer, base, RW_KEY, 1));
        assertEquals(0, on.read(ByteBuffer.allocate(64), 0, 64, 0, peer, base + 128, RW_KEY, 2));
        assertEquals(0, on.fetchAtomic(operand, 0, 1, 0, result, 0, 0, peer, base + 4096, RW_KEY,
            AtomicDatatype.INT64, AtomicOp.SUM, 3));
        assertEquals(0, on.writedata(bytes, 0, 16, 0, 99, peer, base + 256, RW_KEY, 4));
    }

    /** Read the CQ (progressing the endpoint) for up to {@code ms}: the first answer that is not FI_EAGAIN. */
    private int poll(final long ms)
    {
        final CqEntries e = new CqEntries(4);
        final long deadline = System.nanoTime() + ms * 1_000_000L;
        int n;
        do
        {
            n = cq.read(e, 4);
        }
        while (n == -Errno.FI_EAGAIN && System.nanoTime() < deadline);
        return n;
    }

    /** @return context to errno of the next {@code count} error entries, within 10 s. */
    private Map<Long, Integer> errors(final int count)
    {
        final Map<Long, Integer> seen = new TreeMap<>();
        final CqErrEntry err = new CqErrEntry();
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (seen.size() < count && System.nanoTime() < deadline)
        {
            final int n = poll(100);
            if (n == -Errno.FI_EAVAIL)
            {
                assertEquals(1, cq.readErr(err, 0));
                seen.put(err.opContext, err.err);
            }
            else
            {
                assertTrue(n == -Errno.FI_EAGAIN, "only error entries: " + n);
            }
        }
        return seen;
    }

    private Map<String, String> ask(final String command) throws Exception
    {
        child.tell(command);
        return child.awaitResult(30);
    }

    private static long crcOfZeros(final int length)
    {
        final CRC32C c = new CRC32C();
        c.update(new byte[length]);
        return c.getValue();
    }

    @Test
    void shouldCompleteEveryEmulatedOperationInErrorWhenTheTargetIsKilled() throws Exception
    {
        issue(ep);
        assertEquals(-Errno.FI_EAGAIN, poll(300), "a live target that does not progress leaves them in flight");
        child.kill();
        final long killedAt = System.nanoTime();
        final Map<Long, Integer> seen = errors(4);
        final long ms = (System.nanoTime() - killedAt) / 1_000_000L;
        assertEquals(Map.of(1L, Errno.FI_EHOSTUNREACH, 2L, Errno.FI_EHOSTUNREACH, 3L, Errno.FI_EHOSTUNREACH,
            4L, Errno.FI_EHOSTUNREACH), seen);
        assertTrue(ms < 2 * TIMEOUT_MS, "found gone soon: " + ms + " ms");
        assertEquals(2, writes.readErr(), "the write and the writedata");
        assertEquals(2, reads.readErr(), "the read and the fetching atomic");
        assertEquals(-Errno.FI_EHOSTUNREACH, ep.write(ByteBuffer.allocateDirect(8), 0, 8, 0, peer, base, RW_KEY, 5),
            "a later call fails at once");
        child = null;
    }

    @Test
    void shouldFailAfterTheTimeoutWhenTheTargetStopsAndNeverApplyWhatWasGivenUp() throws Exception
    {
        final Map<String, String> countersBefore = ask("counters");
        issue(ep);
        child.stop();
        final long stoppedAt = System.nanoTime();
        assertEquals(-Errno.FI_EAGAIN, poll(TIMEOUT_MS / 2), "before the timeout a stopped target is only slow");
        final Map<Long, Integer> seen = errors(4);
        final long ms = (System.nanoTime() - stoppedAt) / 1_000_000L;
        assertEquals(4, seen.size(), "all four end: " + seen);
        seen.values().forEach(errno -> assertEquals(Errno.FI_EHOSTUNREACH, errno, Errno.name(errno)));
        assertTrue(ms >= TIMEOUT_MS - 50 && ms < TIMEOUT_MS + 3_000, "failed after the timeout: " + ms + " ms");

        child.resume();
        ask("resume"); // its progress drains the lane: the cancelled requests are skipped
        final ByteBuffer word = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).putLong(0, 7);
        long rc = -1;
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (rc != 0 && System.nanoTime() < deadline)
        {
            poll(20);
            rc = ep.write(word, 0, 8, 0, peer, base + 8192, RW_KEY, 6);
        }
        assertEquals(0, rc, "it takes operations again once it runs");
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, CqWait.next(cq), "served behind the cancelled ones in the lane");
        assertEquals("7", ask("long 8192").get("value"));
        assertEquals(Long.toString(crcOfZeros(512)), ask("crc 0 512").get("crc"), "no write landed");
        assertEquals("0", ask("long 4096").get("value"), "no atomic was applied");
        assertEquals("0", ask("cq 300").get("count"), "no writedata completion");
        final Map<String, String> after = ask("counters");
        assertEquals(countersBefore.get("rread"), after.get("rread"), "no read was counted at the target");
        assertEquals(Long.parseLong(countersBefore.get("rwrite")) + 1, Long.parseLong(after.get("rwrite")),
            "only the last write was counted");
    }

    @Test
    void shouldBeServedByATargetWithAutomaticProgressThatNeverReadsItsCq() throws Exception
    {
        final Map<String, String> countersBefore = ask("counters");
        issue(ep);
        final Map<Long, Long> done = new TreeMap<>();
        final CqEntries entries = new CqEntries(4);
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (done.size() < 4 && System.nanoTime() < deadline)
        {
            final int n = cq.read(entries, 4);
            assertTrue(n > 0 || n == -Errno.FI_EAGAIN, "no error: " + n);
            for (int i = 0; i < n; i++)
            {
                done.put(entries.opContext[i], entries.flags[i]);
            }
        }
        assertEquals(Map.of(1L, Flags.FI_RMA | Flags.FI_WRITE, 2L, Flags.FI_RMA | Flags.FI_READ,
            3L, Flags.FI_ATOMIC | Flags.FI_READ, 4L, Flags.FI_RMA | Flags.FI_WRITE), done);
        assertEquals("5", ask("long 4096").get("value"), "the fetch-add was applied");
        final Map<String, String> after = ask("counters");
        assertEquals(Long.parseLong(countersBefore.get("rwrite")) + 2, Long.parseLong(after.get("rwrite")));
        assertEquals(Long.parseLong(countersBefore.get("rread")) + 2, Long.parseLong(after.get("rread")));
    }

    @Test
    void shouldDiscardEmulatedOperationsOfAClosedInitiatorWithoutApplyingThem() throws Exception
    {
        final Map<String, String> countersBefore = ask("counters");
        try (CompletionQueue otherCq = domain.cqOpen(new CqAttr(), 0);
            Endpoint other = domain.endpoint(info, 0))
        {
            other.bind(av, 0);
            other.bind(otherCq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            other.enable();
            issue(other);
            other.close();
            assertEquals(-Errno.FI_EAGAIN, otherCq.read(new CqEntries(4), 4), "discarded without completions");
        }
        ask("resume");
        final ByteBuffer in = ByteBuffer.allocate(8);
        assertEquals(0, ep.read(in, 0, 8, 0, peer, base, RW_KEY, 7));
        assertEquals(Flags.FI_RMA | Flags.FI_READ, CqWait.next(cq), "the target serves the next initiator");
        assertEquals("0", ask("cq 500").get("count"), "no writedata completion while it drains every lane");
        assertEquals(Long.toString(crcOfZeros(512)), ask("crc 0 512").get("crc"), "no write landed");
        assertEquals("0", ask("long 4096").get("value"), "no atomic was applied");
        final Map<String, String> after = ask("counters");
        assertEquals(countersBefore.get("rwrite"), after.get("rwrite"), "no write was counted");
        assertEquals(Long.parseLong(countersBefore.get("rread")) + 1, Long.parseLong(after.get("rread")),
            "only the last read was counted");
    }
}
