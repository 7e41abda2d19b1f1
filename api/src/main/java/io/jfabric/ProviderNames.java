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
