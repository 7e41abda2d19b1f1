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

/**
 * Which atomic operations the shm provider performs, and how many elements one call may carry: the answers of
 * {@code fi_atomicvalid}, {@code fi_fetch_atomicvalid}, {@code fi_compare_atomicvalid} and {@code fi_query_atomic}
 * (fi_atomic(3)), and the check the atomic data path makes before it touches memory.
 * <p>
 * A (datatype, op) pair is supported for a {@link Kind} when all three hold:
 * <ol>
 *   <li>the call family takes the op, as fi_atomic(3) lists them: {@link Kind#WRITE} FI_MIN to FI_BXOR and
 *   FI_ATOMIC_WRITE; {@link Kind#FETCH} those and FI_ATOMIC_READ; {@link Kind#COMPARE} FI_CSWAP to FI_MSWAP;</li>
 *   <li>the op means something for the datatype, as libfabric's own atomics (prov/util) define it: the bitwise
 *   ops FI_BOR, FI_BAND, FI_BXOR and FI_MSWAP take integers only; the ordering ops FI_MIN, FI_MAX and FI_CSWAP_LE,
 *   _LT, _GE, _GT take integers and real floating types, not complex numbers (they have no order); FI_SUM,
 *   FI_PROD, FI_LOR, FI_LAND, FI_LXOR, FI_ATOMIC_READ, FI_ATOMIC_WRITE, FI_CSWAP and FI_CSWAP_NE take every
 *   type;</li>
 *   <li>{@link AtomicOps} implements the datatype with a hardware atomic: FI_INT8 to FI_UINT64, FI_FLOAT,
 *   FI_DOUBLE and FI_FLOAT_COMPLEX (8 bytes, one 64-bit compare-and-swap). Not FI_DOUBLE_COMPLEX, FI_INT128,
 *   FI_UINT128 (16-byte elements: Java offers no 128-bit compare-and-swap, and a lock would not be atomic with
 *   respect to another process that does not take it), nor FI_LONG_DOUBLE and FI_LONG_DOUBLE_COMPLEX (Java has
 *   no extended-precision arithmetic, and they are 16 and 32 bytes).</li>
 * </ol>
 * Anything else is {@link Errno#FI_EOPNOTSUPP}, as fi_atomic(3) says.
 * <p>
 * Count: a call may carry {@link #OPERAND_BYTES} / size elements for WRITE and FETCH, and
 * {@link #COMPARE_OPERAND_BYTES} / size for COMPARE (operands and compare values together fill
 * {@link #OPERAND_BYTES}). A fixed limit, not max_msg_size (1 GiB by default) / size: the operands of one call must
 * be held, and the fetched values returned, in bounded space when the target's progress applies them (a lane
 * record, a transmit-context ring record), and one call should not hold the target's progress for long, since every
 * element is its own atomic operation. Atomicity is per element (fi_atomic(3)), so an endpoint whose lane records
 * are smaller may split a call into pieces without changing what it means. libfabric's own shm provider answers the
 * same way (its inject size, 4096 bytes, over the datatype size; half for compare).
 * <p>
 * Stateless and allocation-free except {@link #require} on failure; any thread.
 */
public final class AtomicSupport
{
    /**
     * fi_query_atomic flag FI_FETCH_ATOMIC (rdma/fi_atomic.h, bit 58): answer for the fetch calls. Here until
     * {@code io.jfabric.Flags} carries it.
     */
    public static final long FI_FETCH_ATOMIC = io.jfabric.Flags.FI_FETCH_ATOMIC;

    /**
     * fi_query_atomic flag FI_COMPARE_ATOMIC (rdma/fi_atomic.h, bit 59): answer for the compare calls. Here until
     * {@code io.jfabric.Flags} carries it.
     */
    public static final long FI_COMPARE_ATOMIC = io.jfabric.Flags.FI_COMPARE_ATOMIC;

    /** Operand bytes one base or fetch call may carry (and fetched bytes it may return). */
    public static final int OPERAND_BYTES = 4096;

    /** Operand bytes one compare call may carry; as many again of compare values. */
    public static final int COMPARE_OPERAND_BYTES = OPERAND_BYTES / 2;

    /**
     * The three call families of fi_atomic(3), each with its valid call and its fi_query_atomic flag.
     */
    public enum Kind
    {
        /** fi_atomic, fi_atomicv, fi_atomicmsg, fi_inject_atomic; fi_atomicvalid; flags 0. */
        WRITE("fi_atomic", 0),
        /** fi_fetch_atomic and its forms; fi_fetch_atomicvalid; FI_FETCH_ATOMIC. */
        FETCH("fi_fetch_atomic", FI_FETCH_ATOMIC),
        /** fi_compare_atomic and its forms; fi_compare_atomicvalid; FI_COMPARE_ATOMIC. */
        COMPARE("fi_compare_atomic", FI_COMPARE_ATOMIC);

