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

import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.Msg;
import io.jfabric.Progress;
import io.jfabric.Threading;
import io.jfabric.shm.cq.ShmCompletionQueue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.function.LongSupplier;

import static io.jfabric.Addresses.FI_ADDR_UNSPEC;
import static io.jfabric.Flags.FI_MULTI_RECV;
import static io.jfabric.Flags.FI_PEEK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calls that complete at once while the CQ is full (issue 26, item 1): with a 64 KiB completion ring (a CQ of 215
 * entries) thousands of cancels, peeks that find nothing (FI_ENOMSG) and receives that match a message already
 * stored are made without reading the CQ, as an application busy posting does; the CQ is drained only when a call
 * answers -FI_EAGAIN, and the call is then made again. Every call that returned 0 must have its completion in the
 * CQ, exactly once. Before the fix each such call returned 0 and wrote its entry without asking for room: past the
 * ring's space the entries were dropped (888 of 3,072 cancels, 2,952 of 5,000 peeks, 2,976 of 4,000 matches).
 */
class FullCqCompletionsTest
{
    private static final int CQ_RING_BYTES = 64 * 1024;
    private static final int SIZE = 8;

    private EndpointPair pair;
    private final CqEntries entries = new CqEntries(64);
    private final CqErrEntry err = new CqErrEntry();
    private final BitSet seen = new BitSet();
    private int successes;
    private int errors;
    private int eagains;

    @BeforeEach
    void open()
    {
        pair = new EndpointPair(Progress.MANUAL, Threading.DOMAIN, new CqAttr().format(CqFormat.TAGGED),
            key -> "cq.ring.bytes".equals(key) ? Integer.toString(CQ_RING_BYTES) : null);
    }

    @AfterEach
    void close()
    {
        pair.close();
    }

    @Test
    void shouldReportEveryCancelWhenTheCqFills()
    {
        final int count = 3_072;
        final ByteBuffer buf = ByteBuffer.allocateDirect(SIZE);
        for (int i = 0; i < count; i++)
        {
            final int context = i;
            untilAccepted(() -> pair.b.recv(buf, 0, SIZE, 0, FI_ADDR_UNSPEC, context));
            untilAccepted(() -> pair.b.cancel(context));
        }
        drain(pair.cqB);

        assertEquals(count, errors, "every cancel that returned 0 has its FI_ECANCELED entry");
        assertTrue(eagains > 0, "the CQ filled: some cancel answered -FI_EAGAIN");
        assertEquals(0, successes);
        assertEquals(count, seen.cardinality());
    }

    @Test
    void shouldReportEveryPeekThatFindsNothingWhenTheCqFills()
    {
        final int count = 5_000;
        final Msg msg = new Msg(1);
        msg.iovCount = 0;
        msg.tag = 42;
        for (int i = 0; i < count; i++)
        {
            msg.context = i;
            untilAccepted(() -> pair.b.trecvmsg(msg, FI_PEEK));
        }
        drain(pair.cqB);

        assertEquals(count, errors, "every peek that returned 0 has its FI_ENOMSG entry");
        assertTrue(eagains > 0, "the CQ filled: some peek answered -FI_EAGAIN");
        assertEquals(count, seen.cardinality());
    }

    @Test
    void shouldReportEveryReceiveThatMatchesAStoredMessageWhenTheCqFills()
    {
        final int count = 4_000;
        storeUnexpected(count);
        final ByteBuffer[] into = new ByteBuffer[count];
        for (int i = 0; i < count; i++)
        {
            final int context = i;
            into[i] = ByteBuffer.allocateDirect(SIZE);
            untilAccepted(() -> pair.b.recv(into[context], 0, SIZE, 0, FI_ADDR_UNSPEC, context));
        }
        drain(pair.cqB);

        assertEquals(count, successes, "every receive that returned 0 completed");
        assertTrue(eagains > 0, "the CQ filled: some receive answered -FI_EAGAIN");
        assertEquals(0, errors);
        for (int i = 0; i < count; i++)
        {
            assertEquals(i, into[i].getLong(0), "receive " + i + " took message " + i + " (arrival order)");
        }
    }

