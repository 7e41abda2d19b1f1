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

import static org.junit.jupiter.api.Assertions.assertEquals;
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
