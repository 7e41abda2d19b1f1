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

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Reaching a function of an object's ops table, as the headers' static inlines do ({@code ep->msg->send}), with
 * {@code FI_CHECK_OP}'s guard: the table must be present and its {@code size} must cover the function's offset,
 * else the function is absent. The result is called through an address-less downcall handle of {@link Downcalls}.
 * Control path: data-path objects resolve their functions once and keep them. Stateless; any thread.
 */
public final class Ops
{
    private Ops()
    {
    }

    /**
     * @param object    the object's address ({@code struct fid_ep *} ...).
     * @param opsMember offset of the ops table pointer in the object ({@link FidLayouts#FID_OPS} for the
     *                  {@code fi_ops} of its {@code fid}, {@link FidLayouts#EP_MSG} ...).
     * @param function  offset of the function in the table ({@link FidLayouts#fn}).
     * @return the function's address, or 0 when the table is absent, too short, or holds NULL there.
     */
    public static long address(final long object, final long opsMember, final long function)
    {
        if (object == 0)
        {
            return 0;
        }
        final long ops = CTypes.readPointer(object + opsMember);
        if (ops == 0 || CTypes.ALL.get(JAVA_LONG, ops) <= function)
        {
            return 0;
        }
        return CTypes.readPointer(ops + function);
    }

    /**
     * @param object    the object's address.
     * @param opsMember offset of the ops table pointer.
     * @param function  offset of the function in the table.
     * @return the function as a segment for an address-less downcall, or {@link MemorySegment#NULL} when absent.
     */
    public static MemorySegment function(final long object, final long opsMember, final long function)
    {
        return MemorySegment.ofAddress(address(object, opsMember, function));
    }
}
