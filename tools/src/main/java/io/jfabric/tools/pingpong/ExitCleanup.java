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
package io.jfabric.tools.pingpong;

import io.jfabric.Errno;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * What one pingpong process must undo however it ends: the files it created (its rendezvous file, its
 * shareable-memory segments, the domain's region when it is to go) and the server JVM {@code --self} started.
 * {@link #close()} undoes them at the end of the run, after a success or an error; a JVM shutdown hook undoes them
 * when the JVM exits under the run (Ctrl-C, SIGTERM), which no {@code finally} block sees. Whichever comes first
 * does it, once.
 * <p>
 * A file is remembered with its identity (its file key, the inode on Linux) when it is added, so it must exist by
 * then, and is deleted only when the name still names that file: a file another run has since put under the same
 * name is left alone. Deleting a file another process still maps is harmless: its mapping stays valid until it
 * unmaps.
 * <p>
 * Threads: the pingpong's thread adds; the shutdown hook's thread may undo concurrently with it.
 */
final class ExitCleanup implements AutoCloseable
{
    /** How long {@link #close()} waits for a stopped server JVM to remove its own files before killing it. */
    static final long STOP_GRACE_MILLIS = 5_000;

    private final List<Path> paths = new ArrayList<>();
    private final List<Object> fileKeys = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final Thread hook = new Thread(this::undoAtShutdown, "jfabric-pingpong-cleanup");
    private boolean undone;

    private ExitCleanup()
    {
    }

    /**
     * @return a cleanup with nothing to undo yet, its shutdown hook installed.
     */
    static ExitCleanup install()
    {
        final ExitCleanup cleanup = new ExitCleanup();
        Runtime.getRuntime().addShutdownHook(cleanup.hook);
        return cleanup;
    }

    /**
     * Delete {@code path} at the end, if it still names the file it names now (at once when the end has come).
     *
     * @param path an existing file this process created, or one it is to remove at the end (the client's domain
     *             region).
     */
    synchronized void delete(final Path path)
    {
        if (undone)
        {
            deleteIfSame(path, fileKey(path));
            return;
        }
        paths.add(path);
        fileKeys.add(fileKey(path));
    }

    /**
     * Stop {@code process} at the end if it is still running: ask it to exit (SIGTERM, so its own cleanup runs).
     *
     * @param process the server JVM this process started.
     */
    synchronized void stop(final Process process)
    {
        processes.add(process);
    }

    /**
     * Undo now: stop the processes (waiting up to {@link #STOP_GRACE_MILLIS} for them to exit, then killing them) and
     * delete the files; take the shutdown hook off.
     *
     * @throws PingpongException FI_EIO naming a file that could not be deleted.
     */
    @Override
    public void close()
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException ex)
        {
            // The JVM is shutting down: the hook runs (or ran) the same undo.
        }
        final String failure = undo(true);
        if (failure != null)
        {
            throw new PingpongException(Errno.FI_EIO, "pingpong: " + failure);
        }
    }

    private void undoAtShutdown()
    {
        final String failure = undo(false);
        if (failure != null)
        {
            System.err.println("pingpong: at exit: " + failure);
        }
    }

    /**
     * @param wait wait for the stopped processes to exit (not in the shutdown hook: the JVM is going).
     * @return what could not be deleted, or null.
     */
    private synchronized String undo(final boolean wait)
    {
        if (undone)
        {
            return null;
        }
        undone = true;
        for (final Process process : processes)
        {
            process.destroy();
        }
        if (wait)
        {
            for (final Process process : processes)
            {
                awaitOrKill(process);
            }
        }
        String failure = null;
        for (int i = 0; i < paths.size(); i++)
        {
            final String failed = deleteIfSame(paths.get(i), fileKeys.get(i));
            failure = failure == null ? failed : failure;
        }
        return failure;
    }

    private static void awaitOrKill(final Process process)
    {
        try
        {
            if (!process.waitFor(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS))
            {
                process.destroyForcibly();
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private static String deleteIfSame(final Path path, final Object fileKey)
    {
        try
        {
            if (Objects.equals(fileKey, fileKey(path)))
            {
                Files.deleteIfExists(path);
            }
            return null;
        }
        catch (final IOException ex)
        {
            return "cannot delete " + path + ": " + ex;
        }
    }

    /** @return the file's key, or null when it does not exist or the platform has no keys. */
    private static Object fileKey(final Path path)
    {
        try
        {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        }
        catch (final IOException ex)
        {
            return null;
        }
    }
}
