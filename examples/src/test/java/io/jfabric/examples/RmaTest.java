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
import io.jfabric.testsupport.PrivateRoot;
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
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-"))
        {
            twoInitiatorsOneAfterTheOther((name, main, args) -> ExampleJvm.start(name, main, root.dir(), args),
                TIMEOUT_S);
        }
    }

    /**
     * A target waiting for two initiators, which run one after the other, every side started by {@code start} (on
     * shm, or over tcp by {@link OverTcpTest}): each initiator reads back what it wrote, and the target's memory
     * holds the counter both added to and the second one's block.
     *
     * @param start    starts a side.
     * @param timeoutS the longest wait for a side.
     */
    static void twoInitiatorsOneAfterTheOther(final Starter start, final long timeoutS) throws Exception
    {
        try (ExampleJvm target = start.start("target", Target.class, "--initiators", "2"))
        {
            target.awaitLine(line -> line.contains("waiting for 2 initiator(s)"), timeoutS);
            for (int round = 0; round < 2; round++)
            {
                try (ExampleJvm initiator = start.start("initiator " + round, Initiator.class))
                {
                    final List<String> lines = initiator.awaitSuccess(timeoutS);
                    assertTrue(lines.contains("initiator: round " + round + ": added 1 to the counter (it was " +
                        round + "), wrote 4096 bytes, read them back: the same"), initiator.output());
                }
            }
            final List<String> lines = target.awaitSuccess(timeoutS);
            assertTrue(lines.contains("target: counter 2 (expected 2), block: the last initiator's 4096 bytes"),
                target.output());
        }
    }

    /** Starts one side of an example in its own JVM. */
    @FunctionalInterface
    interface Starter
    {
        /**
         * @param name      the side's name, for messages.
         * @param mainClass its main class.
         * @param args      its own arguments.
         * @return the running JVM.
         */
        ExampleJvm start(String name, Class<?> mainClass, String... args) throws Exception;
    }

    @Test
    void shouldTellTheUserToStartATargetWhenThereIsNone() throws Exception
    {
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-");
            ExampleJvm initiator = ExampleJvm.start("initiator", Initiator.class, root.dir()))
        {
            assertEquals(Errno.FI_EHOSTUNREACH, initiator.awaitExit(TIMEOUT_S), initiator.output());
            assertTrue(initiator.output().contains("fetch-add on the counter was refused: no target at its " +
                "address; start one first (bin/example-rma target)"), initiator.output());
        }
    }
}
