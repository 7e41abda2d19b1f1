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
package io.jfabric.shm.mr;

import io.jfabric.Domain;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.domain.ShmDomain;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Opens shm domains in a per-test root directory with a chosen mr_mode, and closes everything it opened (domains
 * last) when the test ends. Test thread only.
 */
final class MrTestDomains implements AutoCloseable
{
    final ShmTestRoot root = new ShmTestRoot();
    final ShmProvider provider;
    final Fabric fabric;
    private final List<AutoCloseable> opened = new ArrayList<>();

    MrTestDomains()
    {
        this(key -> null);
    }

    MrTestDomains(final java.util.function.UnaryOperator<String> settings)
    {
        provider = root.provider(settings);
        fabric = provider.fabric(info("mr", 0).fabricAttr(), 0);
    }

    Info info(final String name, final int mrMode)
    {
        final Info hints = new Info();
        hints.domainAttr().name(name);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        info.domainAttr().mrMode(mrMode);
        return info;
    }

    ShmDomain open(final String name, final int mrMode)
    {
        return open(info(name, mrMode));
    }

    ShmDomain open(final Info info)
    {
        final ShmDomain domain = (ShmDomain)fabric.domain(info, 0);
        opened.add(domain);
        return domain;
    }

    static void assertErrno(final int errno, final Executable call)
    {
        final FabricException ex = assertThrows(FabricException.class, call);
        assertEquals(errno, ex.errno(), () -> "expected " + Errno.name(errno) + ", got " + ex.getMessage());
    }

    @Override
    public void close()
    {
        try
        {
            for (final AutoCloseable c : opened)
            {
                final Domain d = (Domain)c;
                d.close();
            }
            fabric.close();
        }
        finally
        {
            root.close();
        }
    }
}
