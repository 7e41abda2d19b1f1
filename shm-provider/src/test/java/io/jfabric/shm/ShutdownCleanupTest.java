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
package io.jfabric.shm;

import io.jfabric.testsupport.ChildJvm;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.jfabric.shm.LeftoverFiles.HUGE_RX_RING_BYTES;
import static io.jfabric.shm.LeftoverFiles.HUGE_SLOTS;
import static io.jfabric.shm.LeftoverFiles.awaitTemporaryFile;
import static io.jfabric.shm.LeftoverFiles.names;
import static io.jfabric.shm.LeftoverFiles.properties;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JVM shutdown removes the files a process owns: a real child JVM makes them, then exits without closing anything,
 * or is stopped with SIGTERM half-way.
 */
class ShutdownCleanupTest
{
    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void after()
    {
        root.close();
    }

    @Test
    void shouldDeleteAnUnfreedSegmentFileWhenTheJvmExits() throws Exception
    {
        final ChildJvm child = ChildJvm.start(FileOwnerMain.class, properties(root), "segment", "orders", "exit");
        final Map<String, String> made = child.awaitResult(60);
        child.awaitSuccess(60);

        assertFalse(Files.exists(root.dir().resolve(made.get("segment"))), child.output());
        assertEquals(List.of("orders.domain"), names(root.dir()).stream().filter(n -> !n.endsWith(".av"))
            .collect(Collectors.toList()), "only the files the domain's processes share stay");
    }

    @Test
    void shouldDeleteAnUnfreedSegmentFileWhenTheJvmIsTerminated() throws Exception
    {
        final ChildJvm child = ChildJvm.start(FileOwnerMain.class, properties(root), "segment", "orders", "hold");
        final Map<String, String> made = child.awaitResult(60);
        assertTrue(Files.exists(root.dir().resolve(made.get("segment"))));

        child.terminate();

        assertFalse(Files.exists(root.dir().resolve(made.get("segment"))), child.output());
    }

    @Test
    void shouldDeleteTheTemporaryFileWhenTheJvmIsTerminatedWhileCreatingARegion() throws Exception
    {
        final ChildJvm child = ChildJvm.start(FileOwnerMain.class, properties(root), "region", "huge", HUGE_SLOTS,
            HUGE_RX_RING_BYTES);
        child.awaitResult(60);
        awaitTemporaryFile(root.dir(), "huge");

        child.terminate();

        assertEquals(List.of(), names(root.dir()), child.output());
    }
}
