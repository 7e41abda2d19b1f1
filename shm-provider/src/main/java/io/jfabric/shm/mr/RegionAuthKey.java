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
package io.jfabric.shm.mr;

import io.jfabric.AddressVector;
import io.jfabric.DomainAttr;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.MrAttr;
import io.jfabric.shm.av.AuthKeyDigest;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.context.DomainContext;

/**
 * The authorization key a registration gives its region (fi_mr(3) {@code auth_key}), as the digest the key table
 * stores ({@link AuthKeyDigest}; 0 for none). Only initiators presenting that key reach the region.
 * <ul>
 *   <li>A domain with one key (or none): the region's own key bytes ({@link MrAttr#authKey(byte[])}), else the
 *   domain's. {@code FI_AUTH_KEY} and an {@code fi_mr_auth_key} are for FI_AV_AUTH_KEY domains only
 *   ({@link Errno#FI_EBADFLAGS}, {@link Errno#FI_EINVAL}).</li>
 *   <li>A domain opened with {@code FI_AV_AUTH_KEY} has no key of its own, so a region peers may access
 *   (FI_REMOTE_READ or FI_REMOTE_WRITE) needs one, given as fi_mr(3)'s {@code struct fi_mr_auth_key}
 *   ({@link MrAttr#authKey(AddressVector, long)}): with {@code FI_AUTH_KEY}, an authorization key fi_addr of an AV
 *   of this domain; without, an endpoint address the AV holds with a key, whose key the region takes (shm keys
 *   regions by key, not by address: every endpoint of that key reaches it). Anything else is {@link Errno#FI_EINVAL}.
 *   A region for local access only needs none.</li>
 * </ul>
 * Control path; stateless.
 */
final class RegionAuthKey
{
    private static final long REMOTE_BITS = Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE;

    private RegionAuthKey()
    {
    }

    /**
     * @param operation the registration call, for messages.
     * @param domain    the registering domain.
     * @param mrAttr    fi_mr_regattr's attributes, or null for fi_mr_reg and fi_mr_regv.
     * @param flags     the registration's flags (FI_AUTH_KEY is read here).
     * @param access    its access bits.
     * @return the digest of the region's key, 0 for none.
     * @throws FabricException as the class comment says.
     */
    static long digest(
        final String operation, final DomainContext domain, final MrAttr mrAttr, final long flags, final long access)
    {
        final DomainAttr attr = domain.attr();
        final boolean keyHandle = (flags & Flags.FI_AUTH_KEY) != 0;
        final byte[] bytes = mrAttr == null ? null : mrAttr.authKey();
        final AddressVector av = mrAttr == null ? null : mrAttr.authKeyAv();
        if (attr.authKeySize() != DomainAttr.FI_AV_AUTH_KEY)
        {
            if (keyHandle)
            {
                throw new FabricException(Errno.FI_EBADFLAGS, operation + ": FI_AUTH_KEY is only valid in a domain " +
                    "opened with auth_key_size FI_AV_AUTH_KEY");
            }
            if (av != null)
            {
                throw new FabricException(Errno.FI_EINVAL, operation + ": an fi_mr_auth_key (an AV and an fi_addr) " +
                    "is for domains opened with FI_AV_AUTH_KEY; give this domain's region the key's bytes");
            }
            return bytes != null ? AuthKeyDigest.of(bytes) : AuthKeyDigest.of(attr.authKey());
        }
        if (bytes != null)
        {
            throw new FabricException(Errno.FI_EINVAL, operation + ": a domain opened with FI_AV_AUTH_KEY takes a " +
                "region's key as fi_mr_auth_key (an AV and an fi_addr of it: MrAttr.authKey(av, fiAddr)), not as " +
                bytes.length + " bytes");
        }
        if (av == null)
        {
            if ((access & REMOTE_BITS) != 0)
            {
                throw new FabricException(Errno.FI_EINVAL, operation + ": a domain opened with FI_AV_AUTH_KEY has " +
                    "no key of its own, so a region peers may access needs one: fi_mr_regattr with " +
                    "MrAttr.authKey(av, fiAddr) and FI_AUTH_KEY for an fi_av_insert_auth_key handle");
            }
            return 0;
        }
        return fromAv(operation, domain, av, mrAttr.authKeyAddr(), keyHandle);
    }

    private static long fromAv(
        final String operation, final DomainContext domain, final AddressVector av, final long srcAddr,
        final boolean keyHandle)
    {
        if (!(av instanceof ShmAddressVector) || ((ShmAddressVector)av).domain() != domain.fid())
        {
            throw new FabricException(Errno.FI_EINVAL, operation + ": fi_mr_auth_key's av is not an AV of this " +
                "domain");
        }
        final ShmAddressVector shmAv = (ShmAddressVector)av;
        final long digest = keyHandle ? shmAv.keyHandleDigest(srcAddr) : shmAv.authKeyDigestOf(srcAddr);
        if (digest == 0)
        {
            throw new FabricException(Errno.FI_EINVAL, operation + ": fi_mr_auth_key's src_addr 0x" +
                Long.toHexString(srcAddr) + (keyHandle ? " is not an authorization key fi_addr of the AV " +
                "(fi_av_insert_auth_key), as FI_AUTH_KEY says" : " names no address the AV holds with a key " +
                "(FI_AUTH_KEY says src_addr is a key handle instead)"));
        }
        return digest;
    }
}
