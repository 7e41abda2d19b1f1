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

import io.jfabric.tools.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --progress} in real runs between this JVM (the client) and a server JVM ({@link OwnShmRoot}): stderr is not
 * a terminal here, so the bar comes as lines on stderr once a run has lasted {@link ProgressMeter#DELAY_MILLIS}, and
 * never into the results on stdout; a shorter run prints none.
 */
class ProgressTwoJvmTest
{
    @RegisterExtension
    static final OwnShmRoot ROOT = OwnShmRoot.use("jfabric-progress-");

    @Test
    void shouldPrintNoBarForARunShorterThanTheDelay() throws IOException
    {
        final CommandRun run = CommandRun.run("bw", "--self", "--progress", "-S", "64", "-I", "100", "-W", "10");
        assertEquals(0, run.status, run::toString);
        assertEquals("", run.err, run::toString);
        ROOT.assertEmpty();
    }

    @Test
    void shouldDrawTheBarOnStderrOnceARunLastsAndLeaveTheResultsAlone() throws IOException
    {
        // Both sides park 50 us after every empty poll: 2 x 20000 round trips take well over the delay.
        final CommandRun run = CommandRun.run("pingpong", "--self", "--progress", "--idle", "sleep", "-S", "64",
            "-I", "20000", "-W", "0");
        assertEquals(0, run.status, run::toString);
        // A bar drawn before the first size starts (a loaded host: the 3 s delay passes in the handshake) has no size.
        final List<String> bars = run.err.lines().toList();
        assertTrue(!bars.isEmpty() && bars.stream().allMatch(line -> line.matches(
            "pingpong +\\d+% \\[[=>]* *\\] +\\d+/40000 round trips \\(.*\\)( size 64)? *")), run::toString);
        assertTrue(bars.stream().mapToInt(ProgressTwoJvmTest::count).anyMatch(count -> count > 20000 && count < 40000),
            "the bar moves during the pass timed round trip by round trip: " + run);
        final List<String> lines = run.out.lines().toList();
        assertEquals(List.of("# no warm-up (-W 0): every round trip is counted",
            "# measured: 20000 round trips of each size (-I)", PerfFormat.header().trim()),
            List.of(lines.get(0), lines.get(1), lines.get(2).trim()), run::toString);
        assertEquals(5, lines.size(), run::toString);
        assertTrue(lines.get(3).startsWith("64      20k     =20k "), run::toString);
        assertTrue(lines.get(4).endsWith("rounds=20000"), run::toString);
        ROOT.assertEmpty();
    }

    private static int count(final String bar)
    {
        final java.util.regex.Matcher matcher = java.util.regex.Pattern.compile(" (\\d+)/40000 ").matcher(bar);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : -1;
    }
}
