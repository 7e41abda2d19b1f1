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

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicMsg;
import io.jfabric.AtomicOp;
import io.jfabric.CntrAttr;
import io.jfabric.Counter;
import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Ioc;
import io.jfabric.MrMode;
import io.jfabric.Msg;
import io.jfabric.RmaIov;
import io.jfabric.WaitObj;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RMA, atomics and counters between two JVMs over tcp;ofi_rxm on 127.0.0.1, against a {@link PeerMain}
 * {@code target}: a 16 MiB direct buffer registered with FI_REMOTE_READ | FI_REMOTE_WRITE in the peer, whose bytes
 * the test checks through the peer's own view of them ({@code DUMP}). Every (datatype, op) pair the provider's
 * {@code fi_atomicvalid}, {@code fi_fetch_atomicvalid} and {@code fi_compare_atomicvalid} accept is applied and
 * its result checked against the operation's definition in fi_atomic(3).
 */
@NeedsLibfabric
class TwoJvmRmaTest
{
    private static Tcp.Node node;
    private static PeerJvm peer;
    private static long to;
    private static long key;
    private static long base;
    private static Counter writes;
    private static Counter reads;
    private static final ByteBuffer LOCAL = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.nativeOrder());
    private static final ByteBuffer RESULT = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
    private static final ByteBuffer COMPARE = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());

    @BeforeAll
    static void start() throws Exception
    {
        node = new Tcp.Node(Tcp.CAPS, null, CqFormat.TAGGED);
        writes = node.domain.cntrOpen(new CntrAttr().waitObj(WaitObj.UNSPEC), 0);
        reads = node.domain.cntrOpen(new CntrAttr(), 0);
        node.extra.add(writes);
        node.extra.add(reads);
        node.ep.bind(writes, Flags.FI_WRITE);
        node.ep.bind(reads, Flags.FI_READ);
        node.enable();
        peer = new PeerJvm(PeerMain.class.getName(), "target");
        to = node.insert(peer.address());
        peer.sendAddress(node.ep.getname());
        final String[] mr = peer.expect("MR ", 60_000).split(" ");
        key = Long.parseLong(mr[0]);
        base = (node.info.domainAttr().mrMode() & MrMode.FI_MR_VIRT_ADDR) != 0 ? Long.parseLong(mr[1]) : 0;
    }

    @AfterAll
    static void stop() throws Exception
    {
        if (peer != null)
        {
            peer.send("EXIT");
            peer.expect("BYE", 30_000);
            peer.close();
        }
        if (node != null)
        {
            node.close();
        }
    }

    @Test
    void shouldWriteReadAndWritedataAgainstARegisteredDirectBuffer() throws Exception
    {
        final long writesBefore = writes.read();
        final long readsBefore = reads.read();
        final int size = 1 << 20;
        for (int i = 0; i < size; i++)
        {
            LOCAL.put(i, (byte)(i * 7 + 1));
        }
        post(() -> node.ep.write(LOCAL, 0, size, 0, to, base + 4096, key, 1), 1);
        awaitBytes(4096, slice(LOCAL, 0, 256));
        awaitBytes(4096 + size - 256, slice(LOCAL, size - 256, 256));

        final ByteBuffer back = ByteBuffer.allocateDirect(size);
        post(() -> node.ep.read(back, 0, size, 0, to, base + 4096, key, 2), 2);
        for (int i = 0; i < size; i++)
        {
            if (back.get(i) != LOCAL.get(i))
            {
                throw new AssertionError("read back differs at " + i);
            }
        }

        post(() -> node.ep.writedata(LOCAL, 0, 100, 0, 0xFEED, to, base + 8, key, 3), 3);
        final String cq = peer.expect("CQ ", 30_000);
        final String[] f = cq.split(" ");
        final long flags = Long.parseUnsignedLong(f[0], 16);
        assertTrue((flags & Flags.FI_REMOTE_CQ_DATA) != 0 && (flags & Flags.FI_REMOTE_WRITE) != 0, cq);
        assertEquals(0xFEED, Long.parseLong(f[2]), cq);

        final int injectSize = (int)Math.min(8, node.info.txAttr().injectSize());
        LOCAL.putLong(0, 0x1122334455667788L);
        long rc;
        while ((rc = node.ep.injectWrite(LOCAL, 0, injectSize, to, base + 2_000_000, key)) == -Errno.FI_EAGAIN)
        {
            node.cq.read(node.entries, 1);
        }
        assertEquals(0, rc);
        awaitBytes(2_000_000, slice(LOCAL, 0, injectSize));

        final Msg msg = new Msg(2).set(LOCAL, 0, 16, 0);
        msg.iov[1] = LOCAL;
        msg.iovOffset[1] = 100;
        msg.iovLength[1] = 16;
        msg.iovCount = 2;
        msg.addr = to;
        msg.context = 4;
        post(() -> node.ep.writev(msg, to, base + 3_000_000, key, 4), 4);
        final byte[] expected = new byte[32];
        LOCAL.get(0, expected, 0, 16);
        LOCAL.get(100, expected, 16, 16);
        awaitBytes(3_000_000, expected);
        final RmaIov rma = new RmaIov(2).set(base + 3_100_000, 16, key);
        rma.addr[1] = base + 3_200_000;
        rma.length[1] = 16;
        rma.key[1] = key;
        rma.count = 2;
        msg.context = 5;
        post(() -> node.ep.writemsg(msg, rma, Flags.FI_COMPLETION), 5);
        awaitBytes(3_100_000, slice(LOCAL, 0, 16));
        awaitBytes(3_200_000, slice(LOCAL, 100, 16));
        final ByteBuffer readInto = ByteBuffer.allocateDirect(64);
        final Msg readMsg = new Msg(1).set(readInto, 0, 32, 0);
        readMsg.addr = to;
        readMsg.context = 6;
        post(() -> node.ep.readv(readMsg, to, base + 3_000_000, key, 6), 6);
        assertArrayEquals(expected, slice(readInto, 0, 32));
        readMsg.context = 7;
        post(() -> node.ep.readmsg(readMsg, new RmaIov(1).set(base + 3_000_000, 32, key), 0), 7);

        assertEquals(writesBefore + 5, writes.read(), "writes counted: write, writedata, inject_write, writev, " +
            "writemsg");
        assertEquals(readsBefore + 3, reads.read(), "reads counted: read, readv, readmsg");
        assertEquals(0, writes.readErr());
        assertEquals(0, writes.add(10));
        assertEquals(writesBefore + 15, writes.read());
        assertEquals(0, writes.set(writesBefore + 5));
        assertEquals(0, writes.await(writesBefore + 5, 1000));
    }

    @Test
    void shouldApplyEveryAtomicThePeerValidatesAsFiAtomicDefinesIt() throws Exception
    {
        final List<String> applied = new ArrayList<>();
        int slot = 0;
        for (final AtomicDatatype type : AtomicDatatype.values())
        {
            if (type.size() > 8 || type == AtomicDatatype.FLOAT_COMPLEX || type.name().contains("COMPLEX"))
            {
                continue;
            }
            for (final AtomicOp op : AtomicOp.values())
            {
                final boolean compare = op.name().startsWith("CSWAP") || op == AtomicOp.MSWAP;
                final int valid = compare ? node.ep.compareAtomicValid(type, op) :
                    op == AtomicOp.ATOMIC_READ ? node.ep.fetchAtomicValid(type, op) : node.ep.atomicValid(type, op);
                if (valid <= 0)
                {
                    assertTrue(valid == -Errno.FI_EOPNOTSUPP || valid == -Errno.FI_ENOSYS, type + " " + op + " " + valid);
                    continue;
                }
                final long target = 5_000_000 + 16L * slot++;
                set(target, type, 6);
                put(LOCAL, 0, type, 3);
                put(COMPARE, 0, type, 6);
                put(RESULT, 0, type, 0);
                final long context = 1000 + slot;
                if (compare)
                {
                    post(() -> node.ep.compareAtomic(LOCAL, 0, 1, 0, COMPARE, 0, 0, RESULT, 0, 0, to, base + target,
                        key, type, op, context), context);
                    assertEquals(6, get(RESULT, 0, type), type + " " + op + " fetched");
                }
                else if (op == AtomicOp.ATOMIC_READ)
                {
                    post(() -> node.ep.fetchAtomic(null, 0, 1, 0, RESULT, 0, 0, to, base + target, key, type, op,
                        context), context);
                    assertEquals(6, get(RESULT, 0, type), type + " " + op + " fetched");
                }
                else
                {
                    post(() -> node.ep.atomic(LOCAL, 0, 1, 0, to, base + target, key, type, op, context), context);
                }
                final ByteBuffer after = ByteBuffer.wrap(dump(target, type.size())).order(ByteOrder.nativeOrder());
                assertEquals(expected(op, type), get(after, 0, type), type + " " + op);
                applied.add(type + "/" + op);
            }
        }
        assertTrue(applied.size() >= 50, "atomics applied: " + applied);
        System.out.println("atomics applied (" + applied.size() + "): " + applied);
    }

    @Test
    void shouldApplyVectorAndMsgAtomicsAndFetchBeforeValues() throws Exception
    {
        final AtomicDatatype t = AtomicDatatype.INT64;
        set(6_000_000, t, 10);
        set(6_000_008, t, 20);
        LOCAL.putLong(0, 1);
        LOCAL.putLong(8, 2);
        final Ioc iov = new Ioc(2).set(LOCAL, 0, 1, 0).add(LOCAL, 8, 1, 0);
        post(() -> node.ep.atomicv(iov, to, base + 6_000_000, key, t, AtomicOp.SUM, 60), 60);
        assertEquals(11, ByteBuffer.wrap(dump(6_000_000, 8)).order(ByteOrder.nativeOrder()).getLong(0));
        assertEquals(22, ByteBuffer.wrap(dump(6_000_008, 8)).order(ByteOrder.nativeOrder()).getLong(0));
        final Ioc result = new Ioc(1).set(RESULT, 0, 2, 0);
        post(() -> node.ep.fetchAtomicv(iov, result, to, base + 6_000_000, key, t, AtomicOp.SUM, 61), 61);
        assertEquals(11, RESULT.getLong(0));
        assertEquals(22, RESULT.getLong(8));
        final AtomicMsg msg = new AtomicMsg(2, 1);
        msg.msgIov.set(LOCAL, 0, 1, 0).add(LOCAL, 8, 1, 0);
        msg.rmaIov.set(base + 6_000_000, 2, key);
        msg.addr = to;
        msg.datatype = t;
        msg.op = AtomicOp.SUM;
        msg.context = 62;
        post(() -> node.ep.atomicmsg(msg, Flags.FI_COMPLETION), 62);
        assertEquals(13, ByteBuffer.wrap(dump(6_000_000, 8)).order(ByteOrder.nativeOrder()).getLong(0));
        msg.context = 63;
        post(() -> node.ep.fetchAtomicmsg(msg, result, 0), 63);
        assertEquals(13, RESULT.getLong(0));
        assertEquals(26, RESULT.getLong(8));
        COMPARE.putLong(0, 14);
        COMPARE.putLong(8, 0);
        final Ioc cmp = new Ioc(1).set(COMPARE, 0, 2, 0);
        msg.op = AtomicOp.CSWAP;
        msg.context = 64;
        post(() -> node.ep.compareAtomicmsg(msg, cmp, result, 0), 64);
        assertEquals(14, RESULT.getLong(0));
        assertEquals(28, RESULT.getLong(8));
        assertEquals(1, ByteBuffer.wrap(dump(6_000_000, 8)).order(ByteOrder.nativeOrder()).getLong(0));
        assertEquals(28, ByteBuffer.wrap(dump(6_000_008, 8)).order(ByteOrder.nativeOrder()).getLong(0));
        post(() -> node.ep.compareAtomicv(iov, cmp, result, to, base + 6_000_000, key, t, AtomicOp.CSWAP, 65), 65);
        assertEquals(1, RESULT.getLong(0));
    }

    private static double expected(final AtomicOp op, final AtomicDatatype type)
    {
        final double t = 6;
        final double o = 3;
        return switch (op)
        {
            case MIN -> Math.min(t, o);
            case MAX -> Math.max(t, o);
            case SUM -> t + o;
            case PROD -> t * o;
            case LOR, LAND -> 1;
            case LXOR -> 0;
            case BOR -> 7;
            case BAND -> 2;
            case BXOR -> 5;
            case ATOMIC_WRITE -> o;
            case ATOMIC_READ, CSWAP_NE, CSWAP_LT, CSWAP_GT -> t;
            case CSWAP, CSWAP_LE, CSWAP_GE -> o;
            case MSWAP -> 2;
            default -> throw new AssertionError(op);
        };
    }

    private static void put(final ByteBuffer b, final int at, final AtomicDatatype type, final double v)
    {
        switch (type)
        {
            case INT8, UINT8 -> b.put(at, (byte)v);
            case INT16, UINT16 -> b.putShort(at, (short)v);
            case INT32, UINT32 -> b.putInt(at, (int)v);
            case INT64, UINT64 -> b.putLong(at, (long)v);
            case FLOAT -> b.putFloat(at, (float)v);
            case DOUBLE -> b.putDouble(at, v);
            default -> throw new AssertionError(type);
        }
    }

    private static double get(final ByteBuffer b, final int at, final AtomicDatatype type)
    {
        return switch (type)
        {
            case INT8, UINT8 -> b.get(at);
            case INT16, UINT16 -> b.getShort(at);
            case INT32, UINT32 -> b.getInt(at);
            case INT64, UINT64 -> b.getLong(at);
            case FLOAT -> b.getFloat(at);
            case DOUBLE -> b.getDouble(at);
            default -> throw new AssertionError(type);
        };
    }

    private static void set(final long offset, final AtomicDatatype type, final double value) throws Exception
    {
        final ByteBuffer b = ByteBuffer.allocate(type.size()).order(ByteOrder.nativeOrder());
        put(b, 0, type, value);
        peer.send("SET " + offset + " " + HexFormat.of().formatHex(b.array()));
        peer.expect("OK", 30_000);
    }

    /** Post until it is taken, then read the CQ until that context completes; a completion error fails. */
    private static void post(final java.util.function.LongSupplier call, final long context)
    {
        long rc;
        while ((rc = call.getAsLong()) == -Errno.FI_EAGAIN)
        {
            node.cq.read(node.entries, 1);
        }
        assertEquals(0, rc, () -> "post of " + context + ": " + Errno.name((int)-call.getAsLong()));
        final long[] got = node.await(1, 30_000);
        assertEquals(context, got[0]);
    }

    private static byte[] dump(final long offset, final int length) throws Exception
    {
        peer.send("DUMP " + offset + " " + length);
        return HexFormat.of().parseHex(peer.expect("DATA ", 30_000));
    }

    private static void awaitBytes(final long offset, final byte[] expected) throws Exception
    {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (!java.util.Arrays.equals(expected, dump(offset, expected.length)))
        {
            node.cq.read(node.entries, 1);
            assertTrue(System.nanoTime() < deadline, "an injected write never landed");
        }
    }

    private static byte[] slice(final ByteBuffer b, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        b.get(offset, bytes);
        return bytes;
    }
}
