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
package io.jfabric.shm.ep;

import io.jfabric.Ioc;
import io.jfabric.Msg;

import java.nio.ByteBuffer;

/**
 * The check every call that writes into the application's buffers makes before anything moves: an RMA read's
 * buffers (fi_read, fi_readv, fi_readmsg) and the result buffers of fetching and compare atomics, on both paths (the
 * one-sided copy writes them at the call, the emulated path when the answer comes). A read-only {@link ByteBuffer}
 * ({@link ByteBuffer#asReadOnlyBuffer()}, or a {@code READ_ONLY} file mapping, whose pages the JVM would fault on with
 * SIGSEGV) is refused with {@code -FI_EINVAL}, as a receive into one is.
 * <p>
 * Stateless; any thread; allocates nothing.
 */
final class DestinationBuffers
{
    private DestinationBuffers()
    {
    }

    /**
     * @param buf a destination buffer, or null (0 bytes).
     * @return whether it refuses writes.
     */
    static boolean readOnly(final ByteBuffer buf)
    {
        return buf != null && buf.isReadOnly();
    }

    /**
     * @param msg buffers whose entries a call writes into; its iov count checked by the caller.
     * @return whether any of its first {@code iovCount} buffers refuses writes.
     */
    static boolean anyReadOnly(final Msg msg)
    {
        for (int i = 0; i < msg.iovCount; i++)
        {
            if (readOnly(msg.iov[i]))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param ioc result buffers of an atomic, or null; its count checked by the caller.
     * @return whether any of its first {@code count} buffers refuses writes.
     */
    static boolean anyReadOnly(final Ioc ioc)
    {
        for (int i = 0; ioc != null && i < ioc.count; i++)
        {
            if (readOnly(ioc.buf[i]))
            {
                return true;
            }
        }
        return false;
    }
}
