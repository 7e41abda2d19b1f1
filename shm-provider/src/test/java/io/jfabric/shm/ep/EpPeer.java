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

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The parent's handle on an {@link EpPeerMain} child JVM: starts it on a domain, sends it commands and waits for
 * its answers while progressing the parent's own endpoints (manual progress: a parent that only waited would stall
 * every transfer that needs its side to move). Commands carry a sequence number that the answer repeats, so the
 * late answer of a command a failed test gave up on is skipped, not taken for the next one's. Answers are read from
 * the child's standard output only ({@link ChildJvm}), so nothing its JVM prints on standard error can break one.
 * One per test class, used from the test thread only.
 */
final class EpPeer implements AutoCloseable
{
    private static final long START_TIMEOUT_MS = 60_000;

    private final ChildJvm child;
    private String pending;
    private long sequence;

    private EpPeer(final ChildJvm child)
    {
        this.child = child;
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
        final EpPeer peer = new EpPeer(ChildJvm.start(EpPeerMain.class, List.of("jfabric.shm.dir=" + root), domain));
        peer.awaitAnswer("ready", START_TIMEOUT_MS);
        return peer;
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
            child.tell(command + " seq=" + ++sequence);
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot write to the child: " + ex + "; its output:\n" + child.output(), ex);
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
            final String answer = nextAnswer(command);
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
                    " ms; its output:\n" + child.output() + parentLog(sides));
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

    /** @return the child's next answer ("ok ..." or "err ..."), or null when none has come yet. */
    private String nextAnswer(final String command)
    {
        try
        {
            String line;
            while ((line = child.pollLine(0, TimeUnit.MILLISECONDS)) != null)
            {
                if (line.startsWith("ok ") || line.startsWith("err "))
                {
                    return line;
                }
            }
            return null;
        }
        catch (final AssertionError ended)
        {
            throw new AssertionError("child exited during '" + command + "'", ended);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    private void awaitAnswer(final String expected, final long timeoutMs)
    {
        try
        {
            final String answer = child.awaitLine(line -> line.startsWith("ok ") || line.startsWith("err "),
                TimeUnit.MILLISECONDS.toSeconds(timeoutMs));
            if (!answer.equals("ok " + expected))
            {
                throw new AssertionError("child did not start (" + answer + "); its output:\n" + child.output());
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
            child.tell("exit");
        }
        catch (final IOException ignored)
        {
            // already gone
        }
        child.awaitSuccess(30);
    }
}
