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

import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;

/**
 * The checks of fi_av_open's attributes (fi_av(3)): flags, type, rx_ctx_bits, counts, the name of a named AV and
 * the map_addr of a named FI_AV_MAP, each refused with libfabric's errno and a message naming the value.
 * <p>
 * Stateless; control path, any thread.
 */
final class AvAttrValidator
{
    /** Longest AV name. */
    static final int MAX_NAME_LENGTH = 48;
    /** The flags fi_av_open takes. */
    static final long OPEN_FLAGS = Flags.FI_EVENT | Flags.FI_READ | Flags.FI_SYMMETRIC | Flags.FI_AV_USER_ID;
    /** The most receive context bits (fi_rx_addr) an AV takes. */
    static final int MAX_RX_CTX_BITS = 16;

    private AvAttrValidator()
    {
    }

    /**
     * @param asked    the application's attributes.
     * @param epCnt    the domain's ep_cnt (the count an AV of count 0 gets).
     * @param maxCount the most addresses an AV holds.
     * @return a copy with the defaults filled in.
     */
    static AvAttr validate(final AvAttr asked, final long epCnt, final int maxCount)
    {
        if (asked == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_open: attr must not be null");
        }
        final AvAttr attr = asked.copy();
        if ((attr.flags() & ~OPEN_FLAGS) != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_av_open: flags 0x" +
                Long.toHexString(attr.flags() & ~OPEN_FLAGS) + " are not AV open flags (FI_EVENT, FI_READ, " +
                "FI_SYMMETRIC, FI_AV_USER_ID)");
        }
        if (attr.type() == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_open: type must not be null");
        }
        if (attr.type() == AvType.UNSPEC)
        {
            attr.type(AvType.TABLE);
        }
        if (attr.rxCtxBits() < 0 || attr.rxCtxBits() > MAX_RX_CTX_BITS)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_open: rx_ctx_bits " + attr.rxCtxBits() +
                " not in [0, " + MAX_RX_CTX_BITS + "]");
        }
        if (attr.count() < 0 || attr.epPerNode() < 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_open: count " + attr.count() + " and ep_per_node " +
                attr.epPerNode() + " must not be negative");
        }
        if (attr.count() > maxCount)
        {
            throw new FabricException(Errno.FI_ENOSYS, "fi_av_open: count " + attr.count() + " exceeds the " +
                maxCount + " addresses an shm AV holds (jfabric.shm.av.max.count)");
        }
        if (attr.count() == 0)
        {
            attr.count(Math.min(maxCount, epCnt));
        }
        if (attr.name() == null)
        {
            if ((attr.flags() & Flags.FI_READ) != 0)
            {
                throw new FabricException(Errno.FI_EINVAL,
                    "fi_av_open: FI_READ opens an existing named AV read-only; give its name");
            }
        }
        else
        {
            validateName(attr.name());
            if (attr.type() == AvType.MAP)
            {
                checkMapAddr(attr.mapAddr(), AvDescriptor.entriesFor(attr.count()));
            }
        }
        return attr;
    }

    /**
     * For a named FI_AV_MAP, whose fi_addr_t values are map_addr + index: check that map_addr + every index of a
     * table of {@code entries} fits the low {@link AvAddressing#INDEX_BITS} bits of an
     * fi_addr_t, the bits resolution reads (fi_group_addr takes the high 32), and is not all ones there: the last
     * fi_addr must stay below 0xFFFFFFFF, or fi_group_addr(it, 0xFFFFFFFF) would be FI_ADDR_NOTAVAIL.
     *
     * @param mapAddr the map_addr (0: the base 0).
     * @param entries the table's entries.
     * @throws FabricException {@link Errno#FI_EINVAL} when it does not.
     */
    static void checkMapAddr(final long mapAddr, final int entries)
    {
        if (mapAddr < 0 || mapAddr + entries >= AvAddressing.FI_ADDR_LIMIT)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_open: map_addr 0x" + Long.toHexString(mapAddr) +
                " leaves no room for the table's " + entries + " entries below 2^" + AvAddressing.INDEX_BITS + " - 1: fi_addr_t " +
                "values map_addr + index must fit the low " + AvAddressing.INDEX_BITS + " bits, fi_group_addr takes the others, " +
                "and may not be all ones there (fi_group_addr would make FI_ADDR_NOTAVAIL)");
        }
    }

    private static void validateName(final String name)
    {
        boolean ok = !name.isEmpty() && name.length() <= MAX_NAME_LENGTH;
        for (int i = 0; ok && i < name.length(); i++)
        {
            final char c = name.charAt(i);
            ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                ((c == '.' || c == '-') && i > 0);
        }
        if (!ok)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_open: AV name \"" + name + "\" is not 1 to " +
                MAX_NAME_LENGTH + " letters, digits, '.', '_' or '-' (not starting with '.' or '-')");
        }
    }
}
