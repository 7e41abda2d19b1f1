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

import io.jfabric.stress.fixture.Payload;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.Scalable;
import io.jfabric.stress.fixture.StressDomain;
import org.openjdk.jcstress.infra.results.III_Result;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One JCStress state of "two threads, each sending through its own transmit context of one scalable endpoint, to
 * one receiver": transmit contexts 0 and 1 of scalable endpoint S each send {@link #MESSAGES} whole messages (one
 * lane record each) to endpoint B, one thread per context. Afterwards every message must have arrived once and
 * whole, in its context's order, and every send must have completed once in its context's CQ. Each state sends
 * different bytes, so a copy of what an earlier state left in a lane is told apart.
 * <p>
 * Each context is an endpoint of its own slot, so each thread writes its own single-producer lane into B and no
 * lock is needed between them: what fails when two contexts share a lane (two producers on a one-to-one ring) is
 * the ring itself, on any hardware.
 * <p>
 * Which models allow these two threads (fi_domain(3)): SAFE; FID ("multiple threads may initiate transfers on
 * different transmit contexts of the same endpoint without serializing"); COMPLETION, since the two contexts share
 * no CQ or counter. Not ENDPOINT ("serialization is required when accessing the same endpoint, even if multiple
 * transmit and receive contexts are used") nor DOMAIN (everything in the domain is serialized). Actors:
 * {@link #send} with 0 and with 1, one thread each; {@link #check} as the arbiter.
 */
public final class TwoTxContexts
{
    /** Messages each context sends. */
    public static final int MESSAGES = 4;
    private static final int SIZE = StressDomain.INLINE_SIZE;
    private static final AtomicInteger SEEDS = new AtomicInteger();

    private final Scalable s;
    private final Peer[] tx = new Peer[2];
    private final Peer b;
    /** Message m (context m / MESSAGES, its (m % MESSAGES)-th) is Payload seed {@code seed + m}. */
    private final int seed = SEEDS.getAndAdd(2 * MESSAGES);
    private final ByteBuffer out = ByteBuffer.allocateDirect(2 * MESSAGES * SIZE);
    private final int[] accepted = new int[2];

    /**
     * @param domain the domain of the model under test.
     */
    public TwoTxContexts(final StressDomain domain)
    {
        b = domain.open();
        s = domain.openScalable(2, 1);
        tx[0] = s.tx(0, true);
        tx[1] = s.tx(1, true);
        s.sep.enable();
        for (int m = 0; m < 2 * MESSAGES; m++)
        {
            for (int i = 0; i < SIZE; i++)
            {
                out.put(m * SIZE + i, (byte)((seed + m) * 31 + i));
            }
        }
    }

    /**
     * Context {@code c}'s thread: its messages, in order, stopping at the first send refused.
     *
     * @param c 0 or 1.
     */
    public void send(final int c)
    {
        int sent = 0;
        for (int k = 0; k < MESSAGES; k++)
        {
            final int m = c * MESSAGES + k;
            if (tx[c].ep.send(out, m * SIZE, SIZE, 0, b.addr, m + 1) != 0)
            {
                break;
            }
            sent++;
        }
        accepted[c] = sent;
    }

    /**
     * @param r r1 (r2) 1 when every send of context 0 (1) was accepted and completed once, r3 1 when every message
     *          arrived once, whole and in its context's order.
     */
    public void check(final III_Result r)
    {
        r.r1 = completed(0);
        r.r2 = completed(1);
        r.r3 = delivered();
        s.close();
        b.close();
    }

    private int completed(final int c)
    {
        final int[] seen = new int[2 * MESSAGES + 1];
        if (accepted[c] != MESSAGES || tx[c].collect(tx[c].cq, MESSAGES, seen) != MESSAGES || seen[0] != 0 ||
            tx[c].count(tx[c].cq) != 0)
        {
            return 0;
        }
        for (int k = 0; k < MESSAGES; k++)
        {
            if (seen[c * MESSAGES + k + 1] != 1)
            {
                return 0;
            }
        }
        return 1;
    }

    private int delivered()
    {
        final ByteBuffer into = ByteBuffer.allocateDirect(2 * MESSAGES * SIZE);
        final ByteBuffer[] slices = new ByteBuffer[2 * MESSAGES];
        for (int k = 0; k < slices.length; k++)
        {
            slices[k] = into.slice(k * SIZE, SIZE);
        }
        if (!b.receive(slices))
        {
            return 0;
        }
        final int[] next = new int[2];
        for (final ByteBuffer slice : slices)
        {
            final int m = messageIn(slice);
            if (m < 0 || m % MESSAGES != next[m / MESSAGES]++)
            {
                return 0;
            }
        }
        return next[0] == MESSAGES && next[1] == MESSAGES ? 1 : 0;
    }

    /** @return which of this state's messages the buffer holds whole, or -1. */
    private int messageIn(final ByteBuffer slice)
    {
        for (int m = 0; m < 2 * MESSAGES; m++)
        {
            if (Payload.holds(slice, seed + m, SIZE))
            {
                return m;
            }
        }
        return -1;
    }
}
