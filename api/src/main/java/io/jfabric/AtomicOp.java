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
package io.jfabric;

/**
 * Operations of fi_atomic(3) ({@code enum fi_op} of rdma/fi_domain.h), with libfabric's numbers.
 * <p>
 * Which call family takes which operation, as fi_atomic(3) lists them: the base calls (fi_atomic) MIN to BXOR and
 * ATOMIC_WRITE; the fetch calls (fi_fetch_atomic) those and ATOMIC_READ; the compare calls (fi_compare_atomic)
 * CSWAP to MSWAP. The collective-only FI_NOOP (256) is not one of them.
 * <p>
 * Immutable; any thread.
 */
public enum AtomicOp
{
    /** FI_MIN: {@code if (buf < addr) addr = buf}. */
    MIN(0),
    /** FI_MAX: {@code if (buf > addr) addr = buf}. */
    MAX(1),
    /** FI_SUM: {@code addr = addr + buf}. */
    SUM(2),
    /** FI_PROD: {@code addr = addr * buf}. */
    PROD(3),
    /** FI_LOR: {@code addr = addr || buf}. */
    LOR(4),
    /** FI_LAND: {@code addr = addr && buf}. */
    LAND(5),
    /** FI_BOR: {@code addr = addr | buf}. */
    BOR(6),
    /** FI_BAND: {@code addr = addr & buf}. */
    BAND(7),
    /** FI_LXOR: {@code addr = (addr && !buf) || (!addr && buf)}. */
    LXOR(8),
    /** FI_BXOR: {@code addr = addr ^ buf}. */
    BXOR(9),
    /** FI_ATOMIC_READ: {@code result = addr}. */
    ATOMIC_READ(10),
    /** FI_ATOMIC_WRITE: {@code addr = buf}. */
    ATOMIC_WRITE(11),
    /** FI_CSWAP: {@code if (compare == addr) addr = buf}. */
    CSWAP(12),
    /** FI_CSWAP_NE: {@code if (compare != addr) addr = buf}. */
    CSWAP_NE(13),
    /** FI_CSWAP_LE: {@code if (compare <= addr) addr = buf}. */
    CSWAP_LE(14),
    /** FI_CSWAP_LT: {@code if (compare < addr) addr = buf}. */
    CSWAP_LT(15),
    /** FI_CSWAP_GE: {@code if (compare >= addr) addr = buf}. */
    CSWAP_GE(16),
    /** FI_CSWAP_GT: {@code if (compare > addr) addr = buf}. */
    CSWAP_GT(17),
    /** FI_MSWAP: {@code addr = (buf & compare) | (addr & ~compare)}. */
    MSWAP(18);

    private static final AtomicOp[] VALUES = values();

    private final int value;

    AtomicOp(final int value)
    {
        this.value = value;
    }

    /**
     * @return libfabric's numeric value.
     */
    public int value()
    {
        return value;
    }

    /**
     * @return libfabric's symbolic name, such as {@code "FI_MIN"}.
     */
    public String cName()
    {
        return "FI_" + name();
    }

    /**
     * @return true for the operations of the compare calls, FI_CSWAP to FI_MSWAP.
     */
    public boolean isCompare()
    {
        return value >= CSWAP.value;
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value. Allocation-free; any thread.
     */
    public static AtomicOp of(final int value)
    {
        return value >= 0 && value < VALUES.length ? VALUES[value] : null;
    }
}
