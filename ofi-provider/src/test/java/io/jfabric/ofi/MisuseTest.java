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

import io.jfabric.CntrAttr;
import io.jfabric.Counter;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.Msg;
import io.jfabric.ShareableMemory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an application can do wrong through the Java API, done for real against native libfabric: every call after
 * close, double closes, closes in the wrong order, calls before enable, wrong lengths and offsets, heap and read-only
 * buffers, too many iovs. Each gets libfabric's errno (a negated return on the data path, a FabricException on the
 * control path) and the JVM goes on: none reaches libfabric with a freed object or a bad pointer.
 */
@NeedsLibfabric
class MisuseTest
{
    @Test
    void shouldAnswerEveryCallAfterCloseWithEbadfAndCloseTwiceQuietly() throws Exception
    {
        final Tcp.Node node = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED);
        final Counter counter = node.domain.cntrOpen(new CntrAttr(), 0);
        node.ep.bind(counter, Flags.FI_SEND);
        node.enable();
        final ByteBuffer buf = ByteBuffer.allocateDirect(64);
        final MemoryRegion mr = node.domain.mrReg(buf, Flags.FI_SEND, 0, 1, 0, 0);
        final long self = node.insert(node.ep.getname());
        mr.close();
        node.ep.close();
        counter.close();
        node.close();
        node.close();
        mr.close();
        counter.close();

