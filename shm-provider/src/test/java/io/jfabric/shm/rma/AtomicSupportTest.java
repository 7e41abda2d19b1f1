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
package io.jfabric.shm.rma;

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.shm.rma.AtomicSupport.Kind;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import static io.jfabric.AtomicDatatype.*;
import static io.jfabric.AtomicOp.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The validity tables, against a table written out here from fi_atomic(3) (which family takes which op) and
 * libfabric's prov/util atomics (which op applies to which datatype), less the datatypes shm does not implement.
 */
class AtomicSupportTest
{
    private static final Set<AtomicDatatype> INTEGERS = EnumSet.of(INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64,
        UINT64);
    private static final Set<AtomicDatatype> REALS = union(INTEGERS, EnumSet.of(FLOAT, DOUBLE));
    private static final Set<AtomicDatatype> ALL = union(REALS, EnumSet.of(FLOAT_COMPLEX));

    private static final Map<Kind, Map<AtomicOp, Set<AtomicDatatype>>> EXPECTED = new EnumMap<>(Kind.class);

    static
    {
        final Map<AtomicOp, Set<AtomicDatatype>> write = new EnumMap<>(AtomicOp.class);
        write.put(MIN, REALS);
        write.put(MAX, REALS);
        write.put(SUM, ALL);
        write.put(PROD, ALL);
        write.put(LOR, ALL);
        write.put(LAND, ALL);
        write.put(BOR, INTEGERS);
        write.put(BAND, INTEGERS);
        write.put(LXOR, ALL);
        write.put(BXOR, INTEGERS);
        write.put(ATOMIC_WRITE, ALL);
        final Map<AtomicOp, Set<AtomicDatatype>> fetch = new EnumMap<>(write);
        fetch.put(ATOMIC_READ, ALL);
        final Map<AtomicOp, Set<AtomicDatatype>> compare = new EnumMap<>(AtomicOp.class);
        compare.put(CSWAP, ALL);
        compare.put(CSWAP_NE, ALL);
        compare.put(CSWAP_LE, REALS);
        compare.put(CSWAP_LT, REALS);
        compare.put(CSWAP_GE, REALS);
        compare.put(CSWAP_GT, REALS);
        compare.put(MSWAP, INTEGERS);
        EXPECTED.put(Kind.WRITE, write);
        EXPECTED.put(Kind.FETCH, fetch);
        EXPECTED.put(Kind.COMPARE, compare);
    }

    static boolean expected(final Kind kind, final AtomicDatatype type, final AtomicOp op)
    {
        return EXPECTED.get(kind).getOrDefault(op, Set.of()).contains(type);
    }

    @Test
    void shouldSupportExactlyTheExpectedPairsWithTheirCounts()
    {
        int supported = 0;
        for (final Kind kind : Kind.values())
        {
            for (final AtomicOp op : AtomicOp.values())
            {
                for (final AtomicDatatype type : AtomicDatatype.values())
                {
                    final String what = kind + " " + op.cName() + " " + type.cName();
                    final int bytes = kind == Kind.COMPARE ? 2048 : 4096;
                    if (expected(kind, type, op))
                    {
                        supported++;
                        assertTrue(AtomicSupport.isSupported(kind, type, op), what);
                        assertEquals(bytes / type.size(), AtomicSupport.count(kind, type, op), what);
                        assertEquals(bytes / type.size(), AtomicSupport.query(type.value(), op.value(),
                            kind.queryFlag()), what);
                        assertNull(AtomicSupport.reason(kind, type, op), what);
                        assertEquals(bytes / type.size(), AtomicSupport.require(kind, type, op), what);
                    }
                    else
                    {
                        assertEquals(false, AtomicSupport.isSupported(kind, type, op), what);
                        assertEquals(-Errno.FI_EOPNOTSUPP, AtomicSupport.count(kind, type, op), what);
                        assertEquals(-Errno.FI_EOPNOTSUPP, AtomicSupport.query(type.value(), op.value(),
                            kind.queryFlag()), what);
                        assertEquals(-Errno.FI_EOPNOTSUPP, AtomicSupport.check(kind, type, op, 1), what);
                        assertNotNull(AtomicSupport.reason(kind, type, op), what);
                    }
                }
            }
        }
        // write: 2 x 10 + 6 x 11 + 3 x 8 = 110; fetch: 110 + 11 = 121; compare: 2 x 11 + 4 x 10 + 8 = 70
        assertEquals(110 + 121 + 70, supported);
    }

