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

/**
 * An open address vector ({@code struct fid_av}, fi_av(3)): maps the provider's printable endpoint addresses
 * (FI_ADDR_STR) to {@code fi_addr_t} values ({@code long}) used on the data path.
 * <p>
 * Control calls (insert, remove, lookup, bind, auth keys, user ids) throw {@link FabricException} carrying the
 * libfabric errno where C returns a negated one; inserts report per-address failures as C does: the count
 * inserted, {@link Addresses#FI_ADDR_NOTAVAIL} in the failed address's {@code fiAddr} slot, and its errno in the
 * status array under {@link Flags#FI_SYNC_ERR}. Thread safe. Closing while endpoints are bound fails with
 * {@link Errno#FI_EBUSY}.
 */
public interface AddressVector extends Fid
{
    /** Bit position of the group id {@link #groupAddr} sets: the high 32 bits, as fi_group_addr. */
    int GROUP_ID_SHIFT = 32;

    /**
     * @return a copy of the attributes in force: type resolved, count used, map_addr in use.
     */
    AvAttr attr();

    /**
     * {@code fi_av_bind} (deprecated): bind an event queue on which FI_EVENT inserts complete.
     *
     * @param eq    an event queue of this AV's fabric.
     * @param flags must be 0.
     */
    void bind(Fid eq, long flags);

    /**
     * {@code fi_av_insert}.
     *
     * @param addr    FI_ADDR_STR addresses; the first {@code count} are inserted.
     * @param count   how many.
     * @param fiAddr  output, or null; input too with FI_AV_USER_ID (user ids) or FI_AUTH_KEY (key handles).
     * @param flags   FI_MORE, FI_SYNC_ERR, FI_AV_USER_ID, FI_AUTH_KEY.
     * @param context the operation's context (FI_EVENT completions carry it).
     * @param status  with FI_SYNC_ERR: receives 0 or an errno per address; otherwise ignored, may be null.
     * @return the number inserted; 0 for an FI_EVENT AV (the count arrives in the FI_AV_COMPLETE event).
     */
    int insert(String[] addr, int count, long[] fiAddr, long flags, long context, int[] status);

    /**
     * {@code fi_av_insert} without FI_SYNC_ERR status.
     *
     * @param addr    addresses.
     * @param count   how many.
     * @param fiAddr  output, or null.
     * @param flags   flags.
     * @param context the operation's context.
     * @return as {@link #insert(String[], int, long[], long, long, int[])}.
     */
    default int insert(final String[] addr, final int count, final long[] fiAddr, final long flags, final long context)
    {
        return insert(addr, count, fiAddr, flags, context, null);
    }

