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
package io.jfabric.ofi;

import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.MrMode;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code OfiMemory.wrap(segment)}: an application's own native segment, registered and used over tcp;ofi_rxm on
 * 127.0.0.1 between two endpoints of this process. A peer's RMA write lands in the segment, a peer's read takes from
 * it, a receive into its buffer view lands in it; the memory refuses to close while a region over it is open, and
 * closing it leaves the application's segment alive (the application owns it). Heap and empty segments are refused.
 */
@NeedsLibfabric
class OfiMemoryWrapTest
{
    private static final long WAIT_MS = 10_000;

    @Test
    void shouldBeWrittenReadAndReceivedIntoThroughTheApplicationsOwnSegment() throws Exception
    {
        try (Arena app = Arena.ofShared();
            Tcp.Node target = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED).enable();
            Tcp.Node initiator = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED).enable())
        {
            final MemorySegment segment = app.allocate(8192, 4096);
            final OfiMemory memory = OfiMemory.wrap(segment);
            assertEquals(8192, memory.length());
            assertEquals(segment.address(), memory.address());
            final MemoryRegion mr = target.domain.mrRegv(new MrIov[] {MrIov.of(memory, 0, 8192)},
                Flags.FI_REMOTE_WRITE | Flags.FI_REMOTE_READ, 0, 5, 0, 0);
            final long base = (target.info.domainAttr().mrMode() & MrMode.FI_MR_VIRT_ADDR) != 0 ?
                segment.address() : 0;
            final long toTarget = initiator.insert(target.ep.getname());

            final ByteBuffer out = ByteBuffer.allocateDirect(256);
            for (int i = 0; i < 256; i++)
            {
                out.put(i, (byte)(i * 3 + 1));
            }
            complete(initiator, target, () -> initiator.ep.write(out, 0, 256, 0, toTarget, base + 4096, mr.key(), 1));
            awaitLanded(target, segment, 4096 + 255, out.get(255));
            for (int i = 0; i < 256; i++)
            {
                assertEquals(out.get(i), segment.get(JAVA_BYTE, 4096 + i), "byte " + i + " of the write");
            }

            segment.set(JAVA_BYTE, 100, (byte)0x5A);
            final ByteBuffer in = ByteBuffer.allocateDirect(16);
            complete(initiator, target, () -> initiator.ep.read(in, 0, 16, 0, toTarget, base + 96, mr.key(), 2));
            assertEquals(0x5A, in.get(4), "the read took the segment's byte");

            final ByteBuffer view = memory.buffer();
            assertEquals(0, target.ep.recv(view, 1024, 64, 0, -1L, 3));
            assertEquals(0, initiator.ep.send(out, 0, 32, 0, toTarget, 4));
            final long deadline = System.nanoTime() + WAIT_MS * 1_000_000L;
            boolean sent = false;
            boolean received = false;
            while (!(sent && received) && System.nanoTime() - deadline < 0)
            {
                sent |= initiator.cq.read(initiator.entries, 1) == 1;
                received |= target.cq.read(target.entries, 1) == 1;
            }
            assertTrue(sent && received, "sent " + sent + ", received " + received);
            assertEquals(3, target.entries.opContext[0]);
            assertEquals(32, target.entries.len[0]);
            assertEquals(out.get(31), segment.get(JAVA_BYTE, 1024 + 31), "the receive landed in the segment");

            assertEquals(Errno.FI_EBUSY, assertThrows(FabricException.class, memory::close).errno());
            mr.close();
            memory.close();
            memory.close();
            assertEquals(out.get(0), segment.get(JAVA_BYTE, 4096), "the application's segment outlives the memory");
        }
    }

    @Test
    void shouldRefuseAHeapSegmentAndAnEmptyOne()
    {
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class,
            () -> OfiMemory.wrap(MemorySegment.ofArray(new byte[64]))).errno());
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class, () -> OfiMemory.wrap(null)).errno());
        try (Arena app = Arena.ofConfined())
        {
            assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class,
                () -> OfiMemory.wrap(app.allocate(0))).errno());
        }
    }

    /**
     * The initiator's write completion may come before the target has taken the data in (tcp;ofi_rxm completes on
     * transmit, and the target moves only when its CQ is read): progress the target until the write's last byte is in
     * the segment, or the deadline passes.
     */
    private static void awaitLanded(final Tcp.Node target, final MemorySegment segment, final long at, final byte b)
    {
        final long deadline = System.nanoTime() + WAIT_MS * 1_000_000L;
        while (segment.get(JAVA_BYTE, at) != b && System.nanoTime() - deadline < 0)
        {
            target.cq.read(target.entries, 1);
        }
    }

    /** Post on {@code from} (retrying -FI_EAGAIN), then read its completion, progressing {@code peer} meanwhile. */
    private static void complete(final Tcp.Node from, final Tcp.Node peer, final LongSupplier post)
    {
        final long deadline = System.nanoTime() + WAIT_MS * 1_000_000L;
        long rc;
        while ((rc = post.getAsLong()) == -Errno.FI_EAGAIN && System.nanoTime() - deadline < 0)
        {
            from.cq.read(from.entries, 1);
            peer.cq.read(peer.entries, 1);
        }
        assertEquals(0, rc, Errno.name((int)rc));
        int n;
        while ((n = from.cq.read(from.entries, 1)) == -Errno.FI_EAGAIN && System.nanoTime() - deadline < 0)
        {
            peer.cq.read(peer.entries, 1);       // the target posts nothing: this only progresses it
        }
        assertTrue(n == 1, "no completion, " + Errno.name(n));
    }
}
