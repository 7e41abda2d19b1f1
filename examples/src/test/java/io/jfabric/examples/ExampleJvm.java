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
package io.jfabric.examples;

import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.JvmCommand;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One example main class running in its own JVM, as a user would start it: this JVM's java binary and class path
 * (for a native provider, {@link #startOnOfi}: a JDK 22+ with the ofi provider's classes too), the
 * {@code --add-exports} Agrona needs, and {@code -Djfabric.shm.dir} pointing at the test's private root. A
 * {@link ChildJvm} reads its standard output and standard error apart, each line whole, so a test can wait for a line
 * while it runs: its lines are what a user sees in a terminal, both streams in the order the lines arrived, but a
 * line on one never lands in the middle of a line on the other. {@link #close()} kills it if it is still running, so
 * no process outlives its test.
 * <p>
 * Used by the test thread.
 */
final class ExampleJvm implements AutoCloseable
{
    private static final long POLL_MS = 10;

    private final String name;
    private final ChildJvm child;

    private ExampleJvm(final String name, final ChildJvm child)
    {
        this.name = name;
        this.child = child;
    }

    /**
     * @param name      what to call it in failure messages.
     * @param mainClass the example's main class.
     * @param root      the shm root directory.
     * @param args      the example's arguments.
     * @return the started process.
     * @throws IOException when it cannot start.
     */
    static ExampleJvm start(final String name, final Class<?> mainClass, final Path root, final String... args)
        throws IOException
    {
        return start(name, mainClass.getName(), null, root, args);
    }

    /**
     * Start a program that is not on this JVM's class path.
     *
     * @param name      what to call it in messages.
     * @param mainClass the class whose main runs.
     * @param classes   a directory or jar to put before this JVM's class path, or null.
     * @param root      the shm root directory.
     * @param args      the program's arguments.
     * @return the started process.
     * @throws IOException when it cannot start.
     */
    static ExampleJvm start(
        final String name, final String mainClass, final Path classes, final Path root, final String... args)
        throws IOException
    {
        return start(name, JvmCommand.java(), List.of(), classes, mainClass, root, args);
    }

    /**
     * Start an example as a user runs it over a native provider ({@code -p tcp}, as bin/example-* does): on the
     * JDK 22+ the build found, with the ofi provider's classes before this JVM's class path and native access
     * granted ({@link NeedsOfiTcp} says where they are, and skips the test where they are not).
     *
     * @param name      what to call it in messages.
     * @param mainClass the example's main class.
     * @param root      the shm root directory (the shm provider is on the class path too).
     * @param args      the example's arguments.
     * @return the started process.
     * @throws IOException when it cannot start.
     */
    static ExampleJvm startOnOfi(final String name, final Class<?> mainClass, final Path root, final String... args)
        throws IOException
    {
        return start(name, NeedsOfiTcp.Condition.java().toString(), List.of("--enable-native-access=ALL-UNNAMED"),
            NeedsOfiTcp.Condition.classes(), mainClass.getName(), root, args);
    }

    private static ExampleJvm start(
        final String name, final String java, final List<String> flags, final Path classes, final String mainClass,
        final Path root, final String... args) throws IOException
    {
        final List<String> command = JvmCommand.quickStart(java);
        command.addAll(1, flags);
        command.add("-Djfabric.shm.dir=" + root);
        command.add("-cp");
        command.add((null == classes ? "" : classes + File.pathSeparator) +
            System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        return new ExampleJvm(name, ChildJvm.start(command));
    }

    /**
     * Wait until the process has printed a line that {@code wanted} accepts, on either stream, since it started.
     *
     * @param wanted         the line.
     * @param timeoutSeconds how long to wait.
     * @return the line.
     * @throws InterruptedException when interrupted.
     */
    String awaitLine(final Predicate<String> wanted, final long timeoutSeconds) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true)
        {
            final boolean ended = !child.alive();
            if (ended)
            {
                awaitExit(timeoutSeconds); // gone: the pumps copy its last lines
            }
            final String line = lines().stream().filter(wanted).findFirst().orElse(null);
            if (line != null)
            {
                return line;
            }
            if (ended || deadline - System.nanoTime() <= 0)
            {
                throw new AssertionError(name + " printed no such line" +
                    (ended ? " before it ended" : " within " + timeoutSeconds + " s") + ":\n" + output());
            }
            Thread.sleep(POLL_MS);
        }
    }

    /**
     * Wait for the process to exit.
     *
     * @param timeoutSeconds how long to wait before killing it (and failing).
     * @return its exit status.
     * @throws InterruptedException when interrupted.
     */
    int awaitExit(final long timeoutSeconds) throws InterruptedException
    {
        try
        {
            return child.awaitExit(timeoutSeconds);
        }
        catch (final AssertionError ex)
        {
            throw new AssertionError(name + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Wait for the process to exit 0.
     *
     * @param timeoutSeconds how long to wait.
     * @return every line it printed.
     * @throws InterruptedException when interrupted.
     */
    List<String> awaitSuccess(final long timeoutSeconds) throws InterruptedException
    {
        final int status = awaitExit(timeoutSeconds);
        if (status != 0)
        {
            throw new AssertionError(name + " exited " + status + ":\n" + output());
        }
        return lines();
    }

    /**
     * SIGKILL it, as a crash would end it (no shutdown hook, nothing closed), and wait until it is gone.
     *
     * @throws InterruptedException when interrupted.
     */
    void kill() throws InterruptedException
    {
        child.kill();
    }

    /**
     * SIGTERM it, as Ctrl-C or an operator would stop it (shutdown hooks run), and wait until it is gone; the lines
     * it printed while it shut down are kept.
     *
     * @return its exit status (143 for a JVM ended by SIGTERM).
     * @throws Exception when kill(1) fails.
     */
    int terminate() throws Exception
    {
        child.terminate();
        return awaitExit(30);
    }

    /** @return the process's id (the examples print it as the publisher's or client's id). */
    long pid()
    {
        return child.pid();
    }

    /** @return every line printed so far, on either stream. */
    List<String> lines()
    {
        return child.output().lines().toList();
    }

    /** @return everything printed so far, for failure messages. */
    String output()
    {
        return String.join("\n", lines());
    }

    @Override
    public void close()
    {
        if (child.alive())
        {
            try
            {
                child.kill();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
