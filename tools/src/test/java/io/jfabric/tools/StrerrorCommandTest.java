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

import io.jfabric.Errno;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jfabric strerror}: the same text as {@code fi_strerror} ({@link Errno#strerror}) for every way of
 * naming an error, and a clear failure for anything else.
 */
class StrerrorCommandTest
{
    @Test
    void shouldPrintFiStrerrorTextForEveryErrnoNameAndNumber()
    {
        int names = 0;
        for (int errno = 0; errno < Errno.FI_ERRNO_MAX; errno++)
        {
            final String name = Errno.name(errno);
            if (name == null)
            {
                continue;
            }
            names++;
            final String expected = Errno.strerror(errno) + "\n";
            for (final String arg : new String[] {name, name.substring(3), name.toLowerCase(), "" + errno, "-" + errno})
            {
                final CommandRun run = CommandRun.run("strerror", arg);
                assertEquals(0, run.status, run::toString);
                assertEquals(expected, run.out, arg);
                assertEquals("", run.err);
            }
        }
        assertTrue(names > 50, "only " + names + " names");
    }

    @Test
    void shouldPrintLibfabricsOwnAndSystemTexts()
    {
        assertEquals("Resource temporarily unavailable\n", CommandRun.run("strerror", "FI_EAGAIN").out);
        assertEquals("Resource temporarily unavailable\n", CommandRun.run("strerror", "-11").out);
        assertEquals("Resource temporarily unavailable\n", CommandRun.run("strerror", "FI_EWOULDBLOCK").out);
        assertEquals("Receiver not ready, no receive buffers available\n", CommandRun.run("strerror", "269").out);
        assertEquals("Truncation error\n", CommandRun.run("strerror", "-FI_ETRUNC").out);
    }

    @Test
    void shouldPrintOneLinePerArgument()
    {
        final CommandRun run = CommandRun.run("strerror", "11", "FI_ENODATA", "256");
        assertEquals("Resource temporarily unavailable\nNo data available\nUnspecified error\n", run.out);
    }

    @Test
    void shouldPrintUnspecifiedErrorForNumbersPastFiErrnoMaxAsFiStrerrorDoes()
    {
        assertEquals("Unspecified error\n", CommandRun.run("strerror", "99999").out);
        assertEquals("Unknown error 41\n", CommandRun.run("strerror", "41").out);
    }

    @Test
    void shouldReadHexAndOctalNumbersAsStrtolWithBaseZeroDoes()
    {
        final String noData = "No data available\n"; // 61
        for (final String arg : new String[] {"0x3d", "0X3D", "075", "-0x3d", "+075", "61", "-61"})
        {
            final CommandRun run = CommandRun.run("strerror", arg);
            assertEquals(0, run.status, run::toString);
            assertEquals(noData, run.out, arg);
        }
        assertEquals("Bad file descriptor\n", CommandRun.run("strerror", "011").out, "011 is octal 9, not 11");
        assertEquals(Errno.strerror(0) + "\n", CommandRun.run("strerror", "0").out);
        assertEquals(Errno.strerror(0) + "\n", CommandRun.run("strerror", "0x0").out);
    }

    @Test
    void shouldRefuseWhatIsNeitherANumberNorANameWithAUsageError()
    {
        for (final String bad : new String[] {"FI_ENOPE", "eleven", "99999999999", "", "0x", "08", "0x1g", "#b",
            "0x-5", "1e3", "0x80000000", "11abc"})
        {
            final CommandRun run = CommandRun.run("strerror", bad);
            assertEquals(1, run.status, run::toString);
            assertEquals("", run.out);
            assertTrue(run.err.startsWith("jfabric strerror: not a libfabric error number or name: '" + bad + "'\n"),
                run::toString);
            assertTrue(run.err.contains("0x hex"), "the usage says which numbers are read: " + run);
        }
    }

    @Test
    void shouldPrintNothingWhenAnyArgumentIsBad()
    {
        final CommandRun run = CommandRun.run("strerror", "11", "nope", "0xzz");
        assertEquals(1, run.status);
        assertEquals("", run.out);
        assertTrue(run.err.contains("'nope'") && run.err.contains("'0xzz'"), "every bad argument is named: " + run);
    }

    @Test
    void shouldFailWithUsageWithoutArguments()
    {
        final CommandRun run = CommandRun.run("strerror");
        assertNotEquals(0, run.status);
        assertTrue(run.err.contains("Missing required parameter"), run::toString);
    }
}
