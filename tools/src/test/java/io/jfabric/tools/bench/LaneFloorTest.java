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
package io.jfabric.tools.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LaneFloor's two sides, here as two threads over one real file (the script runs them as two JVMs). */
class LaneFloorTest
{
    @TempDir
    Path dir;

    @Test
    void shouldTimeEveryRoundTripOfBothSidesAndRemoveTheFile() throws Exception
    {
        final Path file = dir.resolve("lanes");
        final int rounds = 3000;
        final CompletableFuture<long[]> pong = CompletableFuture.supplyAsync(() -> side(false, rounds, 500, 64, file));
        final long[] rtt = LaneFloor.run(true, rounds, 500, 64, file);
        assertArrayEquals(new long[0], pong.get(30, TimeUnit.SECONDS));
        assertEquals(rounds, rtt.length);
        assertTrue(rtt[0] > 0, "every round trip takes time: " + rtt[0]);
        for (int i = 1; i < rtt.length; i++)
        {
            assertTrue(rtt[i - 1] <= rtt[i], "sorted");
        }
        assertFalse(Files.exists(file), "the ping side deletes the file");
    }

    @Test
    void shouldCarryEmptyMessagesAndMessagesThatWrapTheRing() throws Exception
    {
        for (final int size : new int[] {0, 8000})
        {
            final Path file = dir.resolve("lanes-" + size);
            final int rounds = 3 * LaneFloor.RING_CAPACITY / 32; // 32 bytes: the smallest record, so even 0 B wraps
            final CompletableFuture<long[]> pong =
                CompletableFuture.supplyAsync(() -> side(false, rounds, 0, size, file));
            assertEquals(rounds, LaneFloor.run(true, rounds, 0, size, file).length);
            pong.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldFailWhenTheAnswerIsNotTheMessageSent() throws Exception
    {
        final Path file = dir.resolve("mismatch");
        final CompletableFuture<long[]> pong = CompletableFuture.supplyAsync(() -> side(false, 10, 0, 32, file));
        final IllegalStateException ping = assertThrows(IllegalStateException.class,
            () -> LaneFloor.run(true, 10, 0, 64, file, 2_000_000_000L));
        assertEquals("waited 2000 ms for message 0", ping.getMessage(), "the pong side never answers");
        final ExecutionException ex = assertThrows(ExecutionException.class, () -> pong.get(30, TimeUnit.SECONDS));
        assertEquals("expected message 0 of 32 bytes, received 0 of 64", ex.getCause().getMessage());
    }

    @Test
    void shouldTakeTheLargestMessageAnAgronaRecordHoldsAndRejectOneByteMore() throws Exception
    {
        final int largest = LaneFloor.RING_CAPACITY / 8 - 24; // Agrona's max message length, less the lane header
        final Path file = dir.resolve("largest");
        final CompletableFuture<long[]> pong = CompletableFuture.supplyAsync(() -> side(false, 100, 0, largest, file));
        assertEquals(100, LaneFloor.run(true, 100, 0, largest, file).length);
        pong.get(30, TimeUnit.SECONDS);

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> LaneFloor.run(true, 10, 0, largest + 1, dir.resolve("x")));
        assertTrue(ex.getMessage().contains("size " + (largest + 1)), ex.getMessage());
    }

    @Test
    void shouldRefuseAFileLeftByAnEarlierRun() throws Exception
    {
        final Path file = Files.createFile(dir.resolve("left"));
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> LaneFloor.run(false, 10, 0, 64, file));
        assertTrue(ex.getMessage().contains("exists"), ex.getMessage());
    }

    private static long[] side(final boolean ping, final int rounds, final int warmup, final int size, final Path file)
    {
        try
        {
            return LaneFloor.run(ping, rounds, warmup, size, file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
