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

import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.ToStr;
import io.jfabric.spi.FabricProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric info} against fi_info's behaviour: its short and verbose layouts, {@code -l}, its hint options
 * and its exit statuses. Most cases run over {@link ToolsTestProvider}; the ones that need the real shm provider
 * are enabled only when it is on the class path.
 */
class InfoCommandTest
{
    private static final String RDM_SHORT =
        "provider: jfabric_test\n" +
        "    fabric: testfab\n" +
        "    domain: testdom\n" +
        "    version: 3.1\n" +
        "    type: FI_EP_RDM\n" +
        "    protocol: FI_PROTO_SHM\n";
    private static final String DGRAM_SHORT =
        "provider: jfabric_test\n" +
        "    fabric: testfab\n" +
        "    domain: otherdom\n" +
        "    version: 3.1\n" +
        "    type: FI_EP_DGRAM\n" +
        "    protocol: FI_PROTO_UDP\n";

    static boolean shmPresent()
    {
        for (final FabricProvider provider : Fabrics.providers())
        {
            if ("shm".equals(provider.name()))
            {
                return true;
            }
        }
        return false;
    }

    @Test
    void shouldPrintFiInfoShortFormForEachMatch()
    {
        final CommandRun run = CommandRun.run("info", "-p", ToolsTestProvider.NAME);
        assertEquals(0, run.status, run::toString);
        assertEquals(RDM_SHORT + DGRAM_SHORT, run.out);
        assertEquals("", run.err);
    }

    @Test
    void shouldSayOnStderrWhichFieldsTellApartEntriesThatPrintAlike()
    {
        final CommandRun run = CommandRun.run("info", "-p", "shm");
        assertEquals(0, run.status, run::toString);
        final String block = "provider: shm\n    fabric: shm\n    domain: shm\n    version: 0.1\n" +
            "    type: FI_EP_RDM\n    protocol: FI_PROTO_SHM\n";
        assertEquals(block + block, run.out, "stdout stays fi_info's short form");
        assertEquals("# entries 1 2 print alike; -v shows every field. They differ in:\n" +
            "#   entry 1: data_progress: FI_PROGRESS_MANUAL\n#   entry 2: data_progress: FI_PROGRESS_AUTO\n", run.err);
    }

