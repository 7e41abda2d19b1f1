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
package io.jfabric.ofi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM running {@link PeerMain} (or another main of the test classes) on this JVM's Java, class path and
 * native-access flags: its stdout lines are read by a thread into a queue, its stdin takes the test's commands.
 * {@link #close()} ends it (SIGKILL after a grace period); {@link #kill()} sends SIGKILL at once.
 */
final class PeerJvm implements AutoCloseable
{
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> all = new ArrayList<>();
    private final PrintWriter in;
    private final StringBuilder err = new StringBuilder();

    PeerJvm(final String main, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("--add-exports");
        command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main);
        command.addAll(List.of(args));
        process = NativeTools.loopback(new ProcessBuilder(command)).start();
        in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        final Thread out = new Thread(() -> pump(new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), true), "peer-stdout");
        final Thread error = new Thread(() -> pump(new BufferedReader(
            new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), false), "peer-stderr");
        out.setDaemon(true);
        error.setDaemon(true);
        out.start();
        error.start();
    }

    private void pump(final BufferedReader reader, final boolean stdout)
    {
        try
        {
            String line;
            while ((line = reader.readLine()) != null)
            {
                if (stdout)
                {
                    lines.add(line);
                }
                else
                {
                    synchronized (err)
                    {
                        err.append(line).append('\n');
                    }
                }
            }
        }
        catch (final IOException ignored)
        {
            // the process ended
        }
    }

    /**
     * @param prefix    the start of the line awaited, such as {@code "ADDR "}.
     * @param timeoutMs the longest wait.
     * @return the rest of the first line starting with it; lines before it are kept in {@link #seen()}.
     */
    String expect(final String prefix, final long timeoutMs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true)
        {
            final long left = deadline - System.nanoTime();
            String line = left <= 0 ? null : lines.poll(Math.min(left, 200_000_000L), TimeUnit.NANOSECONDS);
            if (line == null && left > 0 && process.isAlive())
            {
                continue;
            }
            if (line == null && !process.isAlive())
            {
                line = lines.poll(500, TimeUnit.MILLISECONDS);
            }
            if (line == null)
            {
                throw new AssertionError("peer printed no '" + prefix + "' line within " + timeoutMs + " ms; seen " +
                    all + "; alive " + process.isAlive() + "; stderr:\n" + stderr());
            }
            all.add(line);
            if (line.startsWith(prefix))
            {
                return line.substring(prefix.length());
            }
            if (line.startsWith("FAIL "))
            {
                throw new AssertionError("peer failed: " + line + "\nstderr:\n" + stderr());
            }
        }
    }

    /** @return the peer's address, from its {@code ADDR <hex>} line. */
    byte[] address() throws InterruptedException
    {
        return HexFormat.of().parseHex(expect("ADDR ", 60_000));
    }

    /** @param line a command for the peer's stdin. */
    void send(final String line)
    {
        in.println(line);
    }

    /** @param address this side's address, sent as {@code ADDR <hex>}. */
    void sendAddress(final byte[] address)
    {
        send("ADDR " + HexFormat.of().formatHex(address));
    }

    List<String> seen()
    {
        return all;
    }

    String stderr()
    {
        synchronized (err)
        {
            return err.toString();
        }
    }

    /**
     * @param text      what the peer's stderr must come to contain.
     * @param timeoutMs the longest wait.
     */
    void awaitStderr(final String text, final long timeoutMs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!stderr().contains(text))
        {
            if (System.nanoTime() - deadline > 0 || !process.isAlive())
            {
                throw new AssertionError("peer wrote no '" + text + "' on stderr within " + timeoutMs + " ms; alive " +
                    process.isAlive() + "; stderr:\n" + stderr());
            }
            Thread.sleep(20);
        }
    }

    /** SIGKILL now, and wait until the process is gone. */
    void kill() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /**
     * @param timeoutMs the longest wait.
     * @return the exit status.
     */
    int waitFor(final long timeoutMs) throws InterruptedException
    {
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS))
        {
            throw new AssertionError("peer did not exit within " + timeoutMs + " ms; seen " + all + "\n" + stderr());
        }
        return process.exitValue();
    }

    /** @return the process's pid. */
    long pid()
    {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException
    {
        in.close();
        if (!process.waitFor(10, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
