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
package io.jfabric.tools.inspect;

import io.jfabric.FabricException;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.stat.DomainStat;
import io.jfabric.shm.stat.SlotStat;
import io.jfabric.testsupport.JvmCommand;
import io.jfabric.testsupport.PrivateRoot;
import io.jfabric.tools.JfabricMain;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A live domain of two JVMs for the stat and dump tests: {@code jfabric pingpong --self} run as a child JVM (the
 * client), which starts the server JVM; both hold an endpoint of the domain and send to each other until the client
 * is stopped (SIGTERM: it stops the server and removes its files). Under a root directory of its own, with a small
 * region ({@link #SETTINGS}). The test thread only.
 */
final class LivePingpong implements AutoCloseable
{
    /** The provider settings of both processes (and of a test that opens the domain too). */
    static final String[] SETTINGS = {"jfabric.shm.ep.count=4", "jfabric.shm.rx.ring.bytes=4096",
        "jfabric.shm.tx.ring.bytes=4096", "jfabric.shm.cq.ring.bytes=4096", "jfabric.shm.mr.count=64",
        "jfabric.shm.cntr.count=4"};

    private final PrivateRoot ownRoot = new PrivateRoot("jfabric-inspect-");
    private final Path root = ownRoot.dir();
    private final String domain;
    private final Process client;

    /**
     * Start the pingpong and wait until both its endpoints are enabled.
     *
     * @param domain the domain's name.
     * @throws Exception when it does not start within a minute.
     */
    LivePingpong(final String domain) throws Exception
    {
        this.domain = domain;
        final List<String> command = JvmCommand.quickStart();
        command.add("-Djfabric.shm.dir=" + root);
        for (final String setting : SETTINGS)
        {
            command.add("-D" + setting);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), JfabricMain.class.getName(),
            "pingpong", "--self", "--domain", domain, "-S", "64", "-I", "2000000000", "-W", "1", "--timeout", "60"));
        client = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        awaitBothEndpoints();
    }

    private void awaitBothEndpoints() throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && client.isAlive())
        {
            try
            {
                if (DomainStat.read(regionFile()).slots().stream().filter(SlotStat::hasEndpoint).count() == 2 &&
                    DomainStat.read(regionFile()).slots().stream().allMatch(s -> s.stateName().equals("ACTIVE")))
                {
                    return;
                }
            }
            catch (final FabricException notYet)
            {
                // No region yet, or a moment before its endpoints.
            }
            Thread.sleep(20);
        }
        client.destroyForcibly();
        throw new AssertionError("pingpong did not get both endpoints enabled in " + root);
    }

    /** @return a provider of this root with the pingpong's settings, for a test that opens the domain too. */
    ShmProvider provider()
    {
        final Map<String, String> settings = new HashMap<>();
        for (final String setting : SETTINGS)
        {
            settings.put(setting.substring(ShmConfig.PREFIX.length(), setting.indexOf('=')),
                setting.substring(setting.indexOf('=') + 1));
        }
        settings.put("dir", root.toString());
        return new ShmProvider(ShmConfig.of(settings::get));
    }

    /** @return the shm root. */
    Path root()
    {
        return root;
    }

    /** @return the domain's name. */
    String domain()
    {
        return domain;
    }

    /** @return the domain's region file. */
    Path regionFile()
    {
        return RegionFile.regionPath(root, domain);
    }

    /** @return the client's pid. */
    long clientPid()
    {
        return client.pid();
    }

    /**
     * Stop the pingpong (SIGTERM: it stops its server and removes its files), then remove the root.
     *
     * @throws Exception when it does not stop.
     */
    @Override
    public void close() throws Exception
    {
        client.destroy();
        if (!client.waitFor(30, TimeUnit.SECONDS))
        {
            client.destroyForcibly();
        }
        ownRoot.close();
    }
}
