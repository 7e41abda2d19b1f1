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
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.region.SpscLaneDescriptor;
import io.jfabric.testsupport.OpenedObjects;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An emulated one-sided request (a write into heap memory the target registered, which no peer can map) whose
 * record is damaged in the target's lane before the target reads it, with checksums on: the target skips the record
 * as damaged and answers nothing, and the initiator must still complete the operation, with FI_EIO, rather than
 * wait for an answer that never comes. The target's memory is untouched; the next operation goes through.
 * <p>
 * One JVM, two endpoints of one domain, manual progress: the test decides when each side progresses.
 */
class EmulatedDamagedRequestTest
{
    private static final int SIZE = 64;
    private static final long KEY = 21;
    private static final long WRITE_CONTEXT = 5;

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private ShmDomain domain;
    private CompletionQueue initiatorCq;
    private CompletionQueue targetCq;
    private ShmEndpoint initiator;
    private ShmEndpoint target;
    private ByteBuffer targetMemory;
    private long targetAddr;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider(key -> "checksum".equals(key) ? "true" : null);
        final Info hints = new Info();
        hints.domainAttr().name("emul-damage");
        hints.caps(Flags.FI_MSG | Flags.FI_RMA);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        domain = (ShmDomain)opened.keep(fabric.domain(info, 0));
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        targetMemory = ByteBuffer.allocate(4096);
        opened.keep(domain.mrReg(targetMemory, Flags.FI_REMOTE_WRITE, 0, KEY, 0, 0));
        targetCq = opened.keep(domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0));
        target = endpoint(info, av, targetCq);
        initiatorCq = opened.keep(domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0));
        initiator = endpoint(info, av, initiatorCq);
        final long[] out = new long[1];
        assertEquals(1, av.insert(new String[] {new String(target.getname(), StandardCharsets.US_ASCII).trim()}, 1,
            out, 0, 0));
        targetAddr = out[0];
    }

    private ShmEndpoint endpoint(final Info info, final AddressVector av, final CompletionQueue cq)
    {
        final ShmEndpoint ep = (ShmEndpoint)opened.keep(domain.endpoint(info, 0));
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        return ep;
    }

    @AfterEach
    void close() throws Exception
    {
        opened.close();
        root.close();
    }

    @Test
    void shouldCompleteAnEmulatedWriteWithEioWhenTheTargetSkipsItsDamagedRequest()
    {
        final SpscLane lane = lane();
        final long before = lane.consumerPosition();
        assertEquals(0, initiator.write(pattern(7), 0, SIZE, 0, targetAddr, 0, KEY, WRITE_CONTEXT), "fi_write");
        final int frame = (int)before & (lane.capacity() - 1);
        assertEquals(LaneRecordDescriptor.RMA_WRITE,
            SpscLaneDescriptor.type(lane.buffer().getLongVolatile(frame)), "the request is the lane's next record");
        final int last = frame + SpscLaneDescriptor.recordLength(lane.buffer().getLongVolatile(frame)) - 12;
        lane.buffer().putByte(last, (byte)~lane.buffer().getByte(last)); // a payload byte, inside the checksum

        final CqEntries entries = new CqEntries(4);
        final CqErrEntry err = new CqErrEntry();
        final long deadline = System.nanoTime() + 5_000_000_000L;
        int rc;
        do
        {
            targetCq.read(entries, entries.capacity());
            rc = initiatorCq.read(entries, entries.capacity());
        }
        while (rc == -Errno.FI_EAGAIN && System.nanoTime() < deadline);
        assertEquals(-Errno.FI_EAVAIL, rc, "the write completes, in error, within 5 s; read gave " + rc);
        assertEquals(1, initiatorCq.readErr(err, 0));
        assertEquals(Errno.FI_EIO, err.err, "FI_EIO: the target skipped the damaged request");
        assertEquals(WRITE_CONTEXT, err.opContext);
        assertEquals(1, damagedCount(), "the target counted one damaged record");
        for (int i = 0; i < SIZE; i++)
        {
            assertEquals(0, targetMemory.get(i), "the target's memory is untouched at " + i);
        }

        assertEquals(0, initiator.write(pattern(9), 0, SIZE, 0, targetAddr, 0, KEY, WRITE_CONTEXT + 1), "fi_write");
        do
        {
            targetCq.read(entries, entries.capacity());
            rc = initiatorCq.read(entries, entries.capacity());
        }
        while (rc == -Errno.FI_EAGAIN && System.nanoTime() < deadline + 5_000_000_000L);
        assertEquals(1, rc, "the next write completes");
        assertEquals(WRITE_CONTEXT + 1, entries.opContext[0]);
        assertEquals(pattern(9).get(SIZE - 1), targetMemory.get(SIZE - 1), "and lands");
    }

    private static ByteBuffer pattern(final int seed)
    {
        final ByteBuffer b = ByteBuffer.allocateDirect(SIZE);
        for (int i = 0; i < SIZE; i++)
        {
            b.put(i, (byte)(i * 31 + seed));
        }
        return b;
    }

    /** The lane from the initiator's slot into the target's. */
    private SpscLane lane()
    {
        final RegionGeometry g = domain.region().geometry();
        return new SpscLane(new UnsafeBuffer(domain.region().buffer(),
            RegionDescriptor.laneOffset(g, target.slot(), initiator.slot()),
            RegionDescriptor.laneLength(g.rxRingBytes())));
    }

    private long damagedCount()
    {
        final RegionGeometry g = domain.region().geometry();
        return domain.region().buffer().getLongVolatile(
            SlotDescriptor.statOffset(g, target.slot(), SlotDescriptor.STAT_DAMAGED_OFFSET));
    }
}