    @Test
    void shouldRefuseEveryUnsupportedPairOnTheDataPathWithoutTouchingMemory()
    {
        final UnsafeBuffer target = new UnsafeBuffer(new byte[64]);
        final UnsafeBuffer operands = new UnsafeBuffer(new byte[64]);
        final UnsafeBuffer result = new UnsafeBuffer(new byte[64]);
        target.setMemory(0, 64, (byte)0x5A);
        int refused = 0;
        for (final AtomicOp op : AtomicOp.values())
        {
            for (final AtomicDatatype type : AtomicDatatype.values())
            {
                final String what = op.cName() + " " + type.cName();
                if (!expected(Kind.WRITE, type, op))
                {
                    assertEquals(-Errno.FI_EOPNOTSUPP, AtomicOps.apply(type, op, target, 0, operands, 0, 1), what);
                    refused++;
                }
                if (!expected(Kind.FETCH, type, op))
                {
                    assertEquals(-Errno.FI_EOPNOTSUPP,
                        AtomicOps.fetch(type, op, target, 0, operands, 0, result, 0, 1), what);
                    refused++;
                }
                if (!expected(Kind.COMPARE, type, op))
                {
                    assertEquals(-Errno.FI_EOPNOTSUPP,
                        AtomicOps.compare(type, op, target, 0, operands, 0, operands, 32, result, 0, 1), what);
                    refused++;
                }
            }
        }
        for (int i = 0; i < 64; i++)
        {
            assertEquals((byte)0x5A, target.getByte(i), "byte " + i);
        }
        assertEquals(3 * 19 * 16 - (110 + 121 + 70), refused);
    }

    @Test
    void shouldSayWhyAPairIsUnsupported()
    {
        assertEquals("FI_BOR is a bitwise operation, defined for integer datatypes only",
            AtomicSupport.reason(Kind.WRITE, FLOAT, BOR));
        assertEquals("FI_MSWAP is a bitwise operation, defined for integer datatypes only",
            AtomicSupport.reason(Kind.COMPARE, DOUBLE, MSWAP));
        assertEquals("FI_CSWAP_LT orders values, and complex numbers have no order",
            AtomicSupport.reason(Kind.COMPARE, FLOAT_COMPLEX, CSWAP_LT));
        assertEquals("fi_atomic takes FI_MIN to FI_BXOR and FI_ATOMIC_WRITE, not FI_ATOMIC_READ",
            AtomicSupport.reason(Kind.WRITE, INT64, ATOMIC_READ));
        assertEquals("fi_compare_atomic takes FI_CSWAP to FI_MSWAP, not FI_SUM",
            AtomicSupport.reason(Kind.COMPARE, INT64, SUM));
        assertTrue(AtomicSupport.reason(Kind.FETCH, DOUBLE_COMPLEX, SUM).contains("128-bit compare-and-swap"));
        assertTrue(AtomicSupport.reason(Kind.FETCH, UINT128, SUM).contains("128-bit compare-and-swap"));
        assertTrue(AtomicSupport.reason(Kind.WRITE, LONG_DOUBLE, SUM).contains("extended-precision"));

        final FabricException ex = assertThrows(FabricException.class,
            () -> AtomicSupport.require(Kind.FETCH, FLOAT, BXOR));
        assertEquals(Errno.FI_EOPNOTSUPP, ex.errno());
        assertTrue(ex.getMessage().contains(
            "fi_fetch_atomic FI_BXOR on FI_FLOAT: FI_BXOR is a bitwise operation"), ex.getMessage());
    }

