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
package io.jfabric.shm.match;

import io.jfabric.Addresses;
import java.util.Arrays;

/** An {@link AddressResolver} over a table indexed by sender slot that tests fill in, like AV inserts would. */
final class TableResolver implements AddressResolver
{
    /** Key handles are the fi_addrs from here on; addresses are below. */
    static final long KEY_HANDLES = 1000;

    final long[] fiAddrBySlot = new long[64];
    /** The key handle each sender slot's address was inserted with (FI_AUTH_KEY), FI_ADDR_NOTAVAIL for none. */
    final long[] keyBySlot = new long[64];
    int calls;

    TableResolver()
    {
        Arrays.fill(fiAddrBySlot, Addresses.FI_ADDR_NOTAVAIL);
        Arrays.fill(keyBySlot, Addresses.FI_ADDR_NOTAVAIL);
    }

    static long senderId(final int slot, final int incarnation)
    {
        return ((long)slot << 32) | (incarnation & 0xFFFF_FFFFL);
    }

    @Override
    public long fiAddrOf(final long senderId)
    {
        calls++;
        return fiAddrBySlot[(int)(senderId >>> 32)];
    }

    @Override
    public boolean isUnderKey(final long senderId, final long keyHandle)
    {
        return keyBySlot[(int)(senderId >>> 32)] == keyHandle;
    }

    @Override
    public boolean isAuthKey(final long keyHandle)
    {
        return keyHandle >= KEY_HANDLES;
    }
}
