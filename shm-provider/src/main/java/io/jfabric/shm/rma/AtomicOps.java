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
import io.jfabric.shm.core.BrokenVariant;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The atomic operations of fi_atomic(3) applied to memory through an Agrona {@link AtomicBuffer}, atomic with respect
 * to every thread of every process that maps the same memory and updates it through this class: what the RMA path
 * runs against a peer's shareable segment, or the target's progress against its own memory.
 * <p>
 * <b>Calls.</b> Three families, as fi_atomic(3) has them: {@code apply} (fi_atomic: the target is updated, nothing
 * is returned), {@code fetch} (fi_fetch_atomic: the value before the operation is returned) and {@code compare}
 * (fi_compare_atomic: FI_CSWAP to FI_MSWAP with a compare value; the value before is returned). Each comes at two
 * levels:
 * <ul>
 *   <li>array level: {@code count} elements, operands read from a {@link DirectBuffer} and fetched values written
 *   to a {@link MutableDirectBuffer}, each at an index, all in native byte order (they are C arrays of the
 *   datatype). The endpoint wraps the caller's {@link java.nio.ByteBuffer} in a reused
 *   {@link org.agrona.concurrent.UnsafeBuffer} ({@code wrap} allocates nothing), or passes the lane record that
 *   carried the operands and the record that carries the results back, so one signature serves the one-sided path
 *   and the target's progress without copying operands out or allocating. Returns 0, or a negative errno before
 *   any element is touched: {@code -FI_EOPNOTSUPP} for a (datatype, op) the family does not support
 *   ({@link AtomicSupport}), {@code -FI_EINVAL} for a negative count, a range outside a buffer, or a misaligned
 *   target. The per-call element limit is {@link AtomicSupport#check}'s, the endpoint's to apply.</li>
 *   <li>element level: one element, its operand and compare value and the fetched value as raw bits in a
 *   {@code long}, for callers that hold values rather than buffers (a single fetch-add on a counter). The bits are
 *   the element's own: the low {@code size()} bytes, as the buffer's native-order {@code getByte/getShort/getInt/
 *   getLong} read them (for FI_FLOAT the {@code Float.floatToRawIntBits} bits, for FI_FLOAT_COMPLEX the 8 bytes of
 *   real then imaginary part); higher operand bits are ignored. Returned values are sign-extended for the signed
 *   types and zero-extended for the others. Preconditions, checked by nobody at this level: the pair is supported
 *   for the family and {@link #checkTarget} returned 0. A compare op passed to {@code fetch} compares with 0; an op
 *   that does not apply to the datatype leaves the target as it is.</li>
 * </ul>
 * Atomicity is per element, as fi_atomic(3) defines it; elements are updated in index order.
 * <p>
 * <b>Protocol.</b> Every update is one hardware atomic instruction on an aligned word, so it is atomic across
 * processes (the hardware, not a lock in one JVM, serialises it):
 * <ul>
 *   <li>32- and 64-bit integers: FI_SUM by {@code getAndAdd} (LOCK XADD on x86-64), FI_ATOMIC_WRITE by
 *   {@code getAndSet} or a volatile store, FI_ATOMIC_READ by a volatile load, everything else by a
 *   compare-and-swap loop: read, compute, {@code compareAndExchange}, retry from the witness value if another
 *   writer came between.</li>
 *   <li>8- and 16-bit integers: a compare-and-swap loop on the aligned 32-bit word that contains the element. The
 *   loop reads the word, computes the element's new value, builds a new word that differs from the read one only
 *   in the element's bytes, and swaps it in only if the whole word is still what was read. The other bytes of the
 *   word are written back exactly as read, and any concurrent change to them (another element's update, in this
 *   or another process) makes the swap fail and the loop retry, so no neighbour's update is lost and no carry or
 *   borrow crosses into a neighbour. The element's position in the word follows the platform's byte order. This
 *   is the contract that makes sub-word atomics atomic across processes: every writer of such memory either uses
 *   it or writes whole aligned words atomically; a plain (non-atomic) store into the word by another party is
 *   outside it, as fi_atomic(3) leaves atomics mixed with other agents undefined.</li>
 *   <li>FI_FLOAT, FI_DOUBLE: a compare-and-swap loop on the raw bits (32 or 64), computing in Java's IEEE 754
 *   arithmetic (round to nearest, as C on x86-64 and AArch64).</li>
 *   <li>FI_FLOAT_COMPLEX: a compare-and-swap loop on the 64-bit word holding real (lower address) and imaginary
 *   part. Its targets must therefore be 8-byte aligned, although C aligns {@code float complex} at 4.</li>
 * </ul>
 * A loop skips the swap when the new value equals the value read (FI_ATOMIC_READ, a FI_MIN that keeps the
 * target, a failed FI_CSWAP): the volatile read is then the operation. All accesses are volatile (sequentially
 * consistent), as libfabric's built-in atomics are {@code __ATOMIC_SEQ_CST}.
 * <p>
 * <b>Alignment.</b> A target element must be aligned to its size (8 for FI_FLOAT_COMPLEX), measured on the
 * address the buffer reaches, and for 8- and 16-bit elements the whole containing 32-bit word must lie inside the
 * buffer (pass the segment's whole mapping with an index rather than a slice cut to the element). Anything else is
 * refused with {@code -FI_EINVAL}: an unaligned access could tear or straddle a cache line, and the call would not
 * be atomic. Operand, compare and result buffers need no alignment.
 * <p>
 * <b>Semantics</b> (each as fi_atomic(3) writes it; {@code addr} the target, {@code buf} the operand):
 * <ul>
 *   <li>integers wrap in two's complement (FI_SUM, FI_PROD); signed and unsigned types differ in FI_MIN, FI_MAX
 *   and FI_CSWAP_LE/_LT/_GE/_GT, which compare as the type does (FI_UINT64 unsigned).</li>
 *   <li>FI_LOR, FI_LAND, FI_LXOR store 1 or 0 (1.0 or 0.0; for complex, 1+0i or 0+0i, a complex number being true
 *   when either part is non-zero); NaN is true, -0.0 false, as in C.</li>
 *   <li>FI_MIN/FI_MAX on floating types: {@code if (buf < addr) addr = buf} with IEEE comparison, so a NaN on
 *   either side leaves the target as it is and -0.0 does not replace 0.0 (nor the reverse).</li>
 *   <li>FI_CSWAP and FI_CSWAP_NE on floating and complex types compare the bits, not the values: the swap happens
 *   exactly when the target holds (or for _NE does not hold) the compare value's representation. That is what a
 *   compare-and-swap needs (an application's retry loop over a NaN or -0.0 makes progress), it is what libfabric's
 *   own FI_CSWAP does (a byte compare, {@code __atomic_compare_exchange}), and FI_CSWAP_NE is its exact
 *   complement. FI_CSWAP_LE/_LT/_GE/_GT compare values by IEEE rules ({@code compare <= addr} etc.): NaN never
 *   swaps, -0.0 equals 0.0.</li>
 *   <li>FI_PROD on FI_FLOAT_COMPLEX is {@code (a*c - b*d) + (a*d + b*c)i}, each step rounded to float. C's
 *   Annex G multiplication can differ where it recovers infinities from a NaN result.</li>
 *   <li>FI_MSWAP: {@code addr = (buf & compare) | (addr & ~compare)}.</li>
 * </ul>
 * <p>
 * Stateless, allocation-free, never throws for arguments it documents (ranges are checked before any access, so
 * Agrona's bounds checks never fire); any thread.
 */
public final class AtomicOps
{
    /**
     * The JCStress campaign's broken variant {@code atomic.subword-plain-write}: the 8- and 16-bit loop stores its new
     * word with a volatile write instead of swapping it in, a read-modify-write that is not atomic, so a concurrent
     * update of the element or of a neighbour in the same word is lost. Never set outside the campaign.
     */
    private static final boolean BROKEN_SUBWORD_PLAIN_WRITE = BrokenVariant.active("atomic.subword-plain-write");
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final int FLOAT_ONE = Float.floatToRawIntBits(1.0f);
    private static final long DOUBLE_ONE = Double.doubleToRawLongBits(1.0);

    private AtomicOps()
    {
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Array level
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * fi_atomic: {@code count} elements of {@code target} updated with operands from {@code source}.
     *
     * @param type        the datatype.
     * @param op          FI_MIN to FI_BXOR or FI_ATOMIC_WRITE.
     * @param target      the memory operated on.
     * @param targetIndex index of the first target element.
     * @param source      the operands, {@code count} elements in native order.
     * @param sourceIndex index of the first operand.
     * @param count       elements; 0 does nothing.
     * @return 0, {@code -FI_EOPNOTSUPP} or {@code -FI_EINVAL} (nothing touched).
     */
    public static int apply(
        final AtomicDatatype type,
        final AtomicOp op,
        final AtomicBuffer target,
        final int targetIndex,
        final DirectBuffer source,
        final int sourceIndex,
        final int count)
    {
        if (!AtomicSupport.isSupported(AtomicSupport.Kind.WRITE, type, op))
        {
            return -Errno.FI_EOPNOTSUPP;
        }
        final int size = type.size();
        final int rc = checkTarget(type, target, targetIndex, count);
        if (rc != 0 || !inside(source, sourceIndex, count, size))
        {
            return rc != 0 ? rc : -Errno.FI_EINVAL;
        }
        for (int i = 0, offset = 0; i < count; i++, offset += size)
        {
            apply(type, op, target, targetIndex + offset, read(source, sourceIndex + offset, size));
        }
        return 0;
    }

    /**
     * fi_fetch_atomic: {@code count} elements of {@code target} updated with operands from {@code source}, the
     * values before written to {@code result}.
     *
     * @param type        the datatype.
     * @param op          FI_MIN to FI_BXOR, FI_ATOMIC_READ or FI_ATOMIC_WRITE.
     * @param target      the memory operated on.
     * @param targetIndex index of the first target element.
     * @param source      the operands, {@code count} elements in native order; ignored, and may be null, for
     *                    FI_ATOMIC_READ.
     * @param sourceIndex index of the first operand.
     * @param result      receives the values before, {@code count} elements in native order.
     * @param resultIndex index of the first result.
     * @param count       elements; 0 does nothing.
     * @return 0, {@code -FI_EOPNOTSUPP} or {@code -FI_EINVAL} (nothing touched).
     */
    public static int fetch(
        final AtomicDatatype type,
        final AtomicOp op,
        final AtomicBuffer target,
        final int targetIndex,
        final DirectBuffer source,
        final int sourceIndex,
        final MutableDirectBuffer result,
        final int resultIndex,
        final int count)
    {
        if (!AtomicSupport.isSupported(AtomicSupport.Kind.FETCH, type, op))
        {
            return -Errno.FI_EOPNOTSUPP;
        }
        final int size = type.size();
        final boolean read = op == AtomicOp.ATOMIC_READ;
        final int rc = checkTarget(type, target, targetIndex, count);
        if (rc != 0 || !read && !inside(source, sourceIndex, count, size) || !inside(result, resultIndex, count, size))
        {
            return rc != 0 ? rc : -Errno.FI_EINVAL;
        }
        for (int i = 0, offset = 0; i < count; i++, offset += size)
        {
            final long operand = read ? 0 : read(source, sourceIndex + offset, size);
            write(result, resultIndex + offset, size, fetch(type, op, target, targetIndex + offset, operand));
        }
        return 0;
    }

    /**
     * fi_compare_atomic: {@code count} elements of {@code target} compared with {@code compare} and swapped with
     * {@code source} (FI_MSWAP: masked), the values before written to {@code result}.
     *
     * @param type         the datatype.
     * @param op           FI_CSWAP to FI_MSWAP.
     * @param target       the memory operated on.
     * @param targetIndex  index of the first target element.
     * @param source       the new values, {@code count} elements in native order.
     * @param sourceIndex  index of the first new value.
     * @param compare      the compare values (FI_MSWAP: the masks), {@code count} elements in native order.
     * @param compareIndex index of the first compare value.
     * @param result       receives the values before, {@code count} elements in native order.
     * @param resultIndex  index of the first result.
     * @param count        elements; 0 does nothing.
     * @return 0, {@code -FI_EOPNOTSUPP} or {@code -FI_EINVAL} (nothing touched).
     */
    public static int compare(
        final AtomicDatatype type,
        final AtomicOp op,
        final AtomicBuffer target,
        final int targetIndex,
        final DirectBuffer source,
        final int sourceIndex,
        final DirectBuffer compare,
        final int compareIndex,
        final MutableDirectBuffer result,
        final int resultIndex,
        final int count)
    {
        if (!AtomicSupport.isSupported(AtomicSupport.Kind.COMPARE, type, op))
        {
            return -Errno.FI_EOPNOTSUPP;
        }
        final int size = type.size();
        final int rc = checkTarget(type, target, targetIndex, count);
        if (rc != 0 || !inside(source, sourceIndex, count, size) || !inside(compare, compareIndex, count, size) ||
            !inside(result, resultIndex, count, size))
        {
            return rc != 0 ? rc : -Errno.FI_EINVAL;
        }
        for (int i = 0, offset = 0; i < count; i++, offset += size)
        {
            final long old = compare(type, op, target, targetIndex + offset,
                read(source, sourceIndex + offset, size), read(compare, compareIndex + offset, size));
            write(result, resultIndex + offset, size, old);
        }
        return 0;
    }

    /**
     * Whether {@code count} elements from {@code index} are a target this class can update atomically.
     *
     * @param type   the datatype.
     * @param target the memory.
     * @param index  index of the first element.
     * @param count  elements.
     * @return 0, or {@code -FI_EINVAL} when the range is not inside the buffer, the first element is not aligned to
     *         its size (8 for FI_FLOAT_COMPLEX), or an 8- or 16-bit element's containing 32-bit word reaches outside
     *         the buffer.
     */
    public static int checkTarget(final AtomicDatatype type, final AtomicBuffer target, final int index, final int count)
    {
        final int size = type.size();
        final long bytes = (long)count * size;
        if (index < 0 || count < 0 || index + bytes > target.capacity())
        {
            return -Errno.FI_EINVAL;
        }
        final long address = target.addressOffset() + index;
        if ((address & (size - 1)) != 0)
        {
            return -Errno.FI_EINVAL;
        }
        if (size < Integer.BYTES && count > 0)
        {
            final long firstWord = index - (address & 3);
            final long endWord = index + bytes + (-(address + bytes) & 3);
            if (firstWord < 0 || endWord > target.capacity())
            {
                return -Errno.FI_EINVAL;
            }
        }
        return 0;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Element level
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * fi_atomic on one element. Preconditions: the pair is supported for fi_atomic, {@link #checkTarget} gave 0.
     *
     * @param type    the datatype.
     * @param op      FI_MIN to FI_BXOR or FI_ATOMIC_WRITE.
     * @param target  the memory.
     * @param index   the element's index.
     * @param operand the operand's bits.
     */
    public static void apply(
        final AtomicDatatype type, final AtomicOp op, final AtomicBuffer target, final int index, final long operand)
    {
        switch (type)
        {
            case INT32:
            case UINT32:
                if (op == AtomicOp.SUM)
                {
                    target.getAndAddInt(index, (int)operand);
                    return;
                }
                break;
            case INT64:
            case UINT64:
                if (op == AtomicOp.SUM)
                {
                    target.getAndAddLong(index, operand);
                    return;
                }
                break;
            default:
                break;
        }
        if (op == AtomicOp.ATOMIC_WRITE && type.size() >= Integer.BYTES)
        {
            storeVolatile(type.size(), target, index, operand);
            return;
        }
        fetch(type, op, target, index, operand);
    }

    /**
     * fi_fetch_atomic on one element. Preconditions: the pair is supported for fi_fetch_atomic, {@link #checkTarget}
     * gave 0.
     *
     * @param type    the datatype.
     * @param op      FI_MIN to FI_BXOR, FI_ATOMIC_READ or FI_ATOMIC_WRITE.
     * @param target  the memory.
     * @param index   the element's index.
     * @param operand the operand's bits (ignored by FI_ATOMIC_READ).
     * @return the element's bits before the operation.
     */
    public static long fetch(
        final AtomicDatatype type, final AtomicOp op, final AtomicBuffer target, final int index, final long operand)
    {
        return update(type, op, target, index, operand, 0);
    }

    /**
     * fi_compare_atomic on one element. Preconditions: the pair is supported for fi_compare_atomic,
     * {@link #checkTarget} gave 0.
     *
     * @param type    the datatype.
     * @param op      FI_CSWAP to FI_MSWAP.
     * @param target  the memory.
     * @param index   the element's index.
     * @param operand the new value's bits.
     * @param compare the compare value's bits (FI_MSWAP: the mask).
     * @return the element's bits before the operation; the swap happened when the op's condition held for them.
     */
    public static long compare(
        final AtomicDatatype type,
        final AtomicOp op,
        final AtomicBuffer target,
        final int index,
        final long operand,
        final long compare)
    {
        return update(type, op, target, index, operand, compare);
    }

    private static long update(
        final AtomicDatatype type,
        final AtomicOp op,
        final AtomicBuffer target,
        final int index,
        final long operand,
        final long compare)
    {
        switch (type)
        {
            case INT8:
                return updateSubWord(op, target, index, Byte.BYTES, false, operand, compare);
            case UINT8:
                return updateSubWord(op, target, index, Byte.BYTES, true, operand, compare);
            case INT16:
                return updateSubWord(op, target, index, Short.BYTES, false, operand, compare);
            case UINT16:
                return updateSubWord(op, target, index, Short.BYTES, true, operand, compare);
            case INT32:
                return updateInt(op, target, index, operand, compare, false);
            case UINT32:
                return updateInt(op, target, index, operand, compare, true) & 0xFFFF_FFFFL;
            case INT64:
                return updateLong(op, target, index, operand, compare, false);
            case UINT64:
                return updateLong(op, target, index, operand, compare, true);
            case FLOAT:
                return updateFloat(op, target, index, (int)operand, (int)compare) & 0xFFFF_FFFFL;
            case DOUBLE:
                return updateDouble(op, target, index, operand, compare);
            case FLOAT_COMPLEX:
                return updateFloatComplex(op, target, index, operand, compare);
            default:
                return 0;
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Integers
    // ---------------------------------------------------------------------------------------------------------------

    private static long updateSubWord(
        final AtomicOp op,
        final AtomicBuffer target,
        final int index,
        final int size,
        final boolean unsigned,
        final long operand,
        final long compare)
    {
        final int inWord = (int)((target.addressOffset() + index) & 3);
        final int wordIndex = index - inWord;
        final int shift = (LITTLE_ENDIAN ? inWord : Integer.BYTES - size - inWord) * Byte.SIZE;
        final int mask = size == Byte.BYTES ? 0xFF : 0xFFFF;
        final long arg = extend(operand, size, unsigned);
        final long cmp = extend(compare, size, unsigned);
        int word = target.getIntVolatile(wordIndex);
        while (true)
        {
            final long old = extend(word >>> shift, size, unsigned);
            final int next = (int)nextInteger(op, old, arg, cmp, unsigned);
            final int newWord = (word & ~(mask << shift)) | ((next & mask) << shift);
            if (newWord == word)
            {
                return old;
            }
            if (BROKEN_SUBWORD_PLAIN_WRITE)
            {
                target.putIntVolatile(wordIndex, newWord);
                return old;
            }
            final int witness = target.compareAndExchangeInt(wordIndex, word, newWord);
            if (witness == word)
            {
                return old;
            }
            word = witness;
        }
    }

    private static int updateInt(
        final AtomicOp op,
        final AtomicBuffer target,
        final int index,
        final long operand,
        final long compare,
        final boolean unsigned)
    {
        if (op == AtomicOp.SUM)
        {
            return target.getAndAddInt(index, (int)operand);
        }
        if (op == AtomicOp.ATOMIC_WRITE)
        {
            return target.getAndSetInt(index, (int)operand);
        }
        final long arg = extend(operand, Integer.BYTES, unsigned);
        final long cmp = extend(compare, Integer.BYTES, unsigned);
        int value = target.getIntVolatile(index);
        while (true)
        {
            final int next = (int)nextInteger(op, extend(value, Integer.BYTES, unsigned), arg, cmp, unsigned);
            if (next == value)
            {
                return value;
            }
            final int witness = target.compareAndExchangeInt(index, value, next);
            if (witness == value)
            {
                return value;
            }
            value = witness;
        }
    }

    private static long updateLong(
        final AtomicOp op,
        final AtomicBuffer target,
        final int index,
        final long operand,
        final long compare,
        final boolean unsigned)
    {
        if (op == AtomicOp.SUM)
        {
            return target.getAndAddLong(index, operand);
        }
        if (op == AtomicOp.ATOMIC_WRITE)
        {
            return target.getAndSetLong(index, operand);
        }
        long value = target.getLongVolatile(index);
        while (true)
        {
            final long next = nextInteger(op, value, operand, compare, unsigned);
            if (next == value)
            {
                return value;
            }
            final long witness = target.compareAndExchangeLong(index, value, next);
            if (witness == value)
            {
                return value;
            }
            value = witness;
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

    private static long extend(final long bits, final int size, final boolean unsigned)
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

    // ---------------------------------------------------------------------------------------------------------------
    // Floating point
    // ---------------------------------------------------------------------------------------------------------------

    private static int updateFloat(
        final AtomicOp op, final AtomicBuffer target, final int index, final int operand, final int compare)
    {
        if (op == AtomicOp.ATOMIC_WRITE)
        {
            return target.getAndSetInt(index, operand);
        }
        int bits = target.getIntVolatile(index);
        while (true)
        {
            final int next = nextFloat(op, bits, operand, compare);
            if (next == bits)
            {
                return bits;
            }
            final int witness = target.compareAndExchangeInt(index, bits, next);
            if (witness == bits)
            {
                return bits;
            }
            bits = witness;
        }
    }

    private static int nextFloat(final AtomicOp op, final int oldBits, final int argBits, final int cmpBits)
    {
        final float old = Float.intBitsToFloat(oldBits);
        final float arg = Float.intBitsToFloat(argBits);
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
                return old != 0 || arg != 0 ? FLOAT_ONE : 0;
            case LAND:
                return old != 0 && arg != 0 ? FLOAT_ONE : 0;
            case LXOR:
                return (old != 0) != (arg != 0) ? FLOAT_ONE : 0;
            case ATOMIC_WRITE:
                return argBits;
            case ATOMIC_READ:
                return oldBits;
            default:
                return swapsFloat(op, oldBits, cmpBits) ? argBits : oldBits;
        }
    }

    /**
     * The condition of FI_CSWAP to FI_CSWAP_GT: bits for _EQ and _NE, IEEE values for the others; false for any
     * other op.
     */
    private static boolean swapsFloat(final AtomicOp op, final int oldBits, final int cmpBits)
    {
        final float old = Float.intBitsToFloat(oldBits);
        final float cmp = Float.intBitsToFloat(cmpBits);
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

    private static long updateDouble(
        final AtomicOp op, final AtomicBuffer target, final int index, final long operand, final long compare)
    {
        if (op == AtomicOp.ATOMIC_WRITE)
        {
            return target.getAndSetLong(index, operand);
        }
        long bits = target.getLongVolatile(index);
        while (true)
        {
            final long next = nextDouble(op, bits, operand, compare);
            if (next == bits)
            {
                return bits;
            }
            final long witness = target.compareAndExchangeLong(index, bits, next);
            if (witness == bits)
            {
                return bits;
            }
            bits = witness;
        }
    }

    private static long nextDouble(final AtomicOp op, final long oldBits, final long argBits, final long cmpBits)
    {
        final double old = Double.longBitsToDouble(oldBits);
        final double arg = Double.longBitsToDouble(argBits);
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
                return old != 0 || arg != 0 ? DOUBLE_ONE : 0;
            case LAND:
                return old != 0 && arg != 0 ? DOUBLE_ONE : 0;
            case LXOR:
                return (old != 0) != (arg != 0) ? DOUBLE_ONE : 0;
            case ATOMIC_WRITE:
                return argBits;
            case ATOMIC_READ:
                return oldBits;
            default:
                return swapsDouble(op, oldBits, cmpBits) ? argBits : oldBits;
        }
    }

    /**
     * The condition of FI_CSWAP to FI_CSWAP_GT: bits for _EQ and _NE, IEEE values for the others; false for any
     * other op.
     */
    private static boolean swapsDouble(final AtomicOp op, final long oldBits, final long cmpBits)
    {
        final double old = Double.longBitsToDouble(oldBits);
        final double cmp = Double.longBitsToDouble(cmpBits);
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

    private static long updateFloatComplex(
        final AtomicOp op, final AtomicBuffer target, final int index, final long operand, final long compare)
    {
        if (op == AtomicOp.ATOMIC_WRITE)
        {
            return target.getAndSetLong(index, operand);
        }
        long bits = target.getLongVolatile(index);
        while (true)
        {
            final long next = nextFloatComplex(op, bits, operand, compare);
            if (next == bits)
            {
                return bits;
            }
            final long witness = target.compareAndExchangeLong(index, bits, next);
            if (witness == bits)
            {
                return bits;
            }
            bits = witness;
        }
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
                return truth(isTrue(oldBits) || isTrue(argBits));
            case LAND:
                return truth(isTrue(oldBits) && isTrue(argBits));
            case LXOR:
                return truth(isTrue(oldBits) != isTrue(argBits));
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

    private static long truth(final boolean value)
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

    // ---------------------------------------------------------------------------------------------------------------
    // Buffers
    // ---------------------------------------------------------------------------------------------------------------

    private static void storeVolatile(final int size, final AtomicBuffer target, final int index, final long bits)
    {
        if (size == Long.BYTES)
        {
            target.putLongVolatile(index, bits);
        }
        else
        {
            target.putIntVolatile(index, (int)bits);
        }
    }

    private static boolean inside(final DirectBuffer buffer, final int index, final int count, final int size)
    {
        return buffer != null && index >= 0 && index + (long)count * size <= buffer.capacity();
    }

    private static long read(final DirectBuffer buffer, final int index, final int size)
    {
        switch (size)
        {
            case Byte.BYTES:
                return buffer.getByte(index);
            case Short.BYTES:
                return buffer.getShort(index);
            case Integer.BYTES:
                return buffer.getInt(index);
            default:
                return buffer.getLong(index);
        }
    }

    private static void write(final MutableDirectBuffer buffer, final int index, final int size, final long bits)
    {
        switch (size)
        {
            case Byte.BYTES:
                buffer.putByte(index, (byte)bits);
                break;
            case Short.BYTES:
                buffer.putShort(index, (short)bits);
                break;
            case Integer.BYTES:
                buffer.putInt(index, (int)bits);
                break;
            default:
                buffer.putLong(index, bits);
                break;
        }
    }
}