        private final String call;
        private final long queryFlag;

        Kind(final String call, final long queryFlag)
        {
            this.call = call;
            this.queryFlag = queryFlag;
        }

        /**
         * @return the libfabric call, such as {@code "fi_fetch_atomic"}, for messages.
         */
        public String call()
        {
            return call;
        }

        /**
         * @return the fi_query_atomic flag that asks about this family (0 for {@link #WRITE}).
         */
        public long queryFlag()
        {
            return queryFlag;
        }
    }

    private static final Kind[] KINDS = Kind.values();
    private static final AtomicOp[] OPS = AtomicOp.values();
    private static final AtomicDatatype[] TYPES = AtomicDatatype.values();

    /** [kind][op][datatype], by ordinal (ordinals are libfabric's numbers for op and datatype). */
    private static final boolean[][][] SUPPORTED = new boolean[KINDS.length][OPS.length][TYPES.length];

    static
    {
        for (final Kind kind : KINDS)
        {
            for (final AtomicOp op : OPS)
            {
                for (final AtomicDatatype type : TYPES)
                {
                    SUPPORTED[kind.ordinal()][op.ordinal()][type.ordinal()] = reason(kind, type, op) == null;
                }
            }
        }
    }

    private AtomicSupport()
    {
    }

    /**
     * The data path's check: a table look-up.
     *
     * @param kind the call family.
     * @param type the datatype.
     * @param op   the operation.
     * @return true when shm performs it.
     */
    public static boolean isSupported(final Kind kind, final AtomicDatatype type, final AtomicOp op)
    {
        return SUPPORTED[kind.ordinal()][op.ordinal()][type.ordinal()];
    }

    /**
     * The valid calls ({@code fi_atomicvalid}, {@code fi_fetch_atomicvalid}, {@code fi_compare_atomicvalid}).
     *
     * @param kind the call family.
     * @param type the datatype.
     * @param op   the operation.
     * @return how many elements one call may carry (at least 1), or {@code -FI_EOPNOTSUPP}.
     */
    public static int count(final Kind kind, final AtomicDatatype type, final AtomicOp op)
    {
        if (!isSupported(kind, type, op))
        {
            return -Errno.FI_EOPNOTSUPP;
        }
        return (kind == Kind.COMPARE ? COMPARE_OPERAND_BYTES : OPERAND_BYTES) / type.size();
    }

    /**
     * {@code fi_query_atomic(domain, datatype, op, &attr, flags)} with libfabric's numbers, as a C caller or a
     * record from another process has them. {@code attr.size} is {@link AtomicDatatype#size()}.
     *
     * @param datatype {@code enum fi_datatype} number.
     * @param op       {@code enum fi_op} number.
     * @param flags    0, {@link #FI_FETCH_ATOMIC} or {@link #FI_COMPARE_ATOMIC}, optionally with FI_TAGGED.
     * @return {@code attr.count} (at least 1); {@code -FI_EBADFLAGS} for a flag fi_query_atomic does not define or
     *         both FI_FETCH_ATOMIC and FI_COMPARE_ATOMIC; {@code -FI_EOPNOTSUPP} with FI_TAGGED (shm has no atomics
     *         to tagged receive buffers), for a number that is no point-to-point datatype or op, or an unsupported
     *         pair.
     */
    public static int query(final int datatype, final int op, final long flags)
    {
        if ((flags & ~(FI_FETCH_ATOMIC | FI_COMPARE_ATOMIC | Flags.FI_TAGGED)) != 0 ||
            (flags & (FI_FETCH_ATOMIC | FI_COMPARE_ATOMIC)) == (FI_FETCH_ATOMIC | FI_COMPARE_ATOMIC))
        {
            return -Errno.FI_EBADFLAGS;
        }
        final AtomicDatatype type = AtomicDatatype.of(datatype);
        final AtomicOp atomicOp = AtomicOp.of(op);
        if ((flags & Flags.FI_TAGGED) != 0 || type == null || atomicOp == null)
        {
            return -Errno.FI_EOPNOTSUPP;
        }
        return count(kindOf(flags), type, atomicOp);
    }