    @Test
    void shouldAnswerQueryFlagsAsFiQueryAtomicDoes()
    {
        final long both = AtomicSupport.FI_FETCH_ATOMIC | AtomicSupport.FI_COMPARE_ATOMIC;
        assertEquals(-Errno.FI_EBADFLAGS, AtomicSupport.query(INT64.value(), CSWAP.value(), both));
        assertEquals(-Errno.FI_EBADFLAGS, AtomicSupport.query(INT64.value(), SUM.value(), Flags.FI_MSG));
        assertEquals(-Errno.FI_EOPNOTSUPP, AtomicSupport.query(INT64.value(), SUM.value(), Flags.FI_TAGGED));
        assertEquals(-Errno.FI_EOPNOTSUPP, AtomicSupport.query(INT64.value(), SUM.value(),
            Flags.FI_TAGGED | AtomicSupport.FI_FETCH_ATOMIC));
        assertEquals(-Errno.FI_EOPNOTSUPP, AtomicSupport.query(16, SUM.value(), 0), "past FI_UINT128");
        assertEquals(-Errno.FI_EOPNOTSUPP, AtomicSupport.query(256, SUM.value(), 0), "FI_VOID");
        assertEquals(-Errno.FI_EOPNOTSUPP, AtomicSupport.query(INT64.value(), 19, 0), "past FI_MSWAP");
        assertEquals(-Errno.FI_EOPNOTSUPP, AtomicSupport.query(INT64.value(), -1, 0));
        assertEquals(512, AtomicSupport.query(INT64.value(), SUM.value(), 0));
        assertEquals(4096, AtomicSupport.query(UINT8.value(), ATOMIC_READ.value(), AtomicSupport.FI_FETCH_ATOMIC));
        assertEquals(256, AtomicSupport.query(DOUBLE.value(), CSWAP_GT.value(), AtomicSupport.FI_COMPARE_ATOMIC));
        assertEquals(-Errno.FI_EOPNOTSUPP,
            AtomicSupport.query(INT64.value(), CSWAP.value(), 0), "a compare op asked as a base atomic");
        assertEquals(Kind.WRITE, AtomicSupport.kindOf(0));
        assertEquals(Kind.FETCH, AtomicSupport.kindOf(AtomicSupport.FI_FETCH_ATOMIC));
        assertEquals(Kind.COMPARE, AtomicSupport.kindOf(AtomicSupport.FI_COMPARE_ATOMIC));
        assertEquals(1L << 58, AtomicSupport.FI_FETCH_ATOMIC, "rdma/fi_atomic.h");
        assertEquals(1L << 59, AtomicSupport.FI_COMPARE_ATOMIC, "rdma/fi_atomic.h");
    }

    @Test
    void shouldCheckTheCountOfOneCall()
    {
        assertEquals(0, AtomicSupport.check(Kind.WRITE, INT64, SUM, 1));
        assertEquals(0, AtomicSupport.check(Kind.WRITE, INT64, SUM, 512));
        assertEquals(-Errno.FI_EMSGSIZE, AtomicSupport.check(Kind.WRITE, INT64, SUM, 513));
        assertEquals(0, AtomicSupport.check(Kind.COMPARE, INT16, CSWAP, 1024));
        assertEquals(-Errno.FI_EMSGSIZE, AtomicSupport.check(Kind.COMPARE, INT16, CSWAP, 1025));
        assertEquals(-Errno.FI_EINVAL, AtomicSupport.check(Kind.FETCH, INT8, SUM, 0));
        assertEquals(-Errno.FI_EINVAL, AtomicSupport.check(Kind.FETCH, INT8, SUM, -1));
        assertEquals(-Errno.FI_EOPNOTSUPP, AtomicSupport.check(Kind.FETCH, INT128, SUM, 1));
    }

    private static Set<AtomicDatatype> union(final Set<AtomicDatatype> a, final Set<AtomicDatatype> b)
    {
        final Set<AtomicDatatype> union = EnumSet.copyOf(a);
        union.addAll(b);
        return union;
    }
}
