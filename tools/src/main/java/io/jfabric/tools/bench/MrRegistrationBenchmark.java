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

import io.jfabric.Domain;
import io.jfabric.Flags;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.ShareableMemory;
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

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Cost of fi_mr_reg + fi_close for 4 KiB and 1 MiB regions: a direct buffer registered for local use, and
 * shareable memory registered for remote read and write (the case that publishes a key table entry peers can
 * resolve). Requested keys (no FI_MR_PROV_KEY), synchronous registration. Single thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "-Dagrona.disable.bounds.checks=true"})
public class MrRegistrationBenchmark
{
    /** Region size in bytes. */
    @Param({"4096", "1048576"})
    public int size;

    /** "direct" (local access) or "shareable" (remote read and write). */
    @Param({"direct", "shareable"})
    public String memory;

    private BenchDomain bench;
    private Domain domain;
    private ShareableMemory shareable;
    private MrIov[] iov;
    private long access;

    /** Open the domain and the memory. */
    @Setup(Level.Trial)
    public void setUp()
    {
        bench = new BenchDomain();
        domain = bench.open();
        if ("shareable".equals(memory))
        {
            shareable = domain.allocShareable(size);
            iov = new MrIov[]{MrIov.of(shareable, 0, size)};
            access = Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE;
        }
        else
        {
            iov = new MrIov[]{MrIov.of(ByteBuffer.allocateDirect(size))};
            access = Flags.FI_SEND | Flags.FI_RECV | Flags.FI_READ | Flags.FI_WRITE;
        }
    }

    /** Close everything. */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        if (shareable != null)
        {
            shareable.close();
        }
        domain.close();
        bench.close();
    }

    /**
     * @return the key, so the work is not eliminated.
     */
    @Benchmark
    public long regAndClose()
    {
        final MemoryRegion mr = domain.mrRegv(iov, access, 0, 42, 0, 0);
        final long key = mr.key();
        mr.close();
        return key;
    }
}
