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

import java.nio.ByteOrder;

/**
 * What an element becomes under an atomic operation: fi_atomic(3)'s operations computed on an element's raw bits, one
 * arithmetic per family of datatypes ({@link #SIGNED} and {@link #UNSIGNED} integers, {@link #REAL} for FI_FLOAT and
 * FI_DOUBLE, {@link #COMPLEX} for FI_FLOAT_COMPLEX), picked by a table indexed by the datatype ({@link #of}). The
 * semantics are those {@link AtomicOps} describes; {@link AtomicOps} owns the memory (the atomic loops), this class
 * only computes.
 * <p>
 * Stateless, allocation-free; any thread.
 */
final class AtomicArithmetic
{
    /** The arithmetic of the signed integer types. */
    static final int SIGNED = 0;
    /** The arithmetic of the unsigned integer types. */
    static final int UNSIGNED = 1;
    /** The arithmetic of FI_FLOAT and FI_DOUBLE. */
    static final int REAL = 2;
    /** The arithmetic of FI_FLOAT_COMPLEX. */
    static final int COMPLEX = 3;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final int FLOAT_ONE = Float.floatToRawIntBits(1.0f);
    private static final long DOUBLE_ONE = Double.doubleToRawLongBits(1.0);
    /** The table: each datatype's arithmetic, by its ordinal. */
    private static final byte[] ARITHMETIC = table();

    private AtomicArithmetic()
    {
    }

    private static byte[] table()
    {
        final AtomicDatatype[] types = AtomicDatatype.values();
        final byte[] table = new byte[types.length];
        for (final AtomicDatatype type : types)
        {
            table[type.ordinal()] = (byte)(type.isInteger() ? (type.isUnsigned() ? UNSIGNED : SIGNED) :
                type.isComplex() ? COMPLEX : REAL);
        }
        return table;
    }

    /**
     * @param type a datatype.
     * @return its arithmetic: {@link #SIGNED}, {@link #UNSIGNED}, {@link #REAL} or {@link #COMPLEX} (for the types
     * shm does not perform, what their family would be).
     */
    static int of(final AtomicDatatype type)
    {
        return ARITHMETIC[type.ordinal()];
    }

    /**
     * @param arithmetic an arithmetic.
     * @return true for {@link #SIGNED} and {@link #UNSIGNED}.
     */
    static boolean isInteger(final int arithmetic)
    {
        return arithmetic <= UNSIGNED;
    }

    /**
     * An operand or compare value as {@link #next} takes it, prepared once per element before the compare-and-swap
     * loop: an integer's sign- or zero-extended from its size (higher bits ignored), any other type's raw bits.
     */
    static long operand(final int arithmetic, final int size, final long bits)
    {
        return isInteger(arithmetic) ? extend(bits, size, arithmetic == UNSIGNED) : bits;
    }

    /**
     * What an element becomes under {@code op} in its datatype's arithmetic.
     *
     * @param old the element's raw bits of {@code size} bytes (higher bits ignored).
     * @param arg the operand, as {@link #operand} prepared it.
     * @param cmp the compare value (FI_MSWAP: the mask), as {@link #operand} prepared it.
     */
    static long next(
        final int arithmetic, final int size, final AtomicOp op, final long old, final long arg, final long cmp)
    {
        switch (arithmetic)
        {
            case REAL:
                return nextReal(size, op, old, arg, cmp);
            case COMPLEX:
                return nextFloatComplex(op, old, arg, cmp);
            default:
                final boolean unsigned = arithmetic == UNSIGNED;
                return nextInteger(op, extend(old, size, unsigned), arg, cmp, unsigned);
        }
    }

