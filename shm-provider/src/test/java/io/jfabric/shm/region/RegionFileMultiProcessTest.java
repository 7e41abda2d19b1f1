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
package io.jfabric.shm.region;

import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Regions shared between real JVMs: child processes run {@link RegionChildMain}.
 */
class RegionFileMultiProcessTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(4, 8192, 4096, 4096, 64, 32);
    private static final String NAME = "shared";
    private static final long CHILD_TIMEOUT_S = 60;
    private static final int RACE_ROUNDS = 20;

    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void after()
    {
        root.close();
    }

    @Test
    void shouldShowParentHeaderToChildAndChildAttachToParent() throws Exception
    {
        try (RegionFile parent = RegionFile.openOrCreate(root.dir(), NAME, GEOMETRY, false))
        {
            assertTrue(parent.created());
            assertEquals(1, parent.attachCount());

            final Child child = Child.start(root.dir(), 0);
            final Map<String, String> result = child.awaitResult();
            child.awaitExit();

            assertEquals("false", result.get("created"), child.output());
            assertEquals(String.valueOf(ProcessHandle.current().pid()), result.get("creatorPid"));
            assertNotEquals(String.valueOf(ProcessHandle.current().pid()), result.get("pid"));
            assertEquals(String.valueOf(parent.creatorStartTime()), result.get("creatorStartTime"));
            assertEquals(String.valueOf(parent.creationTime()), result.get("creationTime"));
            assertEquals("true", result.get("geometryEqual"));
            assertEquals("2", result.get("attachCount"));
            assertEquals(2, parent.attachCount(), "the child's atomic increment is visible to the parent");
        }
    }

    @Test
    void shouldLetExactlyOneOfRacingThreadsAndProcessesCreate() throws Exception
    {
        final int threads = 8;
        final int processes = 3;
        final List<Child> children = new ArrayList<>();
        final ExecutorService executor = Executors.newFixedThreadPool(threads);
        int roundsWonByChildren = 0;
        try
        {
            for (int i = 0; i < processes; i++)
            {
                children.add(Child.start(root.dir(), RACE_ROUNDS));
            }

            for (int round = 0; round < RACE_ROUNDS; round++)
            {
                final String name = NAME + "-" + round;
                for (final Child child : children)
                {
                    child.awaitReady();
                }

                final CyclicBarrier start = new CyclicBarrier(threads, () -> children.forEach(Child::go));
                final List<Future<RegionFile>> futures = new ArrayList<>();
                for (int i = 0; i < threads; i++)
                {
                    futures.add(executor.submit(() ->
                    {
                        start.await();
                        return RegionFile.openOrCreate(root.dir(), name, GEOMETRY, false);
                    }));
                }
                final List<RegionFile> regions = new ArrayList<>();
                try
                {
                    for (final Future<RegionFile> future : futures)
                    {
                        regions.add(future.get(CHILD_TIMEOUT_S, TimeUnit.SECONDS));
                    }
                    final List<Map<String, String>> results = new ArrayList<>();
                    for (final Child child : children)
                    {
                        results.add(child.awaitResult());
                    }

                    final long createdByThreads = regions.stream().filter(RegionFile::created).count();
                    final long createdByChildren = results.stream().filter(r -> "true".equals(r.get("created"))).count();
                    assertEquals(1, createdByThreads + createdByChildren, "round " + round + ": threads created " +
                        createdByThreads + ", children created " + createdByChildren + ": " + results);
                    roundsWonByChildren += (int)createdByChildren;

                    final RegionFile any = regions.get(0);
                    for (final RegionFile region : regions)
                    {
                        assertEquals(GEOMETRY, region.geometry());
                        assertEquals(any.creatorPid(), region.creatorPid());
                        assertEquals(any.creationTime(), region.creationTime());
                    }
                    for (final Map<String, String> result : results)
                    {
                        assertEquals(String.valueOf(any.creatorPid()), result.get("creatorPid"), result.toString());
                        assertEquals(String.valueOf(any.creatorStartTime()), result.get("creatorStartTime"));
                        assertEquals(String.valueOf(any.creationTime()), result.get("creationTime"));
                        assertEquals("true", result.get("geometryEqual"));
                    }
                    if (createdByChildren == 1)
                    {
                        assertNotEquals(ProcessHandle.current().pid(), any.creatorPid());
                    }
                    assertEquals(threads + processes, any.attachCount());
                }
                finally
                {
                    regions.forEach(RegionFile::close);
                }
            }
            for (final Child child : children)
            {
                child.awaitExit();
            }
            System.out.println("RegionFileMultiProcessTest: child processes created the region in " +
                roundsWonByChildren + " of " + RACE_ROUNDS + " rounds, parent threads in the rest");
        }
        finally
        {
            children.forEach(Child::destroy);
            executor.shutdownNow();
        }
    }

    /**
     * A child JVM running {@link RegionChildMain} ({@link ChildJvm}: its lines read from its standard output only).
     */
    private static final class Child
    {
        private final ChildJvm jvm;

        private Child(final ChildJvm jvm)
        {
            this.jvm = jvm;
        }

        static Child start(final Path rootDir, final int rounds) throws IOException
        {
            final List<String> command = new ArrayList<>(ChildJvm.command(
                RegionChildMain.class,
                List.of(),
                rootDir.toString(),
                NAME,
                String.valueOf(GEOMETRY.slotCount()),
                String.valueOf(GEOMETRY.rxRingBytes()),
                String.valueOf(GEOMETRY.txRingBytes()),
                String.valueOf(GEOMETRY.cqRingBytes()),
                String.valueOf(GEOMETRY.mrTableEntries()),
                String.valueOf(GEOMETRY.counterEntries())));
            if (rounds > 0)
            {
                command.add(String.valueOf(rounds));
            }
            return new Child(ChildJvm.start(command));
        }

        void awaitReady() throws InterruptedException
        {
            jvm.awaitLine(line -> line.startsWith("ready"), CHILD_TIMEOUT_S);
        }

        void go()
        {
            try
            {
                jvm.tell("go");
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException("child " + jvm.pid() + " is gone: " + jvm.output(), ex);
            }
        }

        Map<String, String> awaitResult() throws InterruptedException
        {
            final Map<String, String> result = jvm.awaitResult(CHILD_TIMEOUT_S);
            assertFalse(result.containsKey("error"), "child failed: " + result);
            return result;
        }

        void awaitExit() throws Exception
        {
            jvm.awaitSuccess(CHILD_TIMEOUT_S);
        }

        String output()
        {
            return jvm.output();
        }

        void destroy()
        {
            try
            {
                jvm.kill();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
