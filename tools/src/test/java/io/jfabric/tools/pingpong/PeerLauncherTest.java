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

import io.jfabric.tools.JfabricMain;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line {@code pingpong --self} starts its server with: same JVM, options, class path, jfabric settings
 * and run settings, as the quiet server side.
 */
class PeerLauncherTest
{
    private static final PingpongOptions OPTIONS = new PingpongOptions.Builder()
        .sizes(SizeList.parse("64,4096"))
        .iterations(Iterations.of(1000))
        .warmup(Warmup.of(50))
        .domain("pp-7")
        .mode(TransferMode.TAGGED)
        .verify(true)
        .timeoutSeconds(12)
        .build();

    @Test
    void shouldRunTheQuietServerWithTheSameSettingsInTheSameJvmAndClassPath()
    {
        final Properties properties = new Properties();
        properties.setProperty("jfabric.shm.dir", "/dev/shm/x");
        properties.setProperty("agrona.disable.bounds.checks", "true");
        properties.setProperty("user.home", "/home/u");
        final List<String> command = PeerLauncher.command("/jdk/bin/java",
            List.of("-Xmx1g", "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "-Dfoo=bar",
                "-Djfabric.shm.dir=/stale", "-agentlib:jdwp=transport=dt_socket,address=5005"),
            "/a.jar:/b.jar", properties, OPTIONS);

        assertEquals(List.of("/jdk/bin/java", "-Xmx1g", "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
            "-Dfoo=bar"), command.subList(0, 4));
        assertTrue(command.contains("-Djfabric.shm.dir=/dev/shm/x"), command::toString);
        assertTrue(command.contains("-Dagrona.disable.bounds.checks=true"), command::toString);
        assertFalse(command.contains("-Djfabric.shm.dir=/stale"), command::toString);
        assertFalse(command.contains("-Duser.home=/home/u"), command::toString);
        assertFalse(command.stream().anyMatch(arg -> arg.contains("jdwp")), command::toString);
        assertFalse(command.contains("--unregistered"), command::toString);
        assertFalse(command.contains("--keep"), command::toString);

        final int cp = command.indexOf("-cp");
        assertEquals(List.of("-cp", "/a.jar:/b.jar", JfabricMain.class.getName(), "pingpong",
            "--role", "server", "--quiet", "--domain", "pp-7", "-S", "64,4096", "-I", "1000", "-W", "50",
            "--tagged", "-c", "--timeout", "12"), command.subList(cp, command.size()));
    }

    @Test
    void shouldAddTheAgronaExportWhenThisJvmWasStartedWithoutIt()
    {
        final List<String> command = PeerLauncher.command("java", List.of(), "cp", new Properties(),
            new PingpongOptions.Builder()
                .sizes(SizeList.parse(null))
                .warmup(Warmup.byDefault())
                .domain("pp")
                .mode(TransferMode.MSG)
                .registered(false)
                .keep(true)
                .build());
        assertEquals(PeerLauncher.AGRONA_EXPORT, command.get(1));
        assertFalse(command.contains("-S"), "the default sizes need no -S: " + command);
        assertFalse(command.contains("-W"), "the default warm-up, bounded per size, needs no -W: " + command);
        assertFalse(command.contains("--msg"), command::toString);
        assertFalse(command.contains("-c"), command::toString);
        assertTrue(command.contains("--unregistered"), command::toString);
        assertTrue(command.contains("--keep"), "a server that created the region keeps it too: " + command);
    }

    @Test
    void shouldGiveTheServerTheProviderAndIdleModeButNotTheClientsHgrmFile()
    {
        final List<String> command = PeerLauncher.command("java", List.of(), "cp", new Properties(),
            new PingpongOptions.Builder()
                .sizes(SizeList.parse("64"))
                .warmup(Warmup.of(1))
                .domain("pp")
                .provider("other")
                .idle(IdleMode.BACKOFF)
                .hgrm(Path.of("/tmp/rtt.hgrm"))
                .build());
        assertEquals("other", command.get(command.indexOf("-p") + 1), command::toString);
        assertEquals("backoff", command.get(command.indexOf("--idle") + 1), command::toString);
        assertFalse(command.contains("--hgrm"), command::toString);
        assertFalse(command.stream().anyMatch(arg -> arg.contains("rtt")), command::toString);
    }

    @Test
    void shouldStartABwServerWithItsModeAndWindow()
    {
        final List<String> command = PeerLauncher.command("java", List.of(), "cp", new Properties(),
            new PingpongOptions.Builder()
                .tool(PerfTool.BW)
                .sizes(SizeList.parse("4k"))
                .iterations(Iterations.of(100))
                .warmup(Warmup.of(5))
                .window(16)
                .domain("bw-9")
                .mode(TransferMode.WRITE)
                .timeoutSeconds(30)
                .progress(true)
                .build());
        final int cp = command.indexOf("-cp");
        assertEquals(List.of("-cp", "cp", JfabricMain.class.getName(), "bw", "--role", "server", "--quiet",
            "--domain", "bw-9", "-S", "4k", "-I", "100", "-W", "5", "-o", "write", "-w", "16", "--timeout", "30"),
            command.subList(cp, command.size()));
    }

    @Test
    void shouldGiveAOneSidedPingpongServerItsModeAndNoWindow()
    {
        final List<String> command = PeerLauncher.command("java", List.of(), "cp", new Properties(),
            new PingpongOptions.Builder()
                .sizes(SizeList.parse("8"))
                .warmup(Warmup.of(1))
                .domain("pp")
                .mode(TransferMode.ATOMIC)
                .build());
        assertEquals("atomic", command.get(command.indexOf("-o") + 1), command::toString);
        assertFalse(command.contains("-w"), command::toString);
        assertFalse(command.contains("--progress"), "the bar is the client's: " + command);
    }

    @Test
    void shouldGiveThePingpongServerItsEndpointsButNotTheDefaultTwo()
    {
        final List<String> command = PeerLauncher.command("java", List.of(), "cp", new Properties(),
            new PingpongOptions.Builder()
                .sizes(SizeList.parse("64"))
                .warmup(Warmup.of(1))
                .domain("pp")
                .endpoints(64)
                .build());
        assertEquals("64", command.get(command.indexOf("--endpoints") + 1), command::toString);
        assertFalse(PeerLauncher.command("java", List.of(), "cp", new Properties(), OPTIONS).contains("--endpoints"));
    }

    @Test
    void shouldStartTheServerFromThisJvmsOwnBinaryAndClassPath()
    {
        final List<String> command = PeerLauncher.command(OPTIONS);
        assertEquals(ProcessHandle.current().info().command().orElseThrow(), command.get(0));
        assertEquals(System.getProperty("java.class.path"), command.get(command.indexOf("-cp") + 1));
    }
}
