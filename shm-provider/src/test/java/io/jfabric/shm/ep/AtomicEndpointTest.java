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
import io.jfabric.AtomicMsg;
import io.jfabric.AtomicOp;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Ioc;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.rma.AtomicSupport;
import io.jfabric.shm.rma.SerialAtomics;
import io.jfabric.testsupport.ChildJvm;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Atomics (fi_atomic(3)) through endpoints on memory another JVM registered ({@link RmaPeerMain}): each call form,
 * sub-word and floating types, the valid-check and query calls, error completions, and four JVMs incrementing one
 * word through their own endpoints.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AtomicEndpointTest
{
    private static final String DOMAIN = "atomic";
    private static final long RW_KEY = 7;
    private static final long RO_KEY = 8;

    private ShmTestRoot root;
    private Fabric fabric;
    private Domain domain;
    private AddressVector av;
    private CompletionQueue cq;
    private Endpoint ep;
    private ChildJvm target;
    private String targetAddress;
    private long peer;
    private long base;
    private final ByteBuffer operand = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
    private final ByteBuffer compare = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
    private final ByteBuffer result = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());

    @BeforeAll
    void start() throws Exception
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN);
        hints.caps(Flags.FI_MSG | Flags.FI_RMA | Flags.FI_ATOMIC);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        target = ChildJvm.start(RmaPeerMain.class, List.of("jfabric.shm.dir=" + root.dir()), DOMAIN, "65536");
        final Map<String, String> hello = target.awaitResult(60);
        targetAddress = hello.get("addr");
        base = Long.parseLong(hello.get("base"));
        av = domain.avOpen(new AvAttr(), 0);
        cq = domain.cqOpen(new CqAttr().format(io.jfabric.CqFormat.DATA), 0);
        ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        final long[] out = new long[1];
        assertEquals(1, av.insert(new String[] {targetAddress}, 1, out, 0, 0));
        peer = out[0];
        target.tell("fill 0");
        target.awaitResult(30);
    }

    @AfterAll
    void stop() throws Exception
    {
        try
        {
            target.tell("exit");
            target.awaitSuccess(30);
        }
        finally
        {
            for (final AutoCloseable c : new AutoCloseable[] {ep, cq, av})
            {
                if (c != null)
                {
                    c.close();
                }
            }
            TwoJvmEndpointTestBase.closeDomain(domain, fabric, root);
        }
    }

    /** One completion: its flags, or the negated errno of an error entry. */
    private long complete(final long rc)
    {
        assertEquals(0, rc, "the call");
        return CqWait.next(cq);
    }

    private long fetch(final long addr, final AtomicDatatype type, final AtomicOp op, final long value)
    {
        operand.putLong(0, value);
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ,
            complete(ep.fetchAtomic(operand, 0, 1, 0, result, 0, 0, peer, addr, RW_KEY, type, op, 1)));
        return type.size() == 8 ? result.getLong(0) : type.size() == 4 ? result.getInt(0) :
            type.size() == 2 ? result.getShort(0) : result.get(0);
    }

    @Test
    void shouldAnswerTheValidChecksAndQueryAsTheSupportTableSays()
    {
        assertEquals(512, ep.atomicValid(AtomicDatatype.INT64, AtomicOp.SUM));
        assertEquals(512, ep.fetchAtomicValid(AtomicDatatype.INT64, AtomicOp.ATOMIC_READ));
        assertEquals(256, ep.compareAtomicValid(AtomicDatatype.INT64, AtomicOp.CSWAP));
        assertEquals(-Errno.FI_EOPNOTSUPP, ep.atomicValid(AtomicDatatype.FLOAT, AtomicOp.BXOR));
        assertEquals(-Errno.FI_EOPNOTSUPP, ep.atomicValid(AtomicDatatype.INT64, AtomicOp.ATOMIC_READ));
        assertEquals(256, domain.queryAtomic(AtomicDatatype.UINT64, AtomicOp.CSWAP, Flags.FI_COMPARE_ATOMIC));
        assertEquals(-Errno.FI_EOPNOTSUPP, domain.queryAtomic(AtomicDatatype.DOUBLE, AtomicOp.BOR, 0));
        assertEquals(-Errno.FI_EOPNOTSUPP, ep.atomic(operand, 0, 1, 0, peer, base, RW_KEY, AtomicDatatype.DOUBLE,
            AtomicOp.BAND, 0), "an unsupported pair is refused before anything moves");
    }

    @Test
    void shouldApplyFetchAndCompareInTheTargetsMemory()
    {
        final long word = base + 64;
        assertEquals(0, fetch(word, AtomicDatatype.INT64, AtomicOp.ATOMIC_WRITE, 40));
        assertEquals(40, fetch(word, AtomicDatatype.INT64, AtomicOp.SUM, 2));
        operand.putLong(0, 100);
        assertEquals(Flags.FI_ATOMIC | Flags.FI_WRITE,
            complete(ep.atomic(operand, 0, 1, 0, peer, word, RW_KEY, AtomicDatatype.INT64, AtomicOp.MAX, 2)));
        assertEquals(100, fetch(word, AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, 0));
        compare.putLong(0, 100);
        operand.putLong(0, 7);
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.compareAtomic(operand, 0, 1, 0, compare, 0, 0,
            result, 0, 0, peer, word, RW_KEY, AtomicDatatype.INT64, AtomicOp.CSWAP, 3)));
        assertEquals(100, result.getLong(0));
        compare.putLong(0, 100);
        operand.putLong(0, 9);
        complete(ep.compareAtomic(operand, 0, 1, 0, compare, 0, 0, result, 0, 0, peer, word, RW_KEY,
            AtomicDatatype.INT64, AtomicOp.CSWAP, 4));
        assertEquals(7, result.getLong(0), "a compare that does not hold swaps nothing");
        assertEquals(7, fetch(word, AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, 0));

        final long bytes = base + 128;
        fetch(bytes, AtomicDatatype.INT64, AtomicOp.ATOMIC_WRITE, 0x0102_0304_0506_0708L);
        assertEquals(0x06, fetch(bytes + 2, AtomicDatatype.UINT8, AtomicOp.MIN, 0x03));
        assertEquals(0x0102_0304_0503_0708L, fetch(bytes, AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, 0),
            "one byte changed, its neighbours kept");
        fetch(bytes + 8, AtomicDatatype.DOUBLE, AtomicOp.ATOMIC_WRITE, Double.doubleToRawLongBits(1.5));
        fetch(bytes + 8, AtomicDatatype.DOUBLE, AtomicOp.SUM, Double.doubleToRawLongBits(2.25));
        assertEquals(3.75, Double.longBitsToDouble(fetch(bytes + 8, AtomicDatatype.DOUBLE, AtomicOp.ATOMIC_READ, 0)));
        for (int i = 0; i < 4; i++)
        {
            operand.putInt(4 * i, i + 1);
        }
        complete(ep.atomic(operand, 0, 4, 0, peer, bytes + 16, RW_KEY, AtomicDatatype.INT32, AtomicOp.BOR, 5));
        complete(ep.fetchAtomic(null, 0, 4, 0, result, 0, 0, peer, bytes + 16, RW_KEY, AtomicDatatype.INT32,
            AtomicOp.ATOMIC_READ, 6));
        for (int i = 0; i < 4; i++)
        {
            assertEquals(i + 1, result.getInt(4 * i), "element " + i + " of four");
        }
    }

    /**
     * Every (call family, operation, datatype) shm supports, applied through the endpoint to the other JVM's memory
     * and compared with the serial reference of the unit tests ({@link SerialAtomics}): the target element after the
     * call, and for fetch and compare forms the value returned.
     */
    @Test
    void shouldMatchTheSerialReferenceForEverySupportedOperationAndTypeInTheTargetJvm()
    {
        int checked = 0;
        for (final AtomicSupport.Kind kind : AtomicSupport.Kind.values())
        {
            for (final AtomicDatatype type : AtomicDatatype.values())
            {
                for (final AtomicOp op : AtomicOp.values())
                {
                    if (AtomicSupport.isSupported(kind, type, op))
                    {
                        checked += checkAgainstReference(kind, type, op);
                    }
                }
            }
        }
        assertTrue(checked > 5_000, "combinations checked: " + checked);
    }

    private int checkAgainstReference(final AtomicSupport.Kind kind, final AtomicDatatype type, final AtomicOp op)
    {
        final int size = type.size();
        final long at = base + 1024 + size; // sub-word elements away from their word's first byte
        final long[] values = referenceValues(type);
        final long[] compares = kind == AtomicSupport.Kind.COMPARE ? values : new long[] {0};
        int n = 0;
        for (final long old : values)
        {
            for (final long arg : values)
            {
                for (final long cmp : compares)
                {
                    final String what = kind + " " + op + " " + type + " old " + Long.toHexString(old) + " arg " +
                        Long.toHexString(arg) + " cmp " + Long.toHexString(cmp);
                    SerialAtomics.putBits(operand, size, old);
                    assertEquals(Flags.FI_RMA | Flags.FI_WRITE,
                        complete(ep.write(operand, 0, size, 0, peer, at, RW_KEY, 20)), what);
                    SerialAtomics.putBits(operand, size, arg);
                    SerialAtomics.putBits(compare, size, cmp);
                    result.putLong(0, 0x5A5A_5A5A_5A5A_5A5AL);
                    final long rc;
                    switch (kind)
                    {
                        case WRITE:
                            rc = ep.atomic(operand, 0, 1, 0, peer, at, RW_KEY, type, op, 21);
                            break;
                        case FETCH:
                            rc = ep.fetchAtomic(operand, 0, 1, 0, result, 0, 0, peer, at, RW_KEY, type, op, 21);
                            break;
                        default:
                            rc = ep.compareAtomic(operand, 0, 1, 0, compare, 0, 0, result, 0, 0, peer, at, RW_KEY,
                                type, op, 21);
                            break;
                    }
                    assertEquals(Flags.FI_ATOMIC | (kind == AtomicSupport.Kind.WRITE ? Flags.FI_WRITE : Flags.FI_READ),
                        complete(rc), what);
                    if (kind != AtomicSupport.Kind.WRITE)
                    {
                        assertEquals(SerialAtomics.mask(type, old), SerialAtomics.getBits(result, size),
                            what + ": returned");
                    }
                    assertEquals(Flags.FI_RMA | Flags.FI_READ,
                        complete(ep.read(result, 0, size, 0, peer, at, RW_KEY, 22)), what);
                    final long expected = SerialAtomics.after(type, op, old, arg, cmp);
                    final long actual = SerialAtomics.getBits(result, size);
                    assertTrue(SerialAtomics.same(type, expected, actual), () -> what + ": expected " +
                        Long.toHexString(expected) + " got " + Long.toHexString(actual));
                    n++;
                }
            }
        }
        return n;
    }

    private static long[] referenceValues(final AtomicDatatype type)
    {
        switch (type)
        {
            case FLOAT:
                return new long[] {f(1.5f), f(-2.0f), f(0.0f), f(Float.NaN)};
            case DOUBLE:
                return new long[] {d(1.5), d(-2.0), d(0.0), d(Double.NaN)};
            case FLOAT_COMPLEX:
                return new long[] {f(1.5f) | f(-2.0f) << 32, f(0.0f) | f(3.0f) << 32, 0};
            default:
                final int bits = 8 * type.size();
                return new long[] {0, 1, 7, SerialAtomics.mask(type, -1), SerialAtomics.mask(type, 1L << (bits - 1))};
        }
    }

    private static long f(final float v)
    {
        return Integer.toUnsignedLong(Float.floatToRawIntBits(v));
    }

    private static long d(final double v)
    {
        return Double.doubleToRawLongBits(v);
    }

    /**
     * The vectored and msg forms: operands gathered from several local entries, laid over several target regions,
     * results scattered over several entries; one completion per call; a call whose second region would fail
     * changes nothing; counts that do not agree, too many regions, remote CQ data and an inject fetch are refused.
     */
    @Test
    void shouldGatherOperandsOverRegionsAndScatterResultsInTheVectorForms()
    {
        final long first = base + 2048;
        final long second = base + 2304;
        final ByteBuffer zeros = ByteBuffer.allocateDirect(64);
        complete(ep.write(zeros, 0, 64, 0, peer, first, RW_KEY, 30));
        complete(ep.write(zeros, 0, 64, 0, peer, second, RW_KEY, 31));
        final ByteBuffer a = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        final ByteBuffer b = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        for (int i = 0; i < 5; i++)
        {
            a.putInt(4 * i, 10 + i);
        }
        final Ioc two = new Ioc(4).add(a, 0, 2, 0).add(a, 8, 3, 0);
        assertEquals(Flags.FI_ATOMIC | Flags.FI_WRITE, complete(ep.atomicv(two, peer, first, RW_KEY,
            AtomicDatatype.INT32, AtomicOp.SUM, 32)));
        final AtomicMsg msg = new AtomicMsg(4, 4);
        msg.msgIov.set(a, 0, 5, 0);
        msg.rmaIov.add(first, 2, RW_KEY).add(second, 3, RW_KEY);
        msg.addr = peer;
        msg.datatype = AtomicDatatype.INT32;
        msg.op = AtomicOp.SUM;
        msg.context = 33;
        assertEquals(Flags.FI_ATOMIC | Flags.FI_WRITE, complete(ep.atomicmsg(msg, Flags.FI_COMPLETION)));
        // first: 2 x (10, 11) then 12, 13, 14 once; second: 12, 13, 14
        final Ioc results = new Ioc(4).add(b, 0, 1, 0).add(b, 16, 4, 0);
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.fetchAtomicv(null, results, peer, first, RW_KEY,
            AtomicDatatype.INT32, AtomicOp.ATOMIC_READ, 34)));
        assertEquals(20, b.getInt(0));
        assertEquals(22, b.getInt(16));
        assertEquals(12, b.getInt(20));
        assertEquals(13, b.getInt(24));
        assertEquals(14, b.getInt(28));
        final AtomicMsg read = new AtomicMsg(1, 4);
        read.rmaIov.set(second, 3, RW_KEY);
        read.addr = peer;
        read.datatype = AtomicDatatype.INT32;
        read.op = AtomicOp.ATOMIC_READ;
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.fetchAtomicmsg(read, new Ioc(1).set(b, 0, 3, 0),
            0)));
        assertEquals(List.of(12, 13, 14), List.of(b.getInt(0), b.getInt(4), b.getInt(8)));

        final ByteBuffer cmp = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        cmp.putInt(0, 12).putInt(4, 99).putInt(8, 14);
        a.putInt(0, -1).putInt(4, -2).putInt(8, -3);
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.compareAtomicv(new Ioc(2).add(a, 0, 1, 0)
            .add(a, 4, 2, 0), new Ioc(2).add(cmp, 0, 2, 0).add(cmp, 8, 1, 0), new Ioc(1).set(b, 32, 3, 0), peer,
            second, RW_KEY, AtomicDatatype.INT32, AtomicOp.CSWAP, 35)));
        assertEquals(List.of(12, 13, 14), List.of(b.getInt(32), b.getInt(36), b.getInt(40)), "values before");
        complete(ep.fetchAtomicmsg(read, new Ioc(1).set(b, 0, 3, 0), 0));
        assertEquals(List.of(-1, 13, -3), List.of(b.getInt(0), b.getInt(4), b.getInt(8)),
            "swapped where the compare held");

        final AtomicMsg mswap = new AtomicMsg(1, 4);
        mswap.msgIov.set(a.putInt(0, 0xFFFF).putInt(4, 0xFFFF), 0, 2, 0);
        mswap.rmaIov.add(first, 1, RW_KEY).add(second, 1, RW_KEY);
        mswap.addr = peer;
        mswap.datatype = AtomicDatatype.UINT32;
        mswap.op = AtomicOp.MSWAP;
        cmp.putInt(0, 0xF0).putInt(4, 0x0F);
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.compareAtomicmsg(mswap,
            new Ioc(1).set(cmp, 0, 2, 0), new Ioc(1).set(b, 48, 2, 0), 0)));
        assertEquals(List.of(20, -1), List.of(b.getInt(48), b.getInt(52)), "values before the masked swap");
        complete(ep.fetchAtomicv(null, new Ioc(1).set(b, 0, 1, 0), peer, first, RW_KEY, AtomicDatatype.UINT32,
            AtomicOp.ATOMIC_READ, 39));
        complete(ep.fetchAtomicv(null, new Ioc(1).set(b, 4, 1, 0), peer, second, RW_KEY, AtomicDatatype.UINT32,
            AtomicOp.ATOMIC_READ, 40));
        assertEquals(List.of(0xF4, -1), List.of(b.getInt(0), b.getInt(4)), "(operand & mask) | (old & ~mask)");

        final AtomicMsg bad = new AtomicMsg(1, 8);
        bad.msgIov.set(a.putInt(0, 1).putInt(4, 1), 0, 2, 0);
        bad.rmaIov.add(first, 1, RW_KEY).add(second, 1, 999);
        bad.addr = peer;
        bad.datatype = AtomicDatatype.INT32;
        bad.op = AtomicOp.SUM;
        complete(ep.fetchAtomicv(null, new Ioc(1).set(b, 0, 1, 0), peer, first, RW_KEY, AtomicDatatype.INT32,
            AtomicOp.ATOMIC_READ, 36));
        final int firstBefore = b.getInt(0);
        assertEquals(-Errno.FI_EKEYREJECTED, complete(ep.atomicmsg(bad, 0)), "the second region's key is unknown");
        complete(ep.fetchAtomicv(null, new Ioc(1).set(b, 0, 1, 0), peer, first, RW_KEY, AtomicDatatype.INT32,
            AtomicOp.ATOMIC_READ, 37));
        assertEquals(firstBefore, b.getInt(0), "the first region is untouched when the second would fail");

        bad.rmaIov.key[1] = RW_KEY;
        bad.rmaIov.elements[1] = 2;
        assertEquals(-Errno.FI_EINVAL, ep.atomicmsg(bad, 0), "regions hold 3 elements, operands 2");
        bad.rmaIov.elements[1] = 1;
        assertEquals(-Errno.FI_EBADFLAGS, ep.atomicmsg(bad, Flags.FI_REMOTE_CQ_DATA), "no remote data for atomics");
        for (int i = 0; i < 3; i++)
        {
            bad.rmaIov.add(first, 0, RW_KEY);
        }
        assertEquals(-Errno.FI_EINVAL, ep.atomicmsg(bad, 0), "five regions, rma_iov_limit is 4");
        assertEquals(-Errno.FI_EINVAL, ep.fetchAtomicv(two, new Ioc(1).set(b, 0, 4, 0), peer, first, RW_KEY,
            AtomicDatatype.INT32, AtomicOp.SUM, 38), "five operands, four results");
    }

    @Test
    void shouldCompleteInErrorForAKeyARightOrAnAlignmentTheTargetLacks()
    {
        operand.putLong(0, 1);
        assertEquals(-Errno.FI_EKEYREJECTED, complete(ep.atomic(operand, 0, 1, 0, peer, base, 999,
            AtomicDatatype.INT64, AtomicOp.SUM, 7)));
        assertEquals(-Errno.FI_EACCES, complete(ep.atomic(operand, 0, 1, 0, peer, base, RO_KEY,
            AtomicDatatype.INT64, AtomicOp.SUM, 8)), "a region registered read-only");
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, complete(ep.fetchAtomic(null, 0, 1, 0, result, 0, 0, peer,
            base, RO_KEY, AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, 9)), "reading it is allowed");
        assertEquals(-Errno.FI_EINVAL, complete(ep.atomic(operand, 0, 1, 0, peer, base + 3, RW_KEY,
            AtomicDatatype.INT32, AtomicOp.SUM, 10)), "a target not aligned to its element");
        assertEquals(-Errno.FI_EINVAL, ep.fetchAtomic(operand, 0, 1, 0, null, 0, 0, peer, base, RW_KEY,
            AtomicDatatype.INT64, AtomicOp.SUM, 11), "a fetch without a result buffer");
    }

    @Test
    void shouldEndAtExactlyFourTimesTheCountWhenFourJvmsAddThroughTheirEndpoints() throws Exception
    {
        final int count = Integer.getInteger("atomic.count", 1_000_000);
        for (final String mode : new String[] {"add", "cas"})
        {
            final long word = base + ("add".equals(mode) ? 4096 : 4104);
            final List<ChildJvm> adders = new ArrayList<>();
            final long started = System.nanoTime();
            for (int i = 0; i < 4; i++)
            {
                adders.add(ChildJvm.start(AtomicAdderMain.class, List.of("jfabric.shm.dir=" + root.dir()), DOMAIN,
                    targetAddress, Long.toString(RW_KEY), Long.toString(word), Integer.toString(count), mode));
            }
            long retries = 0;
            for (final ChildJvm adder : adders)
            {
                final Map<String, String> done = adder.awaitResult(300);
                assertEquals(Integer.toString(count), done.get("done"), adder.output());
                retries += Long.parseLong(done.get("retries"));
                adder.awaitSuccess(30);
            }
            final long seconds = (System.nanoTime() - started) / 1_000_000_000L;
            assertEquals(4L * count, fetch(word, AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, 0),
                mode + ": 4 JVMs x " + count + " (" + seconds + " s, " + retries + " compare-swap retries)");
            System.out.println(mode + ": 4 x " + count + " in " + seconds + " s, retries " + retries);
            assertTrue(!"cas".equals(mode) || retries > 0 || count < 1000, "the compare-swaps raced");
        }
    }
}
