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

import io.jfabric.AddressVector;
import io.jfabric.Addresses;
import io.jfabric.Errno;
import io.jfabric.FabricException;

/**
 * How an address vector's fi_addr_t values name the entries of its table, and the reads by fi_addr_t that its calls
 * share: which entry a value names ({@link #indexOf}), the receive context it selects ({@link #rxIndexOf}), an
 * entry of a given kind or the error that says why there is none ({@link #validEntry}, {@link #notValid}), and the
 * authorization key an address was inserted with ({@link #keyOf}, {@link #authKeyDigestOf}) and the key an
 * authorization key handle names ({@link #keyHandleDigest}).
 * <p>
 * <b>fi_addr_t values</b> ({@code base + index}, in the low {@link #INDEX_BITS} bits):
 * <ul>
 * <li>FI_AV_TABLE: the table index, 0, 1, 2, ... (lowest free first), named or not and whatever map_addr was given,
 * as fi_av(3) says of FI_AV_TABLE; every process of a named table gets the same fi_addr for an entry, since the
 * index is shared. map_addr is recorded and reported back only.</li>
 * <li>FI_AV_MAP: unnamed, the index too (map_addr is ignored without a name). Named, {@code map_addr + index}:
 * the page makes map_addr the base of a shared FI_AV_MAP's values, so processes giving the same map_addr get the
 * same fi_addr for an entry. map_addr + the table's entries must then be &lt; 2^32, so the last fi_addr stays below
 * 0xFFFFFFFF (fi_group_addr of all ones in both halves would be FI_ADDR_NOTAVAIL) ({@link Errno#FI_EINVAL} at open
 * otherwise, before any file is created or mapped).</li>
 * </ul>
 * A named AV records its creator's map_addr; an opener passing 0 uses and gets back that one, an opener passing
 * another value uses its own. The type is not recorded: processes sharing a named AV must open it with the same
 * type to agree on fi_addr values. Of the high 32 bits, the top rx_ctx_bits carry {@link AddressVector#rxAddr}'s
 * receive context index (fi_rx_addr: it selects a receive context of a scalable endpoint, see
 * {@link #rxIndexOf}); the others must be 0. They would carry {@link AddressVector#groupAddr}'s group id, but shm
 * does not offer peer groups (its domains have no max_group_id, that is 0), so an fi_addr with a group id names no
 * entry ({@link Errno#FI_EINVAL} from the control path, -FI_EINVAL from the data path). Every fi_addr the AV hands
 * out or reports (inserts, auth key handles, FI_SOURCE src_addr in completions) is of this form, and every one it
 * takes (lookup, remove, user ids, FI_AUTH_KEY handles, destinations) is resolved by {@link #indexOf}.
 * <p>
 * Thread safe (final fields over the lock-free table).
 */
final class AvAddressing
{
    /** Bits of an fi_addr_t that carry the base + index: the low 32, below fi_group_addr's group id. */
    static final int INDEX_BITS = 32;

    /** One more than the largest fi_addr_t value an entry may have: base + entries must not exceed it. */
    static final long FI_ADDR_LIMIT = 1L << INDEX_BITS;

    private static final long INDEX_MASK = FI_ADDR_LIMIT - 1;

    private final GuardedAvTable table;
    private final long base;
    /** rx_ctx_bits: top bits of an fi_addr that name a receive context. */
    private final int rxCtxBits;
    /** The bits of an fi_addr that must be 0: all above the index but the top rx_ctx_bits. */
    private final long groupMask;

    /**
     * @param table     the AV's table.
     * @param base      the base of its fi_addr_t values.
     * @param rxCtxBits its rx_ctx_bits, 0 to 16.
     */
    AvAddressing(final GuardedAvTable table, final long base, final int rxCtxBits)
    {
        this.table = table;
        this.base = base;
        this.rxCtxBits = rxCtxBits;
        this.groupMask = ~INDEX_MASK & (rxCtxBits == 0 ? -1L : -1L >>> rxCtxBits);
    }

