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

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.RxAttr;
import io.jfabric.TxAttr;
import io.jfabric.shm.core.ShmCapabilities;

/**
 * The attributes in force of a shared transmit or receive context (fi_endpoint(3): {@code fi_stx_context},
 * {@code fi_srx_context}): the domain's defaults, narrowed by what the application asked for, which must be a
 * subset of what shm offers; the values in force are written back into the application's attributes.
 * <p>
 * Stateless; control path, any thread.
 */
public final class SharedContextAttrs
{
    private SharedContextAttrs()
    {
    }

    /**
     * @param call     the call, for the message.
     * @param defaults the domain's transmit attributes.
     * @param asked    the application's, or null.
     * @return the attributes in force (also written into {@code asked}).
     */
    public static TxAttr transmit(final String call, final TxAttr defaults, final TxAttr asked)
    {
        final TxAttr inForce = defaults.copy();
        // a primary capability without its modifiers implies them (fi_getinfo(3)): a shared transmit context sends
        inForce.caps(narrow(call, "caps", inForce.caps() | Flags.FI_SEND, ShmCapabilities.TX_CAPS,
            asked == null ? 0 : asked.caps()) | Flags.FI_SEND);
        if (asked != null)
        {
            inForce.opFlags(narrow(call, "op_flags", inForce.opFlags(), ShmCapabilities.TX_OP_FLAGS, asked.opFlags()));
            if (asked.size() != 0)
            {
                inForce.size(Math.min(asked.size(), inForce.size()));
            }
            asked.caps(inForce.caps()).opFlags(inForce.opFlags()).size(inForce.size()).iovLimit(inForce.iovLimit())
                .injectSize(inForce.injectSize());
        }
        return inForce;
    }

    /**
     * @param call     the call, for the message.
     * @param defaults the domain's receive attributes.
     * @param asked    the application's, or null.
     * @return the attributes in force (also written into {@code asked}).
     */
    public static RxAttr receive(final String call, final RxAttr defaults, final RxAttr asked)
    {
        final RxAttr inForce = defaults.copy();
        // as for transmit: a shared receive context receives, and only receives, whatever modifiers were given
        inForce.caps((narrow(call, "caps", inForce.caps() | Flags.FI_RECV, ShmCapabilities.RX_CAPS,
            asked == null ? 0 : asked.caps()) | Flags.FI_RECV) & ~Flags.FI_SEND);
        if (asked != null)
        {
            inForce.opFlags(narrow(call, "op_flags", inForce.opFlags(), ShmCapabilities.RX_OP_FLAGS, asked.opFlags()));
            if (asked.size() != 0)
            {
                inForce.size(Math.min(asked.size(), inForce.size()));
            }
            asked.caps(inForce.caps()).opFlags(inForce.opFlags()).size(inForce.size()).iovLimit(inForce.iovLimit());
        }
        return inForce;
    }

    private static long narrow(final String call, final String field, final long defaults, final long offered,
        final long asked)
    {
        if ((asked & ~offered) != 0)
        {
            throw new FabricException(Errno.FI_EINVAL, call + ": attr." + field + " 0x" + Long.toHexString(asked) +
                " asks for 0x" + Long.toHexString(asked & ~offered) + ", which shm does not offer (0x" +
                Long.toHexString(offered) + ")");
        }
        return asked != 0 ? asked : defaults;
    }
}
