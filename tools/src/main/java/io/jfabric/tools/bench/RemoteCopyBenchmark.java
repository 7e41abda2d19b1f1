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
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.mr.RemoteMemory;
import org.agrona.concurrent.UnsafeBuffer;
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
 * One-sided copy into and out of a peer's registered shareable memory ({@link RemoteMemory#write} and
 * {@link RemoteMemory#read}: key lookup, checks, copy, re-check) against a plain memcpy of the same size between
 * two direct buffers ({@code UnsafeBuffer.putBytes}), measured in the same run. The peer is a second domain object
 * with its own mapping of the segment file, as another process would have. Bandwidth is size / time; compare the
 * rows of one run as ratios.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "-Dagrona.disable.bounds.checks=true"})
public class RemoteCopyBenchmark
{
    private static final long KEY = 7;

    /** Bytes per copy. */
    @Param({"4096", "65536", "1048576"})
    public int size;

    private BenchDomain bench;
    private Domain owner;
    private Domain peer;
    private ShareableMemory memory;
    private MemoryRegion mr;
    private RemoteMemory remote;
    private UnsafeBuffer local;
    private UnsafeBuffer plainTarget;

    /** Register the owner's memory and map it at the peer. */
    @Setup(Level.Trial)
    public void setUp()
    {
        bench = new BenchDomain();
        owner = bench.open();
        peer = bench.open();
        memory = owner.allocShareable(size);
        mr = owner.mrRegv(new MrIov[]{MrIov.of(memory, 0, size)}, Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE, 0,
            KEY, 0, 0);
        // RemoteMemory is the provider's own class this benchmark measures: it is reached through the internal domain
        remote = ((ShmDomain)peer).remoteMemory();
        local = new UnsafeBuffer(ByteBuffer.allocateDirect(size));
        plainTarget = new UnsafeBuffer(ByteBuffer.allocateDirect(size));
        if (remote.write(KEY, 0, local, 0, size) != 0)
        {
            throw new IllegalStateException("remote write failed in setup");
        }
    }

    /** Close everything. */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        remote.close();
        mr.close();
        memory.close();
        peer.close();
        owner.close();
        bench.close();
    }

    /** @return 0 or -errno. */
    @Benchmark
    public int remoteWrite()
    {
        return remote.write(KEY, 0, local, 0, size);
    }

    /** @return 0 or -errno. */
    @Benchmark
    public int remoteRead()
    {
        return remote.read(KEY, 0, local, 0, size);
    }

    /** The baseline: the same bytes copied between two direct buffers. */
    @Benchmark
    public void memcpy()
    {
        plainTarget.putBytes(0, local, 0, size);
    }
}
