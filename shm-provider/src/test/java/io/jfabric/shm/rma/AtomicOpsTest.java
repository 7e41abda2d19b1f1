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
import io.jfabric.shm.rma.AtomicSupport.Kind;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static io.jfabric.AtomicDatatype.*;
import static io.jfabric.AtomicOp.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AtomicOps} against {@link SerialAtomics}: every supported (family, datatype, op) with edge values at every
 * position an element can take in its word, at both levels, with every other byte of the buffer checked untouched;
 * then hand-written cases that pin the semantics fi_atomic(3) leaves to the type, and the refusals.
 */
class AtomicOpsTest
{
    private static final int CAPACITY = 64;
    private static final int BASE = 16;
    private static final byte UNTOUCHED = (byte)0xEE;

    static Stream<Arguments> supported()
    {
        final List<Arguments> triples = new ArrayList<>();
        for (final Kind kind : Kind.values())
        {
            for (final AtomicDatatype type : AtomicDatatype.values())
            {
                for (final AtomicOp op : AtomicOp.values())
                {
                    if (AtomicSupport.isSupported(kind, type, op))
                    {
                        triples.add(Arguments.of(kind, type, op));
                    }
                }
            }
        }
        return triples.stream();
    }

    @ParameterizedTest(name = "{0} {2} {1}")
    @MethodSource("supported")
    void shouldMatchTheSerialReferenceAndLeaveEveryOtherByteUntouched(
        final Kind kind, final AtomicDatatype type, final AtomicOp op)
    {
        final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(CAPACITY, 64));
        final UnsafeBuffer source = new UnsafeBuffer(new byte[16]);
        final UnsafeBuffer compare = new UnsafeBuffer(new byte[16]);
        final UnsafeBuffer result = new UnsafeBuffer(new byte[16]);
        final long[] values = edges(type);
        final long[] compares = kind == Kind.COMPARE ? values : new long[]{0};
        final int size = type.size();
        for (int position = BASE; position < BASE + Math.max(size, Integer.BYTES) * 2; position += size)
        {
            for (final long old : values)
            {
                for (final long arg : values)
                {
                    for (final long cmp : compares)
                    {
                        final int at = position;
                        final long expected = SerialAtomics.after(type, op, old, arg, cmp);
                        final Supplier<String> what = () -> kind + " " + op.cName() + " " + type.cName() + " at " +
                            at + ": old " + Long.toHexString(old) + " operand " + Long.toHexString(arg) +
                            " compare " + Long.toHexString(cmp) + " expected " + Long.toHexString(expected) +
                            " got " + Long.toHexString(read(target, at, size));

                        byte[] before = prepare(target, type, position, old);
                        put(source, 0, size, arg);
                        put(compare, 0, size, cmp);
                        result.setMemory(0, result.capacity(), UNTOUCHED);
                        final int rc;
                        switch (kind)
                        {
                            case WRITE:
                                rc = AtomicOps.apply(type, op, target, position, source, 0, 1);
                                break;
                            case FETCH:
                                rc = AtomicOps.fetch(type, op, target, position, source, 0, result, 0, 1);
                                break;
                            default:
                                rc = AtomicOps.compare(type, op, target, position, source, 0, compare, 0, result, 0, 1);
                                break;
                        }
                        assertEquals(0, rc, what);
                        assertTrue(SerialAtomics.same(type, expected, read(target, position, size)), what);
                        assertOthersUntouched(before, target, position, size, what);
                        if (kind != Kind.WRITE)
                        {
                            assertEquals(SerialAtomics.mask(type, old), read(result, 0, size), what);
                            for (int i = size; i < result.capacity(); i++)
                            {
                                assertEquals(UNTOUCHED, result.getByte(i), what);
                            }
                        }

                        before = prepare(target, type, position, old);
                        final long returned;
                        switch (kind)
                        {
                            case WRITE:
                                AtomicOps.apply(type, op, target, position, noisy(size, arg));
                                returned = old;
                                break;
                            case FETCH:
                                returned = AtomicOps.fetch(type, op, target, position, noisy(size, arg));
                                break;
                            default:
                                returned = AtomicOps.compare(type, op, target, position, noisy(size, arg),
                                    noisy(size, cmp));
                                break;
                        }
                        assertTrue(SerialAtomics.same(type, expected, read(target, position, size)), what);
                        assertOthersUntouched(before, target, position, size, what);
                        if (kind != Kind.WRITE)
                        {
                            assertEquals(SerialAtomics.extended(type, old), returned, what);
                        }
                    }
                }
            }
        }
    }

    @Test
    void shouldCompareSignedAndUnsignedTypesAsTheirCTypesDo()
    {
        assertEquals(0x01, after(Kind.WRITE, UINT8, MIN, 0xFF, 0x01, 0));
        assertEquals(0xFF, after(Kind.WRITE, INT8, MIN, 0xFF, 0x01, 0), "-1 < 1");
        assertEquals(0xFFFF, after(Kind.WRITE, UINT16, MAX, 0x0001, 0xFFFF, 0));
        assertEquals(0x0001, after(Kind.WRITE, INT16, MAX, 0x0001, 0xFFFF, 0), "1 > -1");
        assertEquals(-1L, after(Kind.WRITE, UINT64, MAX, 1, -1, 0), "2^64-1 > 1");
        assertEquals(1L, after(Kind.WRITE, INT64, MAX, 1, -1, 0));
        assertEquals(7, after(Kind.COMPARE, UINT32, CSWAP_LT, 0xFFFF_FFFFL, 7, 1), "1 < 2^32-1: swap");
        assertEquals(0xFFFF_FFFFL, after(Kind.COMPARE, INT32, CSWAP_LT, 0xFFFF_FFFFL, 7, 1), "1 < -1: no swap");
        assertEquals(7, after(Kind.COMPARE, UINT64, CSWAP_GT, 5, 7, Long.MIN_VALUE), "2^63 > 5: swap");
        assertEquals(5, after(Kind.COMPARE, INT64, CSWAP_GT, 5, 7, Long.MIN_VALUE), "-2^63 > 5: no swap");
        assertEquals(9, after(Kind.COMPARE, INT8, CSWAP_LE, 3, 9, 3), "3 <= 3: swap");
        assertEquals(3, after(Kind.COMPARE, INT8, CSWAP_LT, 3, 9, 3), "3 < 3: no swap");
        assertEquals(9, after(Kind.COMPARE, INT8, CSWAP_GE, 3, 9, 3));
        assertEquals(3, after(Kind.COMPARE, INT8, CSWAP_GT, 3, 9, 3));
        assertEquals(1, after(Kind.WRITE, INT32, LXOR, 0, 0x8000_0000L, 0));
        assertEquals(0, after(Kind.WRITE, INT32, LXOR, 5, 0x8000_0000L, 0));
        assertEquals(1, after(Kind.WRITE, UINT8, LAND, 0x80, 0x01, 0));
        assertEquals(0x00, after(Kind.WRITE, INT8, PROD, 0x10, 0x10, 0), "256 wraps to 0");
        assertEquals(0xAAF0, after(Kind.COMPARE, UINT16, MSWAP, 0xF0F0, 0xAAAA, 0xFF00));
        assertEquals(0x120F560F_9A0FDE0FL,
            after(Kind.COMPARE, INT64, MSWAP, 0x12345678_9ABCDEF0L, 0x0F0F0F0F_0F0F0F0FL, 0x00FF00FF_00FF00FFL));
    }

    @Test
    void shouldNotCarryOrBorrowIntoTheNeighbouringElementsOfTheWord()
    {
        final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(CAPACITY, 64));
        target.putInt(BASE, 0x0000_FFFF);
        assertEquals(0, AtomicOps.apply(UINT16, SUM, target, BASE, source16(1), 0, 1));
        assertEquals(0x0000_0000, target.getInt(BASE), "0xFFFF + 1 wraps in its half only");
        assertEquals(0, AtomicOps.apply(INT16, SUM, target, BASE + 2, source16(-1), 0, 1));
        assertEquals(0xFFFF, target.getShort(BASE + 2) & 0xFFFF);
        assertEquals(0, target.getShort(BASE), "0 - 1 borrows from nothing next to it");

        target.putInt(BASE + 4, 0x00FF_00FF);
        for (int i = 0; i < 4; i++)
        {
            AtomicOps.apply(UINT8, SUM, target, BASE + 4 + i, 1);
        }
        assertEquals(0x0100_0100, target.getInt(BASE + 4), "each byte wrapped or counted alone (little endian)");
    }

    @Test
    void shouldFollowIeeeRulesAndCompareSwapOnBits()
    {
        final long nan = Float.floatToRawIntBits(Float.NaN) & 0xFFFF_FFFFL;
        final long one = f(1.0f);
        final long zero = f(0.0f);
        final long negativeZero = f(-0.0f);
        assertEquals(nan, after(Kind.WRITE, FLOAT, MIN, nan, one, 0), "NaN target stays");
        assertEquals(one, after(Kind.WRITE, FLOAT, MIN, one, nan, 0), "NaN operand does not replace");
        assertEquals(zero, after(Kind.WRITE, FLOAT, MIN, zero, negativeZero, 0), "-0.0 is not below 0.0");
        assertEquals(negativeZero, after(Kind.WRITE, FLOAT, MAX, negativeZero, zero, 0), "0.0 is not above -0.0");
        assertEquals(one, after(Kind.WRITE, FLOAT, LOR, nan, zero, 0), "NaN is true");
        assertEquals(zero, after(Kind.WRITE, FLOAT, LOR, negativeZero, zero, 0), "-0.0 is false");
        assertEquals(one, after(Kind.COMPARE, FLOAT, CSWAP, nan, one, nan), "same NaN bits: swap");
        assertEquals(zero, after(Kind.COMPARE, FLOAT, CSWAP, zero, one, negativeZero), "other bits: no swap");
        assertEquals(one, after(Kind.COMPARE, FLOAT, CSWAP_NE, zero, one, negativeZero), "_NE complements");
        assertEquals(nan, after(Kind.COMPARE, FLOAT, CSWAP_NE, nan, one, nan));
        assertEquals(one, after(Kind.COMPARE, FLOAT, CSWAP_LE, zero, one, negativeZero), "-0.0 <= 0.0");
        assertEquals(one, after(Kind.COMPARE, FLOAT, CSWAP_GE, zero, one, negativeZero), "-0.0 >= 0.0");
        assertEquals(nan, after(Kind.COMPARE, FLOAT, CSWAP_GE, nan, one, one), "NaN orders with nothing");

        final long dNan = Double.doubleToRawLongBits(Double.NaN);
        assertEquals(dNan, after(Kind.WRITE, DOUBLE, MAX, dNan, d(5.0), 0));
        assertEquals(d(0.30000000000000004), after(Kind.FETCH, DOUBLE, SUM, d(0.1), d(0.2), 0));
        assertEquals(d(-0.0), after(Kind.WRITE, DOUBLE, PROD, d(0.0), d(-3.0), 0));
        assertEquals(d(1.0), after(Kind.COMPARE, DOUBLE, CSWAP_LT, d(2.0), d(1.0), d(1.5)), "1.5 < 2.0");
    }

    @Test
    void shouldComputeFloatComplexAsPairs()
    {
        final long a = SerialAtomics.complex(1, 2);
        final long b = SerialAtomics.complex(3, 4);
        assertEquals(SerialAtomics.complex(-5, 10), after(Kind.WRITE, FLOAT_COMPLEX, PROD, a, b, 0));
        assertEquals(SerialAtomics.complex(4, 6), after(Kind.WRITE, FLOAT_COMPLEX, SUM, a, b, 0));
        assertEquals(SerialAtomics.complex(1, 0),
            after(Kind.WRITE, FLOAT_COMPLEX, LOR, SerialAtomics.complex(0, 0), SerialAtomics.complex(0, 1), 0));
        assertEquals(SerialAtomics.complex(0, 0),
            after(Kind.WRITE, FLOAT_COMPLEX, LAND, SerialAtomics.complex(0, -0.0f), a, 0));
        assertEquals(b, after(Kind.COMPARE, FLOAT_COMPLEX, CSWAP, a, b, a));
        assertEquals(a, after(Kind.COMPARE, FLOAT_COMPLEX, CSWAP, a, b, SerialAtomics.complex(1, 2.5f)));
        assertEquals(1.0f, AtomicArithmetic.real(a));
        assertEquals(2.0f, AtomicArithmetic.imaginary(a));
        assertEquals(a, AtomicArithmetic.complex(1, 2));
    }

    @Test
    void shouldOperateOnEveryElementOfAnArray()
    {
        final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(CAPACITY, 64));
        final UnsafeBuffer source = new UnsafeBuffer(new byte[32]);
        final UnsafeBuffer result = new UnsafeBuffer(new byte[32]);
        for (int i = 0; i < 8; i++)
        {
            target.putShort(BASE + 2 * i, (short)(1000 * i));
            source.putShort(2 * i, (short)(-i));
        }
        target.putInt(BASE + 16, 0x7777_7777);
        assertEquals(0, AtomicOps.fetch(INT16, SUM, target, BASE, source, 0, result, 4, 8));
        for (int i = 0; i < 8; i++)
        {
            assertEquals((short)(1000 * i - i), target.getShort(BASE + 2 * i));
            assertEquals((short)(1000 * i), result.getShort(4 + 2 * i));
        }
        assertEquals(0x7777_7777, target.getInt(BASE + 16));
        assertEquals(0, result.getInt(0));

        final UnsafeBuffer compare = new UnsafeBuffer(new byte[32]);
        for (int i = 0; i < 4; i++)
        {
            target.putLong(8 * i, i);
            source.putLong(8 * i, 100 + i);
            compare.putLong(8 * i, i % 2 == 0 ? i : -1);
        }
        assertEquals(0, AtomicOps.compare(INT64, CSWAP, target, 0, source, 0, compare, 0, result, 0, 4));
        assertEquals(100, target.getLong(0));
        assertEquals(1, target.getLong(8));
        assertEquals(102, target.getLong(16));
        assertEquals(3, target.getLong(24));
        assertEquals(3, result.getLong(24));
    }

    @Test
    void shouldRefuseMisalignedTargetsRatherThanBeNonAtomic()
    {
        final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(CAPACITY, 64));
        final UnsafeBuffer source = new UnsafeBuffer(new byte[16]);
        final UnsafeBuffer result = new UnsafeBuffer(new byte[16]);
        target.setMemory(0, CAPACITY, UNTOUCHED);
        assertEquals(-Errno.FI_EINVAL, AtomicOps.apply(INT16, SUM, target, 17, source, 0, 1));
        assertEquals(-Errno.FI_EINVAL, AtomicOps.apply(UINT32, SUM, target, 18, source, 0, 1));
        assertEquals(-Errno.FI_EINVAL, AtomicOps.fetch(INT64, SUM, target, 20, source, 0, result, 0, 1));
        assertEquals(-Errno.FI_EINVAL, AtomicOps.fetch(DOUBLE, SUM, target, 4, source, 0, result, 0, 1));
        assertEquals(-Errno.FI_EINVAL, AtomicOps.fetch(FLOAT_COMPLEX, SUM, target, 20, source, 0, result, 0, 1),
            "float complex needs 8-byte alignment for its 64-bit compare-and-swap");
        assertEquals(0, AtomicOps.checkTarget(FLOAT_COMPLEX, target, 24, 1));
        for (int i = 0; i < CAPACITY; i++)
        {
            assertEquals(UNTOUCHED, target.getByte(i));
        }

        final UnsafeBuffer base = new UnsafeBuffer(BufferUtil.allocateDirectAligned(CAPACITY, 64));
        final UnsafeBuffer slice = new UnsafeBuffer(base, 1, CAPACITY - 2);
        assertEquals(-Errno.FI_EINVAL, AtomicOps.checkTarget(INT16, slice, 0, 1), "address 1 is odd");
        assertEquals(-Errno.FI_EINVAL, AtomicOps.checkTarget(INT16, slice, 1, 1),
            "address 2 is aligned, but its word starts at address 0, before the slice");
        assertEquals(0, AtomicOps.checkTarget(INT16, slice, 3, 1));
        assertEquals(0, AtomicOps.checkTarget(INT32, slice, 3, 1));
        assertEquals(-Errno.FI_EINVAL, AtomicOps.checkTarget(INT8, slice, CAPACITY - 3, 1),
            "address 62's word ends at 64, past the slice's end at 63");
        assertEquals(0, AtomicOps.checkTarget(INT8, slice, CAPACITY - 6, 1));
        base.setMemory(0, CAPACITY, UNTOUCHED);
        base.putShort(4, (short)0x0102);
        assertEquals(0x0102, AtomicOps.fetch(INT16, SUM, slice, 3, 0x0101));
        assertEquals(0x0203, base.getShort(4));
        assertEquals(UNTOUCHED, base.getByte(3));
        assertEquals(UNTOUCHED, base.getByte(6));
    }

    @Test
    void shouldRefuseRangesOutsideTheBuffersBeforeTouchingAnything()
    {
        final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(CAPACITY, 64));
        final UnsafeBuffer small = new UnsafeBuffer(new byte[8]);
        final UnsafeBuffer big = new UnsafeBuffer(new byte[64]);
        target.setMemory(0, CAPACITY, UNTOUCHED);
        assertEquals(-Errno.FI_EINVAL, AtomicOps.apply(INT64, SUM, target, -8, big, 0, 1));
        assertEquals(-Errno.FI_EINVAL, AtomicOps.apply(INT64, SUM, target, 56, big, 0, 2));
        assertEquals(-Errno.FI_EINVAL, AtomicOps.apply(INT64, SUM, target, 0, big, 0, -1));
        assertEquals(-Errno.FI_EINVAL, AtomicOps.apply(INT64, SUM, target, 0, small, 0, 2), "operands too short");
        assertEquals(-Errno.FI_EINVAL, AtomicOps.apply(INT64, SUM, target, 0, small, 4, 1));
        assertEquals(-Errno.FI_EINVAL, AtomicOps.apply(INT64, SUM, target, 0, null, 0, 1));
        assertEquals(-Errno.FI_EINVAL, AtomicOps.fetch(INT32, SUM, target, 0, big, 0, small, 0, 3), "results");
        assertEquals(-Errno.FI_EINVAL, AtomicOps.fetch(INT32, SUM, target, 0, big, 0, null, 0, 1));
        assertEquals(-Errno.FI_EINVAL, AtomicOps.compare(INT32, CSWAP, target, 0, big, 0, small, 0, big, 0, 3),
            "compare values too short");
        assertEquals(-Errno.FI_EINVAL, AtomicOps.compare(INT32, CSWAP, target, 0, big, 0, big, 0, small, 6, 1));
        for (int i = 0; i < CAPACITY; i++)
        {
            assertEquals(UNTOUCHED, target.getByte(i));
        }
        assertEquals(0, AtomicOps.apply(INT64, SUM, target, 0, big, 0, 0), "nothing to do");
        assertEquals(0, AtomicOps.fetch(UINT16, ATOMIC_READ, target, 6, null, 0, small, 0, 1),
            "FI_ATOMIC_READ needs no operands");
        assertEquals((short)0xEEEE, small.getShort(0));
    }

    @Test
    void shouldWorkOnHeapMemoryToo()
    {
        final UnsafeBuffer target = new UnsafeBuffer(new byte[16]);
        target.putInt(4, 0x1122_3344);
        assertEquals(0x44, AtomicOps.fetch(UINT8, BXOR, target, 4, 0xFF));
        assertEquals(0x1122_33BB, target.getInt(4));
        assertEquals(0x1122_33BBL, AtomicOps.fetch(UINT32, ATOMIC_READ, target, 4, 0));
    }

    @Test
    void shouldLoseNoSubWordUpdateBetweenThreads() throws Exception
    {
        final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(CAPACITY, 64));
        final int threads = 4;
        final int rounds = 100_000;
        final CyclicBarrier start = new CyclicBarrier(threads);
        final List<Thread> workers = new ArrayList<>();
        final Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++)
        {
            final int own = t;
            final Thread worker = new Thread(() ->
            {
                try
                {
                    start.await();
                    for (int i = 0; i < rounds; i++)
                    {
                        final long old = AtomicOps.fetch(UINT8, SUM, target, BASE + own, 1);
                        if (old != (i & 0xFF))
                        {
                            throw new AssertionError("byte " + own + " was " + old + " before add " + i);
                        }
                        AtomicOps.apply(INT16, SUM, target, BASE + 4, 1);
                    }
                }
                catch (final Throwable ex)
                {
                    failure[0] = ex;
                }
            });
            workers.add(worker);
            worker.start();
        }
        for (final Thread worker : workers)
        {
            worker.join();
        }
        assertEquals(null, failure[0]);
        for (int t = 0; t < threads; t++)
        {
            assertEquals((byte)rounds, target.getByte(BASE + t));
        }
        assertEquals((short)(threads * rounds), target.getShort(BASE + 4));
        assertEquals(0, target.getShort(BASE + 6));
    }

    /**
     * One operation at the array level on a fresh aligned element; the element's raw bits after.
     */
    private static long after(
        final Kind kind, final AtomicDatatype type, final AtomicOp op, final long old, final long arg, final long cmp)
    {
        final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(CAPACITY, 64));
        final UnsafeBuffer source = new UnsafeBuffer(new byte[8]);
        final UnsafeBuffer compare = new UnsafeBuffer(new byte[8]);
        final UnsafeBuffer result = new UnsafeBuffer(new byte[8]);
        final int size = type.size();
        put(target, BASE, size, old);
        put(source, 0, size, arg);
        put(compare, 0, size, cmp);
        final int rc = kind == Kind.WRITE ? AtomicOps.apply(type, op, target, BASE, source, 0, 1) :
            kind == Kind.FETCH ? AtomicOps.fetch(type, op, target, BASE, source, 0, result, 0, 1) :
            AtomicOps.compare(type, op, target, BASE, source, 0, compare, 0, result, 0, 1);
        assertEquals(0, rc);
        final long expected = SerialAtomics.after(type, op, old, arg, cmp);
        final long actual = read(target, BASE, size);
        assertTrue(SerialAtomics.same(type, expected, actual), () -> "reference " + Long.toHexString(expected) +
            ", AtomicOps " + Long.toHexString(actual));
        return actual;
    }

    private static UnsafeBuffer source16(final int value)
    {
        final UnsafeBuffer source = new UnsafeBuffer(new byte[2]);
        source.putShort(0, (short)value);
        return source;
    }

    private static long f(final float value)
    {
        return Float.floatToRawIntBits(value) & 0xFFFF_FFFFL;
    }

    private static long d(final double value)
    {
        return Double.doubleToRawLongBits(value);
    }

    private static long[] edges(final AtomicDatatype type)
    {
        switch (type)
        {
            case INT8:
                return new long[]{0, 1, -1, 127, -128, 2, 100, -100};
            case UINT8:
                return new long[]{0, 1, 0xFF, 0x80, 0x7F, 2, 200};
            case INT16:
                return new long[]{0, 1, -1, Short.MAX_VALUE, Short.MIN_VALUE, 300, -300, 0xFF};
            case UINT16:
                return new long[]{0, 1, 0xFFFF, 0x8000, 0x7FFF, 300, 0xFF00};
            case INT32:
                return new long[]{0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 123_456_789, -987_654_321, 0xFFFF};
            case UINT32:
                return new long[]{0, 1, 0xFFFF_FFFFL, 0x8000_0000L, 0x7FFF_FFFF, 3_000_000_000L, 0x1_0000};
            case INT64:
                return new long[]{0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 0x1_0000_0001L, -1_234_567_890_123L, 3};
            case UINT64:
                return new long[]{0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0xFFFF_FFFFL, -2, 10};
            case FLOAT:
                return new long[]{f(0.0f), f(-0.0f), f(1.0f), f(-1.5f), f(2.5e10f), f(Float.NaN),
                    0x7FC0_0123L, f(Float.POSITIVE_INFINITY), f(Float.NEGATIVE_INFINITY), f(Float.MIN_VALUE),
                    f(Float.MAX_VALUE)};
            case DOUBLE:
                return new long[]{d(0.0), d(-0.0), d(1.0), d(-1.5), d(2.5e300), d(Double.NaN),
                    0x7FF8_0000_0000_0123L, d(Double.POSITIVE_INFINITY), d(Double.NEGATIVE_INFINITY),
                    d(Double.MIN_VALUE), d(Double.MAX_VALUE)};
            case FLOAT_COMPLEX:
                return new long[]{SerialAtomics.complex(0, 0), SerialAtomics.complex(-0.0f, 0),
                    SerialAtomics.complex(0, -0.0f), SerialAtomics.complex(1, 2), SerialAtomics.complex(3, 4),
                    SerialAtomics.complex(Float.NaN, 0), SerialAtomics.complex(0, Float.POSITIVE_INFINITY),
                    SerialAtomics.complex(-1.5f, 0.25f), SerialAtomics.complex(1, 0)};
            default:
                throw new IllegalArgumentException(type.cName());
        }
    }

    /**
     * The operand with every bit above the element's size set to noise, which the element level must ignore.
     */
    private static long noisy(final int size, final long bits)
    {
        return size == Long.BYTES ? bits : bits ^ 0xA5A5_A5A5_A5A5_A5A5L << (8 * size);
    }

    private static byte[] prepare(final UnsafeBuffer target, final AtomicDatatype type, final int index, final long old)
    {
        for (int i = 0; i < target.capacity(); i++)
        {
            target.putByte(i, (byte)(0x5A ^ i * 29));
        }
        put(target, index, type.size(), old);
        final byte[] before = new byte[target.capacity()];
        target.getBytes(0, before);
        return before;
    }

    private static void assertOthersUntouched(
        final byte[] before, final DirectBuffer target, final int index, final int size, final Supplier<String> what)
    {
        for (int i = 0; i < before.length; i++)
        {
            if (i < index || i >= index + size)
            {
                final int at = i;
                assertEquals(before[i], target.getByte(i), () -> "byte " + at + " changed: " + what.get());
            }
        }
    }

    private static void put(final MutableDirectBuffer buffer, final int index, final int size, final long bits)
    {
        switch (size)
        {
            case 1:
                buffer.putByte(index, (byte)bits);
                break;
            case 2:
                buffer.putShort(index, (short)bits);
                break;
            case 4:
                buffer.putInt(index, (int)bits);
                break;
            default:
                buffer.putLong(index, bits);
                break;
        }
    }

    private static long read(final DirectBuffer buffer, final int index, final int size)
    {
        switch (size)
        {
            case 1:
                return buffer.getByte(index) & 0xFFL;
            case 2:
                return buffer.getShort(index) & 0xFFFFL;
            case 4:
                return buffer.getInt(index) & 0xFFFF_FFFFL;
            default:
                return buffer.getLong(index);
        }
    }
}
