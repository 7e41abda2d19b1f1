package io.jfabric.shm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of the test class path in a second, real JVM (same java binary, same class path, the Agrona
 * export flag), for tests that need another process on the same region.
 */
public final class ChildJvm
{
    private final Process process;

    private ChildJvm(final Process process)
    {
        this.process = process;
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
        return new ChildJvm(new ProcessBuilder(command(mainClass, properties, args)).redirectErrorStream(true).start());
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
        return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
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
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("--add-exports");
        command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        command.add("-Xshare:auto");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
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
        final byte[] out;
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not exit within " + timeoutSeconds + " s: " +
                new String(process.getInputStream().readNBytes(process.getInputStream().available()),
                StandardCharsets.UTF_8));
        }
        out = process.getInputStream().readAllBytes();
        final String text = new String(out, StandardCharsets.UTF_8);
        if (process.exitValue() != 0)
        {
            throw new AssertionError("child JVM exited " + process.exitValue() + ":\n" + text);
        }
        return text;
    }

    /**
     * @return the child's pid.
     */
    public long pid()
    {
        return process.pid();
    }
}