    /**
     * {@code fi_av_insert} with binary addresses, as C passes them ({@code const void *addr}): each element is one
     * address in the provider's format, as {@link Endpoint#getname()} returns it (a {@code struct sockaddr_in} for
     * {@code tcp}, an FI_ADDR_STR text for {@code shm}).
     * <p>
     * The default implementation serves providers whose addresses are FI_ADDR_STR texts: it reads each array as
     * US-ASCII up to its first NUL and inserts the texts with {@link #insert(String[], int, long[], long, long, int[])}.
     * A provider with binary addresses overrides it.
     *
     * @param addr    addresses; the first {@code count} are inserted.
     * @param count   how many.
     * @param fiAddr  output, or null; as the String form.
     * @param flags   as the String form.
     * @param context as the String form.
     * @param status  as the String form.
     * @return the number inserted, as the String form.
     */
    default int insert(
        final byte[][] addr, final int count, final long[] fiAddr, final long flags, final long context,
        final int[] status)
    {
        if (addr == null || count < 0 || count > addr.length)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insert: " + count + " addresses asked of " +
                (addr == null ? "a null array" : "an array of " + addr.length));
        }
        final String[] text = new String[count];
        for (int i = 0; i < count; i++)
        {
            if (addr[i] == null)
            {
                throw new FabricException(Errno.FI_EINVAL, "fi_av_insert: address " + i + " is null");
            }
            int length = 0;
            while (length < addr[i].length && addr[i][length] != 0)
            {
                length++;
            }
            text[i] = new String(addr[i], 0, length, java.nio.charset.StandardCharsets.US_ASCII);
        }
        return insert(text, count, fiAddr, flags, context, status);
    }

    /**
     * {@code fi_av_lookup} into a new array of the stored address's length: the bytes {@link #lookup(long, byte[])}
     * copies (binary for a provider with binary addresses, the NUL-terminated text for FI_ADDR_STR).
     *
     * @param fiAddr a value returned by an insert.
     * @return the stored address.
     */
    default byte[] lookupBytes(final long fiAddr)
    {
        final byte[] addr = new byte[lookup(fiAddr, new byte[0])];
        final int needed = lookup(fiAddr, addr);
        return needed == addr.length ? addr : java.util.Arrays.copyOf(addr, Math.min(needed, addr.length));
    }

    /**
     * {@code fi_av_straddr} of a binary address: its printable form. The default reads the array as US-ASCII up to
     * its first NUL and prints that with {@link #straddr(String)}; a provider with binary addresses overrides it.
     *
     * @param addr an address of this provider's format, as {@link Endpoint#getname()} returns it.
     * @return its printable form.
     */
    default String straddr(final byte[] addr)
    {
        int length = 0;
        while (length < addr.length && addr[length] != 0)
        {
            length++;
        }
        return straddr(new String(addr, 0, length, java.nio.charset.StandardCharsets.US_ASCII));
    }

    /**
     * {@code fi_av_insertsvc}: one address from a node and a service, or from an FI_ADDR_STR node with a null service.
     *
     * @param node    this host's name or an alias of it, or a whole FI_ADDR_STR address.
     * @param service the endpoint part, or null when node is a whole address.
     * @param fiAddr  output (one element), or null.
     * @param flags   as insert.
     * @param context as insert.
     * @param status  as insert.
     * @return 1 or 0 (synchronous); 0 for an FI_EVENT AV.
     */
    int insertsvc(String node, String service, long[] fiAddr, long flags, long context, int[] status);

    /**
     * {@code fi_av_insertsym}: nodecnt x svccnt addresses, every service of a node before the next node.
     *
     * @param node    first node; must end in a number when nodecnt &gt; 1.
     * @param nodecnt number of nodes.
     * @param service first service, numeric.
     * @param svccnt  services per node.
     * @param fiAddr  output (nodecnt x svccnt elements), or null.
     * @param flags   as insert.
     * @param context as insert.
     * @param status  as insert.
     * @return the number inserted; 0 for an FI_EVENT AV.
     */
    int insertsym(
        String node, int nodecnt, String service, int svccnt, long[] fiAddr, long flags, long context, int[] status);

    /**
     * {@code fi_av_remove}: invalidate addresses (or, with FI_AUTH_KEY, authorization keys); all are checked
     * before any is removed.
     *
     * @param fiAddr values returned by an insert.
     * @param count  how many.
     * @param flags  0 or FI_AUTH_KEY.
     */
    void remove(long[] fiAddr, int count, long flags);

    /**
     * {@code fi_av_lookup}: copy the stored address (US-ASCII, NUL terminated when room) into {@code addr},
     * truncated to its length.
     *
     * @param fiAddr a value returned by an insert.
     * @param addr   the buffer; may be shorter than the address, or empty.
     * @return the length needed ({@code *addrlen} on output), the terminating NUL included.
     */
    int lookup(long fiAddr, byte[] addr);

    /**
     * {@code fi_av_lookup} as a string.
     *
     * @param fiAddr a value returned by an insert.
     * @return the stored address.
     */
    String lookup(long fiAddr);

    /**
     * {@code fi_av_straddr}: the printable form of an address (need not be inserted), truncated to {@code buf}.
     *
     * @param addr an address of this provider's format.
     * @param buf  receives the text, NUL terminated when room.
     * @return the length needed, the NUL included.
     */
    int straddr(String addr, byte[] buf);

    /**
     * {@code fi_av_straddr} as a string.
     *
     * @param addr an address of this provider's format.
     * @return its printable form.
     */
    String straddr(String addr);

    /**
     * {@code fi_av_insert_auth_key}.
     *
     * @param authKey the key, in the provider's format.
     * @param flags   must be 0.
     * @return the authorization key fi_addr_t.
     */
    long insertAuthKey(byte[] authKey, long flags);

    /**
     * {@code fi_av_lookup_auth_key}: copy the key of an auth key handle or of an address inserted with one.
     *
     * @param fiAddr  an auth key handle or an address.
     * @param authKey receives the key, truncated.
     * @return the key's size.
     */
    int lookupAuthKey(long fiAddr, byte[] authKey);

    /**
     * {@code fi_av_set_user_id}.
     *
     * @param fiAddr an address (or, with FI_AUTH_KEY, an auth key handle).
     * @param userId the id completions report in place of fiAddr.
     * @param flags  0 or FI_AUTH_KEY.
     */
    void setUserId(long fiAddr, long userId, long flags);

    /**
     * @param fiAddr an address or auth key handle.
     * @return its user id; {@link Addresses#FI_ADDR_NOTAVAIL} until one is set.
     */
    long userId(long fiAddr);

    /**
     * {@code fi_rx_addr}: address a receive context of the endpoint at {@code fiAddr}.
     *
     * @param fiAddr    an fi_addr_t.
     * @param rxIndex   the receive context.
     * @param rxCtxBits the AV's rx_ctx_bits.
     * @return the rx index in the top {@code rxCtxBits} bits, OR-ed with fiAddr.
     */
    static long rxAddr(final long fiAddr, final int rxIndex, final int rxCtxBits)
    {
        return rxCtxBits == 0 ? fiAddr : ((long)rxIndex << (64 - rxCtxBits)) | fiAddr;
    }

    /**
     * {@code fi_group_addr}: {@code ((uint64_t)group_id << 32) | fi_addr}, exactly as libfabric: the group id is an
     * unsigned 32-bit value (an int here, read as unsigned) OR-ed into the high 32 bits. Providers that resolve
     * grouped addresses keep their fi_addr_t values in the low 32 bits.
     *
     * @param fiAddr  an fi_addr_t.
     * @param groupId the group id, as an unsigned 32-bit value.
     * @return {@code (groupId << 32) | fiAddr}.
     */
    static long groupAddr(final long fiAddr, final int groupId)
    {
        return ((groupId & 0xFFFF_FFFFL) << GROUP_ID_SHIFT) | fiAddr;
    }
}
