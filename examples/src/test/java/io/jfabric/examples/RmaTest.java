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
package io.jfabric.examples;

import io.jfabric.Errno;
import io.jfabric.examples.rma.Initiator;
import io.jfabric.examples.rma.Target;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rma example as a user runs it, each side in its own JVM on a private shm root: a target waiting for two
 * initiators, which run one after the other. Each initiator reads back what it wrote; the target checks that its
 * memory holds the counter both added to and the second one's block, though it received nothing but their "done".
 */
class RmaTest
{
    private static final long TIMEOUT_S = 60;

    @Test
    void shouldWriteReadAndAddIntoTheTargetsMemoryWithoutItsCpu() throws Exception
    {
        try (ShmRoot root = new ShmRoot();
            ExampleJvm target = ExampleJvm.start("target", Target.class, root.dir(), "--initiators", "2"))
        {
            target.awaitLine(line -> line.contains("waiting for 2 initiator(s)"), TIMEOUT_S);
            for (int round = 0; round < 2; round++)
            {
                try (ExampleJvm initiator = ExampleJvm.start("initiator " + round, Initiator.class, root.dir()))
                {
                    final List<String> lines = initiator.awaitSuccess(TIMEOUT_S);
                    assertTrue(lines.contains("initiator: round " + round + ": added 1 to the counter (it was " +
                        round + "), wrote 4096 bytes, read them back: the same"), initiator.output());
                }
            }
            final List<String> lines = target.awaitSuccess(TIMEOUT_S);
            assertTrue(lines.contains("target: counter 2 (expected 2), block: the last initiator's 4096 bytes"),
                target.output());
        }
    }

    @Test
    void shouldTellTheUserToStartATargetWhenThereIsNone() throws Exception
    {
        try (ShmRoot root = new ShmRoot();
            ExampleJvm initiator = ExampleJvm.start("initiator", Initiator.class, root.dir()))
        {
            assertEquals(Errno.FI_EHOSTUNREACH, initiator.awaitExit(TIMEOUT_S), initiator.output());
            assertTrue(initiator.output().contains("fetch-add on the counter was refused: no target at its " +
                "address; start one first (bin/example-rma target)"), initiator.output());
        }
    }
}