    /**
     * The integer operations on values sign- or zero-extended from their width; the caller truncates the result.
     */
    private static long nextInteger(
        final AtomicOp op, final long old, final long arg, final long cmp, final boolean unsigned)
    {
        switch (op)
        {
            case MIN:
                return less(arg, old, unsigned) ? arg : old;
            case MAX:
                return less(old, arg, unsigned) ? arg : old;
            case SUM:
                return old + arg;
            case PROD:
                return old * arg;
            case LOR:
                return old != 0 || arg != 0 ? 1 : 0;
            case LAND:
                return old != 0 && arg != 0 ? 1 : 0;
            case BOR:
                return old | arg;
            case BAND:
                return old & arg;
            case LXOR:
                return (old != 0) != (arg != 0) ? 1 : 0;
            case BXOR:
                return old ^ arg;
            case ATOMIC_WRITE:
                return arg;
            case ATOMIC_READ:
                return old;
            case MSWAP:
                return (arg & cmp) | (old & ~cmp);
            default:
                return swapsInteger(op, old, cmp, unsigned) ? arg : old;
        }
    }

    /**
     * The condition of FI_CSWAP to FI_CSWAP_GT, {@code compare OP addr}; false for any other op.
     */
    private static boolean swapsInteger(final AtomicOp op, final long old, final long cmp, final boolean unsigned)
    {
        switch (op)
        {
            case CSWAP:
                return cmp == old;
            case CSWAP_NE:
                return cmp != old;
            case CSWAP_LE:
                return !less(old, cmp, unsigned);
            case CSWAP_LT:
                return less(cmp, old, unsigned);
            case CSWAP_GE:
                return !less(cmp, old, unsigned);
            case CSWAP_GT:
                return less(old, cmp, unsigned);
            default:
                return false;
        }
    }

    private static boolean less(final long a, final long b, final boolean unsigned)
    {
        return unsigned ? Long.compareUnsigned(a, b) < 0 : a < b;
    }

    static long extend(final long bits, final int size, final boolean unsigned)
    {
        switch (size)
        {
            case Byte.BYTES:
                return unsigned ? bits & 0xFF : (byte)bits;
            case Short.BYTES:
                return unsigned ? bits & 0xFFFF : (short)bits;
            case Integer.BYTES:
                return unsigned ? bits & 0xFFFF_FFFFL : (int)bits;
            default:
                return bits;
        }
    }

    /**
     * FI_FLOAT (size 4) and FI_DOUBLE (size 8) operations. Sums and products are computed in the type's own
     * precision (a float's in float: widening to double and back measured 20 % slower for FI_PROD); comparisons and
     * truth values on the values widened to double, which keeps a float's order, NaN and signed zero. MIN, MAX and
     * the swaps keep an operand's own bits.
     */
    private static long nextReal(
        final int size, final AtomicOp op, final long oldBits, final long argBits, final long cmpBits)
    {
        final boolean single = size == Integer.BYTES;
        switch (op)
        {
            case MIN:
                return floating(size, argBits) < floating(size, oldBits) ? argBits : oldBits;
            case MAX:
                return floating(size, argBits) > floating(size, oldBits) ? argBits : oldBits;
            case SUM:
                return single ? floatBits(asFloat(oldBits) + asFloat(argBits)) :
                    Double.doubleToRawLongBits(Double.longBitsToDouble(oldBits) + Double.longBitsToDouble(argBits));
            case PROD:
                return single ? floatBits(asFloat(oldBits) * asFloat(argBits)) :
                    Double.doubleToRawLongBits(Double.longBitsToDouble(oldBits) * Double.longBitsToDouble(argBits));
            case LOR:
                return truth(size, nonZero(size, oldBits) || nonZero(size, argBits));
            case LAND:
                return truth(size, nonZero(size, oldBits) && nonZero(size, argBits));
            case LXOR:
                return truth(size, nonZero(size, oldBits) != nonZero(size, argBits));
            case ATOMIC_WRITE:
                return argBits;
            case ATOMIC_READ:
                return oldBits;
            default:
                return swapsReal(size, op, oldBits, cmpBits) ? argBits : oldBits;
        }
    }

