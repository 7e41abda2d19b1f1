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
package io.jfabric.ofi.stress;

import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.ReportUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;

/**
 * Runs JCStress with the given arguments and prints one {@code PASSED <test>} or {@code FAILED <test>} line per
 * test from JCStress's own result file (a test fails when any of its runs did not pass: a forbidden outcome, an
 * error, a required outcome unseen), then {@code TESTS <n>}. Exit 0 always once the run finished: the caller
 * (SlotPoolStressTest) judges the lines.
 */
public final class StressMain
{
    private StressMain()
    {
    }

    /**
     * @param args JCStress arguments.
     */
    public static void main(final String[] args) throws Exception
    {
        final Options options = new Options(args);
        if (!options.parse())
        {
            System.exit(2);
        }
        new JCStress(options).run();
        final InProcessCollector collector = new InProcessCollector();
        if (Files.exists(Path.of(options.getResultFile())))
        {
            final DiskReadCollector reader = new DiskReadCollector(options.getResultFile(), collector);
            reader.dump();
            reader.close();
        }
        final TreeMap<String, Boolean> passed = new TreeMap<>();
        for (final TestResult result : collector.getTestResults())
        {
            passed.merge(result.getName(), ReportUtils.statusToPassed(result), Boolean::logicalAnd);
        }
        passed.forEach((name, ok) -> System.out.println((ok ? "PASSED " : "FAILED ") + name));
        System.out.println("TESTS " + passed.size());
        System.exit(0);
    }
}