    /**
     * Data path: the table index an fi_addr_t names, without allocating. The low {@link #INDEX_BITS} bits name the
     * entry; the top rx_ctx_bits (fi_rx_addr's receive context index) are ignored here ({@link #rxIndexOf}); any
     * other bit set (an fi_group_addr group id: shm has no peer groups) names no entry.
     *
     * @param fiAddr an fi_addr_t of the AV.
     * @return the index, or -1 when it is FI_ADDR_NOTAVAIL, carries a group id or is outside the table.
     */
    int indexOf(final long fiAddr)
    {
        if ((fiAddr & groupMask) != 0)
        {
            return -1;
        }
        final long index = (fiAddr & INDEX_MASK) - base;
        return index < 0 || index >= table.entryCount() ? -1 : (int)index;
    }

    /**
     * Data path: the receive context an fi_addr_t names (fi_rx_addr): its top rx_ctx_bits, 0 when the AV has none.
     *
     * @param fiAddr an fi_addr_t of the AV.
     * @return the receive context index.
     */
    int rxIndexOf(final long fiAddr)
    {
        return rxCtxBits == 0 ? 0 : (int)(fiAddr >>> (64 - rxCtxBits));
    }

    /**
     * Control path: snapshot the entry an fi_addr names, which must be of {@code kind}.
     *
     * @return its index.
     * @throws FabricException as {@link #notValid} when there is none.
     */
    int validEntry(final String call, final long fiAddr, final int kind, final AvTable.Entry entry)
    {
        final int index = indexOf(fiAddr);
        if (index < 0 || !table.snapshot(index, entry) || entry.kind != kind)
        {
            throw notValid(call, fiAddr);
        }
        return index;
    }

    /**
     * @return the error of a call given an fi_addr that names no entry it can use: FI_EIO when the table's file is
     * damaged, else FI_EINVAL saying why. Control path (allocates).
     */
    FabricException notValid(final String call, final long fiAddr)
    {
        if (table.fault() != null)
        {
            return new FabricException(Errno.FI_EIO, call + ": " + table.fault());
        }
        final int index = indexOf(fiAddr);
        final String why = fiAddr == Addresses.FI_ADDR_NOTAVAIL ? "is FI_ADDR_NOTAVAIL" : index < 0 ?
            "is outside the table (fi_addr values 0x" + Long.toHexString(base) + " + index, " +
            table.entryCount() + " entries)" : "names no valid entry of that kind (removed, never inserted, or " +
            "an authorization key without FI_AUTH_KEY)";
        return new FabricException(Errno.FI_EINVAL, call + ": fi_addr 0x" + Long.toHexString(fiAddr) + " " + why);
    }

    /**
     * Replace {@code entry}, the snapshot of an address entry, by that of the authorization key it was inserted
     * with: the key's entry, checked to be the very key (the generation the address recorded).
     *
     * @return false when the address has no key, or its key was removed (or its entry reused) since.
     */
    boolean keyOf(final AvTable.Entry entry)
    {
        if (entry.authKey < 0)
        {
            return false;
        }
        final long keyGeneration = entry.authKeyGeneration;
        return table.snapshot((int)entry.authKey, entry) && entry.kind == AvDescriptor.KIND_AUTH_KEY &&
            entry.generation == keyGeneration;
    }

    /**
     * @param fiAddr an fi_addr_t naming an address.
     * @return the digest of the authorization key the address was inserted with, 0 for none (or when fiAddr no longer
     * names an address). Allocates one snapshot entry.
     */
    long authKeyDigestOf(final long fiAddr)
    {
        final AvTable.Entry entry = new AvTable.Entry();
        final int index = indexOf(fiAddr);
        if (index < 0 || !table.snapshot(index, entry) || entry.kind != AvDescriptor.KIND_ADDRESS || !keyOf(entry))
        {
            return 0;
        }
        return AuthKeyDigest.of(entry.bytes, entry.length);
    }

    /**
     * @param fiAddr an fi_addr_t naming an authorization key (fi_av_insert_auth_key).
     * @return the key's digest, 0 when it names none. Allocates one snapshot entry.
     */
    long keyHandleDigest(final long fiAddr)
    {
        final AvTable.Entry entry = new AvTable.Entry();
        final int index = indexOf(fiAddr);
        return index >= 0 && table.snapshot(index, entry) && entry.kind == AvDescriptor.KIND_AUTH_KEY ?
            AuthKeyDigest.of(entry.bytes, entry.length) : 0;
    }
}
