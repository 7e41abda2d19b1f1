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

/**
 * Which endpoint addresses an AV holds "within" an authorization key (fi_av(3)): the addresses inserted with
 * FI_AUTH_KEY against that key's fi_addr handle (fi_av_insert_auth_key). A receive posted with FI_AUTH_KEY and a key
 * handle as its source (fi_recvmsg, fi_trecvmsg on an endpoint with FI_DIRECTED_RECV) takes messages only from
 * those addresses.
 * <p>
 * An address entry names its key by the key entry's index and the generation it had at insert, so a key removed and
 * its entry reused for another key holds none of the old key's addresses.
 * <p>
 * Reads the shared table without locks, each entry as one consistent copy ({@link AvTable#snapshot}) into this
 * object's own scratch entries: no allocation. Not thread safe: one per receive side, used under its guard.
 */
public final class AuthKeyMembers
{
    private final ShmAddressVector av;
    private final AvTable.Entry key = new AvTable.Entry();
    private final AvTable.Entry address = new AvTable.Entry();

    /**
     * @param av the AV whose keys and addresses are read.
     */
    public AuthKeyMembers(final ShmAddressVector av)
    {
        this.av = av;
    }

    /**
     * @param keyHandle an fi_addr_t.
     * @return whether it names an authorization key of the AV now.
     */
    public boolean isKey(final long keyHandle)
    {
        final int index = av.indexOf(keyHandle);
        return index >= 0 && av.table().snapshot(index, key) && key.kind == AvDescriptor.KIND_AUTH_KEY;
    }

    /**
     * Whether the address in entry {@code fiAddr} was inserted with FI_AUTH_KEY against the key {@code keyHandle}
     * names, and that key is still the one inserted then.
     *
     * @param fiAddr    an address fi_addr_t of the AV.
     * @param keyHandle an authorization key fi_addr_t of the AV.
     * @return true when it was.
     */
    public boolean isUnderKey(final long fiAddr, final long keyHandle)
    {
        final int keyIndex = av.indexOf(keyHandle);
        final int index = av.indexOf(fiAddr);
        final AvTable table = av.table();
        return keyIndex >= 0 && index >= 0 && table.snapshot(index, address) &&
            address.kind == AvDescriptor.KIND_ADDRESS && address.authKey == keyIndex &&
            table.snapshot(keyIndex, key) && key.kind == AvDescriptor.KIND_AUTH_KEY &&
            key.generation == address.authKeyGeneration;
    }
}
