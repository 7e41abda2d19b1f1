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
package io.jfabric.stress.completion;

import io.jfabric.Addresses;
import io.jfabric.Threading;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.Payload;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.ShareablePool;
import io.jfabric.stress.fixture.StressDomain;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * FI_THREAD_COMPLETION, rendezvous: A (one completion group, one thread) sends 4 KiB from registered shareable
 * memory, so B copies the bytes straight out of A's memory and then acknowledges through A's transmit ring; A's
 * thread reads its CQ until the send completes and then reuses its buffer (fi_msg(3): it is the application's
 * again). B (another group, another thread) reads its CQ until the receive completes. B must have the bytes A sent.
 * <p>
 * Catches {@code rdv.ack-before-copy}: a receiver that acknowledges before it copies lets the sender complete and
 * overwrite its buffer while the copy still runs.
 */
@JCStressTest
@Catches("rdv.ack-before-copy")
@Description("COMPLETION: a rendezvous send completes only after its receiver has copied the bytes.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The receiver has exactly the bytes sent.")
@Outcome(expect = FORBIDDEN, desc = "The receiver copied bytes the sender wrote after its completion, or nothing.")
@State
public class RendezvousAcrossGroupsTest
{
    static
    {
        Variants.arm(RendezvousAcrossGroupsTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.COMPLETION);
    private static final int SIZE = 4096;
    private static final AtomicInteger SEEDS = new AtomicInteger();

    private final Peer a = DOMAIN.open();
    private final Peer b = DOMAIN.open();
    private final ShareablePool pool = DOMAIN.shareable();
    private final int slice = pool.take();
    private final ByteBuffer source = pool.buffer(slice);
    private final ByteBuffer into = ByteBuffer.allocateDirect(SIZE);
    private final int seed = SEEDS.incrementAndGet();
    private boolean received;

    /** The message in A's shareable memory, B's receive posted. */
    public RendezvousAcrossGroupsTest()
    {
        source.put(0, Payload.of(seed, SIZE), 0, SIZE);
        b.ep.recv(into, 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, 1);
    }

    /** A's thread: send, wait for the completion, reuse the buffer. */
    @Actor
    public void sender()
    {
        if (a.ep.send(source, 0, SIZE, pool.desc(), b.addr, 5) != 0)
        {
            return;
        }
        for (int i = 0; i < Peer.PATIENCE; i++)
        {
            if (a.count(a.cq) > 0)
            {
                for (int k = 0; k < SIZE; k++)
                {
                    source.put(k, (byte)0x5A);
                }
                return;
            }
        }
    }

    /** B's thread: read its CQ until the receive completes (or a while passes: the arbiter waits for the rest). */
    @Actor
    public void receiver()
    {
        for (int i = 0; i < Peer.PATIENCE && !received; i++)
        {
            received = b.count(b.cq) > 0;
        }
    }

    /** @param r r1 1 when B holds the bytes sent, 2 when it holds what the sender wrote after its completion. */
    @Arbiter
    public void check(final I_Result r)
    {
        final boolean done = received || b.awaitReceives(1);
        r.r1 = !done ? 0 : Payload.holds(into, seed, SIZE) ? 1 : into.get(0) == 0x5A ? 2 : 3;
        a.collect(a.cq, 1, new int[8]);
        pool.release(slice);
        a.close();
        b.close();
    }
}