    /**
     * The data path's whole check of one call's shape, before any memory is touched.
     *
     * @param kind  the call family.
     * @param type  the datatype.
     * @param op    the operation.
     * @param count elements the call carries.
     * @return 0; {@code -FI_EOPNOTSUPP} for an unsupported pair; {@code -FI_EINVAL} when count is below 1;
     *         {@code -FI_EMSGSIZE} when it is above {@link #count}, as fi_atomic(3) says.
     */
    public static int check(final Kind kind, final AtomicDatatype type, final AtomicOp op, final int count)
    {
        final int max = count(kind, type, op);
        if (max < 0)
        {
            return max;
        }
        if (count < 1)
        {
            return -Errno.FI_EINVAL;
        }
        return count > max ? -Errno.FI_EMSGSIZE : 0;
    }

    /**
     * For the control path: fail with a message that says why a pair is not supported.
     *
     * @param kind the call family.
     * @param type the datatype.
     * @param op   the operation.
     * @return the count, as {@link #count} gives it, when supported.
     * @throws FabricException FI_EOPNOTSUPP, naming the call, the op, the datatype and the reason.
     */
    public static int require(final Kind kind, final AtomicDatatype type, final AtomicOp op)
    {
        final String reason = reason(kind, type, op);
        if (reason != null)
        {
            throw new FabricException(Errno.FI_EOPNOTSUPP,
                kind.call() + " " + op.cName() + " on " + type.cName() + ": " + reason);
        }
        return count(kind, type, op);
    }

    /**
     * @param kind the call family.
     * @param type the datatype.
     * @param op   the operation.
     * @return why shm does not perform it, or null when it does.
     */
    public static String reason(final Kind kind, final AtomicDatatype type, final AtomicOp op)
    {
        if (!takes(kind, op))
        {
            return kind.call() + " takes " + opsOf(kind) + ", not " + op.cName();
        }
        if (isBitwise(op) && !type.isInteger())
        {
            return op.cName() + " is a bitwise operation, defined for integer datatypes only";
        }
        if (isOrdering(op) && type.isComplex())
        {
            return op.cName() + " orders values, and complex numbers have no order";
        }
        return implemented(type) ? null : unimplemented(type);
    }

    /**
     * @param flags fi_query_atomic flags, already checked.
     * @return the call family they ask about.
     */
    public static Kind kindOf(final long flags)
    {
        return (flags & FI_FETCH_ATOMIC) != 0 ? Kind.FETCH :
            (flags & FI_COMPARE_ATOMIC) != 0 ? Kind.COMPARE : Kind.WRITE;
    }

    private static boolean takes(final Kind kind, final AtomicOp op)
    {
        switch (kind)
        {
            case WRITE:
                return !op.isCompare() && op != AtomicOp.ATOMIC_READ;
            case FETCH:
                return !op.isCompare();
            default:
                return op.isCompare();
        }
    }

    private static String opsOf(final Kind kind)
    {
        switch (kind)
        {
            case WRITE:
                return "FI_MIN to FI_BXOR and FI_ATOMIC_WRITE";
            case FETCH:
                return "FI_MIN to FI_BXOR, FI_ATOMIC_READ and FI_ATOMIC_WRITE";
            default:
                return "FI_CSWAP to FI_MSWAP";
        }
    }

    private static boolean implemented(final AtomicDatatype type)
    {
        return type.isInteger() && type.size() <= 8 || type == AtomicDatatype.FLOAT ||
            type == AtomicDatatype.DOUBLE || type == AtomicDatatype.FLOAT_COMPLEX;
    }

    private static String unimplemented(final AtomicDatatype type)
    {
        switch (type)
        {
            case LONG_DOUBLE:
            case LONG_DOUBLE_COMPLEX:
                return "Java has no extended-precision arithmetic, and " + type.size() +
                    "-byte elements would need a wider compare-and-swap than Java offers";
            default:
                return type.size() + "-byte elements need a 128-bit compare-and-swap, which Java does not offer " +
                    "(a lock would not be atomic with respect to other processes)";
        }
    }

    private static boolean isBitwise(final AtomicOp op)
    {
        return op == AtomicOp.BOR || op == AtomicOp.BAND || op == AtomicOp.BXOR || op == AtomicOp.MSWAP;
    }

    private static boolean isOrdering(final AtomicOp op)
    {
        return op == AtomicOp.MIN || op == AtomicOp.MAX || op == AtomicOp.CSWAP_LE || op == AtomicOp.CSWAP_LT ||
            op == AtomicOp.CSWAP_GE || op == AtomicOp.CSWAP_GT;
    }
}
