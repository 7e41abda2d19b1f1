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
import java.lang.foreign.MemoryLayout;
import java.lang.invoke.MethodHandle;

/**
 * Address-less downcall handles: the function to call is the first argument ({@code MemorySegment}), so one handle
 * per C signature serves every provider's implementation of an ops-table function. The objects keep their handles
 * in {@code static final} fields, which the JIT treats as constants.
 * <p>
 * {@link #quick} handles use {@code Linker.Option.critical(false)}: no thread-state transition around the call, a
 * few nanoseconds less per call. Only for calls that neither block nor call back into Java (posting an operation,
 * reading a CQ or counter without waiting); a blocking call ({@code fi_cq_sread}, {@code fi_cntr_wait},
 * {@code fi_eq_sread}) would hold up every safepoint for its whole wait, so those take {@link #blocking} handles.
 * Stateless; any thread.
 */
public final class Downcalls
{
    private static final Linker LINKER = Linker.nativeLinker();

    private Downcalls()
    {
    }

    /**
     * @param result the C return type.
     * @param args   {@link CTypes#PTR} for the function, then the C parameter types.
     * @return a handle for non-blocking calls, its first parameter the function.
     */
    public static MethodHandle quick(final MemoryLayout result, final MemoryLayout... args)
    {
        return LINKER.downcallHandle(FunctionDescriptor.of(result, parameters(args)), Linker.Option.critical(false));
    }

    /**
     * @param result the C return type, or null for void.
     * @param args   the C parameter types.
     * @return a handle for calls that may block or take long (control path), its first parameter the function.
     */
    public static MethodHandle blocking(final MemoryLayout result, final MemoryLayout... args)
    {
        return LINKER.downcallHandle(result == null ? FunctionDescriptor.ofVoid(parameters(args)) :
            FunctionDescriptor.of(result, parameters(args)));
    }

    /**
     * @param args the function ({@link CTypes#PTR}, listed first for readability, as the handle takes it first),
     *             then the C parameters.
     * @return the C parameters alone: an address-less handle adds the function parameter itself.
     */
    public static MemoryLayout[] parameters(final MemoryLayout... args)
    {
        if (args.length == 0 || args[0] != CTypes.PTR)
        {
            throw new IllegalArgumentException("the first layout stands for the function: CTypes.PTR");
        }
        return java.util.Arrays.copyOfRange(args, 1, args.length);
    }
}
