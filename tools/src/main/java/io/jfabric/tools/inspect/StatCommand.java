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
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.stat.DomainStat;
import io.jfabric.shm.stat.RegionImage;
import io.jfabric.shm.stat.RegionMappers;
import io.jfabric.tools.cli.VersionProvider;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jfabric stat [DOMAIN] [--watch SECONDS] [--samples N] [--dir DIR]}: what a live domain's region holds, as
 * Aeron's AeronStat shows a media driver's counters: the header (layout, nonce, creator, age, attach count), the
 * user table with each process's liveness, every slot in use (owner and whether it lives, state, incarnation,
 * heartbeat age, address), each of its rings' occupancy (the lanes into it by sender, its transmit ring, its
 * completion ring) and its per-path send counts ({@link DomainStat}, read from a read-only mapping: nothing is
 * written to the region). With {@code --watch} it samples every SECONDS until interrupted (or {@code --samples}
 * times): counts show their growth since the last sample and rings the most they held in any sample.
 * <p>
 * It also says when the file it reads is not the one every live process uses: processes that still map an earlier
 * file of the same name, removed and created anew meanwhile ({@link RegionMappers}), and, while watching, a file
 * replaced since it was mapped (it then reads the new one).
 * <p>
 * DOMAIN is a domain name (its region is {@code <root>/<DOMAIN>.domain}) or a region file's path; without it every
 * region of the root is shown. Exit status: 0; 2 (FI_ENOENT) when the named domain has no region; 22 (FI_EINVAL)
 * for a region file that is foreign, of another layout, damaged or truncated (a bad checksum too); another errno
 * when a file cannot be read; 1 for a usage error. Runs on the command line's thread.
 */
@Command(
    name = "stat",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 1,
    versionProvider = VersionProvider.class,
    description = "Show a live domain: region header, users, endpoint slots with their owners, ring occupancy and " +
        "send counts; --watch samples it repeatedly.")
