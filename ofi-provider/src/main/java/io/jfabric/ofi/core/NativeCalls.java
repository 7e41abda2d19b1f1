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
package io.jfabric.ofi.core;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.ofi.lib.CStrings;
import io.jfabric.ofi.lib.Libfabric;

import java.lang.foreign.MemorySegment;

/**
 * Turning a native control-path result into Java's: a negative return becomes a {@link FabricException} carrying
 * the errno and a message naming the call, what was asked and libfabric's own text for the code. Stateless; any
 * thread.
 */
public final class NativeCalls
{
    private NativeCalls()
    {
    }

    /**
     * @param rc   a native return value.
     * @param call what was called and with which values, such as {@code "fi_endpoint(tcp;ofi_rxm)"}.
     * @return {@code rc} when it is not negative.
     * @throws FabricException with {@code -rc} when it is.
     */
    public static long check(final long rc, final String call)
    {
        if (rc < 0)
        {
            throw failure((int)-rc, call);
        }
        return rc;
    }

    /**
     * @param errno a positive libfabric errno.
     * @param call  what was called.
     * @return the exception to throw.
     */
    public static FabricException failure(final int errno, final String call)
    {
        return new FabricException(errno, call + ": " + strerror(errno) + " (-" + errno + " " +
            Errno.name(errno) + ")");
    }

    /**
     * @param errno a libfabric errno (sign ignored).
     * @return libfabric's {@code fi_strerror} text.
     */
    public static String strerror(final int errno)
    {
        try
        {
            final MemorySegment text = (MemorySegment)Libfabric.get().strerror.invokeExact(Math.abs(errno));
            return CStrings.read(text);
        }
        catch (final Throwable t)
        {
            return Errno.strerror(errno);
        }
    }

    /**
     * @param t a Throwable from invokeExact of a downcall: a programming error, never a native result.
     * @return it, as an unchecked exception.
     */
    public static RuntimeException rethrow(final Throwable t)
    {
        if (t instanceof RuntimeException ex)
        {
            return ex;
        }
        if (t instanceof Error err)
        {
            throw err;
        }
        return new IllegalStateException(t);
    }
}
