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

import io.jfabric.Errno;
import io.jfabric.tools.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric bw}'s options: usage errors exit 1 with the reason, before anything is opened; the options it shares
 * with pingpong are checked as pingpong checks them.
 */
class BwCommandTest
{
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--self --role server                  | --self and --role exclude each other",
        "-S 64                                 | give --self, or run one side with --role server",
        "--self -w 0                           | -w must be from 1 to 65536, was 0",
        "--self -w 100000                      | -w must be from 1 to 65536, was 100000",
        "--self -I 0                           | -I must be at least 1",
        "--self -W -1                          | -W must not be negative",
        "--self -o atomic                      | -o must be msg|tagged|write|read, was 'atomic'",
        "--self -o claim                       | -o must be msg|tagged|write|read, was 'claim'",
        "--self -o send                        | -o must be msg|tagged|write|read, was 'send'",
        "--self -S 4kb                         | '4kb'",
        "--self --timeout 0                    | --timeout must be at least 1",
        "--self --idle spin                    | --idle must be busy",
        "--self --domain .hidden               | --domain",
        "--self --hgrm x.hgrm                  | Unknown option",
    })
    void shouldRefuseAUsageErrorWithStatusOne(final String args, final String reason)
    {
        final CommandRun run = CommandRun.run(("bw " + args.trim()).split(" +"));
        assertEquals(1, run.status, run::toString);
        assertTrue(run.err.contains(reason), run::toString);
    }

    @Test
    void shouldExitWithFiEnodataNamingTheCapsForAProviderGetinfoDoesNotKnow()
    {
        final CommandRun run = CommandRun.run("bw", "--self", "-p", "nosuch", "-o", "read");
        assertEquals(Errno.FI_ENODATA, run.status, run::toString);
        assertTrue(run.err.startsWith("bw: -p nosuch: no provider of that name offers FI_EP_RDM with FI_MSG and " +
            "FI_RMA"), run::toString);
        assertEquals("", run.out, "nothing ran");
    }

    @Test
    void shouldDescribeItsOptionsInItsHelp()
    {
        final CommandRun run = CommandRun.run("help", "bw");
        assertEquals(0, run.status, run::toString);
        for (final String option : new String[]{"-o=msg|tagged|write|read", "-S", "-I", "-W", "-w", "-p", "-c",
            "--self", "--role", "--domain", "--unregistered", "--idle", "--keep", "--timeout", "--progress",
            "64,4k,64k,1m", "(default: 64, as fabtests)", "(default: 1000000,"})
        {
            assertTrue(run.out.contains(option), option + " in " + run.out);
        }
        assertTrue(!run.out.contains("--quiet"), "the server's --quiet is hidden: " + run.out);
    }

    @Test
    void shouldBeASubcommandOfJfabric()
    {
        final CommandRun run = CommandRun.run("--help");
        assertTrue(run.out.contains("bw"), run::toString);
    }
}