    @Test
    void shouldReleaseAMultiReceiveBufferBeforeTheCqOverflowsAndKeepTheRestStored()
    {
        final int count = 4_000;
        storeUnexpected(count);
        final ByteBuffer buf = ByteBuffer.allocateDirect(count * SIZE);
        final Msg msg = new Msg(1);
        msg.iov[0] = buf;
        msg.iovOffset[0] = 0;
        msg.iovLength[0] = count * SIZE;
        msg.iovCount = 1;
        final BitSet messages = new BitSet();
        int released = 0;
        int posts = 0;
        while (messages.cardinality() < count)
        {
            assertTrue(posts++ < 1_000, "messages left after " + posts + " buffers: " + messages.cardinality());
            msg.context = posts;
            final long rc = pair.b.recvmsg(msg, FI_MULTI_RECV);
            if (rc == -Errno.FI_EAGAIN)
            {
                eagains++;
            }
            else
            {
                assertEquals(0, rc);
            }
            // everything the buffer took is in the CQ, the last entry carrying FI_MULTI_RECV
            boolean last = rc != 0;
            int n;
            while ((n = pair.cqB.read(entries, entries.capacity())) > 0)
            {
                for (int i = 0; i < n; i++)
                {
                    if ((entries.flags[i] & FI_MULTI_RECV) != 0)
                    {
                        released++;
                        last = true;
                    }
                    if (entries.len[i] == SIZE)
                    {
                        final long m = buf.getLong((int)entries.bufOffset[i]);
                        assertTrue(!messages.get((int)m), "message " + m + " completed twice");
                        messages.set((int)m);
                    }
                }
            }
            assertEquals(-Errno.FI_EAGAIN, n);
            assertTrue(last || messages.cardinality() == count,
                "the buffer posted as " + posts + " was released (FI_MULTI_RECV) when the CQ filled");
        }
        assertTrue(released > 1, "the CQ (215 entries) cannot hold 4,000 completions: buffers were released early");
        assertEquals(count, messages.cardinality());
    }

    @Test
    void shouldLeaveTheLastPieceOfAMessageInItsLaneWhileTheCqIsFull()
    {
        final int large = 200_000; // in pieces, more than the 64 KiB lane holds at once
        final ByteBuffer into = ByteBuffer.allocateDirect(large);
        assertEquals(0, pair.b.recv(into, 0, large, 0, FI_ADDR_UNSPEC, 1_000_000));
        final ByteBuffer src = ByteBuffer.allocateDirect(large);
        src.putLong(0, 77);
        assertEquals(0, pair.a.send(src, 0, large, 0, pair.addrB, 5)); // its first records go into the lane now
        final ShmCompletionQueue cq = (ShmCompletionQueue)pair.cqB;
        cq.progressEndpoints(); // b takes the first records: the receive has begun
        final ByteBuffer buf = ByteBuffer.allocateDirect(SIZE);
        for (int context = 0; cq.hasRoom(); context++)
        {
            assertEquals(0, pair.b.recv(buf, 0, SIZE, 0, FI_ADDR_UNSPEC, context));
            assertEquals(0, pair.b.cancel(context));
        }
        for (int i = 0; i < 1_000; i++)
        {
            ((ShmCompletionQueue)pair.cqA).progressEndpoints();
            cq.progressEndpoints();
        }
        assertEquals(cq.size(), cq.outstanding(), "the last piece waits for room: the CQ holds its size, no more");

        drain(pair.cqB);
        for (int i = 0; i < 1_000 && successes == 0; i++)
        {
            ((ShmCompletionQueue)pair.cqA).progressEndpoints();
            drain(pair.cqB);
        }
        assertEquals(1, successes, "the message completed once there was room");
        assertEquals(77, into.getLong(0));
    }

    /** Inject {@code count} messages from a to b (no receive posted) and progress b until they are all stored. */
    private void storeUnexpected(final int count)
    {
        final ByteBuffer src = ByteBuffer.allocateDirect(SIZE);
        for (int i = 0; i < count; i++)
        {
            src.putLong(0, i);
            long rc;
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while ((rc = pair.a.inject(src, 0, SIZE, pair.addrB)) == -Errno.FI_EAGAIN)
            {
                assertTrue(System.nanoTime() < deadline, "the lane drains");
                assertEquals(-Errno.FI_EAGAIN, pair.cqB.read(entries, 1), "nothing completes at b yet");
            }
            assertEquals(0, rc);
        }
        for (int i = 0; i < 100; i++)
        {
            assertEquals(-Errno.FI_EAGAIN, pair.cqB.read(entries, 1));
        }
    }

    /** Make a call until it returns 0; on -FI_EAGAIN (the CQ is full) drain b's CQ first. */
    private void untilAccepted(final LongSupplier call)
    {
        long rc;
        int tries = 0;
        while ((rc = call.getAsLong()) == -Errno.FI_EAGAIN)
        {
            eagains++;
            assertTrue(tries++ < 3, "-FI_EAGAIN again after draining the CQ");
            drain(pair.cqB);
        }
        assertEquals(0, rc);
    }

    /** Read b's CQ empty, counting successes and errors and noting each context. */
    private void drain(final CompletionQueue cq)
    {
        while (true)
        {
            final int n = cq.read(entries, entries.capacity());
            if (n > 0)
            {
                successes += n;
                for (int i = 0; i < n; i++)
                {
                    note(entries.opContext[i]);
                }
            }
            else if (n == -Errno.FI_EAVAIL)
            {
                assertEquals(1, cq.readErr(err, 0));
                assertTrue(err.err == Errno.FI_ECANCELED || err.err == Errno.FI_ENOMSG, "err " + err.err);
                errors++;
                note(err.opContext);
            }
            else
            {
                assertEquals(-Errno.FI_EAGAIN, n);
                return;
            }
        }
    }

    private void note(final long context)
    {
        assertTrue(!seen.get((int)context), "context " + context + " completed twice");
        seen.set((int)context);
    }
}
