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

import io.jfabric.shm.av.AuthKeyDigest;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;

/**
 * Authorization keys as the shm provider enforces them (fi_domain(3), fi_endpoint(3), fi_av(3)): only endpoints
 * programmed with the same key communicate. A key travels as its {@link AuthKeyDigest}; 0 stands for "no key".
 * <ul>
 *   <li>An endpoint accepts one key, its {@code ep_attr.auth_key} or else its domain's {@code auth_key} (none when
 *   neither is set); in a domain opened with {@code FI_AV_AUTH_KEY}, every key in its AV when it is enabled (none
 *   when the AV holds no key). Its slot publishes the digests at enable ({@link SlotDescriptor#AUTH_COUNT_OFFSET}).
 *   </li>
 *   <li>A sender uses its endpoint's key for every destination; under {@code FI_AV_AUTH_KEY}, the key its AV
 *   associates with the destination address (none for an address inserted without {@code FI_AUTH_KEY}).</li>
 *   <li>The sender checks its key against the receiver's published digests when it connects to a receiver
 *   incarnation, before anything is written: a mismatch fails the call with {@code -FI_EACCES} and the receiver
 *   sees nothing.</li>
 * </ul>
 * Digests are not secrets and this is not a security boundary: any process of the user can map the region (see
 * docs/RELIABILITY.md). Stateless; any thread.
 */
public final class AuthKeys
{
    private AuthKeys()
    {
    }

    /**
     * Publish the keys a slot's endpoint accepts; before its state goes ACTIVE. Control path.
     *
     * @param region   the region.
     * @param geometry its geometry.
     * @param slot     the slot.
     * @param digests  the accepted digests, at most {@link SlotDescriptor#MAX_AUTH_DIGESTS}; {@code {0}} or empty for
     *                 no key.
     */
    public static void publish(final AtomicBuffer region, final RegionGeometry geometry, final int slot, final long[] digests)
    {
        for (int i = 0; i < digests.length; i++)
        {
            region.putLong(SlotDescriptor.authDigestOffset(geometry, slot, i), digests[i]);
        }
        region.putIntOrdered(SlotDescriptor.authCountOffset(geometry, slot), digests.length);
    }

    /**
     * Whether a receiver slot accepts a sender's key; call after reading its state ACTIVE (acquire). Sending side,
     * when it connects to a receiver incarnation.
     *
     * @param region   the region.
     * @param geometry its geometry.
     * @param slot     the receiver's slot.
     * @param digest   the sender's key digest for this destination, 0 for none.
     * @return true when the receiver accepts it.
     */
    public static boolean accepts(final AtomicBuffer region, final RegionGeometry geometry, final int slot, final long digest)
    {
        final int count = Math.min(region.getIntVolatile(SlotDescriptor.authCountOffset(geometry, slot)),
            SlotDescriptor.MAX_AUTH_DIGESTS);
        if (count <= 0)
        {
            return digest == 0;
        }
        for (int i = 0; i < count; i++)
        {
            if (region.getLong(SlotDescriptor.authDigestOffset(geometry, slot, i)) == digest)
            {
                return true;
            }
        }
        return false;
    }
}
