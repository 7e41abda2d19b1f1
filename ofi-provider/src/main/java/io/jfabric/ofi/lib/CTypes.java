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
package io.jfabric.ofi.lib;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C types of libfabric's headers as FFM layouts, for the LP64 ABIs the FFM linker serves (x86-64, AArch64,
 * ppc64le, RISC-V 64, s390x): {@code size_t}, {@code uint64_t} and pointers are 8 bytes, {@code int}, enums and
 * {@code uint32_t} 4. Struct layouts are written member by member from the headers with their padding spelled out
 * ({@link #pad}); LayoutOffsetsTest compares every size and offset with what gcc's {@code offsetof} says.
 * <p>
 * On the data path a pointer argument is passed as a {@code long} ({@link #PTR_ARG}): on those ABIs a pointer and a
 * 64-bit integer travel in the same register, and a {@code long} needs no {@link MemorySegment} object per call.
 * <p>
 * Also {@link #ALL}, a segment over the whole address space, for reading structs at addresses libfabric hands out
 * (ops tables, {@code fid_mr}, error data): the reads are those C would do, at addresses libfabric owns.
 * Stateless; any thread.
 */
public final class CTypes
{
    /** {@code uint64_t}. */
    public static final ValueLayout.OfLong U64 = JAVA_LONG;
    /** {@code size_t}. */
    public static final ValueLayout.OfLong SIZE_T = JAVA_LONG;
    /** {@code int}, enums, {@code uint32_t}. */
    public static final ValueLayout.OfInt INT = JAVA_INT;
    /** A pointer member or return value. */
    public static final AddressLayout PTR = ADDRESS;
    /** A pointer argument passed as its address (see the class comment). */
    public static final ValueLayout.OfLong PTR_ARG = JAVA_LONG;
    /** Bytes of a pointer. */
    public static final long POINTER_SIZE = ADDRESS.byteSize();

    /** Every address, for reads at addresses libfabric returned. */
    public static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private CTypes()
    {
    }

    /**
     * @param name the C struct's name, without {@code struct}.
     * @param members its members in order, padding included.
     * @return the layout, named as the C struct.
     */
    public static StructLayout struct(final String name, final MemoryLayout... members)
    {
        return MemoryLayout.structLayout(members).withName(name);
    }

    /** @return a {@code uint64_t} member. */
    public static MemoryLayout u64(final String name)
    {
        return U64.withName(name);
    }

    /** @return a {@code size_t} member. */
    public static MemoryLayout size(final String name)
    {
        return SIZE_T.withName(name);
    }

    /** @return an {@code int}, enum or {@code uint32_t} member. */
    public static MemoryLayout i32(final String name)
    {
        return INT.withName(name);
    }

    /** @return a pointer member (data or function). */
    public static MemoryLayout ptr(final String name)
    {
        return PTR.withName(name);
    }

    /** @return padding the C compiler inserts. */
    public static MemoryLayout pad(final long bytes)
    {
        return MemoryLayout.paddingLayout(bytes);
    }

    /**
     * @param layout a struct layout.
     * @param member a member's name.
     * @return its byte offset.
     */
    public static long offset(final StructLayout layout, final String member)
    {
        return layout.byteOffset(MemoryLayout.PathElement.groupElement(member));
    }

    /**
     * @param address a pointer.
     * @return the pointer stored there.
     */
    public static long readPointer(final long address)
    {
        return ALL.get(JAVA_LONG, address);
    }
}
