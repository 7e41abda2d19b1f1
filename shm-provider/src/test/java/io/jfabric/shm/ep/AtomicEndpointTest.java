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
import io.jfabric.CqAttr;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ChildJvm;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;

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
