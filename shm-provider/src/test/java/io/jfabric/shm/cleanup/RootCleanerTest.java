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
package io.jfabric.shm.cleanup;

import io.jfabric.Domain;
import io.jfabric.shm.FileOwnerMain;
import io.jfabric.shm.LeftoverFiles;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.cleanup.RootCleaner.Action;
import io.jfabric.shm.cleanup.RootCleaner.Result;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.testsupport.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
 * What {@code jfabric clean} removes: every file whose owners are all gone, nothing a live process uses. Real child
 * JVMs make the files (regions, AVs, segments, a half-built region) and are SIGKILLed, or stay alive.
 */
class RootCleanerTest
{
    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void after()
    {
        root.close();
    }

    @Test
    void shouldRemoveWhatKilledProcessesLeftAndKeepWhatALiveProcessUses() throws Exception
    {
        final ChildJvm live = ChildJvm.start(FileOwnerMain.class, properties(root), "segment", "orders", "hold");
        try
        {
            final String liveSegment = live.awaitResult(60).get("segment");
            final String deadSegment = killedOwnerOf("orders");
            final String goneSegment = killedOwnerOf("gone");
            final ChildJvm creator = ChildJvm.start(FileOwnerMain.class, properties(root), "region", "huge",
                HUGE_SLOTS, HUGE_RX_RING_BYTES);
            creator.awaitResult(60);
            final String temp = awaitTemporaryFile(root.dir(), "huge");
            creator.kill();
            final String reused = plantSegmentOfAnEarlierProcessWithThePidOf(root.dir(), "orders", liveSegment);
            Files.writeString(root.dir().resolve("notes.txt"), "not jfabric's");
            final List<String> before = names(root.dir());
            final String ordersAv = only(before, "orders.peers.");
            final String goneAv = only(before, "gone.peers.");

            final Map<String, Action> dry = actions(RootCleaner.clean(root.dir(), false, true));
            assertEquals(before, names(root.dir()), "a dry run removes nothing");
            final Map<String, Action> expected = new TreeMap<>(Map.of(
                "gone.domain", Action.WOULD_REMOVE, goneAv, Action.WOULD_REMOVE, goneSegment, Action.WOULD_REMOVE,
                deadSegment, Action.WOULD_REMOVE, reused, Action.WOULD_REMOVE, temp, Action.WOULD_REMOVE,
                "orders.domain", Action.KEPT, ordersAv, Action.KEPT, liveSegment, Action.KEPT,
                "notes.txt", Action.SKIPPED));
            assertEquals(expected, dry);

            final Map<String, Action> done = actions(RootCleaner.clean(root.dir(), false, false));
            expected.replaceAll((name, action) -> action == Action.WOULD_REMOVE ? Action.REMOVED : action);
            assertEquals(expected, done);
            assertEquals(List.of("notes.txt", "orders.domain", ordersAv, liveSegment), names(root.dir()));

            try (Domain domain = LeftoverFiles.open(root, "orders"))
            {
                assertFalse(((ShmDomain)domain).region().created(), "the live process's region is the same file");
            }
            assertEquals(Map.of(), removable(RootCleaner.clean(root.dir(), false, false)), "nothing left to do");
        }
        finally
        {
            live.kill();
        }
        final Map<String, Action> afterLiveDied = actions(RootCleaner.clean(root.dir(), false, false));
        assertTrue(afterLiveDied.values().stream().allMatch(a -> a == Action.REMOVED || a == Action.SKIPPED),
            afterLiveDied.toString());
        assertEquals(List.of("notes.txt"), names(root.dir()), "once the last user died, its files go too");
    }

    @Test
    void shouldFindNothingToCleanInAMissingRoot()
    {
        assertEquals(List.of(), RootCleaner.clean(root.dir(), false, false));
        assertFalse(Files.exists(root.dir()), "clean does not create the root");
    }

    /** Start a process that opens the domain, its AV and a segment, and SIGKILL it: returns its segment file. */
    private String killedOwnerOf(final String domain) throws Exception
    {
        final ChildJvm child = ChildJvm.start(FileOwnerMain.class, properties(root), "segment", domain, "hold");
        final String segment = child.awaitResult(60).get("segment");
        child.kill();
        return segment;
    }

    private static String only(final List<String> names, final String prefix)
    {
        final List<String> found = names.stream().filter(n -> n.startsWith(prefix)).toList();
        assertEquals(1, found.size(), names.toString());
        return found.get(0);
    }

    private static Map<String, Action> actions(final List<Result> results)
    {
        final Map<String, Action> actions = new TreeMap<>();
        results.forEach(result -> actions.put(result.entry().path().getFileName().toString(), result.action()));
        return actions;
    }

    private static Map<String, Action> removable(final List<Result> results)
    {
        final Map<String, Action> actions = actions(results);
        actions.values().removeIf(action -> action != Action.REMOVED && action != Action.WOULD_REMOVE);
        return actions;
    }
}
