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
package io.jfabric.stress.scenario;

import io.jfabric.Addresses;
import io.jfabric.stress.fixture.Payload;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.StressDomain;
import org.openjdk.jcstress.infra.results.II_Result;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One JCStress state of "a message crosses a lane while its receiver reads": A sends a whole message (the largest
 * that travels in one lane record) to B, which has a receive posted and reads its CQ on another thread, so B's
 * progress may take the record the moment it is committed. The message must arrive whole. Each state sends
 * different bytes, so a copy of what an earlier state left in the lane is told apart.
 * <p>
 * A and B may be in one domain instance (two completion groups of one process, FI_THREAD_COMPLETION) or in two
 * instances of one region, two mappings (two processes, FI_THREAD_DOMAIN). Actors: {@link #send} and
 * {@link #receive}; {@link #check} as the arbiter.
 */
public final class LaneTransfer
{
    /** Bytes sent: whole in one record of the stress geometry. */
    public static final int SIZE = 448;
    private static final AtomicInteger SEEDS = new AtomicInteger();

    private final Peer a;
    private final Peer b;
    private final int seed = SEEDS.incrementAndGet();
    private final ByteBuffer message = Payload.of(seed, SIZE);
    private final ByteBuffer into = ByteBuffer.allocateDirect(SIZE);
    private boolean received;

    /**
     * @param sender   where A is opened.
     * @param receiver where B is opened (the same domain, or another instance of its region).
     */
    public LaneTransfer(final StressDomain sender, final StressDomain receiver)
    {
        a = sender.open();
        b = receiver.open();
        if (b.ep.recv(into, 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, 1) != 0)
        {
            throw new IllegalStateException("the setup receive failed");
        }
    }

    /** A's thread: the send. */
    public void send()
    {
        a.ep.send(message, 0, SIZE, 0, b.addr, 5);
    }

    /** B's thread: a few reads of B's CQ. */
    public void receive()
    {
        for (int i = 0; i < 64 && !received; i++)
        {
            received = b.count(b.cq) > 0;
        }
    }

    /** @param r r1 1 when the receive completed once, r2 1 when the message is whole. */
    public void check(final II_Result r)
    {
        r.r1 = received || b.awaitReceives(1) ? 1 : 0;
        r.r2 = Payload.holds(into, seed, SIZE) ? 1 : 0;
        a.collect(a.cq, 1, new int[8]);
        a.close();
        b.close();
    }
}
