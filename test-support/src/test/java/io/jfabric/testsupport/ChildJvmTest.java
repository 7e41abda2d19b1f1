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
package io.jfabric.testsupport;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ChildJvm in a real second JVM: what a test reads from a child it started.
 */
class ChildJvmTest
{
    /** A child whose standard error holds half a line when its standard output reports. */
    public static final class HalfLineOnStderr
    {
        public static void main(final String[] args) throws Exception
        {
            System.err.print("Exception in thread \"loop\" ");
            System.err.flush();
            Thread.sleep(200);
            System.out.println("result marked=yes");
            System.out.flush();
            Thread.sleep(200);
            System.err.println("java.lang.InternalError: late");
        }
    }

    /** A child that says goodbye from a shutdown hook, and exits 3 when told to. */
    public static final class Goodbye
    {
        public static void main(final String[] args) throws Exception
        {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("result goodbye=yes")));
            System.err.println("ready on stderr");
            System.out.println("ready");
            System.out.flush();
            final String command = new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();
            if ("exit3".equals(command))
            {
                System.exit(3);
            }
            Thread.sleep(60_000);
        }
    }

    @Test
    void shouldKeepWhatTheChildPrintsWhileItShutsDownOnSigterm() throws Exception
    {
        try (ChildJvm child = ChildJvm.start(Goodbye.class, List.of()))
        {
            assertEquals("ready", child.awaitLine(line -> line.startsWith("ready"), 30));
            child.terminate();
            assertEquals(143, child.awaitExit(30), child.output());
            assertEquals(Map.of("goodbye", "yes"), child.awaitResult(30), child.output());
        }
    }

    @Test
    void shouldGiveTheExitStatusAndEndTheLinesWhenTheChildExits() throws Exception
    {
        try (ChildJvm child = ChildJvm.start(Goodbye.class, List.of()))
        {
            assertEquals("ready", child.pollLine(30, TimeUnit.SECONDS));
            child.tell("exit3");
            assertEquals(3, child.awaitExit(30), child.output());
            assertEquals("result goodbye=yes", child.pollLine(30, TimeUnit.SECONDS));
            final AssertionError ended = assertThrows(AssertionError.class, () -> child.pollLine(0, TimeUnit.SECONDS));
            assertTrue(ended.getMessage().contains("output ended (exit 3)"), ended.getMessage());
            assertTrue(child.output().contains("ready on stderr\n"), child.output());
        }
    }

    /**
     * The CI failure of 2026-11-28: a child's uncaught exception, printed by the JVM on standard error, began a
     * line that the child's next result then finished; the merged line did not start with "result " and the test
     * waited 60 s for a line it had been sent.
     */
    @Test
    void shouldReadResultLinesFromStandardOutputWhateverStandardErrorHolds() throws Exception
    {
        try (ChildJvm child = ChildJvm.start(HalfLineOnStderr.class, List.of()))
        {
            final Map<String, String> result = child.awaitResult(30);
            assertEquals(Map.of("marked", "yes"), result);
            final String transcript = child.awaitSuccess(30);
            assertTrue(transcript.contains("result marked=yes\n"), transcript);
            assertTrue(transcript.contains("Exception in thread \"loop\" java.lang.InternalError: late\n"),
                "standard error is kept whole, line by line: " + transcript);
        }
    }
}
