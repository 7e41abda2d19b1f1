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
import io.jfabric.tools.JfabricMain;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric pingpong}'s options: usage errors exit 1 with the reason, before anything is opened.
 */
class PingpongCommandTest
{
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--self --role server                  | --self and --role exclude each other",
        "-S 64                                 | give --self, or run one side with --role server",
        "--role both                           | --role must be server or client",
        "--self -S 64,big                      | 'big'",
        "--self -S 4kb                         | '4kb'",
        "--self -S 2000000000                  | size 2000000000 is above the shm provider's max_msg_size, 1073741824",
        "--self -S 64,3g                       | size 3g (3221225472) is above",
        "--self -I 0                           | -I must be at least 1",
        "--self --endpoints 1                  | --endpoints must be at least 2 (the two measured ones), was 1",
        "--self --endpoints many               | Invalid value for option '--endpoints'",
        "--self -W -1                          | -W must not be negative",
        "--self --tagged --claim               | --tagged and --claim exclude each other",
        "--self -o write --tagged              | -o write and --tagged exclude each other",
        "--self -o send                        | -o must be msg|tagged|claim|write|read|atomic, was 'send'",
        "--self --domain .hidden               | --domain",
        "--self --timeout 0                    | --timeout must be at least 1",
        "--self --idle spin                    | --idle must be busy",
        "--self --idle                         | Missing required parameter for option '--idle'",
        "--role server --hgrm rtt.hgrm         | --hgrm is the client's",
        "--self --hgrm /no/such/dir/rtt.hgrm   | is not a file in an existing directory",
    })
    void shouldRefuseAUsageErrorWithStatusOne(final String args, final String reason)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final String[] argv = ("pingpong " + args.trim()).split(" +");
        final int status = JfabricMain.execute(new PrintWriter(out), new PrintWriter(err), argv);
        assertEquals(1, status, err::toString);
        assertTrue(err.toString().contains(reason), err::toString);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--self -p nosuch -S 64            | FI_MSG",
        "--role client -p nosuch --tagged  | FI_TAGGED",
        "--self -p nosuch -o write         | FI_MSG and FI_RMA",
        "--self -p nosuch -o atomic        | FI_MSG and FI_ATOMIC",
    })
    void shouldExitWithFiEnodataNamingAProviderGetinfoDoesNotKnow(final String args, final String caps)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final String[] argv = ("pingpong " + args.trim()).split(" +");
        final int status = JfabricMain.execute(new PrintWriter(out), new PrintWriter(err), argv);
        assertEquals(Errno.FI_ENODATA, status, err::toString);
        assertTrue(err.toString().startsWith("pingpong: -p nosuch: no provider of that name offers FI_EP_RDM with " +
            caps), err::toString);
        assertTrue(err.toString().contains("prov_name=nosuch"), err::toString);
        assertEquals("", out.toString(), "nothing ran");
    }

    @Test
    void shouldDescribeFiPingpongsOptionsInItsHelp()
    {
        final StringWriter out = new StringWriter();
        final int status = JfabricMain.execute(new PrintWriter(out), new PrintWriter(new StringWriter()),
            "help", "pingpong");
        assertEquals(0, status);
        for (final String option : new String[]{"-p", "--provider", "-S", "-I", "-W", "-c", "--self", "--role",
            "--domain", "--tagged", "--claim", "--unregistered", "--idle=busy|yield|backoff|sleep", "--hgrm", "--keep",
            "--timeout", "-o=msg|tagged|claim|write|read|atomic", "--progress", "--endpoints=N"})
        {
            assertTrue(out.toString().contains(option), option + " in " + out);
        }
        assertTrue(!out.toString().contains("--quiet"), "the server's --quiet is hidden: " + out);
    }
}
