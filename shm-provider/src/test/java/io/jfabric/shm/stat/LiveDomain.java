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
package io.jfabric.shm.stat;

import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.testsupport.ChildJvm;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A live domain of two JVMs for the stat tests: small rings, this JVM's endpoint
 * in slot 0 (it never reads its completion queue), and a {@link StatPeerMain} child in slot 1 that has left
 * {@link StatPeerMain#PARKED} messages in slot 0's lane and keeps sending to itself. Under its own
 * {@link ShmTestRoot}, removed by {@link #close()}. The test thread only.
 */
final class LiveDomain implements AutoCloseable
{
    /** The settings of both processes, without the "jfabric.shm." prefix. */
    public static final Map<String, String> SIZES = Map.of("ep.count", "4", "rx.ring.bytes", "4096",
        "tx.ring.bytes", "4096", "cq.ring.bytes", "4096", "mr.count", "16", "cntr.count", "4");

    private final ShmTestRoot root = new ShmTestRoot();
    private final String name;
    private final Fabric fabric;
    private final Domain domain;
    private final StatPeerMain.Side local;
    private final ChildJvm child;
    private final String childAddress;

    /**
     * Open the domain here, then start the child and wait until it has parked its messages.
     *
     * @param name the domain's name.
     * @throws Exception when the child cannot be started or does not get ready.
     */
    public LiveDomain(final String name) throws Exception
    {
        this.name = name;
        final ShmProvider provider = root.provider(SIZES::get);
        final Info hints = new Info();
        hints.domainAttr().name(name);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        local = StatPeerMain.Side.open(domain, info);
        final List<String> properties = SIZES.entrySet().stream()
            .map(e -> "jfabric.shm." + e.getKey() + "=" + e.getValue()).collect(Collectors.toList());
        properties.add("jfabric.shm.dir=" + root.dir());
        child = ChildJvm.start(StatPeerMain.class, properties, name, local.name);
        childAddress = child.awaitResult(60).get("addr");
    }

    /** @return the shm root of the domain. */
    public Path root()
    {
        return root.dir();
    }

    /** @return the domain's region file. */
    public Path regionFile()
    {
        return RegionFile.regionPath(root.dir(), name);
    }

    /** @return the open domain in this JVM. */
    public Domain domain()
    {
        return domain;
    }

    /** @return the address of this JVM's endpoint (slot 0). */
    public String localAddress()
    {
        return local.name;
    }

    /** @return the child. */
    public ChildJvm child()
    {
        return child;
    }

    /** @return the address of the child's endpoint (slot 1). */
    public String childAddress()
    {
        return childAddress;
    }

    /**
     * Kill the child, close everything here and remove the root.
     *
     * @throws Exception when closing fails.
     */
    @Override
    public void close() throws Exception
    {
        try
        {
            child.kill();
            for (final AutoCloseable closeable : local.closeables())
            {
                closeable.close();
            }
            domain.close();
            fabric.close();
        }
        finally
        {
            root.close();
        }
    }
}
