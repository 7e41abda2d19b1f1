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

import io.jfabric.Addresses;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Errno;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data path allocates nothing however long it runs against a peer in another process: the checks that ask
 * whether the peer's process still exists (each send's, and the receive side's lane rescans) come back every
 * {@code PeerLiveness.RECHECK_MS}, and must not read {@code /proc} (which allocates) on the caller's thread. A JMH
 * figure of 0 B/op cannot show this: a few allocations a second vanish in millions of operations.
 * <p>
 * The measure is the thread's allocated bytes over windows of {@link #WINDOW_MS}, after a warm-up: two windows in a
 * row must allocate nothing, within {@link #MAX_WINDOWS}. A cost that comes back at least once a window never lets
 * that happen (reading {@code /proc} here cost 28-67 KB per 150 ms). HotSpot itself allocates a few hundred bytes now
 * and then while it still compiles and deoptimizes the loop (the objects a deoptimized frame had kept in registers),
 * which settles within a few seconds; with C1 alone ({@code -XX:TieredStopAtLevel=1}, no escape analysis) the loop
 * allocates nothing from the first window, so there is no allocation in the code that C2 merely removes.
 */
class DataPathAllocationTwoJvmTest extends TwoJvmEndpointTestBase
{
    /** Longer than a liveness recheck (100 ms) and a rescan tick (10 ms) many times over: a periodic cost shows. */
    private static final long WINDOW_MS = 1_200;
    /** Windows in a row that must allocate nothing. */
    private static final int QUIET_WINDOWS = 2;
    /** Windows measured at most: the JIT's one-off allocations settle long before. */
    private static final int MAX_WINDOWS = 10;

    /** A loop of data-path calls run for a given time; {@code outcome} as the test's loops fill it. */
    @FunctionalInterface
    private interface Loop
    {
        void run(long ms, long[] outcome);
    }

    @Override
    String domainName()
    {
        return "alloc2jvm";
    }

    @Override
    CqFormat format()
    {
        return CqFormat.DATA;
    }

    @Test
    void shouldAllocateNothingWhileSendingToAndPollingALivePeerInAnotherProcess()
    {
        // the child sends first, so this endpoint's receive side has its lane to poll and to rescan
        final ByteBuffer in = ByteBuffer.allocateDirect(64);
        local.recv(in, Addresses.FI_ADDR_UNSPEC, 7);
        child("send id=1 dest=" + localAtChild + " op=inject size=8 seed=3");
        local.await(7);

        final ByteBuffer payload = ByteBuffer.allocateDirect(8);
        final CqEntries entries = new CqEntries(16);
        final long[] outcome = new long[3];
        final Loop loop = (ms, o) -> run(payload, entries, ms, o);
        final String allocated = quietWindows(loop, outcome);

        assertEquals(0, outcome[2], "an inject or CQ read returned something other than success or FI_EAGAIN: " +
            outcome[2]);
        assertTrue(outcome[0] > 1000, "the loop ran: " + outcome[0] + " calls");
        assertNull(allocated, "bytes allocated per " + WINDOW_MS + " ms window of injects and CQ reads against a " +
            "live peer in another process: " + allocated);
    }

    @Test
    void shouldAllocateNothingSendingAndReceivingWithCompletionsBetweenTwoEndpoints()
    {
        final EpSide other = openLocal(format(), BOTH);
        final long toOther = local.insert(other.name);
        final ByteBuffer payload = ByteBuffer.allocateDirect(64);
        final ByteBuffer in = ByteBuffer.allocateDirect(64);
        final CqEntries entries = new CqEntries(16);
        final long[] outcome = new long[3];
        final Loop loop = (ms, o) -> exchange(other, toOther, payload, in, entries, ms, o);
        final String allocated = quietWindows(loop, outcome);

        assertEquals(0, outcome[2], "a call returned something other than success or FI_EAGAIN: " + outcome[2]);
        assertTrue(outcome[1] > 1000, "messages went through: " + outcome[1]);
        assertNull(allocated, "bytes allocated per " + WINDOW_MS + " ms window of sends, receives and their " +
            "completions: " + allocated);
    }

    /**
     * Send 64 bytes with a completion from {@link #local} to {@code other}, which has a receive posted, and read both
     * CQs until the send and the receive completed, for {@code ms}: {@code outcome} gets the CQ reads, the messages
     * and the last unexpected code (-FI_ETIMEDOUT when a message did not complete within {@link EpSide#TIMEOUT_MS}).
     */
    private void exchange(
        final EpSide other, final long toOther, final ByteBuffer payload, final ByteBuffer in,
        final CqEntries entries, final long ms, final long[] outcome)
    {
        final long end = System.nanoTime() + ms * 1_000_000L;
        long reads = 0;
        long messages = 0;
        long unexpected = 0;
        while (System.nanoTime() < end && unexpected == 0)
        {
            long rc = other.ep.recv(in, 0, 64, 0, Addresses.FI_ADDR_UNSPEC, 2);
            unexpected = rc == 0 ? 0 : rc;
            rc = local.ep.send(payload, 0, 64, 0, toOther, 1);
            unexpected = rc == 0 ? unexpected : rc;
            int sent = 0;
            int received = 0;
            final long giveUp = System.nanoTime() + EpSide.TIMEOUT_MS * 1_000_000L;
            while (unexpected == 0 && (sent == 0 || received == 0))
            {
                if (System.nanoTime() - giveUp > 0)
                {
                    unexpected = -Errno.FI_ETIMEDOUT;
                    break;
                }
                final int a = local.cq.read(entries, entries.capacity());
                sent += Math.max(a, 0);
                final int b = other.cq.read(entries, entries.capacity());
                received += Math.max(b, 0);
                unexpected = a < 0 && a != -Errno.FI_EAGAIN ? a : b < 0 && b != -Errno.FI_EAGAIN ? b : 0;
                reads += 2;
            }
            messages += unexpected == 0 ? 1 : 0;
        }
        outcome[0] += reads;
        outcome[1] += messages;
        if (unexpected != 0)
        {
            outcome[2] = unexpected;
        }
    }

    /**
     * Warm the loop up, then run it window by window until {@link #QUIET_WINDOWS} windows in a row allocate nothing.
     *
     * @return null when they did, else the bytes each window allocated.
     */
    private static String quietWindows(final Loop loop, final long[] outcome)
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        loop.run(600, outcome); // compiles the loop and loads what it touches
        outcome[0] = outcome[1] = outcome[2] = 0;
        final long[] allocated = new long[MAX_WINDOWS];
        int quiet = 0;
        for (int w = 0; w < MAX_WINDOWS; w++)
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            loop.run(WINDOW_MS, outcome);
            allocated[w] = threads.getCurrentThreadAllocatedBytes() - before;
            quiet = allocated[w] == 0 ? quiet + 1 : 0;
            if (quiet == QUIET_WINDOWS)
            {
                return null;
            }
        }
        return Arrays.toString(allocated);
    }

    /**
     * Inject to the child (which does not read, so its lane fills and most calls answer FI_EAGAIN) and read this
     * endpoint's CQ, for {@code ms}: {@code outcome} gets the calls, the injects taken, and the last unexpected code.
     */
    private void run(final ByteBuffer payload, final CqEntries entries, final long ms, final long[] outcome)
    {
        final long end = System.nanoTime() + ms * 1_000_000L;
        long calls = 0;
        long taken = 0;
        long unexpected = 0;
        while (System.nanoTime() < end)
        {
            final long rc = local.ep.inject(payload, 0, 8, child);
            if (rc == 0)
            {
                taken++;
            }
            else if (rc != -Errno.FI_EAGAIN)
            {
                unexpected = rc;
            }
            final int n = local.cq.read(entries, entries.capacity());
            if (n < 0 && n != -Errno.FI_EAGAIN)
            {
                unexpected = n;
            }
            calls++;
        }
        outcome[0] += calls;
        outcome[1] += taken;
        if (unexpected != 0)
        {
            outcome[2] = unexpected;
        }
    }
}
