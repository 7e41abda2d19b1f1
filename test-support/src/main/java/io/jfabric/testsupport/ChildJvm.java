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
package io.jfabric.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of the test class path in a second, real JVM (same java binary, same class path, the Agrona
 * export flag), for tests that need another process on the same region. A daemon thread reads the child's output as
 * it comes, so a test can wait for a line while the child runs on, then kill it; {@link #close()} kills it too, so a
 * test may keep it with what it opened ({@code OpenedObjects}). Result lines are taken from the child's standard
 * output only; its standard error goes to the transcript through a second thread, so that what the JVM prints there
 * (an uncaught exception's "Exception in thread ...", a VM warning) cannot land in the middle of a result line.
 */
public final class ChildJvm implements AutoCloseable
{
    private static final String END = "\u0000end";

    private final Process process;
    private final StringBuffer transcript = new StringBuffer();
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Thread pump;
    private final Thread errorPump;

    private ChildJvm(final Process process)
    {
        this.process = process;
        this.pump = new Thread(() -> pump(process.getInputStream(), true), "child-jvm-" + process.pid());
        this.errorPump = new Thread(() -> pump(process.getErrorStream(), false), "child-jvm-err-" + process.pid());
        pump.setDaemon(true);
        errorPump.setDaemon(true);
        pump.start();
        errorPump.start();
    }

    /** Copy one of the child's streams, line by line, to the transcript and (standard output only) to the lines. */
    private void pump(final java.io.InputStream stream, final boolean results)
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                transcript.append(line + '\n'); // one append: the two pumps never split each other's lines
                if (results)
                {
                    lines.add(line);
                }
            }
        }
        catch (final IOException ex)
        {
            transcript.append("(output unreadable: " + ex + ")\n");
        }
        finally
        {
            if (results)
            {
                lines.add(END);
            }
        }
    }

    /**
     * Start {@code mainClass} with system properties and arguments.
     *
     * @param mainClass  class with a main method on the test class path.
     * @param properties "key=value" system properties.
     * @param args       program arguments.
     * @return the running child.
     * @throws IOException when the JVM cannot be started.
     */
    public static ChildJvm start(final Class<?> mainClass, final List<String> properties, final String... args)
        throws IOException
    {
        return new ChildJvm(new ProcessBuilder(command(mainClass, properties, args)).start());
    }

    /**
     * Start a child from a full command line, such as {@link #command}'s behind a prefix.
     *
     * @param command the command.
     * @return the running child.
     * @throws IOException when it cannot be started.
     */
    public static ChildJvm start(final List<String> command) throws IOException
    {
        return new ChildJvm(new ProcessBuilder(command).start());
    }

    /**
     * Start {@code mainClass} as {@link #start} does but without the Agrona export flag, as a user who forgot it
     * would.
     *
     * @param mainClass  class with a main method on the test class path.
     * @param properties "key=value" system properties.
     * @param args       program arguments.
     * @return the running child.
     * @throws IOException when the JVM cannot be started.
     */
    public static ChildJvm startWithoutAgronaExports(
        final Class<?> mainClass, final List<String> properties, final String... args) throws IOException
    {
        final List<String> command = command(mainClass, properties, args);
        final int flag = command.indexOf("--add-exports");
        command.subList(flag, flag + 2).clear();
        return start(command);
    }

    /**
     * The command line that runs {@code mainClass} in a child JVM: this JVM's java binary and class path, the Agrona
     * export, and flags for a quick start.
     *
     * @param mainClass  class with a main method on the test class path.
     * @param properties "key=value" system properties.
     * @param args       program arguments.
     * @return the command, for a ProcessBuilder (possibly behind a prefix such as unshare).
     */
    public static List<String> command(final Class<?> mainClass, final List<String> properties, final String... args)
    {
        final List<String> command = JvmCommand.quickStart();
        command.addAll(JvmCommand.classPath());
        for (final String property : properties)
        {
            command.add("-D" + property);
        }
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        return command;
    }

    /**
     * Parse a child's report line {@code "result k1=v1 k2=v2"}.
     *
     * @param line the line, starting with "result ".
     * @return the pairs.
     */
    public static Map<String, String> parseResult(final String line)
    {
        final Map<String, String> result = new HashMap<>();
        for (final String pair : line.substring("result ".length()).split(" "))
        {
            final int eq = pair.indexOf('=');
            result.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return result;
    }

    /**
     * Wait for the child to exit and return what it printed.
     *
     * @param timeoutSeconds how long to wait before killing it.
     * @return its combined stdout and stderr.
     * @throws Exception when it does not exit in time or exits non-zero (the message holds its output).
     */
    public String awaitSuccess(final long timeoutSeconds) throws Exception
    {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not exit within " + timeoutSeconds + " s: " + transcript);
        }
        pump.join(TimeUnit.SECONDS.toMillis(timeoutSeconds));
        errorPump.join(TimeUnit.SECONDS.toMillis(timeoutSeconds));
        final String text = transcript.toString();
        if (process.exitValue() != 0)
        {
            throw new AssertionError("child JVM exited " + process.exitValue() + ":\n" + text);
        }
        return text;
    }

    /**
     * Wait, while the child runs on, for its next {@code result ...} line (other lines are skipped).
     *
     * @param timeoutSeconds how long to wait.
     * @return the line's pairs, as {@link #parseResult} gives them.
     * @throws InterruptedException when interrupted.
     * @throws AssertionError when the child ends or prints none in time (the message holds its output).
     */
    public Map<String, String> awaitResult(final long timeoutSeconds) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true)
        {
            final String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null || END.equals(line))
            {
                throw new AssertionError("child JVM printed no result line " + (line == null ?
                    "within " + timeoutSeconds + " s" : "before its output ended") + ":\n" + transcript);
            }
            if (line.startsWith("result "))
            {
                return parseResult(line);
            }
        }
    }

    /**
     * SIGKILL the child, as a crash would end it: nothing of it runs after, no shutdown hook, no finally. Waits
     * until it is gone.
     *
     * @throws InterruptedException when interrupted.
     */
    public void kill() throws InterruptedException
    {
        process.destroyForcibly();
        awaitExit();
    }

    /**
     * {@link #kill()}: a test's tear-down ends its children as a crash would.
     *
     * @throws InterruptedException when interrupted.
     */
    @Override
    public void close() throws InterruptedException
    {
        kill();
    }

    /**
     * SIGTERM the child, as an operator stopping it would: its JVM shuts down (shutdown hooks run). Waits until it
     * is gone.
     *
     * @throws InterruptedException when interrupted.
     */
    public void terminate() throws InterruptedException
    {
        process.destroy();
        awaitExit();
    }

    /**
     * SIGSTOP the child: it stays alive, holding whatever it holds, and runs no code until {@link #kill()}ed.
     *
     * @throws Exception when kill(1) fails.
     */
    public void stop() throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-STOP", Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0)
        {
            throw new AssertionError("kill -STOP " + process.pid() + " failed");
        }
    }

    /**
     * SIGCONT a child {@link #stop()}ped before: it runs on from where it was.
     *
     * @throws Exception when kill(1) fails.
     */
    public void resume() throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-CONT", Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0)
        {
            throw new AssertionError("kill -CONT " + process.pid() + " failed");
        }
    }

    /**
     * Write one line to the child's standard input.
     *
     * @param line the line, without its newline.
     * @throws IOException when the child's input is closed.
     */
    public void tell(final String line) throws IOException
    {
        final java.io.OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    private void awaitExit() throws InterruptedException
    {
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not end within 30 s of a signal: " + transcript);
        }
    }

    /**
     * @return what the child printed so far.
     */
    public String output()
    {
        return transcript.toString();
    }

    /**
     * @return the child's pid.
     */
    public long pid()
    {
        return process.pid();
    }
}
