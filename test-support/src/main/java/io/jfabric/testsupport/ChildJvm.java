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
import java.util.function.Predicate;

/**
 * Runs a main class of the test class path in a second, real JVM (same java binary, same class path, the Agrona
 * export flag), for tests that need another process on the same region. A daemon thread reads the child's output as
 * it comes, so a test can wait for a line while the child runs on, then kill it; {@link #close()} kills it too, so a
 * test may keep it with what it opened ({@code OpenedObjects}). Result lines are taken from the child's standard
 * output only; its standard error goes to the transcript through a second thread, so that what the JVM prints there
 * (an uncaught exception's "Exception in thread ...", a VM warning) cannot land in the middle of a result line.
 * The transcript ({@link #output()}) holds both streams, each line whole, in the order the lines arrived.
 * <p>
 * Used by one test thread; the two pump threads only append.
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
        final int status = awaitExit(timeoutSeconds);
        final String text = transcript.toString();
        if (status != 0)
        {
            throw new AssertionError("child JVM exited " + status + ":\n" + text);
        }
        return text;
    }

    /**
     * Wait for the child to exit, whatever its status, and for the pumps to copy the last of its output.
     *
     * @param timeoutSeconds how long to wait before killing it.
     * @return its exit status.
     * @throws InterruptedException when interrupted.
     * @throws AssertionError       when it does not exit in time (the message holds its output).
     */
    public int awaitExit(final long timeoutSeconds) throws InterruptedException
    {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not exit within " + timeoutSeconds + " s: " + transcript);
        }
        final long joinMs = Math.max(1_000, TimeUnit.SECONDS.toMillis(timeoutSeconds)); // join(0) would wait for ever
        pump.join(joinMs);
        errorPump.join(joinMs);
        return process.exitValue();
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
        return parseResult(awaitLine(line -> line.startsWith("result "), timeoutSeconds));
    }

    /**
     * Wait, while the child runs on, for its next line of standard output that {@code wanted} accepts (the lines
     * before it are skipped: a later call sees only what comes after).
     *
     * @param wanted         the line.
     * @param timeoutSeconds how long to wait.
     * @return the line.
     * @throws InterruptedException when interrupted.
     * @throws AssertionError when the child ends or prints none in time (the message holds its output).
     */
    public String awaitLine(final Predicate<String> wanted, final long timeoutSeconds) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true)
        {
            final String line = pollLine(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null)
            {
                throw new AssertionError("child JVM printed no such line within " + timeoutSeconds + " s:\n" +
                    transcript);
            }
            if (wanted.test(line))
            {
                return line;
            }
        }
    }

    /**
     * The child's next line of standard output, waiting at most {@code timeout} for it (0: only what has come), for
     * a test that does other work while it waits.
     *
     * @param timeout how long to wait.
     * @param unit    its unit.
     * @return the line, or null when none came in time.
     * @throws InterruptedException when interrupted.
     * @throws AssertionError when the child's standard output has ended (it exited; the message holds its output).
     */
    public String pollLine(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        final String line = lines.poll(timeout, unit);
        if (END.equals(line))
        {
            lines.add(END); // ended for every later call too
            throw new AssertionError("child JVM's output ended (exit " +
                (process.isAlive() ? "pending" : Integer.toString(process.exitValue())) + "):\n" + transcript);
        }
        return line;
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
        awaitGone();
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
     * is gone; what it printed while it shut down is in the transcript ({@link Process#destroy} would have closed
     * this end of its output first). {@link #awaitExit} then gives its status.
     *
     * @throws Exception when kill(1) fails.
     */
    public void terminate() throws Exception
    {
        signal("-TERM");
        awaitGone();
    }

    /**
     * SIGSTOP the child: it stays alive, holding whatever it holds, and runs no code until {@link #kill()}ed.
     *
     * @throws Exception when kill(1) fails.
     */
    public void stop() throws Exception
    {
        signal("-STOP");
    }

    /**
     * SIGCONT a child {@link #stop()}ped before: it runs on from where it was.
     *
     * @throws Exception when kill(1) fails.
     */
    public void resume() throws Exception
    {
        signal("-CONT");
    }

    /**
     * Send the child a signal with kill(1), as a user would (SIGINT for Ctrl-C); {@link #awaitExit} waits for what
     * follows.
     *
     * @param signal kill(1)'s option, such as {@code "-INT"}.
     * @throws Exception when kill(1) fails.
     */
    public void signal(final String signal) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0)
        {
            throw new AssertionError("kill " + signal + " " + process.pid() + " failed");
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

    private void awaitGone() throws InterruptedException
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
     * @return whether the child is still running.
     */
    public boolean alive()
    {
        return process.isAlive();
    }

    /**
     * @return the child's pid.
     */
    public long pid()
    {
        return process.pid();
    }
}
