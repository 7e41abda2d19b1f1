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

import io.jfabric.DomainAttr;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Info;
import io.jfabric.shm.av.AuthKeyDigest;
import io.jfabric.shm.av.AvKeyHolds;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.region.SlotDescriptor;

/**
 * The authorization keys one endpoint is programmed with, decided at fi_enable ({@link io.jfabric.shm.av.AuthKeys} has the rules):
 * the key it sends with (its {@code ep_attr.auth_key}, else its domain's), or, in a domain opened with
 * FI_AV_AUTH_KEY, the keys its AV holds, which it accepts and holds against removal ({@link AvKeyHolds}) until it
 * closes. The domain resolves its own key away when its fabric was opened below API version 1.5; the endpoint's
 * {@code ep_attr.auth_key} is ignored then too (fi_domain(3), fi_endpoint(3): "ignored unless the fabric is opened
 * with API version 1.5 or greater").
 * <p>
 * Threads: the endpoint's synchronized control path.
 */
final class EndpointKeys
{
    private final boolean fromAv;
    private final long digest;
    private final long[] accepted;
    private final AvKeyHolds holds;

    private EndpointKeys(final boolean fromAv, final long digest, final long[] accepted, final AvKeyHolds holds)
    {
        this.fromAv = fromAv;
        this.digest = digest;
        this.accepted = accepted;
        this.holds = holds;
    }

    /**
     * Decide an endpoint's keys and hold its AV's.
     *
     * @param domainAttr   the domain's attributes in force.
     * @param info         the endpoint's info.
     * @param av           its AV.
     * @param keysIgnored  whether its fabric was opened below API version 1.5.
     * @return the keys.
     * @throws FabricException FI_EINVAL when the AV holds more keys than a slot publishes (nothing is held then).
     */
    static EndpointKeys enable(
        final DomainAttr domainAttr, final Info info, final ShmAddressVector av, final boolean keysIgnored)
    {
        final boolean fromAv = !keysIgnored && domainAttr.authKeySize() == DomainAttr.FI_AV_AUTH_KEY;
        if (fromAv)
        {
            final AvKeyHolds holds = AvKeyHolds.take(av);
            final long[] digests = holds.digests();
            if (digests.length > SlotDescriptor.MAX_AUTH_DIGESTS)
            {
                holds.release();
                throw new FabricException(Errno.FI_EINVAL, "fi_enable: the bound AV holds " + digests.length +
                    " authorization keys; an shm endpoint accepts at most " + SlotDescriptor.MAX_AUTH_DIGESTS);
            }
            return new EndpointKeys(true, 0, digests, holds);
        }
        final byte[] own = info.epAttr() != null && info.epAttr().authKey() != null ? info.epAttr().authKey() :
            domainAttr.authKey();
        final long digest = keysIgnored ? 0 : AuthKeyDigest.of(own);
        return new EndpointKeys(false, digest, digest == 0 ? new long[0] : new long[] {digest}, null);
    }

    /** @return whether each destination's key comes from the AV (FI_AV_AUTH_KEY). */
    boolean fromAv()
    {
        return fromAv;
    }

    /** @return the digest of the key the endpoint sends with when not {@link #fromAv}, 0 for none. */
    long digest()
    {
        return digest;
    }

    /** @return the digests the endpoint accepts, for its slot ({@link io.jfabric.shm.av.AuthKeys#publish}). */
    long[] accepted()
    {
        return accepted;
    }

    /** The endpoint closes: give back the AV keys it held. */
    void release()
    {
        if (holds != null)
        {
            holds.release();
        }
    }
}