    /**
     * The condition of FI_CSWAP to FI_CSWAP_GT: bits for _EQ and _NE, IEEE values for the others; false for any
     * other op.
     */
    private static boolean swapsReal(final int size, final AtomicOp op, final long oldBits, final long cmpBits)
    {
        final double old = floating(size, oldBits);
        final double cmp = floating(size, cmpBits);
        switch (op)
        {
            case CSWAP:
                return cmpBits == oldBits;
            case CSWAP_NE:
                return cmpBits != oldBits;
            case CSWAP_LE:
                return cmp <= old;
            case CSWAP_LT:
                return cmp < old;
            case CSWAP_GE:
                return cmp >= old;
            case CSWAP_GT:
                return cmp > old;
            default:
                return false;
        }
    }

    /** @return the value of FI_FLOAT ({@code size} 4) or FI_DOUBLE bits. */
    private static double floating(final int size, final long bits)
    {
        return size == Integer.BYTES ? Float.intBitsToFloat((int)bits) : Double.longBitsToDouble(bits);
    }

    /** @return whether FI_FLOAT ({@code size} 4) or FI_DOUBLE bits are true, as C reads them: not zero (NaN is). */
    private static boolean nonZero(final int size, final long bits)
    {
        return floating(size, bits) != 0;
    }

    /** @return the float of FI_FLOAT bits (the low 32). */
    private static float asFloat(final long bits)
    {
        return Float.intBitsToFloat((int)bits);
    }

    /** @return the FI_FLOAT bits of {@code value}. */
    private static long floatBits(final float value)
    {
        return Float.floatToRawIntBits(value);
    }

    /** @return the FI_FLOAT ({@code size} 4) or FI_DOUBLE bits of 1.0 or 0.0. */
    private static long truth(final int size, final boolean value)
    {
        return !value ? 0 : size == Integer.BYTES ? FLOAT_ONE : DOUBLE_ONE;
    }

    private static long nextFloatComplex(final AtomicOp op, final long oldBits, final long argBits, final long cmpBits)
    {
        switch (op)
        {
            case SUM:
                return complex(real(oldBits) + real(argBits), imaginary(oldBits) + imaginary(argBits));
            case PROD:
                return complexProduct(oldBits, argBits);
            case LOR:
                return complexTruth(isTrue(oldBits) || isTrue(argBits));
            case LAND:
                return complexTruth(isTrue(oldBits) && isTrue(argBits));
            case LXOR:
                return complexTruth(isTrue(oldBits) != isTrue(argBits));
            case ATOMIC_WRITE:
                return argBits;
            case CSWAP:
                return cmpBits == oldBits ? argBits : oldBits;
            case CSWAP_NE:
                return cmpBits != oldBits ? argBits : oldBits;
            default:
                return oldBits;
        }
    }

    private static long complexProduct(final long aBits, final long bBits)
    {
        final float a = real(aBits);
        final float b = imaginary(aBits);
        final float c = real(bBits);
        final float d = imaginary(bBits);
        return complex(a * c - b * d, a * d + b * c);
    }

    private static boolean isTrue(final long bits)
    {
        return real(bits) != 0 || imaginary(bits) != 0;
    }

    private static long complexTruth(final boolean value)
    {
        return value ? complex(1.0f, 0.0f) : complex(0.0f, 0.0f);
    }

    /**
     * @param bits an FI_FLOAT_COMPLEX element as a native-order long.
     * @return its real part, the float at the lower address.
     */
    static float real(final long bits)
    {
        return Float.intBitsToFloat((int)(LITTLE_ENDIAN ? bits : bits >>> 32));
    }

    /**
     * @param bits an FI_FLOAT_COMPLEX element as a native-order long.
     * @return its imaginary part, the float at the higher address.
     */
    static float imaginary(final long bits)
    {
        return Float.intBitsToFloat((int)(LITTLE_ENDIAN ? bits >>> 32 : bits));
    }

    /**
     * @param real      the real part.
     * @param imaginary the imaginary part.
     * @return the FI_FLOAT_COMPLEX element as a native-order long.
     */
    static long complex(final float real, final float imaginary)
    {
        final long re = Float.floatToRawIntBits(real) & 0xFFFF_FFFFL;
        final long im = Float.floatToRawIntBits(imaginary) & 0xFFFF_FFFFL;
        return LITTLE_ENDIAN ? re | im << 32 : re << 32 | im;
    }
}
