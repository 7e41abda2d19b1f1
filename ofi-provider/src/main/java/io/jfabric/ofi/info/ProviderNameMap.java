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
package io.jfabric.ofi.info;

import java.util.Locale;

/**
 * The names of native providers as jfabric offers them. libfabric's own names pass unchanged ({@code tcp;ofi_rxm},
 * {@code verbs;ofi_rxm}, {@code efa}, {@code udp;ofi_rxd}), except libfabric's own {@code shm}: on one host jfabric's
 * {@code shm} provider serves, so the name {@code shm} always means jfabric's, and libfabric's is offered only when
 * asked for by the name {@value #NATIVE_SHM} (getinfo's {@code prov_name}, {@code -p ofi:shm}); its infos then
 * carry that name, which {@code fi_fabric} gets back as {@code shm}.
 * Stateless; any thread.
 */
public final class ProviderNameMap
{
    /** The name under which libfabric's own shm provider is offered. */
    public static final String NATIVE_SHM = "ofi:shm";
    /** The name of this provider: every native provider but libfabric's shm. */
    public static final String OFI = "ofi";

    private static final String SHM = "shm";

    private ProviderNameMap()
    {
    }

    /**
     * @param requested a requested prov_name, as the application wrote it.
     * @return the name to give libfabric's getinfo and fabric: null for {@code ofi} (every provider), {@code shm}
     *         for {@value #NATIVE_SHM}, else the name unchanged.
     */
    public static String toNative(final String requested)
    {
        if (requested == null)
        {
            return null;
        }
        final String trimmed = requested.trim();
        if (trimmed.equalsIgnoreCase(OFI))
        {
            return null;
        }
        if (trimmed.equalsIgnoreCase(NATIVE_SHM))
        {
            return SHM;
        }
        return requested;
    }

    /**
     * @param nativeName a prov_name libfabric reported.
     * @return the name jfabric reports.
     */
    public static String fromNative(final String nativeName)
    {
        return isNativeShm(nativeName) ? NATIVE_SHM : nativeName;
    }

    /**
     * @param requested a requested prov_name, never null.
     * @return whether this provider answers for it: any name but jfabric's {@code shm} (and lists naming only it).
     */
    public static boolean answers(final String requested)
    {
        final String trimmed = requested.trim().toLowerCase(Locale.ROOT);
        return !trimmed.equals(SHM);
    }

    /**
     * @param requested a requested prov_name, or null.
     * @return whether the application asked for libfabric's shm by {@value #NATIVE_SHM}.
     */
    public static boolean wantsNativeShm(final String requested)
    {
        return requested != null && requested.trim().equalsIgnoreCase(NATIVE_SHM);
    }

    /**
     * @param nativeName a prov_name libfabric reported.
     * @return whether it is libfabric's own shm provider.
     */
    public static boolean isNativeShm(final String nativeName)
    {
        return nativeName != null && nativeName.equalsIgnoreCase(SHM);
    }
}
