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

import io.jfabric.spi.FabricProvider;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The entry point: {@code fi_getinfo} over every provider found with {@link ServiceLoader}, and {@code fi_fabric}.
 * <p>
 * Thread safe. Providers are discovered once, on first use.
 */
public final class Fabrics
{
    private static volatile List<FabricProvider> providers;

    private Fabrics()
    {
    }

    /**
     * @return the providers found on the class path or module path, in discovery order.
     */
    public static List<FabricProvider> providers()
    {
        List<FabricProvider> list = providers;
        if (list == null)
        {
            final List<FabricProvider> found = new ArrayList<>();
            final Iterator<FabricProvider> it =
                ServiceLoader.load(FabricProvider.class, Fabrics.class.getClassLoader()).iterator();
            while (true)
            {
                try
                {
                    if (!it.hasNext())
                    {
                        break;
                    }
                    found.add(it.next());
                }
                catch (final ServiceConfigurationError ex)
                {
                    // A provider that cannot even be instantiated is skipped, as libfabric skips a provider
                    // that fails to load; the others stay usable.
                    System.getLogger(Fabrics.class.getName()).log(System.Logger.Level.WARNING,
                        "jfabric: skipping a provider that failed to load: " + ex.getMessage());
                }
                catch (final LinkageError ex)
                {
                    // ServiceLoader lets a class the JVM cannot link escape bare: a provider compiled for a newer
                    // Java (UnsupportedClassVersionError, such as the ofi provider, release 22, on Java 17) or one
                    // missing a class it needs. Skipped like the above; the iterator moves on to the next entry.
                    System.getLogger(Fabrics.class.getName()).log(System.Logger.Level.WARNING,
                        "jfabric: skipping a provider this Java " + Runtime.version().feature() +
                        " cannot load (" + ex.getClass().getSimpleName() + "): " + ex.getMessage());
                }
            }
            list = Collections.unmodifiableList(found);
            providers = list;
        }
        return list;
    }

    /**
     * {@code fi_getinfo}: the configurations of every provider that satisfy the hints, in provider order.
     *
     * @param version the API version the application was written to, {@code Versions.version(1, x)}.
     * @param node    a node name, or null.
     * @param service a service name, or null.
     * @param flags   getinfo flags: {@link Flags#FI_NUMERICHOST}, {@link Flags#FI_SOURCE},
     *                {@link Flags#FI_PROV_ATTR_ONLY}; other bits give {@link Errno#FI_EBADFLAGS}.
     * @param hints   the hints, or null for none; never changed.
     * @return the matching infos, never empty; each a fresh copy the caller owns.
     * @throws FabricException {@link Errno#FI_ENODATA} when nothing matches, {@link Errno#FI_ENOSYS} for an API
     *                         version newer than this library, {@link Errno#FI_EBADFLAGS} or {@link Errno#FI_EINVAL}
     *                         for bad arguments.
     */
    public static List<Info> getInfo(
        final int version, final String node, final String service, final long flags, final Info hints)
    {
        if (Versions.major(version) != Versions.FI_MAJOR_VERSION || version > Versions.FI_CURRENT_VERSION)
        {
            throw new FabricException(Errno.FI_ENOSYS, "fi_getinfo: API version " + Versions.major(version) + "." +
                Versions.minor(version) + " is not supported; this library implements up to " +
                Versions.FI_MAJOR_VERSION + "." + Versions.FI_MINOR_VERSION);
        }
        final long known = Flags.FI_NUMERICHOST | Flags.FI_SOURCE | Flags.FI_PROV_ATTR_ONLY;
        if ((flags & ~known) != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS,
                "fi_getinfo: unsupported flags 0x" + Long.toHexString(flags & ~known));
        }
        final String wanted = hints != null && hints.fabricAttr() != null ? hints.fabricAttr().provName() : null;
        final List<Info> result = new ArrayList<>();
        final StringBuilder reasons = new StringBuilder();
        for (final FabricProvider provider : providers())
        {
            if (wanted == null || selects(wanted, provider))
            {
                try
                {
                    result.addAll(provider.getInfo(version, node, service, flags, hints));
                }
                catch (final FabricException ex)
                {
                    // As libfabric: a provider that fails is skipped; nothing matching at all is FI_ENODATA.
                    reasons.append("; ").append(provider.name()).append(": ").append(ex.reason());
                }
            }
        }
        if (result.isEmpty())
        {
            throw new FabricException(Errno.FI_ENODATA, "fi_getinfo: no provider matches the hints" +
                (wanted != null ? " (prov_name=" + wanted + ")" : "") + (node != null ? " (node=" + node + ")" : "") +
                reasons);
        }
        return result;
    }

    private static boolean selects(final String provName, final FabricProvider provider)
    {
        return ProviderNames.matches(provName, provider.name()) || provider.answers(provName);
    }

    /**
     * {@code fi_fabric}: open the fabric of the provider named in the attributes.
     *
     * @param attr    fabric attributes, usually from an info getinfo returned; {@code prov_name} selects the
     *                provider (the first that accepts the attributes when null).
     * @param context the application's context for the fabric.
     * @return the open fabric.
     * @throws FabricException {@link Errno#FI_EINVAL} for null attributes, {@link Errno#FI_ENODATA} when no
     *                         provider has that name.
     */
    public static Fabric fabric(final FabricAttr attr, final long context)
    {
        if (attr == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_fabric: attr must not be null");
        }
        for (final FabricProvider provider : providers())
        {
            if (attr.provName() == null || selects(attr.provName(), provider))
            {
                return provider.fabric(attr, context);
            }
        }
        throw new FabricException(Errno.FI_ENODATA, "fi_fabric: no provider named '" + attr.provName() + "'");
    }
}
