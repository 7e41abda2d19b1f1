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
package io.jfabric.tools.pingpong;

import io.jfabric.EpType;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.Info;
import io.jfabric.MrMode;
import io.jfabric.Progress;
import io.jfabric.Threading;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.spi.FabricProvider;

import java.nio.file.Path;

/**
 * The provider a pingpong runs over, found as a libfabric application finds it and as {@code jfabric info -p} does:
 * {@link Fabrics#getInfo} with pingpong's hints ({@link #hints}: FI_EP_RDM, the transfer mode's capabilities (FI_MSG
 * or FI_TAGGED, with FI_RMA or FI_ATOMIC for the one-sided modes), the named domain,
 * FI_PROGRESS_MANUAL, FI_THREAD_DOMAIN, {@code prov_name} from {@code -p}), keeping the first info returned. An
 * unknown provider, or one that offers nothing for those hints, is getinfo's {@link Errno#FI_ENODATA}.
 * <p>
 * The settings are the provider's own: the shm provider {@link Fabrics} discovered reads its {@link ShmConfig} from
 * the {@code jfabric.shm.*} system properties and {@code JFABRIC_SHM_*} environment variables on its first use, once
 * per JVM, and {@link #rootDir()} is that configuration's root directory, where the domain's region lives and the
 * two sides publish their addresses. With another provider the rendezvous files go to the root directory
 * {@link ShmConfig#load()} gives. Immutable once found; the command's thread.
 */
final class PingpongProvider
{
    /** {@code -p}'s default. */
    static final String DEFAULT_NAME = "shm";

    private final Info info;
    private final Path rootDir;

    private PingpongProvider(final Info info, final Path rootDir)
    {
        this.info = info;
        this.rootDir = rootDir;
    }

    /**
     * fi_getinfo with pingpong's hints.
     *
     * @param provider the provider's name ({@code -p}).
     * @param domain   the named domain both sides open.
     * @param mode     the transfer calls: their capabilities ({@link TransferMode#caps()}) are asked for.
     * @return the provider and the first info it offers.
     * @throws FabricException {@link Errno#FI_ENODATA} when no provider of that name matches the hints,
     *                         {@link Errno#FI_EINVAL} for a bad {@code jfabric.shm.*} setting.
     */
    static PingpongProvider find(final String provider, final String domain, final TransferMode mode)
    {
        checkSettings(provider);
        final Info info;
        try
        {
            info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints(provider, domain, mode)).get(0);
        }
        catch (final FabricException ex)
        {
            if (ex.errno() != Errno.FI_ENODATA)
            {
                throw ex;
            }
            throw new FabricException(Errno.FI_ENODATA, "-p " + provider + ": no provider of that name offers " +
                "FI_EP_RDM with " + mode.capsText() + " and manual progress " +
                "for domain '" + domain + "' ('jfabric info -l' lists the providers): " + ex.reason());
        }
        return new PingpongProvider(info, rootDir(info.fabricAttr().provName()));
    }

    /**
     * @param provider the provider's name, or null for any.
     * @param domain   the named domain.
     * @param mode     the transfer calls.
     * @return the hints pingpong passes to fi_getinfo.
     */
    static Info hints(final String provider, final String domain, final TransferMode mode)
    {
        final Info hints = new Info();
        hints.caps(mode.caps());
        hints.epAttr().type(EpType.RDM);
        hints.fabricAttr().provName(provider);
        hints.domainAttr().name(domain).threading(Threading.DOMAIN).dataProgress(Progress.MANUAL)
            .mrMode(MrMode.FI_MR_PROV_KEY);
        return hints;
    }

    /**
     * Read the named shm provider's settings now, so that a bad one is its own {@link Errno#FI_EINVAL} naming the
     * setting rather than one of the reasons of getinfo's FI_ENODATA (getinfo skips a provider that fails).
     */
    private static void checkSettings(final String provider)
    {
        for (final FabricProvider candidate : Fabrics.providers())
        {
            if (candidate instanceof ShmProvider && candidate.name().equalsIgnoreCase(provider))
            {
                ((ShmProvider)candidate).config();
            }
        }
    }

    private static Path rootDir(final String provName)
    {
        for (final FabricProvider candidate : Fabrics.providers())
        {
            if (candidate instanceof ShmProvider && candidate.name().equals(provName))
            {
                return ((ShmProvider)candidate).config().rootDir();
            }
        }
        return ShmConfig.load().rootDir();
    }

    /** @return the info getinfo returned first, to open the fabric, domain and endpoint with. */
    Info info()
    {
        return info;
    }

    /** @return the provider's name, as getinfo reported it. */
    String name()
    {
        return info.fabricAttr().provName();
    }

    /** @return the endpoint's max_msg_size, for {@code -S}. */
    long maxMsgSize()
    {
        return info.epAttr().maxMsgSize();
    }

    /**
     * @return the domain's ep_cnt: the most endpoints it takes, for {@code --endpoints} (the shm provider's
     * {@code jfabric.shm.ep.count}, its region's endpoint slots).
     */
    long maxEndpoints()
    {
        return info.domainAttr().epCnt();
    }

    /** @return the directory of the domain's region and of the rendezvous files. */
    Path rootDir()
    {
        return rootDir;
    }
}
