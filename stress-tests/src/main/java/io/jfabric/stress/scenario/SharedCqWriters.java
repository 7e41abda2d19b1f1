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

import io.jfabric.CompletionQueue;
import io.jfabric.stress.fixture.Payload;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.StressDomain;
import org.openjdk.jcstress.infra.results.II_Result;

import java.nio.ByteBuffer;

/**
 * One JCStress state of "two endpoints write one CQ at once": A1 and A2 share their transmit CQ, and two threads
 * each send on one of them (each endpoint is its own object, so FID, ENDPOINT and SAFE allow it); each send
 * writes its completion into the shared CQ. Both completions must be there exactly once, and both messages
 * arrive.
 * <p>
 * The tests over this scenario catch a CQ that assumes one writer (a one-to-one ring and plain counts) under their
 * model. Actors: {@link #sendFirst} and {@link #sendSecond}; {@link #check} as the arbiter.
 */
public final class SharedCqWriters
{
    private final CompletionQueue shared;
    private final Peer a1;
    private final Peer a2;
    private final Peer b;

    /** @param domain the domain of the model under test. */
    public SharedCqWriters(final StressDomain domain)
    {
        shared = domain.cq();
        a1 = domain.openSharing(shared);
        a2 = domain.openSharing(shared);
        b = domain.open();
    }

    /** @return what the first endpoint's send returned. */
    public int sendFirst()
    {
        return (int)a1.ep.send(Payload.MESSAGE, 0, StressDomain.INLINE_SIZE, 0, b.addr, 1);
    }

    /** @return what the second endpoint's send returned. */
    public int sendSecond()
    {
        return (int)a2.ep.send(Payload.OTHER_MESSAGE, 0, StressDomain.INLINE_SIZE, 0, b.addr, 2);
    }

    /** @param r r1 1 when both completions came exactly once and nothing else; r2 1 when both messages arrived. */
    public void check(final II_Result r)
    {
        final int[] seen = new int[3];
        final int taken = a1.collect(shared, 2, seen);
        r.r1 = taken == 2 && seen[1] == 1 && seen[2] == 1 && a1.count(shared) == 0 ? 1 : 0;
        final ByteBuffer x = ByteBuffer.allocateDirect(StressDomain.INLINE_SIZE);
        final ByteBuffer y = ByteBuffer.allocateDirect(StressDomain.INLINE_SIZE);
        final boolean both = b.receive(x, y);
        final int size = StressDomain.INLINE_SIZE;
        r.r2 = both && (Payload.holds(x, Payload.MESSAGE_SEED, size) && Payload.holds(y, Payload.OTHER_SEED, size) ||
            Payload.holds(y, Payload.MESSAGE_SEED, size) && Payload.holds(x, Payload.OTHER_SEED, size)) ? 1 : 0;
        a1.close();
        a2.close();
        b.close();
        shared.close();
    }
}
