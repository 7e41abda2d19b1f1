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
package io.jfabric.tools;

import io.jfabric.Versions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code jfabric} root command: subcommand dispatch, usage errors and version.
 */
class JfabricMainTest
{
    @Test
    void shouldFailWithUsageWithoutASubcommand()
    {
        final CommandRun run = CommandRun.run();
        assertEquals(1, run.status);
        assertTrue(run.err.contains("Missing required subcommand"), run::toString);
        assertTrue(run.err.contains("info"), run::toString);
        assertTrue(run.err.contains("strerror"), run::toString);
    }

    @Test
    void shouldFailWithUsageForAnUnknownSubcommand()
    {
        final CommandRun run = CommandRun.run("pingpong-that-does-not-exist");
        assertEquals(1, run.status);
    }

    @Test
    void shouldPrintTheLibfabricApiItFollows()
    {
        final CommandRun run = CommandRun.run("--version");
        assertEquals(0, run.status);
        assertTrue(run.out.contains(
            "libfabric api: " + Versions.FI_MAJOR_VERSION + "." + Versions.FI_MINOR_VERSION + "\n"), run.out);
    }

    @Test
    void shouldPrintHelpForASubcommand()
    {
        final CommandRun run = CommandRun.run("help", "info");
        assertEquals(0, run.status);
        assertTrue(run.out.contains("--ep_type"), run.out);
    }
}
