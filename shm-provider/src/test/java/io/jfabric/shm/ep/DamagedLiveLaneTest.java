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
import io.jfabric.EqAttr;
import io.jfabric.EqErrEntry;
import io.jfabric.Errno;
import io.jfabric.EventQueue;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.region.SpscLaneDescriptor;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live lane damaged for 5 s while it carries a stream (issue 26, item 8): a sender in a second JVM sends 200-byte
 * messages as fast as they are taken to a receiver in this JVM that polls its CQ on a thread of its own, and a
 * damager thread of this JVM writes into the lane's mapped memory about once a millisecond: a huge record length at
 * the head record, garbage consumer and producer positions, or a random byte flipped anywhere in the lane (with the
 * sender's checksums on). Throughout, every message delivered as a success must be a whole message of the stream,
 * later than the one before it: nothing stale, nothing twice. (A flip that lands in a record while its sender writes
 * it, before the checksum is sealed, or while the receiver copies it out, after the check, cannot be told; such
 * messages arrive changed, and are counted as torn.) The damage must be counted and reported on the EQ, and within
 * 1.5 s after the damage stops the stream must flow again. Before the fix, in most runs nothing flowed after the damage (the sender saw
 * -FI_EAGAIN, the receiver nothing), and garbage positions had stale records delivered as successes.
 */
class DamagedLiveLaneTest
{
    private static final int SIZE = 200;
    private static final long DAMAGE_MS = 5_000;
    private static final long FLOW_MS = 1_500;
    private static final int POSTED = 64;

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private ShmDomain domain;
    private Info info;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name("live");
        info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        domain = (ShmDomain)opened.keep(fabric.domain(info, 0));
    }

    @AfterEach
    void close() throws Exception
    {
        opened.close();
        root.close();
    }

    @Test
    void shouldFlowAgainAfterAHugeRecordLengthAtTheHeadEveryMillisecond() throws Exception
    {
        run(false, false, (lane, random) ->
        {
            final int head = (int)lane.consumerPosition() & (lane.capacity() - 1);
            lane.buffer().putIntVolatile(head + SpscLaneDescriptor.LENGTH_OFFSET, 0x7FFF_0000);
        });
    }

    @Test
    void shouldFlowAgainAfterGarbagePositionsEveryMillisecond() throws Exception
    {
        run(false, false, (lane, random) ->
        {
            final AtomicBuffer b = lane.buffer();
            final int capacity = lane.capacity();
            final long garbage = random.nextInt(4) == 0 ? random.nextLong() :
                lane.consumerPosition() + random.nextInt(-2 * capacity, 2 * capacity) * 8L;
            b.putLongVolatile(random.nextBoolean() ? SpscLaneDescriptor.consumerPositionOffset(capacity) :
                SpscLaneDescriptor.producerPositionOffset(capacity), garbage);
        });
    }

    @Test
    void shouldFlowAgainAfterRandomByteFlipsEveryMillisecond() throws Exception
    {
        run(true, true, (lane, random) ->
        {
            final AtomicBuffer b = lane.buffer();
            final int at = random.nextInt(b.capacity());
            b.putByteVolatile(at, (byte)(b.getByte(at) ^ (1 + random.nextInt(255))));
        });
    }

    /**
     * @param checksum whether the sender's records carry checksums.
     * @param flips    whether the damage may change a record's bytes while the sender writes it (before it seals it)
     *                 or the receiver copies it out (after it checked it): no check can see that, so such a message
     *                 may arrive changed ("torn": not a whole message of the stream); it is counted, and only a whole
     *                 message delivered again or out of order (stale) fails the test.
     * @param damage   what the damager does each time.
     */
    private void run(final boolean checksum, final boolean flips, final Damage damage) throws Exception
    {
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        final CompletionQueue cq = opened.keep(domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0));
        final EventQueue eq = opened.keep(domain.fabric().eqOpen(new EqAttr().size(1024), 0));
        final ShmEndpoint receiver = (ShmEndpoint)opened.keep(domain.endpoint(info, 0));
        receiver.bind(av, 0);
        receiver.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        receiver.bind(eq, 0);
        receiver.enable();
        final ChildJvm sender = opened.keep(ChildJvm.start(StreamSenderMain.class, List.of(
            "jfabric.shm.dir=" + root.dir(), "jfabric.shm.checksum=" + checksum), "live",
            new String(receiver.getname(), StandardCharsets.US_ASCII), Integer.toString(SIZE)));
        final String senderAddr = sender.awaitResult(60).get("addr");
        final int colon = senderAddr.lastIndexOf(':');
        final int senderSlot = Integer.parseInt(senderAddr.substring(colon + 1, senderAddr.indexOf('/', colon)));
        final RegionGeometry g = domain.region().geometry();
        final SpscLane lane = new SpscLane(new UnsafeBuffer(domain.region().buffer(),
            RegionDescriptor.laneOffset(g, receiver.slot(), senderSlot), RegionDescriptor.laneLength(g.rxRingBytes())));

        final Receiver polling = new Receiver(receiver, cq, eq, flips);
        polling.start();
        try
        {
            polling.awaitDelivered(1_000, 30_000);
            final long stopAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DAMAGE_MS);
            final ThreadLocalRandom random = ThreadLocalRandom.current();
            long damages = 0;
            while (System.nanoTime() < stopAt)
            {
                damage.apply(lane, random);
                damages++;
                LockSupport.parkNanos(1_000_000);
            }
            final long atStop = polling.delivered.get();
            final long flowingBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FLOW_MS);
            while (polling.delivered.get() < atStop + 100 && System.nanoTime() < flowingBy)
            {
                Thread.sleep(1);
            }
            final long after = polling.delivered.get() - atStop;
            assertTrue(after >= 100, after + " messages in the " + FLOW_MS + " ms after " + damages + " damages " +
                "(delivered before: " + atStop + ", torn " + polling.torn.get() + "); sender: " + lastLine(sender));
            assertNull(polling.wrong.get(), "a message delivered as a success was wrong");
            assertTrue(polling.reported.get() > 0, "the damage was reported on the EQ");
            assertTrue(damagedCount(receiver) >= polling.reported.get(), "and counted");
        }
        finally
        {
            polling.stop = true;
            polling.join(10_000);
        }
        assertNull(polling.failure.get(), "the receiving thread ended normally");
        sender.kill();
    }

    private long damagedCount(final ShmEndpoint receiver)
    {
        final RegionGeometry g = domain.region().geometry();
        return domain.region().buffer().getLongVolatile(
            SlotDescriptor.statOffset(g, receiver.slot(), SlotDescriptor.STAT_DAMAGED_OFFSET));
    }

    private static String lastLine(final ChildJvm child)
    {
        final String out = child.output().strip();
        return out.substring(out.lastIndexOf('\n') + 1);
    }

    /** One damage to the lane. */
    @FunctionalInterface
    private interface Damage
    {
        void apply(SpscLane lane, ThreadLocalRandom random);
    }

    /**
     * Keeps {@link #POSTED} receives posted and reads the CQ and the EQ, on its own thread (the endpoint's only
     * user): checks every success (whole, later than the last, its payload the stream's) and counts the EQ's error
     * events.
     */
    private static final class Receiver extends Thread
    {
        final AtomicLong delivered = new AtomicLong();
        final AtomicLong reported = new AtomicLong();
        final AtomicReference<String> wrong = new AtomicReference<>();
        final AtomicLong torn = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        volatile boolean stop;
        private final ShmEndpoint ep;
        private final CompletionQueue cq;
        private final EventQueue eq;
        private final boolean tornAllowed;
        private final ByteBuffer[] buffers = new ByteBuffer[POSTED];
        private long last = -1;

        Receiver(final ShmEndpoint ep, final CompletionQueue cq, final EventQueue eq, final boolean tornAllowed)
        {
            super("damaged-lane-receiver");
            this.ep = ep;
            this.cq = cq;
            this.eq = eq;
            this.tornAllowed = tornAllowed;
        }

        void awaitDelivered(final long count, final long ms) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
            while (delivered.get() < count && System.nanoTime() < deadline)
            {
                Thread.sleep(1);
            }
            assertTrue(delivered.get() >= count, "the stream flows before the damage: " + delivered.get());
        }

        @Override
        public void run()
        {
            try
            {
                for (int i = 0; i < POSTED; i++)
                {
                    buffers[i] = ByteBuffer.allocateDirect(SIZE);
                    post(i);
                }
                final CqEntries entries = new CqEntries(16);
                final CqErrEntry err = new CqErrEntry();
                final EqErrEntry eqErr = new EqErrEntry();
                while (!stop)
                {
                    final int n = cq.read(entries, entries.capacity());
                    for (int i = 0; i < n; i++)
                    {
                        check((int)entries.opContext[i], entries.len[i]);
                        post((int)entries.opContext[i]);
                    }
                    if (n == -Errno.FI_EAVAIL && cq.readErr(err, 0) == 1)
                    {
                        post((int)err.opContext); // a message the damage cut short (none here: all are whole)
                    }
                    while (eq.readErr(eqErr, 0) == 1)
                    {
                        assertEquals(Errno.FI_EIO, eqErr.err());
                        reported.incrementAndGet();
                    }
                }
            }
            catch (final Throwable t)
            {
                failure.set(t);
            }
        }

        private void post(final int i)
        {
            final long rc = ep.recv(buffers[i], 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, i);
            if (rc != 0)
            {
                throw new IllegalStateException("recv returned " + rc);
            }
        }

        /** A whole message of the stream must come later than the last; one that is not whole is torn. */
        private void check(final int i, final long len)
        {
            final ByteBuffer buf = buffers[i];
            final long n = buf.getLong(0);
            final String notWhole = len != SIZE ? "length " + len : buf.getLong(SIZE - 8) != n ?
                "its two copies of n differ (" + buf.getLong(SIZE - 8) + ")" : Pattern.check(buf, 8, SIZE - 16, n);
            if (notWhole != null)
            {
                torn.incrementAndGet();
                if (!tornAllowed)
                {
                    wrong.compareAndSet(null, "message " + n + ": " + notWhole);
                }
            }
            else if (n <= last)
            {
                wrong.compareAndSet(null, "stale: message " + n + " after " + last);
            }
            else
            {
                last = n;
            }
            delivered.incrementAndGet();
        }
    }
}
