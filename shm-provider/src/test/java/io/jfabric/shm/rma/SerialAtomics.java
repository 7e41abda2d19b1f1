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

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A serial reference for the atomic operations, written here from fi_atomic(3)'s pseudo-code and independent of
 * {@link AtomicOps}: integers in {@link BigInteger} (the mathematical value of the signed or unsigned element, the
 * result reduced modulo 2^bits), floating types in Java's IEEE arithmetic on decoded values, complex numbers from
 * their two float parts. Values in and out are the element's raw bits, low {@code size()} bytes. Test thread only.
 */
public final class SerialAtomics
{
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    private SerialAtomics()
    {
    }

    /**
     * @return the element's raw bits after {@code op} with the given old value, operand and compare value.
     */
    public static long after(
        final AtomicDatatype type, final AtomicOp op, final long old, final long arg, final long cmp)
    {
        switch (type)
        {
            case FLOAT:
                return Integer.toUnsignedLong(afterFloat(op, (int)old, (int)arg, (int)cmp));
            case DOUBLE:
                return afterDouble(op, old, arg, cmp);
            case FLOAT_COMPLEX:
                return afterComplex(op, old, arg, cmp);
            default:
                return afterInteger(type, op, old, arg, cmp);
        }
    }

    /**
     * @return the element's raw bits, masked to its size.
     */
    public static long mask(final AtomicDatatype type, final long bits)
    {
        return type.size() == 8 ? bits : bits & ((1L << (8 * type.size())) - 1);
    }

    /**
     * @return the value the element level returns for these raw bits: sign-extended for signed integers,
     *         zero-extended otherwise.
     */
    static long extended(final AtomicDatatype type, final long bits)
    {
        if (type.isInteger() && !type.isUnsigned())
        {
            final int unused = 64 - 8 * type.size();
            return bits << unused >> unused;
        }
        return mask(type, bits);
    }

    private static long afterInteger(
        final AtomicDatatype type, final AtomicOp op, final long oldBits, final long argBits, final long cmpBits)
    {
        final BigInteger old = value(type, oldBits);
        final BigInteger arg = value(type, argBits);
        final BigInteger cmp = value(type, cmpBits);
        final BigInteger result;
        switch (op)
        {
            case MIN:
                result = arg.compareTo(old) < 0 ? arg : old;
                break;
            case MAX:
                result = arg.compareTo(old) > 0 ? arg : old;
                break;
            case SUM:
                result = old.add(arg);
                break;
            case PROD:
                result = old.multiply(arg);
                break;
            case LOR:
                result = truth(old.signum() != 0 || arg.signum() != 0);
                break;
            case LAND:
                result = truth(old.signum() != 0 && arg.signum() != 0);
                break;
            case LXOR:
                result = truth(old.signum() != 0 && arg.signum() == 0 || old.signum() == 0 && arg.signum() != 0);
                break;
            case BOR:
                result = old.or(arg);
                break;
            case BAND:
                result = old.and(arg);
                break;
            case BXOR:
                result = old.xor(arg);
                break;
            case ATOMIC_READ:
                result = old;
                break;
            case ATOMIC_WRITE:
                result = arg;
                break;
            case CSWAP:
                result = cmp.compareTo(old) == 0 ? arg : old;
                break;
            case CSWAP_NE:
                result = cmp.compareTo(old) != 0 ? arg : old;
                break;
            case CSWAP_LE:
                result = cmp.compareTo(old) <= 0 ? arg : old;
                break;
            case CSWAP_LT:
                result = cmp.compareTo(old) < 0 ? arg : old;
                break;
            case CSWAP_GE:
                result = cmp.compareTo(old) >= 0 ? arg : old;
                break;
            case CSWAP_GT:
                result = cmp.compareTo(old) > 0 ? arg : old;
                break;
            case MSWAP:
                result = arg.and(cmp).or(old.andNot(cmp));
                break;
            default:
                throw new IllegalArgumentException(op.cName());
        }
        return mask(type, result.mod(TWO_64).longValue());
    }

    private static BigInteger value(final AtomicDatatype type, final long bits)
    {
        return type.isUnsigned() ?
            new BigInteger(Long.toUnsignedString(mask(type, bits))) : BigInteger.valueOf(extended(type, bits));
    }

    private static BigInteger truth(final boolean value)
    {
        return value ? BigInteger.ONE : BigInteger.ZERO;
    }

    private static int afterFloat(final AtomicOp op, final int oldBits, final int argBits, final int cmpBits)
    {
        final float old = Float.intBitsToFloat(oldBits);
        final float arg = Float.intBitsToFloat(argBits);
        final float cmp = Float.intBitsToFloat(cmpBits);
        switch (op)
        {
            case MIN:
                return arg < old ? argBits : oldBits;
            case MAX:
                return arg > old ? argBits : oldBits;
            case SUM:
                return Float.floatToRawIntBits(old + arg);
            case PROD:
                return Float.floatToRawIntBits(old * arg);
            case LOR:
                return Float.floatToRawIntBits(old != 0.0f || arg != 0.0f ? 1 : 0);
            case LAND:
                return Float.floatToRawIntBits(old != 0.0f && arg != 0.0f ? 1 : 0);
            case LXOR:
                return Float.floatToRawIntBits(old != 0.0f && arg == 0.0f || old == 0.0f && arg != 0.0f ? 1 : 0);
            case ATOMIC_READ:
                return oldBits;
            case ATOMIC_WRITE:
                return argBits;
            case CSWAP:
                return cmpBits == oldBits ? argBits : oldBits;
            case CSWAP_NE:
                return cmpBits != oldBits ? argBits : oldBits;
            case CSWAP_LE:
                return cmp <= old ? argBits : oldBits;
            case CSWAP_LT:
                return cmp < old ? argBits : oldBits;
            case CSWAP_GE:
                return cmp >= old ? argBits : oldBits;
            case CSWAP_GT:
                return cmp > old ? argBits : oldBits;
            default:
                throw new IllegalArgumentException(op.cName());
        }
    }

