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
 * Datatypes of fi_atomic(3) ({@code enum fi_datatype} of rdma/fi_domain.h): what one element of an atomic
 * operation is, with libfabric's number and the element's size in bytes.
 * <p>
 * Holds the point-to-point atomic datatypes, FI_INT8 to FI_LONG_DOUBLE_COMPLEX (0 to 13), and the 128-bit integers
 * libfabric appended after them (FI_INT128 = 14, FI_UINT128 = 15). The collective-only FI_VOID (256) is not one:
 * no atomic call takes it. Sizes are those of the C types on the LP64 platforms Java runs on: FI_LONG_DOUBLE is
 * the x86-64 {@code long double}, 16 bytes of storage (fi_query_atomic reports the size for that reason).
 * <p>
 * Immutable; any thread.
 */
public enum AtomicDatatype
{
    /** FI_INT8: signed 8-bit integer. */
    INT8(0, 1),
    /** FI_UINT8: unsigned 8-bit integer. */
    UINT8(1, 1),
    /** FI_INT16: signed 16-bit integer. */
    INT16(2, 2),
    /** FI_UINT16: unsigned 16-bit integer. */
    UINT16(3, 2),
    /** FI_INT32: signed 32-bit integer. */
    INT32(4, 4),
    /** FI_UINT32: unsigned 32-bit integer. */
    UINT32(5, 4),
    /** FI_INT64: signed 64-bit integer. */
    INT64(6, 8),
    /** FI_UINT64: unsigned 64-bit integer. */
    UINT64(7, 8),
    /** FI_FLOAT: IEEE 754 single precision. */
    FLOAT(8, 4),
    /** FI_DOUBLE: IEEE 754 double precision. */
    DOUBLE(9, 8),
    /** FI_FLOAT_COMPLEX: real then imaginary part, each an IEEE 754 single. */
    FLOAT_COMPLEX(10, 8),
    /** FI_DOUBLE_COMPLEX: real then imaginary part, each an IEEE 754 double. */
    DOUBLE_COMPLEX(11, 16),
    /** FI_LONG_DOUBLE: the platform's double-extended precision (x86-64: 80 bits in 16 bytes). */
    LONG_DOUBLE(12, 16),
    /** FI_LONG_DOUBLE_COMPLEX: real then imaginary part, each a long double. */
    LONG_DOUBLE_COMPLEX(13, 32),
    /** FI_INT128: signed 128-bit integer. */
    INT128(14, 16),
    /** FI_UINT128: unsigned 128-bit integer. */
    UINT128(15, 16);

    private static final AtomicDatatype[] VALUES = values();

    private final int value;
    private final int size;

    AtomicDatatype(final int value, final int size)
    {
        this.value = value;
        this.size = size;
    }

    /**
     * @return libfabric's numeric value.
     */
    public int value()
    {
        return value;
    }

    /**
     * @return libfabric's symbolic name, such as {@code "FI_INT8"}.
     */
    public String cName()
    {
        return "FI_" + name();
    }

    /**
     * @return bytes of one element ({@code fi_atomic_attr.size}).
     */
    public int size()
    {
        return size;
    }

    /**
     * @return true for the signed and unsigned integer types, 8 to 128 bits.
     */
    public boolean isInteger()
    {
        return value <= UINT64.value || this == INT128 || this == UINT128;
    }

    /**
     * @return true for the unsigned integer types.
     */
    public boolean isUnsigned()
    {
        return this == UINT8 || this == UINT16 || this == UINT32 || this == UINT64 || this == UINT128;
    }

    /**
     * @return true for the three complex types.
     */
    public boolean isComplex()
    {
        return this == FLOAT_COMPLEX || this == DOUBLE_COMPLEX || this == LONG_DOUBLE_COMPLEX;
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value. Allocation-free; any thread.
     */
    public static AtomicDatatype of(final int value)
    {
        return value >= 0 && value < VALUES.length ? VALUES[value] : null;
    }
}
