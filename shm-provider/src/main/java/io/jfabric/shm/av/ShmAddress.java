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
import io.jfabric.shm.core.LocalHost;
import io.jfabric.shm.region.RegionFile;

import java.util.Objects;

/**
 * The shm provider's endpoint address, in its one printable FI_ADDR_STR form: libfabric's grammar
 * {@code address_format://node:service/field3} with the host as node, the endpoint slot as service and the domain
 * as the third field, and an optional incarnation qualifier:
 * <pre>
 *   fi_shm://&lt;host&gt;:&lt;slot&gt;/&lt;domain&gt;[?gen=&lt;incarnation&gt;]
 *   fi_shm://build7:3/orders
 *   fi_shm://build7:3/orders?gen=12
 * </pre>
 * {@code slot} is the endpoint's slot index in the domain's region (decimal, no sign, no leading zeros beyond "0");
 * {@code incarnation} (decimal, at least 1) tells a later owner of a reused slot from an earlier one; without it
 * the address means whichever endpoint holds the slot. The host is this host's name (or an alias
 * {@link LocalHost#isLocal} accepts); the domain follows the domain name rules. An address is at most
 * {@link AvDescriptor#ADDRESS_CAPACITY} characters.
 * <p>
 * Parsing and printing live here only; endpoints print their name with {@link #format}. Immutable value; any
 * thread.
 */
public final class ShmAddress
{
    /** The address format prefix. */
    public static final String SCHEME = "fi_shm://";

    /** The incarnation qualifier. */
    public static final String GEN_QUALIFIER = "?gen=";

    private final String host;
    private final int slot;
    private final String domain;
    private final long incarnation;

    /**
     * @param host        the host name.
     * @param slot        the endpoint slot, at least 0.
     * @param domain      the domain name.
     * @param incarnation the slot owner's incarnation, 0 for none.
     */
    public ShmAddress(final String host, final int slot, final String domain, final long incarnation)
    {
        this.host = Objects.requireNonNull(host, "host");
        this.slot = slot;
        this.domain = Objects.requireNonNull(domain, "domain");
        this.incarnation = incarnation;
    }

    /**
     * Parse an address.
     *
     * @param text the address.
     * @return the parsed address.
     * @throws FabricException {@link Errno#FI_EINVAL} naming what is malformed.
     */
    public static ShmAddress parse(final String text)
    {
        if (text == null)
        {
            throw invalid("null", "an address must not be null");
        }
        if (text.length() > AvDescriptor.ADDRESS_CAPACITY)
        {
            throw invalid(text.substring(0, 40) + "...", "it is " + text.length() + " characters, longer than " +
                AvDescriptor.ADDRESS_CAPACITY);
        }
        if (!text.startsWith(SCHEME))
        {
            throw invalid(text, "it does not start with " + SCHEME);
        }
        final int colon = text.indexOf(':', SCHEME.length());
        final int slash = colon < 0 ? -1 : text.indexOf('/', colon);
        if (colon < 0 || slash < 0)
        {
            throw invalid(text, "the form is " + SCHEME + "<host>:<slot>/<domain>[?gen=<n>]");
        }
        final String host = text.substring(SCHEME.length(), colon);
        if (host.isEmpty())
        {
            throw invalid(text, "the host is empty");
        }
        final int slot = (int)parseNumber(text, text.substring(colon + 1, slash), "slot", Integer.MAX_VALUE);
        final int question = text.indexOf('?', slash);
        final String domain = text.substring(slash + 1, question < 0 ? text.length() : question);
        try
        {
            RegionFile.validateDomainName(domain);
        }
        catch (final FabricException ex)
        {
            throw invalid(text, ex.getMessage());
        }
        long incarnation = 0;
        if (question >= 0)
        {
            if (!text.startsWith(GEN_QUALIFIER, question))
            {
                throw invalid(text, "the only qualifier is " + GEN_QUALIFIER + "<n>");
            }
            incarnation = parseNumber(text, text.substring(question + GEN_QUALIFIER.length()), "incarnation",
                Long.MAX_VALUE >>> 2);
        }
        return new ShmAddress(host, slot, domain, incarnation);
    }

    /**
     * Print an address in its canonical form.
     *
     * @param host        the host.
     * @param slot        the endpoint slot.
     * @param domain      the domain.
     * @param incarnation the incarnation, 0 for none (not printed).
     * @return the address.
     */
    public static String format(final String host, final int slot, final String domain, final long incarnation)
    {
        final String base = SCHEME + host + ':' + slot + '/' + domain;
        return incarnation == 0 ? base : base + GEN_QUALIFIER + incarnation;
    }

    /** @return the canonical form of this address. */
    public String format()
    {
        return format(host, slot, domain, incarnation);
    }

    /** @return the host part. */
    public String host()
    {
        return host;
    }

    /** @return the endpoint slot. */
    public int slot()
    {
        return slot;
    }

    /** @return the domain part. */
    public String domain()
    {
        return domain;
    }

    /** @return the incarnation, 0 when the address names none. */
    public long incarnation()
    {
        return incarnation;
    }

    /** @return true when the host part names this host. */
    public boolean isLocal()
    {
        return LocalHost.isLocal(host);
    }

    @Override
    public boolean equals(final Object o)
    {
        if (!(o instanceof ShmAddress))
        {
            return false;
        }
        final ShmAddress that = (ShmAddress)o;
        return slot == that.slot && incarnation == that.incarnation && host.equals(that.host) &&
            domain.equals(that.domain);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(host, slot, domain, incarnation);
    }

    @Override
    public String toString()
    {
        return format();
    }

    private static long parseNumber(final String text, final String digits, final String what, final long max)
    {
        if (digits.isEmpty() || digits.length() > 19 || (digits.length() > 1 && digits.charAt(0) == '0'))
        {
            throw invalid(text, "the " + what + " '" + digits + "' is not a decimal number");
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++)
        {
            final char c = digits.charAt(i);
            if (c < '0' || c > '9')
            {
                throw invalid(text, "the " + what + " '" + digits + "' is not a decimal number");
            }
            value = value * 10 + (c - '0');
            if (value > max || value < 0)
            {
                throw invalid(text, "the " + what + " " + digits + " is larger than " + max);
            }
        }
        return value;
    }

    private static FabricException invalid(final String text, final String why)
    {
        return new FabricException(Errno.FI_EINVAL, "shm address \"" + text + "\" is malformed: " + why);
    }
}
