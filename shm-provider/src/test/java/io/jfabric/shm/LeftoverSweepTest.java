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

import io.jfabric.Domain;
import io.jfabric.testsupport.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static io.jfabric.shm.LeftoverFiles.HUGE_RX_RING_BYTES;
import static io.jfabric.shm.LeftoverFiles.HUGE_SLOTS;
import static io.jfabric.shm.LeftoverFiles.awaitTemporaryFile;
import static io.jfabric.shm.LeftoverFiles.names;
import static io.jfabric.shm.LeftoverFiles.plantSegmentOfAnEarlierProcessWithThePidOf;
import static io.jfabric.shm.LeftoverFiles.properties;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The next opener of a domain removes what dead processes left of it, and nothing a live process uses: real child
 * JVMs make segment and temporary files and are SIGKILLed (or SIGSTOPped, alive but stuck) half-way.
 */
class LeftoverSweepTest
{
    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void after()
    {
        root.close();
    }

    @Test
    void shouldRemoveSegmentFilesOfKilledProcessesWhenTheDomainOpensAndKeepALiveOnes() throws Exception
    {
        final ChildJvm dead = ChildJvm.start(FileOwnerMain.class, properties(root), "segment", "orders", "hold");
        final ChildJvm live = ChildJvm.start(FileOwnerMain.class, properties(root), "segment", "orders", "hold");
        try
        {
            final Path deadSegment = root.dir().resolve(dead.awaitResult(60).get("segment"));
            final Path liveSegment = root.dir().resolve(live.awaitResult(60).get("segment"));
            dead.kill();
            final Path reused = root.dir().resolve(
                plantSegmentOfAnEarlierProcessWithThePidOf(root.dir(), "orders", liveSegment.getFileName().toString()));
            assertTrue(reused.getFileName().toString().startsWith("orders.seg." + live.pid() + "."), reused.toString());

            try (Domain domain = LeftoverFiles.open(root, "orders"))
            {
                assertFalse(Files.exists(deadSegment), "the killed owner's segment is removed");
                assertFalse(Files.exists(reused), "a live pid with another start time is not the owner");
                assertTrue(Files.exists(liveSegment), "the live owner's segment stays");
            }
        }
        finally
        {
            live.kill();
        }
    }

    @Test
    void shouldRemoveTheTemporaryFileOfAKilledCreatorWhenTheDomainOpensAndKeepAStoppedOnes() throws Exception
    {
        final ChildJvm killed = startHugeCreator();
        final String left = awaitTemporaryFile(root.dir(), "huge");
        killed.kill();

        final ChildJvm stopped = startHugeCreator();
        try
        {
            final String held = awaitTemporaryFile(root.dir(), "huge", left);
            stopped.stop();
            assertEquals(Set.of(held, left), Set.copyOf(temporaryFiles()));

            try (Domain domain = LeftoverFiles.open(root, "huge"))
            {
                assertEquals(List.of(held), temporaryFiles(), "the killed creator's is removed, the stopped one's kept");
            }
        }
        finally
        {
            stopped.kill();
        }
    }

    private ChildJvm startHugeCreator() throws Exception
    {
        final ChildJvm creator = ChildJvm.start(FileOwnerMain.class, properties(root), "region", "huge", HUGE_SLOTS,
            HUGE_RX_RING_BYTES);
        creator.awaitResult(60);
        return creator;
    }

    private List<String> temporaryFiles() throws Exception
    {
        return names(root.dir()).stream().filter(n -> n.endsWith(".tmp")).collect(Collectors.toList());
    }
}