    private static long afterDouble(final AtomicOp op, final long oldBits, final long argBits, final long cmpBits)
    {
        final double old = Double.longBitsToDouble(oldBits);
        final double arg = Double.longBitsToDouble(argBits);
        final double cmp = Double.longBitsToDouble(cmpBits);
        switch (op)
        {
            case MIN:
                return arg < old ? argBits : oldBits;
            case MAX:
                return arg > old ? argBits : oldBits;
            case SUM:
                return Double.doubleToRawLongBits(old + arg);
            case PROD:
                return Double.doubleToRawLongBits(old * arg);
            case LOR:
                return Double.doubleToRawLongBits(old != 0.0 || arg != 0.0 ? 1 : 0);
            case LAND:
                return Double.doubleToRawLongBits(old != 0.0 && arg != 0.0 ? 1 : 0);
            case LXOR:
                return Double.doubleToRawLongBits(old != 0.0 && arg == 0.0 || old == 0.0 && arg != 0.0 ? 1 : 0);
            case ATOMIC_READ:
                return oldBits;
            case ATOMIC_WRITE:
                return argBits;
            case CSWAP:
                return cmpBits == oldBits ? argBits : oldBits;
            case CSWAP_NE:
                return cmpBits != oldBits ? argBits : oldBits;
            case CSWAP_LE:
                return cmp <= old ? argBits : oldBits;
            case CSWAP_LT:
                return cmp < old ? argBits : oldBits;
            case CSWAP_GE:
                return cmp >= old ? argBits : oldBits;
            case CSWAP_GT:
                return cmp > old ? argBits : oldBits;
            default:
                throw new IllegalArgumentException(op.cName());
        }
    }

    private static long afterComplex(final AtomicOp op, final long oldBits, final long argBits, final long cmpBits)
    {
        final float a = re(oldBits);
        final float b = im(oldBits);
        final float c = re(argBits);
        final float d = im(argBits);
        final boolean oldTrue = a != 0.0f || b != 0.0f;
        final boolean argTrue = c != 0.0f || d != 0.0f;
        switch (op)
        {
            case SUM:
                return complex(a + c, b + d);
            case PROD:
                return complex(a * c - b * d, a * d + b * c);
            case LOR:
                return complex(oldTrue || argTrue ? 1 : 0, 0);
            case LAND:
                return complex(oldTrue && argTrue ? 1 : 0, 0);
            case LXOR:
                return complex(oldTrue != argTrue ? 1 : 0, 0);
            case ATOMIC_READ:
                return oldBits;
            case ATOMIC_WRITE:
                return argBits;
            case CSWAP:
                return cmpBits == oldBits ? argBits : oldBits;
            case CSWAP_NE:
                return cmpBits != oldBits ? argBits : oldBits;
            default:
                throw new IllegalArgumentException(op.cName());
        }
    }

    /**
     * @return the 8 bytes of a C {@code float complex} (real part first) as a native-order long.
     */
    static long complex(final float re, final float im)
    {
        final ByteBuffer bytes = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
        return bytes.putFloat(0, re).putFloat(4, im).getLong(0);
    }

    static float re(final long bits)
    {
        return ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, bits).getFloat(0);
    }

    static float im(final long bits)
    {
        return ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, bits).getFloat(4);
    }

    /**
     * Whether two results agree: the same bits, or, for floating types, NaN in the same places (which NaN an
     * arithmetic operation yields is the hardware's choice).
     */
    public static boolean same(final AtomicDatatype type, final long expected, final long actual)
    {
        switch (type)
        {
            case FLOAT:
                return (int)expected == (int)actual ||
                    Float.isNaN(Float.intBitsToFloat((int)expected)) && Float.isNaN(Float.intBitsToFloat((int)actual));
            case DOUBLE:
                return expected == actual ||
                    Double.isNaN(Double.longBitsToDouble(expected)) && Double.isNaN(Double.longBitsToDouble(actual));
            case FLOAT_COMPLEX:
                return expected == actual ||
                    samePart(re(expected), re(actual)) && samePart(im(expected), im(actual));
            default:
                return mask(type, expected) == mask(type, actual);
        }
    }

    private static boolean samePart(final float expected, final float actual)
    {
        return Float.floatToRawIntBits(expected) == Float.floatToRawIntBits(actual) ||
            Float.isNaN(expected) && Float.isNaN(actual);
    }

    /**
     * Store an element's raw bits, little-endian, in the first {@code size} bytes of {@code b} (what an endpoint
     * sends as an operand of that datatype).
     *
     * @param b    the buffer.
     * @param size the datatype's size.
     * @param bits the raw bits.
     */
    public static void putBits(final ByteBuffer b, final int size, final long bits)
    {
        for (int i = 0; i < size; i++)
        {
            b.put(i, (byte)(bits >>> (8 * i)));
        }
    }

    /**
     * @param b    the buffer.
     * @param size the datatype's size.
     * @return the raw bits of the element in the first {@code size} bytes of {@code b}, little-endian.
     */
    public static long getBits(final ByteBuffer b, final int size)
    {
        long bits = 0;
        for (int i = 0; i < size; i++)
        {
            bits |= (b.get(i) & 0xFFL) << (8 * i);
        }
        return bits;
    }
}
