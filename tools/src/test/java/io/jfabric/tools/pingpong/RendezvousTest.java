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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The address exchange through files next to the domain's region.
 */
class RendezvousTest
{
    private Path root;

    @BeforeEach
    void createRoot() throws IOException
    {
        root = Files.createTempDirectory(Path.of(Files.isDirectory(Path.of("/dev/shm")) ? "/dev/shm" : "/tmp"),
            "jfabric-pingpong-test-");
    }

    @AfterEach
    void deleteRoot() throws IOException
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    @Test
    void shouldHandTheServersAddressToTheClient() throws IOException
    {
        final Rendezvous server = new Rendezvous(root, "orders");
        server.publish(Role.SERVER, "fi_shm://host/3/orders?gen=9");
        assertEquals(root.resolve("orders.pingpong-server"), server.file(Role.SERVER));
        assertEquals("fi_shm://host/3/orders?gen=9", new Rendezvous(root, "orders").await(Role.SERVER, 1));
        assertFalse(new Rendezvous(root, "orders").finished(Role.SERVER), "the server is alive");
        Files.delete(server.file(Role.SERVER));
        assertTrue(new Rendezvous(root, "orders").finished(Role.SERVER), "the server withdrew its address");
    }

    @Test
    void shouldIgnoreAnAddressLeftByAProcessThatIsGone() throws IOException
    {
        Files.writeString(root.resolve("orders.pingpong-client"), "pid=" + deadPid() + " addr=fi_shm://old\n");
        final PingpongException ex = assertThrows(PingpongException.class,
            () -> new Rendezvous(root, "orders").await(Role.CLIENT, 1));
        assertEquals(io.jfabric.Errno.FI_ETIMEDOUT, ex.errno());
        assertTrue(ex.getMessage().contains("--role client --domain orders"), ex.getMessage());
        assertTrue(new Rendezvous(root, "orders").finished(Role.CLIENT), "a dead pid has finished");
    }

    @Test
    void shouldNotSeeAnotherDomainsAddress()
    {
        new Rendezvous(root, "orders").publish(Role.SERVER, "fi_shm://a");
        assertThrows(PingpongException.class, () -> new Rendezvous(root, "trades").await(Role.SERVER, 1));
    }

    private static long deadPid() throws IOException
    {
        final Process process = new ProcessBuilder("true").start();
        try
        {
            process.waitFor();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return process.pid();
    }
}