public final class StatCommand implements Callable<Integer>
{
    private static final double MAX_WATCH_SECONDS = 86_400;

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "DOMAIN",
        description = "a domain name or a region file's path (default: every domain region of the root)")
    private String domain;

    @Option(names = {"-w", "--watch"}, paramLabel = "SECONDS",
        description = "sample every SECONDS (fractions allowed) until interrupted; counts then show their growth " +
            "and rings their high-water mark")
    private Double watch;

    @Option(names = {"-n", "--samples"}, paramLabel = "N",
        description = "stop after N samples (default: 1, or until interrupted with --watch)")
    private Integer samples;

    @Option(names = {"-d", "--dir"}, paramLabel = "DIR",
        description = "the shm root (default: jfabric.shm.dir, JFABRIC_SHM_DIR, else /dev/shm/jfabric-$USER)")
    private Path dir;

    /**
     * Not for use: picocli instantiates the command.
     */
    public StatCommand()
    {
    }

    @Override
    public Integer call() throws InterruptedException
    {
        if (null != watch && !(watch > 0 && watch <= MAX_WATCH_SECONDS))
        {
            throw new ParameterException(spec.commandLine(), "--watch " + watch + " is not a number of seconds in " +
                "(0, " + (long)MAX_WATCH_SECONDS + "]");
        }
        if (null != samples && samples < 1)
        {
            throw new ParameterException(spec.commandLine(), "--samples " + samples + " must be at least 1");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        List<Watched> targets = List.of();
        try
        {
            final Path root = null == dir ? ShmConfig.load().rootDir() : dir.toAbsolutePath().normalize();
            targets = targets(root);
            if (targets.isEmpty())
            {
                out.print("jfabric stat: " + root + ": no domain regions\n");
                return 0;
            }
            final long count = null != samples ? samples : null == watch ? 1 : Long.MAX_VALUE;
            int status = 0;
            for (long sample = 1; sample <= count; sample++)
            {
                if (sample > 1)
                {
                    TimeUnit.MICROSECONDS.sleep((long)(watch * 1_000_000));
                }
                if (null != watch)
                {
                    out.print("--- sample " + sample + " at " + Text.instant(System.currentTimeMillis()) + "\n");
                }
                for (final Watched target : targets)
                {
                    final int result = target.sample(out, err);
                    status = status == 0 ? result : status;
                }
                out.flush();
                err.flush();
            }
            return status;
        }
        catch (final FabricException ex)
        {
            err.print("jfabric stat: " + ex.getMessage() + "\n");
            return Text.exitStatus(ex);
        }
        finally
        {
            targets.forEach(Watched::close);
            out.flush();
            err.flush();
        }
    }

    private List<Watched> targets(final Path root)
    {
        final List<Watched> targets = new ArrayList<>();
        if (null == domain)
        {
            try (DirectoryStream<Path> regions = Files.newDirectoryStream(root, "*" + RegionFile.FILE_SUFFIX))
            {
                regions.forEach(file -> targets.add(new Watched(file, null)));
            }
            catch (final NoSuchFileException ex)
            {
                return targets;
            }
            catch (final IOException ex)
            {
                throw new FabricException(Errno.FI_EIO, "cannot list " + root + ": " + ex, ex);
            }
            targets.sort((a, b) -> a.file.compareTo(b.file));
        }
        else if (domain.contains("/") || domain.endsWith(RegionFile.FILE_SUFFIX))
        {
            targets.add(new Watched(Path.of(domain), null));
        }
        else
        {
            RegionFile.validateDomainName(domain);
            final Path file = RegionFile.regionPath(root, domain);
            if (!Files.exists(file))
            {
                final List<Long> stale = new ArrayList<>();
                for (final RegionMappers.Mapper mapper : RegionMappers.scan(file).mappers())
                {
                    stale.add(mapper.pid());
                }
                throw new FabricException(Errno.FI_ENOENT, "domain '" + domain + "' has no region " + file +
                    (stale.isEmpty() ? ": no process has opened it under " + root : ", but process(es) " + stale +
                    " still map a removed file of it: they use a domain that a new open of the name cannot reach"));
            }
            targets.add(new Watched(file, domain));
        }
        return targets;
    }

    /**
     * One region across samples: its mapping, its last sample and ring marks. The command's thread only.
     */
    private final class Watched
    {
        private final Path file;
        private final String expectedName;
        private RegionImage image;
        private DomainStat previous;
        private HighWaterMarks marks;

        Watched(final Path file, final String expectedName)
        {
            this.file = file;
            this.expectedName = expectedName;
        }

        /** @return 0, or the exit status of the failure it reported. */
        int sample(final PrintWriter out, final PrintWriter err)
        {
            try
            {
                final DomainStat stat = next(out);
                if (null != expectedName && !expectedName.equals(stat.domainName()))
                {
                    throw new FabricException(Errno.FI_EINVAL, "domain region " + file + " belongs to domain '" +
                        stat.domainName() + "', not '" + expectedName + "': it was renamed or copied");
                }
                final DomainStatText text = new DomainStatText(out);
                out.print("domain " + stat.domainName() + ": " + stat.path() + "\n");
                text.header(stat);
                if (null != marks)
                {
                    marks.update(stat);
                }
                text.slots(stat, previous, marks);
                for (final RegionMappers.Mapper other : RegionMappers.scan(stat.path()).others(stat.inode()))
                {
                    text.line("WARNING", "process " + other.pid() + " maps an earlier file of this region (inode " +
                        other.inode() + "), removed and created anew since: it does not share the domain with the " +
                        "processes above");
                }
                previous = stat;
                if (null == watch)
                {
                    close();
                }
                return 0;
            }
            catch (final FabricException ex)
            {
                close();
                err.print("jfabric stat: " + ex.getMessage() + "\n");
                return Text.exitStatus(ex);
            }
        }

        /** A sample of the file at the path now, mapping it anew when it was replaced since the last sample. */
        private DomainStat next(final PrintWriter out)
        {
            if (null == image)
            {
                open();
            }
            final DomainStat stat = DomainStat.sample(image);
            if (stat.stillLinked())
            {
                return stat;
            }
            out.print("domain " + stat.domainName() + ": WARNING the region file mapped (inode " + stat.inode() +
                ", nonce " + Text.hex(stat.regionNonce()) + ") was removed or created anew since; reading " +
                file + " again\n");
            close();
            open();
            return DomainStat.sample(image);
        }

        private void open()
        {
            image = RegionImage.open(file);
            previous = null;
            marks = null == watch ? null : new HighWaterMarks();
        }

        private void close()
        {
            if (null != image)
            {
                image.close();
                image = null;
            }
        }
    }
}
