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

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * C strings and C-heap memory: reading a NUL-terminated string at an address, and {@code malloc}/{@code free} for
 * memory libfabric frees itself ({@code fi_freeinfo} frees the names and addresses of an {@code fi_info}, so hints
 * must carry malloc'd copies, as C's {@code strdup} would give them). Control path. Stateless; any thread.
 */
public final class CStrings
{
    private static final MethodHandle MALLOC;
    private static final MethodHandle FREE;

    static
    {
        final Linker linker = Linker.nativeLinker();
        MALLOC = linker.downcallHandle(linker.defaultLookup().find("malloc").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, JAVA_LONG));
        FREE = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(),
            FunctionDescriptor.ofVoid(ADDRESS));
    }

    private CStrings()
    {
    }

    /**
     * @param pointer a C string, or NULL.
     * @return its text (UTF-8), or null for NULL.
     */
    public static String read(final MemorySegment pointer)
    {
        return pointer.equals(MemorySegment.NULL) ? null : read(pointer.address());
    }

    /**
     * @param address a C string's address, or 0.
     * @return its text (UTF-8), or null for 0.
     */
    public static String read(final long address)
    {
        if (address == 0)
        {
            return null;
        }
        return CTypes.ALL.getString(address, StandardCharsets.UTF_8);
    }

    /**
     * @param address where the bytes are, or 0.
     * @param length  how many.
     * @return a copy, or null when {@code address} is 0.
     */
    public static byte[] bytes(final long address, final long length)
    {
        if (address == 0)
        {
            return null;
        }
        return CTypes.ALL.asSlice(address, length).toArray(JAVA_BYTE);
    }

    /**
     * {@code strdup}: a malloc'd copy of a string, for a field libfabric will free.
     *
     * @param text the text, or null.
     * @return its address, or 0 for null.
     */
    public static long strdup(final String text)
    {
        if (text == null)
        {
            return 0;
        }
        final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        final long address = malloc(utf8.length + 1);
        MemorySegment.copy(utf8, 0, CTypes.ALL, JAVA_BYTE, address, utf8.length);
        CTypes.ALL.set(JAVA_BYTE, address + utf8.length, (byte)0);
        return address;
    }

    /**
     * @param bytes bytes, or null.
     * @return the address of a malloc'd copy, or 0 for null or empty.
     */
    public static long memdup(final byte[] bytes)
    {
        if (bytes == null || bytes.length == 0)
        {
            return 0;
        }
        final long address = malloc(bytes.length);
        MemorySegment.copy(bytes, 0, CTypes.ALL, JAVA_BYTE, address, bytes.length);
        return address;
    }

    /**
     * @param size bytes.
     * @return the address of C-heap memory.
     * @throws OutOfMemoryError when malloc fails.
     */
    public static long malloc(final long size)
    {
        final MemorySegment memory;
        try
        {
            memory = (MemorySegment)MALLOC.invokeExact(Math.max(1L, size));
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("malloc", t);
        }
        if (memory.equals(MemorySegment.NULL))
        {
            throw new OutOfMemoryError("malloc(" + size + ") failed");
        }
        return memory.address();
    }

    /**
     * @param address what malloc returned, or 0.
     */
    public static void free(final long address)
    {
        if (address == 0)
        {
            return;
        }
        try
        {
            FREE.invokeExact(MemorySegment.ofAddress(address));
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("free", t);
        }
    }
}
