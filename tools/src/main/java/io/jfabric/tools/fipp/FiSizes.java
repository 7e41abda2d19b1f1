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
package io.jfabric.tools.fipp;

import io.jfabric.EpType;
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;

import java.util.Arrays;
import java.util.Locale;

/**
 * fi_pingpong's choice of sizes for a native provider's run: {@code -S n} (k, m suffixes taken), a comma list, or
 * nothing: its default list 64, 256, 1k, 4k, 64k, 1m. Also which provider names are served natively (by the ofi
 * provider). Stateless.
 */
public final class FiSizes
{
    private static final int[] DEFAULTS = {64, 256, 1024, 4096, 65536, 1 << 20};

    private FiSizes()
    {
    }

    /**
     * @param provider a -p value.
     * @return whether getinfo finds an RDM endpoint with FI_MSG of that name from a native libfabric provider (the
     *         ofi provider's, named other than jfabric's shm); a name nobody serves goes the shm way, which reports
     *         it.
     */
    public static boolean isNative(final String provider)
    {
        if (provider == null || provider.trim().equalsIgnoreCase("shm"))
        {
            return false;
        }
        final Info hints = new Info().caps(Flags.FI_MSG);
        hints.epAttr().type(EpType.RDM);
        hints.fabricAttr().provName(provider);
        try
        {
            return Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).stream()
                .anyMatch(info -> info.fabricAttr() != null && !"shm".equalsIgnoreCase(info.fabricAttr().provName()));
        }
        catch (final FabricException ex)
        {
            return false;
        }
    }

    /**
     * @param spec -S, or null.
     * @return the sizes.
     * @throws IllegalArgumentException for a size that is not one.
     */
    public static int[] parse(final String spec)
    {
        if (spec == null)
        {
            return DEFAULTS.clone();
        }
        return Arrays.stream(spec.split(",")).mapToInt(FiSizes::one).toArray();
    }

    private static int one(final String text)
    {
        final String t = text.trim().toLowerCase(Locale.ROOT);
        final int scale = t.endsWith("k") ? 1 << 10 : t.endsWith("m") ? 1 << 20 : 1;
        final String digits = scale == 1 ? t : t.substring(0, t.length() - 1);
        try
        {
            final long size = Long.parseLong(digits) * scale;
            if (size < 1 || size > Integer.MAX_VALUE)
            {
                throw new IllegalArgumentException("-S " + text + ": a size from 1 byte to 2 GiB is needed");
            }
            return (int)size;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("-S " + text + " is not a size", ex);
        }
    }
}
