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
package io.jfabric.tools;

import io.jfabric.FabricException;
import io.jfabric.shm.cleanup.RootCleaner.Action;
import io.jfabric.shm.cleanup.RootCleaner.Result;
import io.jfabric.shm.cleanup.RootCleaner;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.tools.cli.VersionProvider;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code jfabric clean}: removes the shm provider's files whose owners are all gone, and lists every file of the
 * root with what was done and why: domain regions no live process has open, their address vectors, the segments
 * and half-built temporary files of dead processes ({@link RootCleaner}; an owner is a pid and its start time, so a
 * process that reuses a dead owner's pid is not taken for it). A file a live process uses is never touched; files
 * whose users cannot be told (another layout, damaged, not jfabric's) are listed as skipped and kept.
 * {@code --dry-run} lists without removing. The root is the provider's ({@code jfabric.shm.dir},
 * {@code JFABRIC_SHM_DIR}, else {@code /dev/shm/jfabric-$USER}) unless {@code --dir} names another.
 * <p>
 * Exit status: 0 when every file was handled (kept and skipped ones included); the libfabric errno of the first
 * failure otherwise (13, FI_EACCES, for a root that is not this user's or a file that cannot be removed; 22,
 * FI_EINVAL, for a bad provider setting); 1 for a usage error. Runs on the command line's thread.
 */
@Command(
    name = "clean",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 1,
    versionProvider = VersionProvider.class,
    description = "Remove the shm files of processes that are gone (regions no live process has open, their address " +
        "vectors, dead processes' segments and temporary files); never a file a live process uses.")
final class CleanCommand implements Callable<Integer>
{
    private static final double MIB = 1024.0 * 1024.0;

    @Spec
    private CommandSpec spec;

    @Option(names = {"-n", "--dry-run"}, description = "list what would be removed, remove nothing")
    private boolean dryRun;

    @Option(names = {"-d", "--dir"}, paramLabel = "DIR",
        description = "the shm root (default: jfabric.shm.dir, JFABRIC_SHM_DIR, else /dev/shm/jfabric-$USER)")
    private Path dir;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try
        {
            final ShmConfig config = ShmConfig.load();
            final Path root = null == dir ? config.rootDir() : dir.toAbsolutePath().normalize();
            final List<Result> results = RootCleaner.clean(root, config.groupAccess(), dryRun);
            int status = 0;
            for (final Result result : results)
            {
                out.print(String.format(Locale.ROOT, "%-12s %s  %s: %s%n", result.action().text(),
                    result.entry().path().getFileName(), result.entry().kind().text(), result.detail()));
                if (result.action() == Action.FAILED && status == 0)
                {
                    status = result.errno();
                }
            }
            out.print(summary(root, results) + "\n");
            return status;
        }
        catch (final FabricException ex)
        {
            err.print("jfabric clean: " + ex.getMessage() + "\n");
            return ex.errno();
        }
        finally
        {
            out.flush();
            err.flush();
        }
    }

    private String summary(final Path root, final List<Result> results)
    {
        if (results.isEmpty())
        {
            return "jfabric clean: " + root + ": nothing to clean";
        }
        long removed = 0;
        long bytes = 0;
        final int[] counts = new int[Action.values().length];
        for (final Result result : results)
        {
            counts[result.action().ordinal()]++;
            if (result.action() == Action.REMOVED || result.action() == Action.WOULD_REMOVE)
            {
                removed++;
                bytes += result.bytes();
            }
        }
        return String.format(Locale.ROOT, "jfabric clean: %s: %s %d file%s (%.1f MiB); kept %d in use, skipped %d" +
            "%s", root, dryRun ? "would remove" : "removed", removed, removed == 1 ? "" : "s", bytes / MIB,
            counts[Action.KEPT.ordinal()], counts[Action.SKIPPED.ordinal()],
            counts[Action.FAILED.ordinal()] == 0 ? "" : ", failed " + counts[Action.FAILED.ordinal()]);
    }
}
