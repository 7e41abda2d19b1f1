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
package io.jfabric.stress;

import io.jfabric.stress.fixture.StressDomain;

import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.GradingResult;
import org.openjdk.jcstress.infra.grading.ReportUtils;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Runs the build's JCStress campaign and fails unless every expected test ran, passed and took enough samples; or,
 * with {@code --variants}, runs it with each test's broken variant ({@link Catches}) switched on and fails unless
 * every test then fails.
 * <p>
 * JCStress alone is not enough for a build gate: a test with more actors than the machine has CPUs is silently
 * not scheduled, "No matching tests" and "No JVM configurations" end normally, a test whose annotation processing
 * did not happen is simply absent, and a test that never fails proves nothing. So this runner:
 * <ol>
 *   <li>compares the tests JCStress selects (its compiled test list filtered by {@code -t}) with the list in
 *   {@value #EXPECTED_TESTS_RESOURCE} (those of it that {@code -t} selects), both ways, and requires a
 *   {@link Catches} on each, before running anything;</li>
 *   <li>runs JCStress with the given arguments, unchanged, while a watchdog kills any forked JVM that runs longer
 *   than {@value #FORK_LIMIT_PROPERTY} seconds (default {@value #DEFAULT_FORK_LIMIT_S}): a test that hangs
 *   becomes an error instead of a stuck build;</li>
 *   <li>reads JCStress's own result file back. Campaign: every expected test has at least one result, every
 *   result passed ({@link ReportUtils#statusToPassed}: status normal, every observed outcome allowed, every
 *   required outcome seen), and the test took at least {@value #MIN_SAMPLES_PROPERTY} samples (default
 *   {@value #DEFAULT_MIN_SAMPLES}) over its runs; a test that passed with fewer runs again, alone, up to
 *   {@value #RETRIES} times (a loaded host gives a slow test fewer samples a second), its samples added up.
 *   Variants: every expected test has a result that did not pass
 *   (a forbidden outcome, an error, a timeout, or a fork the watchdog killed, which JCStress reports as a VM
 *   error). A test none of whose results failed runs again, alone, up to {@value #RETRIES} times (a race
 *   a loaded host did not show once); it fails the build only if no run caught its variant.</li>
 * </ol>
 * Exit status 0 when all holds, 1 otherwise, 2 for bad arguments. Main thread only.
 */
public final class StressCampaign
{
    /** Classpath resource listing the fully qualified names of the tests the campaign must run, one a line. */
    public static final String EXPECTED_TESTS_RESOURCE = "/jfabric-stress-campaign.txt";
    /** System property: the fewest samples a test must take over its runs in the campaign. */
    public static final String MIN_SAMPLES_PROPERTY = "jfabric.stress.minSamples";
    /** Default of {@link #MIN_SAMPLES_PROPERTY}. */
    public static final long DEFAULT_MIN_SAMPLES = 1_000;
    /** System property: seconds a forked JVM may run before the watchdog kills it. */
    public static final String FORK_LIMIT_PROPERTY = "jfabric.stress.forkLimitSeconds";
    /** Default of {@link #FORK_LIMIT_PROPERTY}: a fork of the build's campaign lives 2-3 s. */
    public static final long DEFAULT_FORK_LIMIT_S = 20;
    /**
     * Runs again, alone, of a test that did not catch its broken variant, or that passed with fewer samples than the
     * campaign requires, before the build says so.
     */
    public static final int RETRIES = 2;

    private StressCampaign()
    {
    }

    /**
     * @param args {@code [--variants]} then JCStress arguments, such as {@code -t io\.jfabric\.stress\..*}.
     * @throws Exception when JCStress fails outside its test verdicts.
     */
    public static void main(final String[] args) throws Exception
    {
        final boolean variants = args.length > 0 && "--variants".equals(args[0]);
        final Options options = new Options(variants ? Arrays.copyOfRange(args, 1, args.length) : args);
        if (!options.parse())
        {
            System.exit(2);
        }
        if (options.shouldList() || options.shouldParse())
        {
            System.err.println(
                "StressCampaign runs and checks a campaign; use org.openjdk.jcstress.Main to list or parse");
            System.exit(2);
        }

        final SortedSet<String> expected = expectedTests();
        final Pattern selected = Pattern.compile(options.getTestFilter());
        expected.removeIf(name -> !selected.matcher(name).find()); // JCStress's own selection rule for -t
        final JCStress jcstress = new JCStress(options);
        final List<String> problems = compareSelection(expected, jcstress.getTests());
        if (!problems.isEmpty())
        {
            report(variants, problems);
            System.exit(1);
        }

        final long startNs = System.nanoTime();
        final long minSamples = Long.getLong(MIN_SAMPLES_PROPERTY, DEFAULT_MIN_SAMPLES);
        final List<String> kills = new ArrayList<>();
        final List<TestResult> results = new ArrayList<>(run(jcstress, options, kills));
        // A loaded host may show a broken variant's race, or give a slow test its samples, only in a longer run: a
        // test that did not catch its variant, or passed with too few samples, runs again, alone, up to RETRIES
        // times. Any run that fails counts; samples add up over the runs.
        for (int retry = 1; retry <= RETRIES; retry++)
        {
            final SortedSet<String> missed = variants ? notCaught(expected, results) :
                shortOfSamples(expected, results, minSamples);
            if (missed.isEmpty())
            {
                break;
            }
            System.out.println("jfabric stress: retry " + retry + " of " + RETRIES + " for " + missed +
                (variants ? " (variant not caught yet)" : " (fewer than " + minSamples + " samples)"));
            final Options again = new Options(retryArgs(variants ? Arrays.copyOfRange(args, 1, args.length) : args,
                missed, retry));
            again.parse();
            results.addAll(run(new JCStress(again), again, kills));
        }
        final long elapsedS = (System.nanoTime() - startNs) / 1_000_000_000L;
        problems.addAll(variants ? checkCaught(expected, results) : checkPassed(expected, results, minSamples));
        for (final String kill : kills)
        {
            System.out.println("watchdog: " + kill);
        }
        System.out.println();
        System.out.println("jfabric stress campaign" + (variants ? " (broken variants)" : "") + ": " +
            expected.size() + " expected tests, " + elapsedS + " s");
        report(variants, problems);
        System.exit(problems.isEmpty() ? 0 : 1);
    }

    /** Runs JCStress under the watchdog, sweeps what killed forks left, and reads the results back. */
    private static List<TestResult> run(final JCStress jcstress, final Options options, final List<String> kills)
        throws Exception
    {
        final Watchdog watchdog = new Watchdog(Long.getLong(FORK_LIMIT_PROPERTY, DEFAULT_FORK_LIMIT_S));
        watchdog.start();
        try
        {
            jcstress.run();
        }
        catch (final AssertionError ex)
        {
            // JCStress throws "TEST FAILURES" after printing its reports; the checks say which.
            System.out.println("JCStress reported failures: " + ex.getMessage());
        }
        finally
        {
            watchdog.interrupt();
        }
        kills.addAll(watchdog.kills);
        final int swept = StressDomain.sweepDeadRoots();
        if (swept > 0)
        {
            System.out.println("jfabric stress: removed the /dev/shm roots of " + swept + " forks that were killed");
        }
        return readResults(options.getResultFile());
    }

    /** @return the expected tests none of whose results failed (their broken variant not caught yet). */
    private static SortedSet<String> notCaught(final SortedSet<String> expected, final List<TestResult> results)
    {
        final Map<String, List<TestResult>> byName = byName(results);
        final SortedSet<String> missed = new TreeSet<>();
        for (final String name : expected)
        {
            if (byName.getOrDefault(name, List.of()).stream().allMatch(ReportUtils::statusToPassed))
            {
                missed.add(name);
            }
        }
        return missed;
    }

    /**
     * @return the expected tests every run of which passed, with fewer samples in all than {@code minSamples} (a
     * test that failed is not run again: its failure stands).
     */
    private static SortedSet<String> shortOfSamples(
        final SortedSet<String> expected, final List<TestResult> results, final long minSamples)
    {
        final Map<String, List<TestResult>> byName = byName(results);
        final SortedSet<String> shortOf = new TreeSet<>();
        for (final String name : expected)
        {
            final List<TestResult> runs = byName.getOrDefault(name, List.of());
            if (!runs.isEmpty() && runs.stream().allMatch(ReportUtils::statusToPassed) &&
                runs.stream().mapToLong(TestResult::getTotalCount).sum() < minSamples)
            {
                shortOf.add(name);
            }
        }
        return shortOf;
    }

    /**
     * The JCStress arguments again (without {@code --variants}), selecting only {@code tests} and writing the results
     * beside the first run's.
     */
    private static String[] retryArgs(final String[] args, final SortedSet<String> tests, final int retry)
    {
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < args.length; i++)
        {
            if (("-t".equals(args[i]) || "-r".equals(args[i])) && i + 1 < args.length)
            {
                out.add(args[i]);
                out.add("-t".equals(args[i]) ? "^(" + String.join("|", tests).replace(".", "\\.") + ")$" :
                    args[i + 1] + "-retry" + retry);
                i++;
            }
            else
            {
                out.add(args[i]);
            }
        }
        return out.toArray(new String[0]);
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
            else if (variantOf(name) == null)
            {
                problems.add(name + " has no @Catches: name the broken variant it is there to catch");
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

    private static String variantOf(final String testName)
    {
        try
        {
            final Catches catches = Class.forName(testName, false, StressCampaign.class.getClassLoader())
                .getAnnotation(Catches.class);
            return catches == null ? null : catches.value();
        }
        catch (final ClassNotFoundException ex)
        {
            return null;
        }
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

    private static Map<String, List<TestResult>> byName(final List<TestResult> results)
    {
        final Map<String, List<TestResult>> byName = new TreeMap<>();
        for (final TestResult result : results)
        {
            byName.computeIfAbsent(result.getName(), k -> new ArrayList<>()).add(result);
        }
        return byName;
    }

    private static List<String> checkPassed(
        final SortedSet<String> expected, final List<TestResult> results, final long minSamples)
    {
        final Map<String, List<TestResult>> byName = byName(results);
        final List<String> problems = new ArrayList<>();
        System.out.println();
        System.out.printf("%-66s %5s %11s  %s%n", "test", "runs", "samples", "verdict");
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
            else if (samples < minSamples)
            {
                problems.add(name + " took " + samples + " samples in " + runs.size() + " runs, fewer than the " +
                    minSamples + " the campaign requires (" + MIN_SAMPLES_PROPERTY + ")");
            }
            final String verdict = runs.isEmpty() ? "NOT RUN" : failed > 0 ? failed + " FAILED" :
                samples < minSamples ? "TOO FEW SAMPLES" : "OK";
            System.out.printf("%-66s %5d %11d  %s%n", shortName(name), runs.size(), samples, verdict);
        }
        return problems;
    }

    private static List<String> checkCaught(final SortedSet<String> expected, final List<TestResult> results)
    {
        final Map<String, List<TestResult>> byName = byName(results);
        final List<String> problems = new ArrayList<>();
        System.out.println();
        System.out.printf("%-46s %-26s %s%n", "test", "broken variant", "verdict");
        for (final String name : expected)
        {
            final List<TestResult> runs = byName.getOrDefault(name, List.of());
            String caught = null;
            long forbidden = 0;
            long samples = 0;
            for (final TestResult run : runs)
            {
                if (!ReportUtils.statusToPassed(run) && caught == null)
                {
                    caught = ReportUtils.statusToLabel(run);
                }
                if (run.status() == Status.NORMAL)
                {
                    samples += run.getTotalCount();
                    for (final GradingResult g : run.grading().gradingResults.values())
                    {
                        forbidden += g.expect == Expect.FORBIDDEN ? g.count : 0;
                    }
                }
            }
            if (caught != null && samples > 0)
            {
                caught += " (" + forbidden + " of " + samples + " samples forbidden)";
            }
            if (caught == null)
            {
                problems.add(name + " passed with its broken variant " + variantOf(name) + " switched on: it does " +
                    "not catch it" + (runs.isEmpty() ? " (did not run at all)" : ""));
            }
            System.out.printf("%-46s %-26s %s%n", shortName(name), variantOf(name),
                caught == null ? "NOT CAUGHT" : "caught: " + caught);
        }
        return problems;
    }

    private static String shortName(final String name)
    {
        return name.startsWith("io.jfabric.stress.") ? name.substring("io.jfabric.stress.".length()) : name;
    }

    private static void report(final boolean variants, final List<String> problems)
    {
        final String what = "jfabric stress campaign" + (variants ? " (broken variants)" : "");
        if (problems.isEmpty())
        {
            System.out.println(what + ": PASSED");
            return;
        }
        System.out.println(what + ": FAILED");
        for (final String problem : problems)
        {
            System.out.println("  - " + problem);
        }
    }

    /**
     * Kills forked JVMs (JCStress's test forks, children of this JVM) that run longer than the limit, so a hung
     * test ends as an error. JCStress's own probes of the VM live for a moment and are never near the limit.
     */
    private static final class Watchdog extends Thread
    {
        final List<String> kills = new ArrayList<>();
        private final Map<Long, Instant> firstSeen = new ConcurrentHashMap<>();
        private final Duration limit;

        Watchdog(final long limitSeconds)
        {
            super("jfabric-stress-watchdog");
            setDaemon(true);
            limit = Duration.ofSeconds(limitSeconds);
        }

        @Override
        public void run()
        {
            while (!isInterrupted())
            {
                final Instant now = Instant.now();
                ProcessHandle.current().children().forEach(child ->
                {
                    final Instant since = child.info().startInstant()
                        .orElseGet(() -> firstSeen.computeIfAbsent(child.pid(), k -> now));
                    if (Duration.between(since, now).compareTo(limit) > 0 && child.destroyForcibly())
                    {
                        synchronized (kills)
                        {
                            kills.add("killed fork pid " + child.pid() + " after " + limit.getSeconds() +
                                " s (a test hung)");
                        }
                    }
                });
                try
                {
                    Thread.sleep(500);
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
            }
        }
    }
}
