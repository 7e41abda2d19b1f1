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
package io.jfabric.shm.core;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The shared files this process maps besides domain regions (which {@code region.RegionWatch} watches): shareable
 * memory segments and named address vectors. Another process may truncate one under the mapping; the pages past
 * the new end then fault (SIGBUS), which HotSpot raises as an {@link InternalError}, and, for an access by compiled
 * code, only at the thread's next safepoint poll: possibly outside the code that made the access, with the access
 * having returned garbage meanwhile. So a truncation is found two ways, and either way only the object the file
 * backs fails:
 * <ul>
 *   <li>each heartbeat tick ({@link #check(long)}, from every open domain's region watch) looks at every watched
 *   file ({@code lstat(2)}: its size and inode), so most truncations are found before anything touches the lost
 *   pages;</li>
 *   <li>a data-path call that catches the JVM's error asks {@link #check()} which file it was, so the region is not
 *   blamed for another file's fault.</li>
 * </ul>
 * A file found shorter than its mapping is told once ({@link Watched#truncated}); it fails what it backs (every
 * later access answers {@code -FI_EIO} without touching the mapping) and reports it, naming the file. A file that was
 * removed or replaced (another inode under the path) is no truncation: the mapping stays whole.
 * <p>
 * Any thread; {@link #check()} allocates (an error path and the heartbeat thread only).
 */
public final class MappedFileWatch
{
    /** A mapping of a shared file that fails on its own when the file is truncated. */
    public interface Watched
    {
        /** @return the file. */
        Path file();

        /** @return the bytes mapped from the file's start: a file shorter than this faults on access. */
        long mappedLength();

        /**
         * The file was found shorter than the mapping: fail what it backs and report it, once (later calls do
         * nothing). Any thread; never throws.
         *
         * @param fileLength the file's length now.
         */
        void truncated(long fileLength);
    }

    private static final CopyOnWriteArrayList<Entry> WATCHED = new CopyOnWriteArrayList<>();
    private static volatile long checkedAtMs;

    private MappedFileWatch()
    {
    }

    /** A watched mapping, held weakly: one its user left to the garbage collector is not kept alive by the watch. */
    private static final class Entry extends WeakReference<Watched>
    {
        private final Object inode;

        Entry(final Watched watched, final Object inode)
        {
            super(watched);
            this.inode = inode;
        }
    }

    /**
     * Watch a mapping from now on, until {@link #unwatch}. Control path.
     *
     * @param watched the mapping.
     */
    public static void watch(final Watched watched)
    {
        WATCHED.add(new Entry(watched, inode(watched.file())));
    }

    /**
     * Stop watching a mapping (it is being closed). Control path.
     *
     * @param watched the mapping.
     */
    public static void unwatch(final Watched watched)
    {
        WATCHED.removeIf(e -> e.get() == watched || e.get() == null);
    }

    /**
     * The heartbeat thread's look, at most once per millisecond however many domains ask.
     *
     * @param nowMs the tick's time.
     */
    public static void check(final long nowMs)
    {
        if (nowMs != checkedAtMs)
        {
            checkedAtMs = nowMs;
            check();
        }
    }

    /**
     * Look at every watched file now; tell each one found shorter than its mapping.
     *
     * @return the watched files shorter than their mappings (told now or before).
     */
    public static int check()
    {
        int shorter = 0;
        for (final Entry e : WATCHED)
        {
            final Watched watched = e.get();
            if (watched == null)
            {
                WATCHED.remove(e); // its mapping was left to the garbage collector
                continue;
            }
            final Map<String, Object> now;
            try
            {
                now = Files.readAttributes(watched.file(), "unix:size,ino,dev", LinkOption.NOFOLLOW_LINKS);
            }
            catch (final IOException | RuntimeException ex)
            {
                continue; // removed, or cannot be looked at now
            }
            final long size = (Long)now.get("size");
            if (e.inode != null && e.inode.equals(now.get("dev") + ":" + now.get("ino")) &&
                size < watched.mappedLength())
            {
                shorter++;
                watched.truncated(size);
            }
        }
        return shorter;
    }

    private static Object inode(final Path file)
    {
        try
        {
            final Map<String, Object> a = Files.readAttributes(file, "unix:ino,dev", LinkOption.NOFOLLOW_LINKS);
            return a.get("dev") + ":" + a.get("ino");
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }
}
