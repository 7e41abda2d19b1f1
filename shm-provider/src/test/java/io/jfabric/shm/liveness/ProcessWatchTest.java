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
package io.jfabric.shm.liveness;

import io.jfabric.shm.core.ProcessIdentity;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessWatchTest
{
    /** Far more than a check period and a tick: what a loaded CI host may take to run the heartbeat thread. */
    private static final long VERDICT_WAIT_MS = 10_000;

    private Process child;
    private Heartbeats.Registration beat;
    private long identity;

    /** A live child process to ask about, and a running heartbeat thread (a registration keeps it ticking). */
    @BeforeEach
    void startChildAndHeartbeat() throws Exception
    {
        child = new ProcessBuilder("sleep", "600").start();
        beat = Heartbeats.register(t -> { });
        identity = ProcessIdentity.ofLiveProcess(child.pid());
        assertNotEquals(0, identity, "the child's identity");
    }

    @AfterEach
    void stopChildAndHeartbeat()
    {
        child.destroyForcibly();
        Heartbeats.unregister(beat);
    }

    @Test
    void shouldAnswerForAnotherProcessFromTheHeartbeatThreadAndSeeItGoneAfterSigkill() throws Exception
    {
        final int first = ProcessWatch.verdict(identity);
        assertTrue(first == ProcessWatch.UNKNOWN || first == ProcessWatch.ALIVE, "first answer: " + first);
        assertEquals(ProcessWatch.ALIVE, awaitVerdict(identity, ProcessWatch.ALIVE), "a running child");

        child.destroyForcibly(); // SIGKILL
        assertTrue(child.waitFor(VERDICT_WAIT_MS, TimeUnit.MILLISECONDS), "the child exits");
        assertEquals(ProcessWatch.GONE, awaitVerdict(identity, ProcessWatch.GONE), "a SIGKILLed child");
        assertEquals(ProcessWatch.GONE, ProcessWatch.verdict(identity), "gone stays gone");
    }

    @Test
    void shouldAnswerForThisProcessAndForNoOwnerAtOnce()
    {
        assertEquals(ProcessWatch.ALIVE, ProcessWatch.verdict(ProcessIdentity.self()));
        assertEquals(ProcessWatch.GONE, ProcessWatch.verdict(0));
    }

    @Test
    void shouldJudgeADamagedOwnerWordAtOnceWithoutKeepingIt() throws Exception
    {
        // the watch answers from its table (the heartbeat thread ticks), not from the stale-clock fallback
        assertEquals(ProcessWatch.ALIVE, awaitVerdict(identity, ProcessWatch.ALIVE), "the child, through the table");
        final long damaged = identity | 1L << 63; // would read as the verdict "gone" if it were kept as a word
        assertEquals(ProcessWatch.ALIVE, ProcessWatch.verdict(damaged), "a damaged word naming a live process");
        assertEquals(ProcessWatch.ALIVE, ProcessWatch.verdict(damaged), "asked again: still judged, not kept");
    }

    private static int awaitVerdict(final long identity, final int wanted) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + VERDICT_WAIT_MS;
        int v = ProcessWatch.verdict(identity);
        while (v != wanted && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(Heartbeats.TICK_MS);
            v = ProcessWatch.verdict(identity);
        }
        return v;
    }
}
