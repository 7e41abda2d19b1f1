package io.jfabric;

import java.util.Locale;

/**
 * How a {@code prov_name} in hints selects providers: a name or a ';'-separated list of names (libfabric's
 * layered form, {@code "shm;ofi_rxm"}), compared without case; a leading '^' excludes the named providers.
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
        boolean named = false;
        for (final String part : list.split("[;,]"))
        {
            if (part.trim().toLowerCase(Locale.ROOT).equals(provider.toLowerCase(Locale.ROOT)))
            {
                named = true;
                break;
            }
        }
        return exclude != named;
    }
}
