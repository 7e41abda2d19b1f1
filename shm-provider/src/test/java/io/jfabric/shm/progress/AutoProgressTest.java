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
package io.jfabric.shm.progress;

import io.jfabric.Addresses;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.Progress;
import io.jfabric.Threading;
import io.jfabric.shm.ep.EndpointPair;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FI_PROGRESS_AUTO: a provider agent progresses the endpoints, so a receive completes while the application only
 * reads its CQ (which under automatic progress does no progress of its own), with each agent layout and idle
 * strategy; the agent threads go away with the endpoints.
 */
class AutoProgressTest
{
    @ParameterizedTest
    @CsvSource({ "domain,backoff,1", "domain,busy,1", "domain,yield,1", "domain,sleep,1", "endpoint,backoff,2" })
    void shouldCompleteReceivesWithoutTheApplicationProgressing(
        final String agent, final String idle, final int threads) throws Exception
    {
        try (EndpointPair p = new EndpointPair(Progress.AUTO, Threading.SAFE, new CqAttr().format(CqFormat.MSG),
            key -> key.equals("progress.agent") ? agent : key.equals("progress.idle") ? idle : null))
        {
            assertEquals(threads, progressThreads(), "agent threads for progress.agent=" + agent);
            final ByteBuffer dst = ByteBuffer.allocateDirect(64 * 100);
            final ByteBuffer src = ByteBuffer.allocateDirect(64);
            final CqEntries e = new CqEntries(16);
            for (int i = 0; i < 100; i++)
            {
                assertEquals(0, p.b.recv(dst, i * 64, 64, 0, Addresses.FI_ADDR_UNSPEC, i));
            }
            for (int i = 0; i < 100; i++)
            {
                src.putLong(0, i);
                long rc;
                while ((rc = p.a.inject(src, 0, 64, p.addrB)) == -Errno.FI_EAGAIN)
                {
                    Thread.onSpinWait();
                }
                assertEquals(0, rc);
            }
            int received = 0;
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (received < 100 && System.nanoTime() < deadline)
            {
                final int n = p.cqB.read(e, 16);
                received += Math.max(0, n);
            }
            assertEquals(100, received);
            for (int i = 0; i < 100; i++)
            {
                assertEquals(i, dst.getLong(i * 64));
            }
        }
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (progressThreads() > 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertEquals(0, progressThreads(), "closing the endpoints stops their agents");
    }

    private static long progressThreads()
    {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("jfabric-progress-pair") && t.isAlive()).count();
    }

    @ParameterizedTest
    @CsvSource({ "MANUAL", "AUTO" })
    void shouldDeliverEveryMessageOnceAndInOrderPerThreadWhenTwoThreadsSendOnOneSafeEndpoint(
        final Progress progress) throws Exception
    {
        try (EndpointPair p = new EndpointPair(progress, Threading.SAFE, new CqAttr().format(CqFormat.TAGGED),
            key -> null))
        {
            final int perThread = 20_000;
            final Thread[] senders = new Thread[2];
            for (int t = 0; t < 2; t++)
            {
                final int id = t;
                senders[t] = new Thread(() ->
                {
                    final ByteBuffer src = ByteBuffer.allocateDirect(16);
                    for (int i = 0; i < perThread; i++)
                    {
                        src.putLong(0, id).putLong(8, i);
                        while (p.a.tinject(src, 0, 16, p.addrB, id) == -Errno.FI_EAGAIN)
                        {
                            Thread.onSpinWait();
                        }
                    }
                });
                senders[t].start();
            }
            final ByteBuffer dst = ByteBuffer.allocateDirect(16);
            final CqEntries e = new CqEntries(1);
            final int[] next = new int[2];
            for (int i = 0; i < 2 * perThread; i++)
            {
                assertEquals(0, p.b.trecv(dst, 0, 16, 0, Addresses.FI_ADDR_UNSPEC, 0, -1L, i));
                assertEquals(1, EndpointPair.readOne(p.cqB, e));
                final int id = (int)dst.getLong(0);
                assertEquals(id, e.tag[0]);
                assertEquals(next[id]++, dst.getLong(8), "thread " + id + "'s messages arrive in order, once");
            }
            for (final Thread t : senders)
            {
                t.join();
            }
            assertEquals(perThread, next[0]);
            assertEquals(perThread, next[1]);
            assertTrue(p.cqB.read(e, 1) == -Errno.FI_EAGAIN, "nothing more");
        }
    }
}
