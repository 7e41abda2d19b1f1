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
package io.jfabric.tools;

import io.jfabric.AddrFormat;
import io.jfabric.Errno;
import io.jfabric.EpType;
import io.jfabric.Fabric;
import io.jfabric.FabricAttr;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Protocol;
import io.jfabric.Versions;
import io.jfabric.spi.FabricProvider;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A provider for the tools' tests, registered through the test class path's META-INF/services, so that
 * {@code jfabric info} can be exercised whether or not the shm provider is built yet. It offers two fixed
 * configurations, filters them by the hints the way a provider must, and remembers the last node and service it
 * was asked for. It opens no fabrics.
 */
public final class ToolsTestProvider implements FabricProvider
{
    static final String NAME = "jfabric_test";
    static final int VERSION = Versions.version(3, 1);

    static volatile String lastNode;
    static volatile String lastService;
    static volatile long lastFlags;

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public int version()
    {
        return VERSION;
    }

    @Override
    public List<Info> getInfo(
        final int version, final String node, final String service, final long flags, final Info hints)
    {
        lastNode = node;
        lastService = service;
        lastFlags = flags;
        final List<Info> matches = new ArrayList<>();
        for (final Info info : List.of(rdm(), dgram()))
        {
            if (matches(info, hints))
            {
                matches.add(info);
            }
        }
        return matches;
    }

    @Override
    public Fabric fabric(final FabricAttr attr, final long context)
    {
        throw new FabricException(Errno.FI_ENOSYS, "the tools' test provider opens no fabrics");
    }

    static Info rdm()
    {
        final Info info = new Info()
            .caps(Flags.FI_MSG | Flags.FI_TAGGED | Flags.FI_SEND | Flags.FI_RECV | Flags.FI_LOCAL_COMM)
            .addrFormat(AddrFormat.ADDR_STR)
            .srcAddr("fi_test://1\0".getBytes(StandardCharsets.US_ASCII));
        info.epAttr().type(EpType.RDM).protocol(Protocol.SHM).protocolVersion(1);
        info.domainAttr().name("testdom");
        info.fabricAttr().name("testfab").provName(NAME).provVersion(VERSION).apiVersion(Versions.FI_CURRENT_VERSION);
        return info;
    }

    static Info dgram()
    {
        final Info info = new Info()
            .caps(Flags.FI_MSG | Flags.FI_SEND | Flags.FI_RECV)
            .addrFormat(AddrFormat.SOCKADDR_IN);
        info.epAttr().type(EpType.DGRAM).protocol(Protocol.UDP);
        info.domainAttr().name("otherdom");
        info.fabricAttr().name("testfab").provName(NAME).provVersion(VERSION).apiVersion(Versions.FI_CURRENT_VERSION);
        return info;
    }

    private static boolean matches(final Info info, final Info hints)
    {
        if (hints == null)
        {
            return true;
        }
        if ((hints.caps() & ~info.caps()) != 0 || (info.mode() & ~hints.mode()) != 0)
        {
            return false;
        }
        if (hints.addrFormat() != AddrFormat.UNSPEC && hints.addrFormat() != info.addrFormat())
        {
            return false;
        }
        if (hints.epAttr() != null && hints.epAttr().type() != EpType.UNSPEC &&
            hints.epAttr().type() != info.epAttr().type())
        {
            return false;
        }
        if (hints.domainAttr() != null && hints.domainAttr().name() != null &&
            !hints.domainAttr().name().equals(info.domainAttr().name()))
        {
            return false;
        }
        return hints.fabricAttr() == null || hints.fabricAttr().name() == null ||
            hints.fabricAttr().name().equals(info.fabricAttr().name());
    }
}
