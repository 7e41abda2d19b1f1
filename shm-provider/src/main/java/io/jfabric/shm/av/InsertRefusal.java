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
package io.jfabric.shm.av;

import io.jfabric.Errno;
import io.jfabric.FabricException;

/**
 * Why {@code fi_av_insert} refused an address, in words: what {@link ShmAddressVector} throws when an insert without
 * FI_SYNC_ERR inserted nothing because of what the addresses are (a count of 0 alone would not say why). Another domain's address is the mistake a
 * newcomer makes (two processes with different domain names never meet), so the message names both domains.
 * Stateless; any thread.
 */
final class InsertRefusal
{
    private InsertRefusal()
    {
    }

    /**
     * @param call       the call, as "fi_av_insert".
     * @param index      the address's index in the call.
     * @param text       the address.
     * @param errno      what inserting it gave.
     * @param domainName the AV's domain.
     * @param slotCount  the domain's endpoint slots.
     * @return the message; null when the address itself is sound and the refusal was its FI_AUTH_KEY handle's,
     * which a concurrent fi_av_remove of the key can cause: then the count alone answers, as in C.
     */
    static String describe(
        final String call, final int index, final String text, final int errno, final String domainName,
        final int slotCount)
    {
        final String what = call + ": address " + index + " \"" + text + "\" ";
        final ShmAddress address;
        try
        {
            address = ShmAddress.parse(text);
        }
        catch (final FabricException ex)
        {
            return what + "is not an shm address: " + ex.getMessage();
        }
        if (!address.isLocal())
        {
            return what + "is on host '" + address.host() + "', not this one: the shm provider reaches endpoints " +
                "of this host only";
        }
        if (!address.domain().equals(domainName))
        {
            return what + "is an endpoint of domain '" + address.domain() + "', and this AV's domain is '" +
                domainName + "': an endpoint is reached only from its own domain, so every process must open the " +
                "same domain name (and use the same shm root)";
        }
        if (address.slot() >= slotCount)
        {
            return what + "names slot " + address.slot() + ", and domain '" + domainName + "' has " + slotCount +
                " (jfabric.shm.ep.count must be the same in every process)";
        }
        if (errno == Errno.FI_ENOSPC)
        {
            return what + "was not inserted: the AV's table is full (remove entries, or open it with a larger count)";
        }
        return null; // the address is sound: its FI_AUTH_KEY handle was refused, which a concurrent removal can cause
    }
}
