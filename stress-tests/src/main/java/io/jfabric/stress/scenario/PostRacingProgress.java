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
import io.jfabric.CqEntries;
import io.jfabric.stress.fixture.Payload;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.StressDomain;
import org.openjdk.jcstress.infra.results.III_Result;

import java.nio.ByteBuffer;

/**
 * One JCStress state of "a receive post racing a read that progresses the receiver": a message from A already
 * waits in B's lane; one thread posts B's receive for it while another reads B's CQ, which drains the lane into
 * B's matcher (into the posted receive, or the unexpected store, which the post then takes). The receive must
 * complete exactly once with the message whole.
 * <p>
 * FID and ENDPOINT (and SAFE) allow these two threads; the tests over this scenario catch the receive guard of
 * their model dropped. Actors: {@link #post} and {@link #readCq}; {@link #check} as the arbiter.
 */
public final class PostRacingProgress
{
    private final Peer a;
    private final Peer b;
    private final ByteBuffer into = ByteBuffer.allocateDirect(StressDomain.INLINE_SIZE);
    private final CqEntries entries = new CqEntries(4);
    private int readerSaw;

    /** @param domain the domain of the model under test. */
    public PostRacingProgress(final StressDomain domain)
    {
        a = domain.open();
        b = domain.open();
        if (a.ep.send(Payload.MESSAGE, 0, StressDomain.INLINE_SIZE, 0, b.addr, 7) != 0)
        {
            throw new IllegalStateException("the setup send failed");
        }
    }

    /** @return what the post returned. */
    public int post()
    {
        return (int)b.ep.recv(into, 0, StressDomain.INLINE_SIZE, 0, Addresses.FI_ADDR_UNSPEC, 1);
    }

    /** One read of B's CQ. */
    public void readCq()
    {
        final int n = b.cq.read(entries, entries.capacity());
        for (int k = 0; k < n; k++)
        {
            readerSaw += entries.opContext[k] == 1 ? 1 : 0;
        }
    }

    /**
     * @param r r1 the post's return (as the actor set it), r2 completions of the receive, r3 1 when whole.
     */
    public void check(final III_Result r)
    {
        final int[] seen = new int[2];
        final int taken = b.collect(b.cq, readerSaw == 0 ? 1 : 0, seen);
        r.r2 = taken < 0 || seen[0] != 0 ? -1 : readerSaw + seen[1] + b.count(b.cq);
        r.r3 = Payload.holds(into, Payload.MESSAGE_SEED, StressDomain.INLINE_SIZE) ? 1 : 0;
        a.collect(a.cq, 1, new int[8]);
        a.close();
        b.close();
    }
}
