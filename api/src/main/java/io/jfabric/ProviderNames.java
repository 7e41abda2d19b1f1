package io.jfabric;

import java.util.Locale;

/**
 * How a {@code prov_name} in hints selects providers: one name, compared without case, or with a leading '^' every
 * provider but that one. A ';'-separated list is libfabric's request for a utility provider layered over a core
 * one ({@code "tcp;ofi_rxm"}); jfabric has no utility providers, so such a list matches none.
 */
final class ProviderNames
{
    private ProviderNames()
    {
    }

    static boolean matches(final String requested, final String provider)
    {
        String list = requested.trim();
        final boolean exclude = list.startsWith("^");
        if (exclude)
        {
            list = list.substring(1);
        }
        if (list.indexOf(';') >= 0)
        {
            return false;
        }
        final boolean named = list.trim().toLowerCase(Locale.ROOT).equals(provider.toLowerCase(Locale.ROOT));
        return exclude != named;
    }
}
