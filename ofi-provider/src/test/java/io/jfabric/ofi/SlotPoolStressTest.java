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
package io.jfabric.ofi;

import io.jfabric.ofi.stress.StressMain;
import io.jfabric.ofi.stress.Variants;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JCStress proof of the slot pools ({@code io.jfabric.ofi.stress}), run in the build on this module's JDK: every
 * test passes on the real classes, and each fails with the broken variant it is there to catch switched on (one
 * JCStress run with {@code -Djfabric.stress.variant=@catches} in its forks, each test arming its own variant:
 * {@link Variants}; a race may need a second or third run to show, up to 3 runs, the tests not yet caught alone).
 * JCStress runs in a child JVM ({@link StressMain}); the output is echoed.
 */
class SlotPoolStressTest
{
    private static final String TESTS = "io\\.jfabric\\.ofi\\.stress\\..*";
    private static final List<String> ALL = List.of(
        "io.jfabric.ofi.stress.SlotClaimTest",
        "io.jfabric.ofi.stress.SlotHandoverTest.Mpmc",
        "io.jfabric.ofi.stress.SlotHandoverTest.Spsc",
        "io.jfabric.ofi.stress.SlotPublishTest.Mpmc",
        "io.jfabric.ofi.stress.SlotPublishTest.Spsc",
        "io.jfabric.ofi.stress.SlotReuseTest.Mpmc",
        "io.jfabric.ofi.stress.SlotReuseTest.Spsc");

    @Test
    void shouldPassEveryTestOnTheRealPools() throws Exception
    {
        final List<String> lines = jcstress(TESTS, null);
        for (final String test : ALL)
        {
            assertTrue(lines.contains("PASSED " + test), () -> test + " did not pass: " + lines);
        }
        assertTrue(lines.contains("TESTS " + ALL.size()), lines::toString);
    }

    @Test
    void shouldFailEveryTestWithItsBrokenVariantSwitchedOn() throws Exception
    {
        // One JCStress run for all the variants: each fork runs one test, and that test's state class switches its
        // own variant on (Variants). A test that did not catch its variant (a race a loaded host did not show) runs
        // again, alone, up to twice more.
        final Map<String, String> variants = new TreeMap<>(Map.of(
            "io.jfabric.ofi.stress.SlotPublishTest.Spsc", "ofi.slot.stateBeforeFields",
            "io.jfabric.ofi.stress.SlotPublishTest.Mpmc", "ofi.slot.stateBeforeFields",
            "io.jfabric.ofi.stress.SlotReuseTest.Spsc", "ofi.slot.noStateCheck",
            "io.jfabric.ofi.stress.SlotReuseTest.Mpmc", "ofi.slot.noStateCheck",
            "io.jfabric.ofi.stress.SlotHandoverTest.Spsc", "ofi.slot.freeBeforeClear",
            "io.jfabric.ofi.stress.SlotHandoverTest.Mpmc", "ofi.slot.freeBeforeClear",
            "io.jfabric.ofi.stress.SlotClaimTest", "ofi.slot.plainClaim"));
        assertEquals(new TreeSet<>(ALL), variants.keySet(), "every test has its variant");
        final Set<String> missed = new TreeSet<>(ALL);
        List<String> lines = jcstress(TESTS, Variants.OF_THIS_TEST);
        for (int run = 1; run <= 3; run++)
        {
            if (run > 1)
            {
                lines = jcstress(String.join("|", missed.stream().map(t -> t.replace(".", "\\.") + "$").toList()),
                    Variants.OF_THIS_TEST);
            }
            for (final Iterator<String> it = missed.iterator(); it.hasNext();)
            {
                final String test = it.next();
                if (failed(lines, test))
                {
                    System.out.println("ofi-provider: broken variant " + variants.get(test) + " caught by " + test +
                        " (run " + run + ")");
                    it.remove();
                }
            }
            if (missed.isEmpty())
            {
                return;
            }
        }
        throw new AssertionError("not caught in 3 runs: " + missed + " (variants " + variants + "): " + lines);
    }

    private static List<String> jcstress(final String filter, final String variant) throws Exception
    {
        final Path dir = Files.createTempDirectory("ofi-jcstress");
        final List<String> command = new ArrayList<>(List.of(
            ProcessHandle.current().info().command().orElseThrow(), "-cp", System.getProperty("java.class.path"),
            StressMain.class.getName(), "-t", filter, "-r", dir.resolve("report").toString(),
            "-sc", "false", "-f", "1", "-fsm", "1", "-iters", "1", "-time", "1000", "-pth", "false", "-hs", "64",
            "-jvmArgs", variant == null ? "-Xss1m" : "-Djfabric.stress.variant=" + variant));
        // verdicts are read from standard output only: what a JVM prints on standard error (a warning, an uncaught
        // exception) goes to this test's own, and cannot land in the middle of a verdict line
        final Process process = new ProcessBuilder(command).directory(dir.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final String output = new String(process.getInputStream().readAllBytes());
        final int exit = process.waitFor();
        System.out.println(output);
        final List<String> lines = output.lines().toList();
        assertTrue(exit == 0 || lines.stream().anyMatch(l -> l.contains("[FAILED]")),
            () -> "JCStress ended with " + exit + " and no verdict:\n" + output);
        return lines;
    }

    /** A test failed when JCStress's own verdict line or this runner's says so. */
    private static boolean failed(final List<String> lines, final String test)
    {
        return lines.stream().anyMatch(l -> l.equals("FAILED " + test) || l.trim().endsWith("[FAILED] " + test));
    }
}
