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
package io.jfabric.shm.stat;

import io.jfabric.shm.region.TempFiles;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which processes map a region file, and which file it is: read from every {@code /proc/<pid>/maps} this user may
 * read. A region file that was removed and created anew under its name (by hand, or by {@code jfabric clean} racing
 * a process that was starting) splits its domain: the processes still mapping the earlier file never see those that
 * open the name now, and the region's user table cannot tell, since each file has its own. The kernel's mappings
 * can: a mapping names the file's inode, so one of another inode than the file at the path now is of an earlier
 * region.
 * <p>
 * A mapping counts when its path is the region file's, or a temporary file it was built in (the creator of a region
 * maps the temporary file before linking it under its name, so the kernel shows the creator on
 * {@code .<name>.<owner>.<random>.tmp (deleted)}; see {@link TempFiles}).
 * <p>
 * Linux only (elsewhere the result is empty). Processes of other users cannot be read without privilege: they are
 * counted in {@link #unreadable()}. Costs a read of each process's maps: call it per sample, not per message.
 * Immutable once scanned; any thread.
 */
public final class RegionMappers
{
    private static final String DELETED = " (deleted)";

    private final List<Mapper> mappers;
    private final int unreadable;

    /** A process mapping a file that is, or was, the region file. */
    public static final class Mapper
    {
        private final long pid;
        private final long inode;

        /**
         * @param pid   the process.
         * @param inode the inode of the file it maps.
         */
        public Mapper(final long pid, final long inode)
        {
            this.pid = pid;
            this.inode = inode;
        }

        /** @return the process's pid. */
        public long pid()
        {
            return pid;
        }

        /** @return the inode of the file it maps. */
        public long inode()
        {
            return inode;
        }

        @Override
        public boolean equals(final Object o)
        {
            return o instanceof Mapper && ((Mapper)o).pid == pid && ((Mapper)o).inode == inode;
        }

        @Override
        public int hashCode()
        {
            return Long.hashCode(pid * 31 + inode);
        }

        @Override
        public String toString()
        {
            return "process " + pid + " maps inode " + inode;
        }
    }

    private RegionMappers(final List<Mapper> mappers, final int unreadable)
    {
        this.mappers = List.copyOf(mappers);
        this.unreadable = unreadable;
    }

    /**
     * Scan the processes of this host.
     *
     * @param regionFile the region file's path (its directory must exist; the file need not).
     * @return who maps which file under that name.
     */
    public static RegionMappers scan(final Path regionFile)
    {
        final Path file = canonical(regionFile);
        final String directory = file.getParent() + "/";
        final String name = file.getFileName().toString();
        final Set<Mapper> found = new LinkedHashSet<>();
        int unreadable = 0;
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*"))
        {
            for (final Path process : processes)
            {
                try
                {
                    scanProcess(Long.parseLong(process.getFileName().toString()), process.resolve("maps"), directory,
                        name, found);
                }
                catch (final NoSuchFileException | NumberFormatException ex)
                {
                    // The process ended meanwhile, or the entry is not a pid.
                }
                catch (final IOException | SecurityException ex)
                {
                    unreadable++;
                }
            }
        }
        catch (final IOException ex)
        {
            return new RegionMappers(List.of(), 0); // No /proc: not Linux.
        }
        return new RegionMappers(new ArrayList<>(found), unreadable);
    }

    /** @return every process and file found, one entry per process and inode. */
    public List<Mapper> mappers()
    {
        return mappers;
    }

    /**
     * @param inode the inode of the file at the path now (such as {@link DomainStat#inode()}).
     * @return the processes mapping another file: an earlier region of the domain.
     */
    public List<Mapper> others(final long inode)
    {
        final List<Mapper> others = new ArrayList<>();
        for (final Mapper mapper : mappers)
        {
            if (mapper.inode() != inode)
            {
                others.add(mapper);
            }
        }
        return others;
    }

    /** @return how many processes' mappings could not be read (other users' processes, without privilege). */
    public int unreadable()
    {
        return unreadable;
    }

    /**
     * One maps line is {@code address perms offset dev inode pathname}; the pathname (which may hold spaces) ends in
     * " (deleted)" once the file has no name.
     */
    private static void scanProcess(
        final long pid, final Path maps, final String directory, final String name, final Set<Mapper> found)
        throws IOException
    {
        try (BufferedReader lines = Files.newBufferedReader(maps, StandardCharsets.ISO_8859_1))
        {
            String line;
            while ((line = lines.readLine()) != null)
            {
                final int start = line.indexOf(directory);
                if (start < 0)
                {
                    continue;
                }
                String mapped = line.substring(start + directory.length());
                if (mapped.endsWith(DELETED))
                {
                    mapped = mapped.substring(0, mapped.length() - DELETED.length());
                }
                if (mapped.equals(name) || name.equals(TempFiles.targetOf(mapped)))
                {
                    final String[] fields = line.substring(0, start).trim().split("\\s+");
                    if (fields.length == 5)
                    {
                        found.add(new Mapper(pid, Long.parseLong(fields[4])));
                    }
                }
            }
        }
    }

    /** The kernel prints the path it resolved: the directory's real path and the file's name. */
    private static Path canonical(final Path file)
    {
        final Path absolute = file.toAbsolutePath().normalize();
        try
        {
            return absolute.getParent().toRealPath().resolve(absolute.getFileName());
        }
        catch (final IOException ex)
        {
            return absolute;
        }
    }
}
