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
package io.jfabric.shm.ep;

import io.jfabric.testsupport.ChildJvm;


import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The parent's handle on an {@link EpPeerMain} child JVM: starts it on a domain, sends it commands and waits for
 * its answers while progressing the parent's own endpoints (manual progress: a parent that only waited would stall
 * every transfer that needs its side to move). Commands carry a sequence number that the answer repeats, so the
 * late answer of a command a failed test gave up on is skipped, not taken for the next one's. One per test class,
 * used from the test thread only.
 */
final class EpPeer implements AutoCloseable
{
    private static final long START_TIMEOUT_MS = 60_000;

    private final Process process;
    private final Writer in;
    private final LinkedBlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final StringBuffer output = new StringBuffer();
    private String pending;
    private long sequence;

    private EpPeer(final Process process)
    {
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        final Thread reader = new Thread(this::readAnswers, "ep-peer-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Start a child on the named domain under {@code root}; returns once it has opened the domain.
     *
     * @param root   the provider's root directory.
     * @param domain the domain name.
     * @return the running child.
     * @throws IOException when it cannot be started.
     */
    static EpPeer start(final Path root, final String domain) throws IOException
    {
        final EpPeer peer = new EpPeer(new ProcessBuilder(
            ChildJvm.command(EpPeerMain.class, List.of("jfabric.shm.dir=" + root), domain))
            .redirectErrorStream(true).start());
        peer.awaitAnswer("ready", START_TIMEOUT_MS);
        return peer;
    }

    private void readAnswers()
    {
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = out.readLine()) != null)
            {
                output.append(line).append('\n');
                if (line.startsWith("ok ") || line.startsWith("err "))
                {
                    answers.add(line);
                }
            }
        }
        catch (final IOException ignored)
        {
            // the child is gone; the waiting side reports it.
        }
        answers.add("err child exited");
    }

    /**
     * Send a command and wait for its answer, progressing {@code sides} meanwhile.
     *
     * @param command the command line.
     * @param sides   the parent's endpoints to progress while waiting.
     * @return the answer's key=value pairs.
     */
    Map<String, String> call(final String command, final EpSide... sides)
    {
        begin(command);
        return end(sides);
    }

    /**
     * Send a command without waiting; {@link #end} waits for its answer.
     *
     * @param command the command line.
     */
    void begin(final String command)
    {
        if (pending != null)
        {
            throw new IllegalStateException("command '" + pending + "' still has no answer");
        }
        pending = command;
        try
        {
            in.write(command + " seq=" + ++sequence + "\n");
            in.flush();
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot write to the child: " + ex + "; its output:\n" + output, ex);
        }
    }

    /**
     * @param sides the parent's endpoints to progress while waiting.
     * @return the answer of the command {@link #begin} sent.
     */
    Map<String, String> end(final EpSide... sides)
    {
        final String command = pending;
        pending = null;
        final long deadline = System.currentTimeMillis() + 2 * EpSide.TIMEOUT_MS;
        while (true)
        {
            final String answer = answers.poll();
            if (answer != null && answer.startsWith("err child exited"))
            {
                throw new AssertionError("child exited during '" + command + "'; its output:\n" + output);
            }
            if (answer != null && answer.startsWith("err seq=" + sequence + " "))
            {
                throw new AssertionError("child failed '" + command + "': " + answer.substring(4) + parentLog(sides));
            }
            if (answer != null && answer.startsWith("ok seq=" + sequence + " "))
            {
                return EpPeerMain.parse(answer);
            }
            if (System.currentTimeMillis() > deadline)
            {
                throw new AssertionError("child did not answer '" + command + "' within " + 2 * EpSide.TIMEOUT_MS +
                    " ms; its output:\n" + output + parentLog(sides));
            }
            boolean moved = false;
            for (final EpSide side : sides)
            {
                moved |= side.pump() > 0;
            }
            if (!moved)
            {
                Thread.onSpinWait();
            }
        }
    }

    private static String parentLog(final EpSide... sides)
    {
        final StringBuilder b = new StringBuilder();
        for (final EpSide side : sides)
        {
            b.append("\n  parent side ").append(side.name).append(": ").append(side.log());
        }
        return b.toString();
    }

    private void awaitAnswer(final String expected, final long timeoutMs)
    {
        try
        {
            final String answer = answers.poll(timeoutMs, TimeUnit.MILLISECONDS);
            if (answer == null || !answer.equals("ok " + expected))
            {
                throw new AssertionError("child did not start (" + answer + "); its output:\n" + output);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    @Override
    public void close() throws Exception
    {
        try
        {
            in.write("exit\n");
            in.flush();
            in.close();
        }
        catch (final IOException ignored)
        {
            // already gone
        }
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("child did not exit; its output:\n" + output);
        }
        if (process.exitValue() != 0)
        {
            throw new AssertionError("child exited " + process.exitValue() + "; its output:\n" + output);
        }
    }
}
