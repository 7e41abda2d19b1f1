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
 * The addresses fi_av_insertsvc and fi_av_insertsym (fi_av(3)) insert, made from node and service names: an shm
 * address is {@code fi_shm://node:slot/domain} ({@link ShmAddress}), so a service names a slot (and, after a slash,
 * a domain; without one, the AV's own). fi_av_insertsym counts nodes up in the node's numeric suffix, keeping its
 * width, and slots up from the service's slot number.
 * <p>
 * Stateless; any thread.
 */
final class ServiceAddresses
{
    private ServiceAddresses()
    {
    }

    /**
     * @param node       a node (host) name.
     * @param service    a slot number, with {@code /domain} or without.
     * @param domainName the AV's domain, for a service without one.
     * @return the address.
     */
    static String of(final String node, final String service, final String domainName)
    {
        return ShmAddress.SCHEME + node + ':' + (service.indexOf('/') < 0 ? service + '/' + domainName : service);
    }

    /**
     * fi_av_insertsym's addresses: {@code nodecnt} nodes from {@code node}, each with {@code svccnt} slots from the
     * service's, node by node.
     *
     * @param capacity   the AV's entries: more addresses than this are refused before any is made.
     * @param domainName the AV's domain.
     * @return the addresses.
     * @throws FabricException {@link Errno#FI_EINVAL} naming the argument that is wrong.
     */
    static String[] symmetric(
        final String node, final int nodecnt, final String service, final int svccnt, final int capacity,
        final String domainName)
    {
        if (node == null || service == null || nodecnt < 0 || svccnt < 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insertsym: node and service are required and the " +
                "counts not negative (node " + node + " x " + nodecnt + ", service " + service + " x " + svccnt + ")");
        }
        final int digits = numericSuffix(node);
        if (nodecnt > 1 && digits == 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insertsym: node \"" + node + "\" has no numeric " +
                "suffix, which nodecnt " + nodecnt + " > 1 needs");
        }
        final int slash = service.indexOf('/');
        final String firstSlot = slash < 0 ? service : service.substring(0, slash);
        final String rest = slash < 0 ? "" : service.substring(slash);
        if (firstSlot.isEmpty() || numericSuffix(firstSlot) != firstSlot.length() || firstSlot.length() > 9)
        {
            throw new FabricException(Errno.FI_EINVAL,
                "fi_av_insertsym: service \"" + service + "\" must start with a decimal slot number");
        }
        final long total = (long)nodecnt * svccnt;
        if (total > capacity)
        {
            // Checked before the addresses are made: a count near 2^31 would otherwise allocate gigabytes first.
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insertsym: " + nodecnt + " nodes x " + svccnt +
                " services = " + total + " addresses, more than the AV's table holds (" + capacity +
                " entries); nothing was inserted");
        }
        final String[] addresses = new String[(int)total];
        final String prefix = node.substring(0, node.length() - digits);
        final long firstNode = digits == 0 ? 0 : Long.parseLong(node.substring(node.length() - digits));
        final int slot = Integer.parseInt(firstSlot);
        int k = 0;
        for (int n = 0; n < nodecnt; n++)
        {
            final String nodeName = digits == 0 ? node : prefix + pad(firstNode + n, digits);
            for (int s = 0; s < svccnt; s++)
            {
                addresses[k++] = of(nodeName, (slot + (long)s) + rest, domainName);
            }
        }
        return addresses;
    }

    private static int numericSuffix(final String s)
    {
        int digits = 0;
        while (digits < s.length() && Character.isDigit(s.charAt(s.length() - 1 - digits)) &&
            s.charAt(s.length() - 1 - digits) < 128)
        {
            digits++;
        }
        return Math.min(digits, 18);
    }

    private static String pad(final long value, final int width)
    {
        final String text = Long.toString(value);
        return text.length() >= width ? text : "0".repeat(width - text.length()) + text;
    }
}
