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

import io.jfabric.tools.JfabricMain;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric info} over the ofi provider prints what libfabric's own {@code fi_info} prints for the same
 * options, byte for byte, short and verbose ({@code fi_tostr} of every field of every info), except the
 * configurations jfabric does not serve (FI_EP_MSG and FI_EP_DGRAM endpoints): those blocks are taken out of
 * fi_info's output and must be exactly what {@code fi_info -t FI_EP_MSG} / {@code -t FI_EP_DGRAM} list.
 */
@NeedsLibfabric
class InfoVsFiInfoTest
{
    @ParameterizedTest
    @ValueSource(strings = {
        "-p tcp", "-p tcp -v", "-p tcp;ofi_rxm -v", "-p tcp -n 127.0.0.1 -P 9228 -v", "-p tcp -c FI_ATOMIC -v",
        "-p tcp -d lo -v", "-p udp -v", "-p sockets"})
    void shouldPrintWhatFiInfoPrints(final String options) throws Exception
    {
        final Path fiInfo = NativeTools.require("fi_info", "libfabric-bin");
        final String[] args = options.split(" ");
        final List<String> c = command(fiInfo.toString(), args);
        final NativeTools.Result all = NativeTools.run(60, c.toArray(String[]::new)).ok(c.toArray(String[]::new));
        final boolean verbose = options.contains("-v");
        final List<String> rdm = new ArrayList<>();
        int otherTypes = 0;
        for (final String block : blocks(all.stdout(), verbose))
        {
            if (block.contains("type: FI_EP_RDM\n"))
            {
                rdm.add(block);
            }
            else
            {
                otherTypes++;
            }
        }
        assertEquals(count(fiInfo, args, "FI_EP_MSG", verbose) + count(fiInfo, args, "FI_EP_DGRAM", verbose),
            otherTypes, "every block taken out is an FI_EP_MSG or FI_EP_DGRAM one");
        assertFalse(rdm.isEmpty(), "fi_info " + options + " lists an RDM configuration");

        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final List<String> j = command("info", args);
        final int status = JfabricMain.execute(new PrintWriter(out), new PrintWriter(err), j.toArray(String[]::new));
        assertEquals(0, status, err::toString);
        assertEquals(String.join("", rdm), out.toString(), "jfabric info " + options + " vs fi_info");
    }

    private static int count(final Path fiInfo, final String[] args, final String type, final boolean verbose)
        throws Exception
    {
        final List<String> c = command(fiInfo.toString(), args);
        c.add("-t");
        c.add(type);
        final NativeTools.Result result = NativeTools.run(60, c.toArray(String[]::new));
        return result.exit() == 0 ? blocks(result.stdout(), verbose).size() : 0;
    }

    private static List<String> command(final String first, final String[] args)
    {
        final List<String> command = new ArrayList<>();
        command.add(first);
        command.addAll(List.of(args));
        return command;
    }

    /** Short form: one block per "provider:" line; verbose: one per "---" line. */
    private static List<String> blocks(final String output, final boolean verbose)
    {
        final String start = verbose ? "---\n" : "provider: ";
        final List<String> blocks = new ArrayList<>();
        int at = output.indexOf(start);
        assertTrue(at == 0, () -> "output starts with a block: " + output);
        while (at >= 0)
        {
            final int next = output.indexOf("\n" + start, at);
            blocks.add(next < 0 ? output.substring(at) : output.substring(at, next + 1));
            at = next < 0 ? -1 : next + 1;
        }
        return blocks;
    }
}
