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
package io.jfabric.ofi.bench;

import io.jfabric.ofi.ctx.MpmcSlotPool;
import io.jfabric.ofi.ctx.SlotPool;
import io.jfabric.ofi.ctx.SpscSlotPool;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The slot pools alone, no native call: what an operation with a completion costs on the post (take a slot, keep the
 * buffer, publish; give it back when refused) and over its whole life (post, then the completion's read), per
 * threading model's pool, on one thread. The pool and the buffer are moved to the old generation first
 * ({@code System.gc()} after setup), as in an application that has run for a while, so reference stores pay G1's
 * old-to-old card barrier as they would there. Run by ofi-provider/bench/jmh.sh with {@code SlotPoolBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class SlotPoolBenchmark
{
    /** SPSC (FI_THREAD_DOMAIN and the other single-poster models) or MPMC (FI_THREAD_SAFE). */
    @Param({"SPSC", "MPMC"})
    public String pool;

    private Arena arena;
    private SlotPool slots;
    private ByteBuffer buf;

    @Setup(Level.Trial)
    public void open()
    {
        arena = Arena.ofShared();
        // tcp;ofi_rxm's sizes: tx_size 2048 (capacity 2048), a block of 512 bytes, 3 x iov_limit 4 references.
        slots = pool.equals("SPSC") ? new SpscSlotPool(2048, 512, 12, arena) : new MpmcSlotPool(2048, 512, 12, arena);
        buf = ByteBuffer.allocateDirect(64);
        System.gc();
    }

    @TearDown(Level.Trial)
    public void close()
    {
        arena.close();
    }

    /** A post libfabric refuses: slot taken, buffer kept, published, then given back. */
    @Benchmark
    public int refusedPost()
    {
        final int slot = slots.acquire();
        slots.hold(slot, 1, buf, null, null, 0, 0, 0);
        slots.abandon(slot);
        return slot;
    }

    /** A post libfabric takes, and later the read of its completion. */
    @Benchmark
    public long postAndComplete()
    {
        final int slot = slots.acquire();
        slots.hold(slot, 1, buf, null, null, 0, 0, 0);
        return slots.complete(slot);
    }
}
