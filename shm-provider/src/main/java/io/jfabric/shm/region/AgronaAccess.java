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
package io.jfabric.shm.region;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import org.agrona.BufferUtil;

/**
 * Whether this JVM lets Agrona 2.x reach {@code jdk.internal.misc.Unsafe}, which every buffer over a shared file
 * needs (the JVM flag {@value #JVM_FLAG}). Checked before any file is created or mapped, so a JVM started without
 * the flag fails with one error that names it, instead of an {@link ExceptionInInitializerError} from inside Agrona
 * half-way through a creation (which used to leave the temporary file behind: the cleanup called Agrona too).
 * <p>
 * The check asks the module system, without initialising any Agrona class: is {@code jdk.internal.misc} of
 * {@code java.base} exported to the module Agrona is in (the unnamed module on the class path, {@code org.agrona}
 * on the module path).
 * <p>
 * Stateless; any thread.
 */
public final class AgronaAccess
{
    /** The flag every JVM that loads jfabric with Agrona on the class path needs. */
    public static final String JVM_FLAG = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED";

    private static final boolean EXPORTED =
        Object.class.getModule().isExported("jdk.internal.misc", BufferUtil.class.getModule());

    private AgronaAccess()
    {
    }

    /**
     * @throws FabricException {@link Errno#FI_ENOSYS} naming the missing flag when Agrona cannot work in this JVM.
     */
    public static void check()
    {
        if (!EXPORTED)
        {
            throw new FabricException(Errno.FI_ENOSYS, "shm: this JVM was started without " + JVM_FLAG +
                " (with Agrona on the module path: =org.agrona), which Agrona 2.x needs to reach " +
                "jdk.internal.misc.Unsafe for the shared memory buffers; add it to the java command line " +
                "(bin/jfabric and the build pass it). Nothing was created");
        }
    }
}
