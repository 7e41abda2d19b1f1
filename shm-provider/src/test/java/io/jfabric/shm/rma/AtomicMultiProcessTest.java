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
package io.jfabric.shm.rma;

import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link AtomicOps} across real processes: four child JVMs ({@link AtomicPeerMain}) map one file under the test
 * root (a plain {@link MappedByteBuffer} in an {@link UnsafeBuffer}) and, phase by phase behind a barrier in the
 * file, each do {@link #ROUNDS} operations: FI_SUM fetch-adds on one 64-bit word; FI_CSWAP increments of another
 * (a compare-swap retry loop); FI_SUM fetch-adds on its own 16-bit element, the four elements being the halves of
 * two adjacent 32-bit words; and FI_SUM on one 16-bit element all four share. The children start once, in
 * {@link #runChildren()}; each test checks one phase.
 * <p>
 * File layout (bytes): barrier count at 0, abort word at 8 (a failing child raises it so its peers stop waiting);
 * the fetch-add word at 64; the compare-swap word at 128; a guard word at
 * 188, the four own 16-bit elements at 192 to 199, a guard word at 200; the shared 16-bit element at 256, its
 * neighbour half at 258 and a guard word at 260.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AtomicMultiProcessTest
{
    static final int FILE_BYTES = 4096;
    static final int BARRIER = 0;
    static final int ABORT = 8;
    static final int FETCH_ADD = 64;
    static final int COMPARE_SWAP = 128;
    static final int OWN_HALVES = 192;
    static final int SHARED_HALF = 256;

    private static final int PROCESSES = 4;
    private static final int ROUNDS = 1_000_000;
    private static final int GUARD_BEFORE = 188;
    private static final int GUARD_AFTER = 200;
    private static final int SHARED_NEIGHBOUR = 258;
    private static final int SHARED_GUARD = 260;
    private static final int GUARD = 0xA5C3_5A3C;
    private static final short NEIGHBOUR = 0x7E7E;
    private static final long CHILD_TIMEOUT_S = 120;

    private final ShmTestRoot root = new ShmTestRoot();
    private final List<Map<String, String>> results = new ArrayList<>();
    private UnsafeBuffer shared;
    private long elapsedMs;

    @BeforeAll
    void runChildren() throws Exception
    {
        Files.createDirectories(root.dir());
        final Path file = root.dir().resolve("atomics");
        final MappedByteBuffer mapped;
        try (FileChannel channel = FileChannel.open(file,
            StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            channel.truncate(FILE_BYTES);
            mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_BYTES);
        }
        shared = new UnsafeBuffer(mapped);
        shared.putInt(GUARD_BEFORE, GUARD);
        shared.putInt(GUARD_AFTER, GUARD);
        shared.putShort(SHARED_NEIGHBOUR, NEIGHBOUR);
        shared.putInt(SHARED_GUARD, GUARD);

        final long start = System.nanoTime();
        final List<ChildJvm> children = new ArrayList<>();
        try
        {
            for (int p = 0; p < PROCESSES; p++)
            {
                children.add(ChildJvm.start(AtomicPeerMain.class, List.of(), file.toString(), String.valueOf(p),
                    String.valueOf(PROCESSES), String.valueOf(ROUNDS)));
            }
            for (final ChildJvm child : children)
            {
                child.awaitSuccess(CHILD_TIMEOUT_S);
                results.add(child.awaitResult(1));
            }
        }
        finally
        {
            for (final ChildJvm child : children)
            {
                child.kill();
            }
        }
        elapsedMs = (System.nanoTime() - start) / 1_000_000;
        System.out.println("AtomicMultiProcessTest: " + PROCESSES + " JVMs x " + ROUNDS + " operations per phase, " +
            elapsedMs + " ms in all (JVM start included); per process: " + results);
    }

    @AfterAll
    void removeFile()
    {
        root.close();
    }

    @Test
    void shouldEndAtExactlyFourMillionAfterFetchAddsFromFourProcesses()
    {
        assertEquals((long)PROCESSES * ROUNDS, shared.getLongVolatile(FETCH_ADD));
    }

    @Test
    void shouldEndAtExactlyFourMillionAfterCompareSwapIncrementsFromFourProcesses()
    {
        assertEquals((long)PROCESSES * ROUNDS, shared.getLongVolatile(COMPARE_SWAP));
    }

    @Test
    void shouldKeepEachProcessSixteenBitElementExactAndItsNeighboursUntouched()
    {
        for (int p = 0; p < PROCESSES; p++)
        {
            assertEquals(ROUNDS & 0xFFFF, shared.getShortVolatile(OWN_HALVES + 2 * p) & 0xFFFF, "process " + p +
                " (every fetched value was checked in the child, so no add was lost or disturbed on the way)");
        }
        assertEquals(GUARD, shared.getInt(GUARD_BEFORE));
        assertEquals(GUARD, shared.getInt(GUARD_AFTER));
    }

    @Test
    void shouldLoseNoSixteenBitAddWhenFourProcessesShareOneElement()
    {
        assertEquals((PROCESSES * ROUNDS) & 0xFFFF, shared.getShortVolatile(SHARED_HALF) & 0xFFFF,
            "4,000,000 mod 65536");
        assertEquals(NEIGHBOUR, shared.getShort(SHARED_NEIGHBOUR));
        assertEquals(GUARD, shared.getInt(SHARED_GUARD));
    }
}
