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
package io.jfabric.shm.cq;

import io.jfabric.Addresses;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.Progress;
import io.jfabric.Threading;
import io.jfabric.WaitObj;
import io.jfabric.shm.ep.EndpointPair;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fi_cq(3) over the real region rings: formats, errors at the head, sread and signal, size limits and the
 * resource management they drive.
 */
class ShmCompletionQueueTest
{
    private static EndpointPair pair(final CqAttr attr)
    {
        return new EndpointPair(Progress.MANUAL, Threading.DOMAIN, attr, key -> null);
    }

    @Test
    void shouldReturnEagainFromAnEmptyQueueAndFromReadErrWithoutAnError()
    {
        try (EndpointPair p = pair(new CqAttr()))
        {
            assertEquals(-Errno.FI_EAGAIN, p.cqA.read(new CqEntries(4), 4));
            assertEquals(-Errno.FI_EAGAIN, p.cqA.readErr(new CqErrEntry(), 0));
            assertEquals(-Errno.FI_EINVAL, p.cqA.read(new CqEntries(4), 5), "count above the holder's capacity");
            assertEquals(-Errno.FI_EINVAL, p.cqA.readErr(new CqErrEntry(), 1), "readerr flags must be 0");
        }
    }

    @Test
    void shouldStopAtAnErrorWithEavailAndHandItToReadErr()
    {
        try (EndpointPair p = pair(new CqAttr().format(CqFormat.TAGGED)))
        {
            final ByteBuffer small = ByteBuffer.allocateDirect(8);
            assertEquals(0, p.b.recv(small, 0, 8, 0, Addresses.FI_ADDR_UNSPEC, 5));
            assertEquals(0, p.a.send(ByteBuffer.allocateDirect(64), 0, 64, 0, p.addrB, 6));
            final CqEntries e = new CqEntries(4);
            final long deadline = System.nanoTime() + 10_000_000_000L;
            int n;
            while ((n = p.cqB.read(e, 4)) == -Errno.FI_EAGAIN && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            assertEquals(-Errno.FI_EAVAIL, n);
            assertEquals(-Errno.FI_EAVAIL, p.cqB.read(e, 4), "the error stays at the head until readerr takes it");
            final CqErrEntry err = new CqErrEntry(64);
            assertEquals(1, p.cqB.readErr(err, 0));
            assertEquals(Errno.FI_ETRUNC, err.err);
            assertEquals(5, err.opContext);
            assertEquals(8, err.len);
            assertEquals(56, err.olen);
            assertEquals(Flags.FI_RECV | Flags.FI_MSG, err.flags);
            assertTrue(new String(err.errData, 0, err.errDataSize, StandardCharsets.UTF_8).startsWith("FI_ETRUNC"));
            assertEquals(-Errno.FI_EAGAIN, p.cqB.read(e, 4));
        }
    }

    @Test
    void shouldFillTheFieldsOfTheDataFormatAndTheSourceOnReadFrom()
    {
        try (EndpointPair p = pair(new CqAttr().format(CqFormat.DATA)))
        {
            final ByteBuffer dst = ByteBuffer.allocateDirect(64);
            assertEquals(0, p.b.recv(dst, 16, 32, 0, Addresses.FI_ADDR_UNSPEC, 1));
            assertEquals(0, p.a.senddata(ByteBuffer.allocateDirect(32), 0, 32, 0, 0xFEEDL, p.addrB, 2));
            final CqEntries e = new CqEntries(1);
            final long deadline = System.nanoTime() + 10_000_000_000L;
            int n;
            while ((n = p.cqB.readFrom(e, 1)) == -Errno.FI_EAGAIN && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            assertEquals(1, n);
            assertEquals(1, e.opContext[0]);
            assertEquals(Flags.FI_RECV | Flags.FI_MSG | Flags.FI_REMOTE_CQ_DATA, e.flags[0]);
            assertEquals(32, e.len[0]);
            assertEquals(16, e.bufOffset[0]);
            assertEquals(0xFEEDL, e.data[0]);
            assertEquals(p.addrA, e.srcAddr[0]);
            assertEquals(1, EndpointPair.readOne(p.cqA, e));
            assertEquals(Flags.FI_SEND | Flags.FI_MSG, e.flags[0]);
        }
    }

    @Test
    void shouldRefuseSendsWithEagainWhileTheirCompletionsWouldNotFit()
    {
        try (EndpointPair p = pair(new CqAttr().size(4)))
        {
            final ByteBuffer src = ByteBuffer.allocateDirect(8);
            for (int i = 0; i < 4; i++)
            {
                assertEquals(0, p.a.send(src, 0, 8, 0, p.addrB, i));
            }
            assertEquals(-Errno.FI_EAGAIN, p.a.send(src, 0, 8, 0, p.addrB, 4), "four completions are unread");
            assertEquals(0, p.a.inject(src, 0, 8, p.addrB), "an inject makes no completion");
            assertEquals(1, EndpointPair.readOne(p.cqA, new CqEntries(1)));
            assertEquals(0, p.a.send(src, 0, 8, 0, p.addrB, 4));
        }
    }

    @Test
    void shouldRefuseSizesBeyondTheRingAndFormatsItCannotWaitOn()
    {
        try (EndpointPair p = pair(new CqAttr()))
        {
            final FabricException tooBig = assertThrows(FabricException.class,
                () -> p.domain.cqOpen(new CqAttr().size(1 << 20), 0));
            assertEquals(Errno.FI_EINVAL, tooBig.errno());
            assertTrue(tooBig.getMessage().contains("size 1048576"), tooBig.getMessage());
            final FabricException fd = assertThrows(FabricException.class,
                () -> p.domain.cqOpen(new CqAttr().waitObj(WaitObj.FD), 0));
            assertEquals(Errno.FI_EINVAL, fd.errno());
            final FabricException busy = assertThrows(FabricException.class, p.cqA::close);
            assertEquals(Errno.FI_EBUSY, busy.errno(), "an endpoint is bound to it");
        }
    }

    @Test
    void shouldTimeOutSignalAndWakeInSread() throws Exception
    {
        try (EndpointPair p = pair(new CqAttr().waitObj(WaitObj.UNSPEC)))
        {
            final CqEntries e = new CqEntries(1);
            final long start = System.nanoTime();
            assertEquals(-Errno.FI_EAGAIN, p.cqB.sread(e, 1, 50));
            assertTrue(System.nanoTime() - start >= 50_000_000L, "sread waited its timeout");

            final Thread signaller = new Thread(() ->
            {
                sleepMs(50);
                p.cqB.signal();
            });
            signaller.start();
            assertEquals(-Errno.FI_EAGAIN, p.cqB.sread(e, 1, 10_000), "cq_signal wakes sread");
            signaller.join();

            assertEquals(0, p.b.recv(ByteBuffer.allocateDirect(8), 0, 8, 0, Addresses.FI_ADDR_UNSPEC, 3));
            assertEquals(0, p.a.inject(ByteBuffer.allocateDirect(8), 0, 8, p.addrB));
            assertEquals(1, p.cqB.sread(e, 1, 10_000), "sread progresses and returns the receive");
            assertEquals(3, e.opContext[0]);
        }
        try (EndpointPair p = pair(new CqAttr()))
        {
            assertEquals(-Errno.FI_ENOSYS, p.cqA.sread(new CqEntries(1), 1, 0), "FI_WAIT_NONE has no sread");
        }
    }

    private static void sleepMs(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A completion ring whose shared state would send Agrona's ring code out of bounds (a padding record longer than
     * the ring) with concurrent writers (FI_THREAD_SAFE): the ring is cleared, readErr says how many completions were
     * lost (FI_EIO), nothing throws into the application or fails the region, and the queue goes on.
     */
    @Test
    void shouldClearADamagedRingUnderConcurrentWritersAndGoOn()
    {
        assertClearedAndGoesOn(Threading.SAFE, true);
    }

    /**
     * The same (a record length past the ring) with every writer serialized with the reader (FI_THREAD_DOMAIN): the
     * count of what was lost is exact, none being written.
     */
    @Test
    void shouldClearADamagedRingAndCountWhatWasLostWhenWritersAreSerialized()
    {
        assertClearedAndGoesOn(Threading.DOMAIN, false);
    }

    /** Two completions wait; the head record is damaged; the read clears the ring and says 2 were lost; it goes on. */
    private static void assertClearedAndGoesOn(final Threading threading, final boolean padding)
    {
        try (EndpointPair p = new EndpointPair(Progress.MANUAL, threading, new CqAttr(), key -> null))
        {
            final ShmCompletionQueue cq = (ShmCompletionQueue)p.cqA;
            final ByteBuffer buf = ByteBuffer.allocateDirect(8);
            assertEquals(0, p.a.send(buf, 0, 8, 0, p.addrB, 1));
            assertEquals(0, p.a.send(buf, 0, 8, 0, p.addrB, 2));
            final org.agrona.concurrent.AtomicBuffer b = ((io.jfabric.shm.domain.ShmDomain)p.domain).region().buffer();
            final int ring = ringOffset(p, cq);
            if (padding)
            {
                b.putInt(ring + org.agrona.concurrent.ringbuffer.RecordDescriptor.typeOffset(0),
                    org.agrona.concurrent.ringbuffer.RingBuffer.PADDING_MSG_TYPE_ID);
            }
            b.putIntOrdered(ring + org.agrona.concurrent.ringbuffer.RecordDescriptor.lengthOffset(0), 1 << 30);
            assertEquals(-Errno.FI_EAVAIL, p.cqA.read(new CqEntries(4), 4));
            final CqErrEntry err = new CqErrEntry();
            assertEquals(1, p.cqA.readErr(err, 0));
            assertEquals(Errno.FI_EIO, err.err);
            assertEquals(2, err.data, "two completions lost");
            assertTrue(new String(err.errData, 0, err.errDataSize, StandardCharsets.UTF_8).contains("damaged"));
            assertNull(((io.jfabric.shm.domain.ShmDomain)p.domain).region().fault(), "the region is not failed");
            assertEquals(0, cq.outstanding());
            assertEquals(0, p.a.send(buf, 0, 8, 0, p.addrB, 3));
            final CqEntries entries = new CqEntries(4);
            assertEquals(1, EndpointPair.readOne(p.cqA, entries));
            assertEquals(3, entries.opContext[0], "the queue goes on");
        }
    }

    private static int ringOffset(final EndpointPair p, final ShmCompletionQueue cq)
    {
        final io.jfabric.shm.region.RegionFile region = ((io.jfabric.shm.domain.ShmDomain)p.domain).region();
        return io.jfabric.shm.region.RegionDescriptor.cqRingOffset(region.geometry(), cq.ringNumber());
    }

    /**
     * A record whose body cannot be an entry (a success entry of another length; an error entry with errno 0) is
     * handed to the application as an error entry of its own, err FI_EIO, never as one with err 0.
     */
    @Test
    void shouldHandARecordThatCannotBeAnEntryAsAnIoError()
    {
        try (EndpointPair p = new EndpointPair(Progress.MANUAL, Threading.DOMAIN, new CqAttr(), key -> null))
        {
            final ShmCompletionQueue cq = (ShmCompletionQueue)p.cqA;
            final ByteBuffer buf = ByteBuffer.allocateDirect(8);
            assertEquals(0, p.a.send(buf, 0, 8, 0, p.addrB, 1));
            assertEquals(0, p.a.send(buf, 0, 8, 0, p.addrB, 2));
            ((io.jfabric.shm.domain.ShmDomain)p.domain).region().buffer().putInt(
                ringOffset(p, cq) + org.agrona.concurrent.ringbuffer.RecordDescriptor.typeOffset(0),
                CqRecordDescriptor.ERROR); // a success entry now says it is an error entry: its errno reads as 0
            assertEquals(-Errno.FI_EAVAIL, p.cqA.read(new CqEntries(4), 4));
            final CqErrEntry err = new CqErrEntry();
            assertEquals(1, p.cqA.readErr(err, 0));
            assertEquals(Errno.FI_EIO, err.err);
            assertEquals(0, err.opContext);
            final CqEntries entries = new CqEntries(4);
            assertEquals(1, p.cqA.read(entries, 4));
            assertEquals(2, entries.opContext[0], "the next completion arrives");
            assertEquals(0, cq.outstanding());
        }
    }
}