        assertEquals(-Errno.FI_EBADF, node.ep.send(buf, 0, 8, 0, self, 1));
        assertEquals(-Errno.FI_EBADF, node.ep.recv(buf, 0, 8, 0, -1L, 1));
        assertEquals(-Errno.FI_EBADF, node.ep.inject(buf, 0, 8, self));
        assertEquals(-Errno.FI_EBADF, node.ep.tsend(buf, 0, 8, 0, self, 1, 1));
        assertEquals(-Errno.FI_EBADF, node.ep.write(buf, 0, 8, 0, self, 0, 1, 1));
        assertEquals(-Errno.FI_EBADF, node.ep.cancel(1));
        assertEquals(-Errno.FI_EBADF, node.cq.read(node.entries, 1));
        assertEquals(-Errno.FI_EBADF, node.cq.signal());
        assertEquals(-Errno.FI_EBADF, counter.add(1));
        assertEquals(0, counter.read(), "a closed counter reads its count at close");
        assertErrno(Errno.FI_EBADF, () -> node.av.insert(new byte[][] {new byte[16]}, 1, null, 0, 0, null));
        assertErrno(Errno.FI_EBADF, () -> node.ep.getname());
        assertErrno(Errno.FI_EBADF, mr::key);
        assertErrno(Errno.FI_EBADF, () -> node.domain.cqOpen(new CqAttr(), 0));
        assertErrno(Errno.FI_EBADF, () -> node.fabric.domain(node.info, 0));
    }

    @Test
    void shouldRefuseToCloseWhatIsStillInUseAndKeepItOpen() throws Exception
    {
        try (Tcp.Node node = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED).enable())
        {
            assertErrno(Errno.FI_EBUSY, node.domain::close);
            assertErrno(Errno.FI_EBUSY, node.cq::close);
            assertErrno(Errno.FI_EBUSY, node.av::close);
            assertErrno(Errno.FI_EBUSY, node.fabric::close);
            final ShareableMemory memory = node.domain.allocShareable(4096);
            final MemoryRegion mr = node.domain.mrRegv(new MrIov[] {MrIov.of(memory, 0, 4096)},
                Flags.FI_REMOTE_WRITE, 0, 2, 0, 0);
            assertErrno(Errno.FI_EBUSY, memory::close);
            mr.close();
            memory.close();
            assertTrue(node.cq.read(node.entries, 1) == -Errno.FI_EAGAIN, "the CQ is still open and usable");
        }
    }

    @Test
    void shouldAnswerDataCallsBeforeEnableWithEopbadstateAndEnableWithoutACqWithEnocq() throws Exception
    {
        try (Tcp.Node node = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED))
        {
            final ByteBuffer buf = ByteBuffer.allocateDirect(64);
            assertEquals(-Errno.FI_EOPBADSTATE, node.ep.send(buf, 0, 8, 0, 0, 1));
            assertEquals(-Errno.FI_EOPBADSTATE, node.ep.recv(buf, 0, 8, 0, -1L, 1));
            node.enable();
        }
        try (Tcp.Node other = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED))
        {
            final Endpoint bare = other.domain.endpoint(other.info, 0);
            bare.bind(other.av, 0);
            final FabricException ex = assertThrows(FabricException.class, bare::enable);
            assertEquals(Errno.FI_ENOCQ, ex.errno());
            assertTrue(ex.getMessage().contains("every direction the caps use needs a CQ"), ex.getMessage());
            bare.close();
            other.enable();
        }
    }

    @Test
    void shouldRefuseWrongLengthsOffsetsAndBuffersWithEinval() throws Exception
    {
        try (Tcp.Node node = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED).enable())
        {
            final long self = node.insert(node.ep.getname());
            final ByteBuffer buf = ByteBuffer.allocateDirect(64);
            assertEquals(-Errno.FI_EINVAL, node.ep.send(buf, 0, 65, 0, self, 1));
            assertEquals(-Errno.FI_EINVAL, node.ep.send(buf, 60, 8, 0, self, 1));
            assertEquals(-Errno.FI_EINVAL, node.ep.send(buf, -1, 8, 0, self, 1));
            assertEquals(-Errno.FI_EINVAL, node.ep.send(buf, 0, -8, 0, self, 1));
            assertEquals(-Errno.FI_EINVAL, node.ep.send(null, 0, 8, 0, self, 1));
            assertEquals(-Errno.FI_EINVAL, node.ep.recv(buf, 0, 100, 0, -1L, 1));
            assertEquals(-Errno.FI_EINVAL, node.ep.recv(buf.asReadOnlyBuffer(), 0, 8, 0, -1L, 1));
            assertEquals(-Errno.FI_EINVAL, node.ep.recv(ByteBuffer.allocate(64), 0, 8, 0, -1L, 1));
            assertEquals(-Errno.FI_EINVAL, node.ep.inject(ByteBuffer.allocate(4), 0, 8, self));
            assertEquals(-Errno.FI_EINVAL, node.ep.sendmsg(null, 0));
            final Msg tooMany = new Msg(64);
            tooMany.iovCount = 64;
            assertEquals(-Errno.FI_EINVAL, node.ep.sendv(tooMany, self, 1));
            final Msg badIov = new Msg(1).set(buf, 32, 64, 0);
            assertEquals(-Errno.FI_EINVAL, node.ep.recvmsg(badIov, 0));
            assertEquals(-Errno.FI_EINVAL, node.cq.read(new CqEntries(4), 5));
            assertEquals(-Errno.FI_EINVAL, node.cq.read(null, 1));
            assertEquals(0, ((io.jfabric.ofi.ep.OfiEndpoint)node.ep).inFlightTotal(), "nothing was posted");
            assertErrno(Errno.FI_EINVAL, () -> node.av.insert(new byte[][] {new byte[16]}, 2, null, 0, 0, null));
            assertErrno(Errno.FI_EINVAL, () -> node.av.insert(new byte[][] {new byte[16], new byte[4]}, 2, null, 0,
                0, null));
            assertErrno(Errno.FI_ETOOSMALL, () -> node.ep.getname(new byte[2]));
            final FabricException heap = assertThrows(FabricException.class,
                () -> node.domain.mrReg(ByteBuffer.allocate(64), Flags.FI_REMOTE_WRITE, 0, 3, 0, 0));
            assertEquals(Errno.FI_EINVAL, heap.errno());
            assertTrue(heap.getMessage().contains("direct ByteBuffer"), heap.getMessage());
            assertErrno(Errno.FI_EINVAL, () -> node.av.insert(new String[] {"127.0.0.1:80"}, 1, null, 0, 0));
        }
    }

    /**
     * libfabric 1.17's rxm indexes its AV with the fi_addr it is given, unchecked: a send to a value no insert
     * returned killed the JVM (SIGSEGV in libfabric.so) before the endpoint checked every address.
     */
    @Test
    void shouldRefuseAddressesTheAvNeverGaveOrTookBackWithEinval() throws Exception
    {
        try (Tcp.Node node = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED).enable())
        {
            final ByteBuffer buf = ByteBuffer.allocateDirect(64);
            final long self = node.insert(node.ep.getname());
            for (final long bad : new long[] {12345, self + 1, 1L << 40, -2})
            {
                assertEquals(-Errno.FI_EINVAL, node.ep.inject(buf, 0, 8, bad), "inject to " + bad);
                assertEquals(-Errno.FI_EINVAL, node.ep.send(buf, 0, 8, 0, bad, 1), "send to " + bad);
                assertEquals(-Errno.FI_EINVAL, node.ep.tsend(buf, 0, 8, 0, bad, 1, 1), "tsend to " + bad);
                assertEquals(-Errno.FI_EINVAL, node.ep.write(buf, 0, 8, 0, bad, 0, 1, 1), "write to " + bad);
                assertEquals(-Errno.FI_EINVAL, node.ep.read(buf, 0, 8, 0, bad, 0, 1, 1), "read from " + bad);
                assertEquals(-Errno.FI_EINVAL, node.ep.atomic(buf, 0, 1, 0, bad, 0, 1,
                    io.jfabric.AtomicDatatype.INT64, io.jfabric.AtomicOp.SUM, 1), "atomic to " + bad);
                assertEquals(-Errno.FI_EINVAL, node.ep.recv(buf, 0, 8, 0, bad, 1), "recv from " + bad);
            }
            node.av.remove(new long[] {self}, 1, 0);
            assertEquals(-Errno.FI_EINVAL, node.ep.inject(buf, 0, 8, self), "inject to a removed address");
            assertEquals(0, ((io.jfabric.ofi.ep.OfiEndpoint)node.ep).inFlightTotal());
        }
    }

    private static void assertErrno(final int errno, final Executable call)
    {
        final FabricException ex = assertThrows(FabricException.class, call);
        assertEquals(errno, ex.errno(), ex::getMessage);
    }
}
