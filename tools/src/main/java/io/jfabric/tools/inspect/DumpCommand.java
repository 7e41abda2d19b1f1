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
package io.jfabric.tools.inspect;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.cleanup.RootEntries;
import io.jfabric.shm.cleanup.RootEntry;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.region.InspectedFile;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.tools.cli.VersionProvider;

import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code jfabric dump FILE|DOMAIN}: decodes any file of the shm provider through its layout descriptor: a domain region
 * ({@link RegionDump}), a named address vector ({@link AvDump}) or a shareable memory segment ({@link SegmentDump}),
 * told apart by magic number (or, when that is damaged, by name). A domain name, as {@code jfabric stat} takes it,
 * stands for its region file under the shm root. It prints the file's header fields as stored, who
 * uses the file as {@code jfabric clean} judges it, then checks the header as the provider's readers do and, for a
 * valid file, prints its tables. The file is read with {@code read(2)} and a read-only mapping: nothing is written.
 * <p>
 * For a damaged file it says what is wrong on stderr (the field, its value and what was expected) after listing the
 * fields it could read, and exits with 22 (FI_EINVAL), a bad checksum included; 2 (FI_ENOENT) for a missing file,
 * another errno when it cannot be read, 1 for a usage error. Never a stack trace. Runs on the command line's thread.
 */
@Command(
    name = "dump",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 1,
    versionProvider = VersionProvider.class,
    description = "Decode a jfabric file (domain region, named AV file, shareable memory segment): its header " +
        "fields and tables; for a damaged file, what is wrong with it.")
public final class DumpCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE|DOMAIN",
        description = "the file, such as /dev/shm/jfabric-$USER/orders.domain, or a domain name (orders), which " +
            "stands for its region file under the shm root, as jfabric stat takes it")
    private String target;

    @Option(names = {"-d", "--dir"}, paramLabel = "DIR",
        description = "the shm root a domain name is looked up in (default: jfabric.shm.dir, JFABRIC_SHM_DIR, else " +
            "/dev/shm/jfabric-$USER)")
    private Path dir;

    /**
     * Not for use: picocli instantiates the command.
     */
    public DumpCommand()
    {
    }

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try
        {
            final Path file = resolve();
            final FileKind kind = FileKind.of(file);
            final FileDump dump = kind.dump();
            try (InspectedFile inspected = InspectedFile.open(file, kind.what()))
            {
                final UnsafeBuffer header = inspected.readHeader(dump.headerLength());
                out.print(String.format(Locale.ROOT, "%s: %s, %d bytes, inode %d%n", inspected.path(), kind.what(),
                    inspected.length(), inspected.inode()));
                final RootEntry judged = RootEntries.judge(inspected.path());
                out.print("jfabric clean would " + verdict(judged) + ": " + judged.detail() + "\n");
                dump.fields(new FieldListing(out, header));
                out.flush();
                dump.verify(inspected, header);
                dump.body(inspected, header, out);
            }
            return 0;
        }
        catch (final FabricException ex)
        {
            out.flush();
            err.print("jfabric dump: " + ex.getMessage() + "\n");
            return Text.exitStatus(ex);
        }
        finally
        {
            out.flush();
            err.flush();
        }
    }

    /**
     * @return the argument as a path when it names a file or has a directory part, else the region file of the domain
     * it names.
     * @throws FabricException {@link Errno#FI_ENOENT} when it is neither, naming both places looked at.
     */
    private Path resolve()
    {
        final Path given = Path.of(target);
        if (target.contains("/") || target.endsWith(RegionFile.FILE_SUFFIX) || Files.exists(given))
        {
            return given;
        }
        final Path root = null == dir ? ShmConfig.load().rootDir() : dir.toAbsolutePath().normalize();
        try
        {
            RegionFile.validateDomainName(target);
        }
        catch (final FabricException ex)
        {
            throw new FabricException(Errno.FI_ENOENT, "no file " + given.toAbsolutePath() + ", and '" + target +
                "' is not a domain name either: " + ex.getMessage(), ex);
        }
        final Path region = RegionFile.regionPath(root, target);
        if (!Files.exists(region))
        {
            throw new FabricException(Errno.FI_ENOENT, "no file " + given.toAbsolutePath() + ", and no domain '" +
                target + "' under " + root + " (no " + region + "): give a file's path, or the name of a domain " +
                "that is open or was kept, as jfabric stat lists them");
        }
        return region;
    }

    private static String verdict(final RootEntry entry)
    {
        switch (entry.state())
        {
            case IN_USE:
                return "keep it";
            case LEFT_BEHIND:
                return entry.withRegion() ? "remove it with its region" : "remove it";
            default:
                return "skip it";
        }
    }
}