    @Test
    void shouldPrintThreeDashesAndTostrOfEachInfoWhenVerbose()
    {
        final CommandRun run = CommandRun.run("info", "-v", "--provider", ToolsTestProvider.NAME);
        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.startsWith("---\nfi_info:\n    caps: [ FI_MSG, FI_TAGGED, "), run.out);
        assertEquals(
            "---\n" + ToStr.toStr(ToolsTestProvider.rdm()) + "---\n" + ToStr.toStr(ToolsTestProvider.dgram()), run.out);
        assertTrue(run.out.endsWith("    nic: (nil)\n"));
    }

    @Test
    void shouldExitWithEnodataAndFiGetinfoLineWhenNothingMatches()
    {
        final CommandRun run = CommandRun.run("info", "-p", "nonexistent");
        assertEquals(61, run.status);
        assertEquals("", run.out);
        assertTrue(run.err.startsWith("fi_getinfo: -61\n    (fi_getinfo: no provider matches the hints (prov_name=nonexistent)"),
            run.err);
    }

    @Test
    void shouldExitWithEnodataWhenHintsExcludeEveryConfiguration()
    {
        final CommandRun run = CommandRun.run("info", "-p", ToolsTestProvider.NAME, "-c", "FI_REMOTE_COMM");
        assertEquals(61, run.status);
        assertTrue(run.err.startsWith("fi_getinfo: -61\n    ("), run.err);
    }

    @Test
    void shouldSelectByEndpointType()
    {
        assertEquals(DGRAM_SHORT, CommandRun.run("info", "-p", ToolsTestProvider.NAME, "-t", "FI_EP_DGRAM").out);
        assertEquals(RDM_SHORT, CommandRun.run("info", "-p", ToolsTestProvider.NAME, "--ep_type", "fi_ep_rdm").out);
    }

    @Test
    void shouldLetTheLastEndpointTypeWinAsFiInfoDoes()
    {
        final CommandRun run =
            CommandRun.run("info", "-p", ToolsTestProvider.NAME, "-t", "FI_EP_DGRAM", "-t", "FI_EP_RDM");
        assertEquals(RDM_SHORT, run.out, run::toString);
    }

    @Test
    void shouldSelectByCapsJoinedWithBars()
    {
        assertEquals(RDM_SHORT, CommandRun.run("info", "-p", ToolsTestProvider.NAME, "-c", "FI_MSG|FI_TAGGED").out);
        assertEquals(RDM_SHORT, CommandRun.run("info", "-p", ToolsTestProvider.NAME, "-c", "fi_tagged|").out);
    }

    @Test
    void shouldSelectByDomainFabricAndAddressFormat()
    {
        assertEquals(DGRAM_SHORT, CommandRun.run("info", "-p", ToolsTestProvider.NAME, "-d", "otherdom").out);
        assertEquals(RDM_SHORT, CommandRun.run("info", "-p", ToolsTestProvider.NAME, "-a", "FI_ADDR_STR").out);
        assertEquals(RDM_SHORT + DGRAM_SHORT, CommandRun.run("info", "-p", ToolsTestProvider.NAME, "-f", "testfab").out);
        assertEquals(61, CommandRun.run("info", "-p", ToolsTestProvider.NAME, "--fabric", "nofab").status);
    }

    @Test
    void shouldPassNodeAndPortToGetinfo()
    {
        assertEquals(0, CommandRun.run("info", "-p", ToolsTestProvider.NAME, "-n", "host1", "-P", "4242").status);
        assertEquals("host1", ToolsTestProvider.lastNode);
        assertEquals("4242", ToolsTestProvider.lastService);
        assertEquals(0L, ToolsTestProvider.lastFlags);

        assertEquals(0, CommandRun.run("info", "-p", ToolsTestProvider.NAME, "-s", "host2").status);
        assertEquals("host2", ToolsTestProvider.lastNode);
        assertNull(ToolsTestProvider.lastService);
        assertEquals(Flags.FI_SOURCE, ToolsTestProvider.lastFlags);
    }

    @Test
    void shouldRejectUnknownCapabilityWithFiInfosLineAndEinval()
    {
        final CommandRun run = CommandRun.run("info", "-c", "FI_FOO");
        assertEquals(22, run.status);
        assertEquals("error: Unrecognized capability: FI_FOO\n", run.err);
        assertEquals("", run.out);
    }

    @Test
    void shouldNotTrimCapabilityNamesAsFiInfoDoesNot()
    {
        final CommandRun run = CommandRun.run("info", "-c", "FI_MSG | FI_TAGGED");
        assertEquals(22, run.status);
        assertEquals("error: Unrecognized capability: FI_MSG \n", run.err);
    }

    @Test
    void shouldRejectNamesFiInfoDoesNotAccept()
    {
        assertEquals("error: Unrecognized capability: FI_RMA_PMEM\n", CommandRun.run("info", "-c", "FI_RMA_PMEM").err);
        assertEquals("error: Unrecognized endpoint type: FOO\n", CommandRun.run("info", "-t", "FOO").err);
        assertEquals("error: Unrecognized address format: FI_ADDR_CXI\n",
            CommandRun.run("info", "-a", "FI_ADDR_CXI").err);
        assertEquals("error: Unrecognized mode: FI_BUFFERED_RECV\n", CommandRun.run("info", "-m", "FI_BUFFERED_RECV").err);
        assertEquals(22, CommandRun.run("info", "-m", "FI_NOPE").status);
    }

    @Test
    void shouldExitOneOnUsageErrorsAsFiInfoDoes()
    {
        final CommandRun unknown = CommandRun.run("info", "-x");
        assertEquals(1, unknown.status);
        assertTrue(unknown.err.contains("Unknown option: '-x'"), unknown::toString);
        assertEquals(1, CommandRun.run("info", "-p").status);
    }

    @Test
    void shouldListEveryProviderWithItsVersion()
    {
        final CommandRun run = CommandRun.run("info", "-l");
        assertEquals(0, run.status);
        assertTrue(run.out.contains("jfabric_test:\n    version: 3.1\n"), run.out);
        for (final FabricProvider provider : Fabrics.providers())
        {
            assertTrue(run.out.contains(provider.name() + ":\n    version: "), run.out);
        }
    }

    @Test
    void shouldListProviderAttributesWhenListingVerbosely()
    {
        final CommandRun run = CommandRun.run("info", "--list", "--verbose");
        assertEquals(0, run.status);
        assertTrue(run.out.startsWith("---\nfi_info:\n"), run.out);
        assertTrue(run.out.contains("        prov_name: jfabric_test\n        prov_version: 3.1\n"), run.out);
    }

    @Test
    @EnabledIf("shmPresent")
    void shouldListShm()
    {
        final CommandRun run = CommandRun.run("info", "-l");
        assertEquals(0, run.status);
        assertTrue(run.out.matches("(?s)(.*\n)?shm:\n    version: [0-9]+\\.[0-9]+\n.*"), run.out);
    }

    @Test
    @EnabledIf("shmPresent")
    void shouldPrintShmInfosInFiInfoShortForm()
    {
        final CommandRun run = CommandRun.run("info", "-p", "shm");
        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.startsWith("provider: shm\n    fabric: "), run.out);
        assertTrue(run.out.contains("\n    type: FI_EP_"), run.out);
        assertTrue(run.out.contains("\n    protocol: FI_PROTO_SHM\n"), run.out);
    }

    @Test
    @EnabledIf("shmPresent")
    void shouldPrintShmInfosWithTostrWhenVerbose()
    {
        final CommandRun run = CommandRun.run("info", "-p", "shm", "-v");
        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.startsWith("---\nfi_info:\n    caps: [ "), run.out);
        assertTrue(run.out.contains("        prov_name: shm\n"), run.out);
        assertTrue(run.out.endsWith("    nic: (nil)\n"), run.out);
    }

    @Test
    @EnabledIf("shmPresent")
    void shouldPrintShmInfosWithRmaCapabilitiesAndRmaIov()
    {
        // Issue 16: endpoints have fi_read/fi_write, so shm offers FI_RMA with its modifiers and an RMA iov.
        final CommandRun run = CommandRun.run("info", "-p", "shm", "-v");
        assertEquals(0, run.status, run::toString);
        for (final String cap : new String[]{"FI_RMA", "FI_READ", "FI_WRITE", "FI_REMOTE_READ", "FI_REMOTE_WRITE"})
        {
            assertTrue(run.out.matches("(?s).*[ \\[|]" + cap + "[,\\]| ].*"), () -> cap + " is not offered: " +
                run.out);
        }
        assertTrue(run.out.contains("        rma_iov_limit: 4\n"), run.out);
    }

    @Test
    @EnabledIf("shmPresent")
    void shouldListRmaEventsWhenShmIsAskedForThem()
    {
        final CommandRun run = CommandRun.run("info", "-p", "shm", "-v", "-c", "FI_MSG|FI_RMA|FI_RMA_EVENT");
        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.contains("FI_RMA_EVENT"), run.out);
    }
}
