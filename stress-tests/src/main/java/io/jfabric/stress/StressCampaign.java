package io.jfabric.stress;

import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.ReportUtils;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs the build's JCStress campaign and fails unless every expected test ran and passed.
 * <p>
 * JCStress alone is not enough for a build gate: a test with more actors than the machine has CPUs is silently
 * not scheduled, "No matching tests" and "No JVM configurations" end normally, and a test whose
 * annotation processing did not happen is simply absent. So this runner:
 * <ol>
 *   <li>compares the tests JCStress selects (its compiled test list filtered by {@code -t}) with the list in
 *   {@value #EXPECTED_TESTS_RESOURCE}, both ways, before running anything;</li>
 *   <li>runs JCStress with the given arguments, unchanged;</li>
 *   <li>reads JCStress's own result file back and requires, for every expected test, at least one result and
 *   that every result passed ({@link ReportUtils#statusToPassed}: status normal and every observed outcome
 *   allowed, every required outcome seen).</li>
 * </ol>
 * Exit status 0 when all holds, 1 otherwise, 2 for bad arguments. Main thread only.
 */
public final class StressCampaign
{
    /** Classpath resource listing the fully qualified names of the tests the campaign must run, one a line. */
    public static final String EXPECTED_TESTS_RESOURCE = "/jfabric-stress-campaign.txt";

    private StressCampaign()
    {
    }

    /**
     * @param args JCStress arguments, such as {@code -m quick -t io\.jfabric\.stress\..*}.
     * @throws Exception when JCStress fails outside its test verdicts.
     */
    public static void main(final String[] args) throws Exception
    {
        final Options options = new Options(args);
        if (!options.parse())
        {
            System.exit(2);
        }
        if (options.shouldList() || options.shouldParse())
        {
            System.err.println("StressCampaign runs and checks a campaign; use org.openjdk.jcstress.Main to list or parse");
            System.exit(2);
        }

        final SortedSet<String> expected = expectedTests();
        final JCStress jcstress = new JCStress(options);
        final List<String> problems = compareSelection(expected, jcstress.getTests());
        if (!problems.isEmpty())
        {
            report(problems);
            System.exit(1);
        }

        final long startNs = System.nanoTime();
        try
        {
            jcstress.run();
        }
        catch (final AssertionError ex)
        {
            // JCStress throws "TEST FAILURES" after printing its reports; the checks below say which.
            System.out.println("JCStress reported failures: " + ex.getMessage());
        }
        final long elapsedS = (System.nanoTime() - startNs) / 1_000_000_000L;

        problems.addAll(checkResults(expected, readResults(options.getResultFile())));
        System.out.println();
        System.out.println("jfabric stress campaign: " + expected.size() + " expected tests, " + elapsedS + " s");
        report(problems);
        System.exit(problems.isEmpty() ? 0 : 1);
    }

    private static SortedSet<String> expectedTests() throws IOException
    {
        final SortedSet<String> expected = new TreeSet<>();
        try (InputStream in = StressCampaign.class.getResourceAsStream(EXPECTED_TESTS_RESOURCE))
        {
            if (null == in)
            {
                throw new IllegalStateException("no " + EXPECTED_TESTS_RESOURCE + " on the classpath");
            }
            final BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = reader.readLine()) != null)
            {
                final String name = line.strip();
                if (!name.isEmpty() && !name.startsWith("#"))
                {
                    expected.add(name);
                }
            }
        }
        return expected;
    }

    private static List<String> compareSelection(final SortedSet<String> expected, final SortedSet<String> selected)
    {
        final List<String> problems = new ArrayList<>();
        if (expected.isEmpty())
        {
            problems.add(EXPECTED_TESTS_RESOURCE + " lists no tests");
        }
        for (final String name : expected)
        {
            if (!selected.contains(name))
            {
                problems.add(name + " is expected but JCStress does not select it (not compiled by the JCStress " +
                    "annotation processor, or excluded by -t)");
            }
        }
        for (final String name : selected)
        {
            if (!expected.contains(name))
            {
                problems.add(name + " is selected but not listed in " + EXPECTED_TESTS_RESOURCE + ": add it");
            }
        }
        return problems;
    }

    private static List<TestResult> readResults(final String resultFile) throws Exception
    {
        final InProcessCollector collector = new InProcessCollector();
        if (Files.exists(Path.of(resultFile)))
        {
            final DiskReadCollector reader = new DiskReadCollector(resultFile, collector);
            reader.dump();
            reader.close();
        }
        return new ArrayList<>(collector.getTestResults());
    }

    private static List<String> checkResults(final SortedSet<String> expected, final List<TestResult> results)
    {
        final Map<String, List<TestResult>> byName = new TreeMap<>();
        for (final TestResult result : results)
        {
            byName.computeIfAbsent(result.getName(), k -> new ArrayList<>()).add(result);
        }

        final List<String> problems = new ArrayList<>();
        System.out.println();
        System.out.printf("%-70s %6s %14s  %s%n", "test", "runs", "samples", "verdict");
        for (final String name : expected)
        {
            final List<TestResult> runs = byName.getOrDefault(name, List.of());
            long samples = 0;
            int failed = 0;
            for (final TestResult run : runs)
            {
                samples += run.getTotalCount();
                if (!ReportUtils.statusToPassed(run))
                {
                    failed++;
                    problems.add(name + " " + ReportUtils.statusToLabel(run) + " in " + run.getConfig().jvmArgs);
                }
            }
            if (runs.isEmpty())
            {
                problems.add(name + " did not run: JCStress did not schedule it (more actors than CPUs?) or " +
                    "found no usable JVM configuration");
            }
            else if (0 == samples)
            {
                problems.add(name + " ran " + runs.size() + " times without a single sample");
            }
            final String verdict = runs.isEmpty() ? "NOT RUN" : failed > 0 ? failed + " FAILED" : "OK";
            System.out.printf("%-70s %6d %14d  %s%n", name, runs.size(), samples, verdict);
        }
        return problems;
    }

    private static void report(final List<String> problems)
    {
        if (problems.isEmpty())
        {
            System.out.println("jfabric stress campaign: PASSED");
            return;
        }
        System.out.println("jfabric stress campaign: FAILED");
        for (final String problem : problems)
        {
            System.out.println("  - " + problem);
        }
    }
}
