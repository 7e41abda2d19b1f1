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
package io.jfabric.ofi.ep;

import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.Downcalls;

import java.lang.foreign.Linker;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.invoke.MethodHandle;

/**
 * The downcall handles of the endpoint's data path, by shape: {@code ssize_t fn(long x n)} for the msg, tagged and
 * RMA calls, whose every parameter is a pointer, a size or a 64-bit integer (all passed as {@code long},
 * {@link CTypes#PTR_ARG}); the atomic calls, which also take two enums; and the inject calls on heap memory, which
 * pass a heap segment through a critical handle that may access the Java heap (the callee copies before it
 * returns). Stateless.
 */
final class Calls
{
    static final MethodHandle L3 = longs(3);
    static final MethodHandle L4 = longs(4);
    static final MethodHandle L5 = longs(5);
    static final MethodHandle L6 = longs(6);
    static final MethodHandle L7 = longs(7);
    static final MethodHandle L8 = longs(8);
    static final MethodHandle L9 = longs(9);

    /** {@code fi_inject}: (fn, ep, heap buf, len, dest). */
    static final MethodHandle INJECT_HEAP = heap(CTypes.PTR_ARG, CTypes.PTR, CTypes.SIZE_T, CTypes.U64);
    /** {@code fi_injectdata}: (fn, ep, heap buf, len, data, dest). */
    static final MethodHandle INJECTDATA_HEAP = heap(CTypes.PTR_ARG, CTypes.PTR, CTypes.SIZE_T, CTypes.U64,
        CTypes.U64);
    /** {@code fi_tinject}: (fn, ep, heap buf, len, dest, tag). */
    static final MethodHandle TINJECT_HEAP = INJECTDATA_HEAP;
    /** {@code fi_tinjectdata}: (fn, ep, heap buf, len, data, dest, tag). */
    static final MethodHandle TINJECTDATA_HEAP = heap(CTypes.PTR_ARG, CTypes.PTR, CTypes.SIZE_T, CTypes.U64,
        CTypes.U64, CTypes.U64);

    private Calls()
    {
    }

    private static MethodHandle longs(final int n)
    {
        final MemoryLayout[] args = new MemoryLayout[n + 1];
        args[0] = CTypes.PTR;
        for (int i = 1; i <= n; i++)
        {
            args[i] = CTypes.PTR_ARG;
        }
        return Downcalls.quick(CTypes.SIZE_T, args);
    }

    private static MethodHandle heap(final MemoryLayout... args)
    {
        final MemoryLayout[] all = new MemoryLayout[args.length + 1];
        all[0] = CTypes.PTR;
        System.arraycopy(args, 0, all, 1, args.length);
        return Linker.nativeLinker().downcallHandle(
            FunctionDescriptor.of(CTypes.SIZE_T, Downcalls.parameters(all)), Linker.Option.critical(true));
    }
}
