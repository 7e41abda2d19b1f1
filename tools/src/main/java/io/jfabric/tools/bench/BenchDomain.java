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
package io.jfabric.tools.bench;

import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.config.ShmConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A shm fabric in a private root directory under /dev/shm for one benchmark run, removed again on close. Opens as
 * many domain objects of one named domain as a benchmark needs (each maps the region itself, as another process
 * would). Benchmark setup thread only.
 */
final class BenchDomain implements AutoCloseable
{
    private final Path root;
    private final ShmProvider provider;
    private final Fabric fabric;
    private final Info info;

    BenchDomain()
    {
        this(io.jfabric.Threading.SAFE);
    }

    /**
     * @param threading the domain's threading model.
     */
    BenchDomain(final io.jfabric.Threading threading)
    {
        this(threading, key -> null);
    }

    /**
     * @param threading the domain's threading model.
     * @param settings  further provider settings (keys without the "jfabric.shm." prefix; null for a default).
     */
    BenchDomain(final io.jfabric.Threading threading, final java.util.function.UnaryOperator<String> settings)
    {
        try
        {
            root = Files.createTempDirectory(Path.of("/dev/shm"), "jfabric-bench-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        provider = new ShmProvider(ShmConfig.of(key -> "dir".equals(key) ? root.toString() : settings.apply(key)));
        final Info hints = new Info();
        hints.domainAttr().name("bench").threading(threading);
        info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        info.domainAttr().mrMode(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
    }

    Domain open()
    {
        return fabric.domain(info, 0);
    }

    @Override
    public void close()
    {
        fabric.close();
        try (Stream<Path> paths = Files.walk(root))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
