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
        if (op == AtomicOp.ATOMIC_WRITE && type.size() >= Integer.BYTES)
        {
            storeVolatile(type.size(), target, index, operand);
            return;
        }
        update(type, op, target, index, operand, 0);
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

    /**
     * One element, by the table: the datatype's size picks the loop ({@link #updateSubWord} on the containing 32-bit
     * word, or {@link #updateInt} / {@link #updateLong} on the element itself), its arithmetic
     * ({@link AtomicArithmetic#of}) what the loop computes ({@link AtomicArithmetic#next}). A 16- or 32-byte type
     * (never supported) is left as it is.
     *
     * @return the element's bits before, sign-extended for the signed integer types and zero-extended otherwise.
     */
    private static long update(
        final AtomicDatatype type,
        final AtomicOp op,
        final AtomicBuffer target,
        final int index,
        final long operand,
        final long compare)
    {
        final int arithmetic = AtomicArithmetic.of(type);
        final int size = type.size();
        switch (size)
        {
            case Long.BYTES:
                return updateLong(arithmetic, op, target, index, operand, compare);
            case Integer.BYTES:
                final int old = updateInt(arithmetic, op, target, index, (int)operand, (int)compare);
                return arithmetic == AtomicArithmetic.SIGNED ? old : old & 0xFFFF_FFFFL;
            case Short.BYTES: // the size a constant in each case, so that the inlined loop folds it
                return AtomicArithmetic.extend(updateSubWord(arithmetic, Short.BYTES, op, target, index, operand,
                    compare), Short.BYTES, arithmetic != AtomicArithmetic.SIGNED);
            case Byte.BYTES:
                return AtomicArithmetic.extend(updateSubWord(arithmetic, Byte.BYTES, op, target, index, operand,
                    compare), Byte.BYTES, arithmetic != AtomicArithmetic.SIGNED);
            default:
                return 0;
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The loops: one per width of the word swapped
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * An 8- or 16-bit element: a compare-and-swap loop on its aligned 32-bit word (see the class description).
     *
     * @return the element's raw bits before.
     */
    private static long updateSubWord(
        final int arithmetic,
        final int size,
        final AtomicOp op,
        final AtomicBuffer target,
        final int index,
        final long operand,
        final long compare)
    {
        final int inWord = (int)((target.addressOffset() + index) & 3);
        final int wordIndex = index - inWord;
        final int shift = (LITTLE_ENDIAN ? inWord : Integer.BYTES - size - inWord) * Byte.SIZE;
        final int mask = size == Byte.BYTES ? 0xFF : 0xFFFF;
        final long arg = AtomicArithmetic.operand(arithmetic, size, operand);
        final long cmp = AtomicArithmetic.operand(arithmetic, size, compare);
        int word = target.getIntVolatile(wordIndex);
        while (true)
        {
            final int old = (word >>> shift) & mask;
            final int next = (int)AtomicArithmetic.next(arithmetic, size, op, old, arg, cmp);
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

    /**
     * A 32-bit element: {@code getAndAdd} for an integer FI_SUM, {@code getAndSet} for FI_ATOMIC_WRITE, else a
     * compare-and-swap loop.
     *
     * @return the element's bits before.
     */
    private static int updateInt(
        final int arithmetic,
        final AtomicOp op,
        final AtomicBuffer target,
        final int index,
        final int operand,
        final int compare)
    {
        if (op == AtomicOp.SUM && AtomicArithmetic.isInteger(arithmetic))
        {
            return target.getAndAddInt(index, operand);
        }
        if (op == AtomicOp.ATOMIC_WRITE)
        {
            return target.getAndSetInt(index, operand);
        }
        final long arg = AtomicArithmetic.operand(arithmetic, Integer.BYTES, operand);
        final long cmp = AtomicArithmetic.operand(arithmetic, Integer.BYTES, compare);
        int value = target.getIntVolatile(index);
        while (true)
        {
            final int next = (int)AtomicArithmetic.next(arithmetic, Integer.BYTES, op, value, arg, cmp);
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

    /**
     * A 64-bit element: {@code getAndAdd} for an integer FI_SUM (fetch-and-add, the common case, tested first: with
     * the FI_ATOMIC_WRITE test first the array level's fetch-add measured 4-5 ns slower), {@code getAndSet} for
     * FI_ATOMIC_WRITE, else a compare-and-swap loop.
     *
     * @return the element's bits before.
     */
    private static long updateLong(
        final int arithmetic,
        final AtomicOp op,
        final AtomicBuffer target,
        final int index,
        final long operand,
        final long compare)
    {
        if (op == AtomicOp.SUM && AtomicArithmetic.isInteger(arithmetic))
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
            // 64-bit operands need no preparation (AtomicArithmetic.operand is the identity at this size).
            final long next = AtomicArithmetic.next(arithmetic, Long.BYTES, op, value, operand, compare);
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
