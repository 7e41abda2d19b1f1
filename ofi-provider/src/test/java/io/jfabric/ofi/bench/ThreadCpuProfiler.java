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

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A JMH profiler ({@code -prof io.jfabric.ofi.bench.ThreadCpuProfiler}) that reports, per iteration, the CPU time the
 * benchmark's worker threads spent per operation ({@code ·cpu.time}, ns/op): time while the thread ran, not while the
 * scheduler had it off the core. On a host shared with other busy processes the wall-clock score counts the waits
 * too; this one counts what the code cost (still inflated by caches the neighbours evict, not by their time slices).
 * Runs in the benchmark's JVM, on JMH's harness thread.
 */
public final class ThreadCpuProfiler implements InternalProfiler
{
    private static final String WORKER = "jmh-worker";

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> before = new HashMap<>();

    @Override
    public String getDescription()
    {
        return "CPU time of the benchmark threads per operation (ThreadMXBean)";
    }

    @Override
    public void beforeIteration(final BenchmarkParams benchmarkParams, final IterationParams iterationParams)
    {
        before.clear();
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (thread.getName().contains(WORKER))
            {
                before.put(thread.threadId(), threads.getThreadCpuTime(thread.threadId()));
            }
        }
    }

    @Override
    public List<? extends Result<?>> afterIteration(
        final BenchmarkParams benchmarkParams, final IterationParams iterationParams, final IterationResult result)
    {
        long cpu = 0;
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (thread.getName().contains(WORKER))
            {
                final long now = threads.getThreadCpuTime(thread.threadId());
                cpu += now - before.getOrDefault(thread.threadId(), 0L);
            }
        }
        final long ops = result.getMetadata().getMeasuredOps();
        return List.of(new ScalarResult("·cpu.time", ops == 0 ? Double.NaN : (double)cpu / ops, "ns/op",
            AggregationPolicy.AVG));
    }
}
