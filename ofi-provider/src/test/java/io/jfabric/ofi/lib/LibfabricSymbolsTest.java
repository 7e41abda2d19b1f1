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
package io.jfabric.ofi.lib;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The symbol versions {@link Libfabric} pins are the installed library's default versions of those functions (what a
 * C program compiled against the same headers links to), read from {@code objdump -T}: a libfabric whose default
 * moved on (a new {@code struct fi_info}) fails here, while jfabric itself keeps calling the pinned version.
 */
class LibfabricSymbolsTest
{
    @Test
    void shouldPinTheDefaultVersionOfEveryBoundFunction() throws Exception
    {
        final Path library = Path.of("/usr/lib/x86_64-linux-gnu/libfabric.so.1");
        assumeTrue(Files.exists(library), "libfabric1 is not installed at " + library);
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/objdump")), "objdump (binutils) is not installed");
        final Process process = new ProcessBuilder("objdump", "-T", library.toString()).redirectErrorStream(true)
            .start();
        final String table = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), table);
        for (final String[] pinned : Libfabric.PINNED)
        {
            // objdump -T prints a default version bare ("FABRIC_1.3 fi_getinfo") and a hidden one in parentheses
            assertTrue(table.matches("(?s).*\\s" + pinned[1].replace(".", "\\.") + "\\s+" + pinned[0] + "\\n.*"),
                pinned[0] + " should have default version " + pinned[1]);
        }
        assertTrue(Libfabric.available(), Libfabric.whyUnavailable());
    }
}
