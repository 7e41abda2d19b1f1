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
package io.jfabric;

import java.util.Arrays;

/**
 * Memory region attributes ({@code struct fi_mr_attr}, fi_mr(3)) for {@link Domain#mrRegAttr(MrAttr, long)}.
 * <p>
 * Fields: {@code mr_iov}/{@code iov_count} ({@link #iov}), {@code access}, {@code offset} (reserved, must be 0),
 * {@code requested_key}, {@code context}, {@code auth_key}: the key's bytes ({@link #authKey(byte[])}), or, in a
 * domain opened with {@code FI_AV_AUTH_KEY}, a {@code struct fi_mr_auth_key} ({@link #authKey(AddressVector, long)}:
 * an AV and an fi_addr of it, an authorization key fi_addr when fi_mr_regattr's flags hold {@code FI_AUTH_KEY}, else
 * an endpoint address whose key is taken); {@code iface} (only FI_HMEM_SYSTEM, 0, is supported). A plain mutable
 * holder, set fluently; not thread safe.
 */
public final class MrAttr
{
    private MrIov[] iov = new MrIov[0];
    private long access;
    private long offset;
    private long requestedKey;
    private long context;
    private byte[] authKey;
    private AddressVector authKeyAv;
    private long authKeyAddr;
    private int iface;

    /**
     * Attributes with every field at its default, as a zeroed {@code struct fi_mr_attr}.
     */
    public MrAttr()
    {
    }

    /** @return the iov entries (the array itself). */
    public MrIov[] iov()
    {
        return iov;
    }

    /**
     * @param iov the memory to register as one region, 1 to mr_iov_limit entries.
     * @return this.
     */
    public MrAttr iov(final MrIov... iov)
    {
        this.iov = iov;
        return this;
    }

    /** @return the access bits. */
    public long access()
    {
        return access;
    }

    /**
     * @param access FI_SEND, FI_RECV, FI_READ, FI_WRITE, FI_REMOTE_READ, FI_REMOTE_WRITE or'd.
     * @return this.
     */
    public MrAttr access(final long access)
    {
        this.access = access;
        return this;
    }

    /** @return the offset, reserved. */
    public long offset()
    {
        return offset;
    }

    /**
     * @param offset reserved by fi_mr(3): must be 0.
     * @return this.
     */
    public MrAttr offset(final long offset)
    {
        this.offset = offset;
        return this;
    }

    /** @return the requested key. */
    public long requestedKey()
    {
        return requestedKey;
    }

    /**
     * @param requestedKey the key wanted; ignored with {@link MrMode#FI_MR_PROV_KEY}.
     * @return this.
     */
    public MrAttr requestedKey(final long requestedKey)
    {
        this.requestedKey = requestedKey;
        return this;
    }

    /** @return the application's context. */
    public long context()
    {
        return context;
    }

    /**
     * @param context returned with the FI_MR_COMPLETE event of an asynchronous registration.
     * @return this.
     */
    public MrAttr context(final long context)
    {
        this.context = context;
        return this;
    }

    /** @return the authorization key, or null. */
    public byte[] authKey()
    {
        return authKey;
    }

    /**
     * @param authKey authorization key, or null for the domain's.
     * @return this.
     */
    public MrAttr authKey(final byte[] authKey)
    {
        this.authKey = authKey;
        return this;
    }

    /** @return the AV of the {@code struct fi_mr_auth_key}, or null when none is set. */
    public AddressVector authKeyAv()
    {
        return authKeyAv;
    }

    /** @return the {@code src_addr} of the {@code struct fi_mr_auth_key}. */
    public long authKeyAddr()
    {
        return authKeyAddr;
    }

    /**
     * The {@code struct fi_mr_auth_key} auth_key points to in a domain opened with {@code FI_AV_AUTH_KEY} (fi_mr(3)):
     * the region takes the key the AV holds for {@code srcAddr}.
     *
     * @param av      the AV holding the key, or null for none.
     * @param srcAddr with {@code FI_AUTH_KEY} in fi_mr_regattr's flags, an authorization key fi_addr
     *                ({@link AddressVector#insertAuthKey}); else an endpoint address inserted with a key.
     * @return this.
     */
    public MrAttr authKey(final AddressVector av, final long srcAddr)
    {
        this.authKeyAv = av;
        this.authKeyAddr = srcAddr;
        return this;
    }

    /** @return the HMEM interface number (0, FI_HMEM_SYSTEM). */
    public int iface()
    {
        return iface;
    }

    /**
     * @param iface the HMEM interface; shm supports 0, FI_HMEM_SYSTEM.
     * @return this.
     */
    public MrAttr iface(final int iface)
    {
        this.iface = iface;
        return this;
    }

    @Override
    public String toString()
    {
        return "MrAttr{iov=" + Arrays.toString(iov) + ", access=0x" + Long.toHexString(access) + ", offset=" +
            offset + ", requestedKey=" + requestedKey + ", context=" + context + ", iface=" + iface + '}';
    }
}
