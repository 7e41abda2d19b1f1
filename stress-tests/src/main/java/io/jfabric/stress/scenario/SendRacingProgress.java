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

import io.jfabric.CqEntries;
import io.jfabric.stress.fixture.Payload;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.Scalable;
import io.jfabric.stress.fixture.StressDomain;
import org.openjdk.jcstress.infra.results.III_Result;

import java.nio.ByteBuffer;

/**
 * One JCStress state of "a send that queues, racing a read that progresses the sender": endpoint A sends a
 * segmented message to B (too large for one lane record, so it is queued for transmit progress, which the send
 * itself runs once) while another thread reads A's CQ or A's counter, which progresses A too. Afterwards the
 * message must have arrived whole and its send must have completed exactly once (counter exactly 1).
 * <p>
 * The models that allow these two threads (SAFE, FID, ENDPOINT) each have a test over this scenario; what they
 * catch is the transmit-progress guard of their model dropped. A may also be a transmit context of a scalable
 * endpoint ({@link #fromTransmitContext}): an endpoint of its own, with the model's guards. Actors: {@link #send}
 * on one thread, {@link #readCq} or {@link #readCounter} on the other; {@link #check} as the arbiter.
 */
public final class SendRacingProgress
{
    private static final int CONTEXT = 1;
    private final Peer a;
    private final Peer b;
    /** The scalable endpoint whose transmit context A is, or null. */
    private final Scalable owner;
    private final CqEntries entries = new CqEntries(4);
    private int readerSaw;

    /**
     * @param domain   the domain of the model under test.
     * @param counting whether A has a counter bound with FI_SEND (for {@link #readCounter}).
     */
    public SendRacingProgress(final StressDomain domain, final boolean counting)
    {
        this(counting ? domain.openCounting() : domain.open(), domain.open(), null);
    }

    private SendRacingProgress(final Peer a, final Peer b, final Scalable owner)
    {
        this.a = a;
        this.b = b;
        this.owner = owner;
    }

    /**
     * @param domain the domain of the model under test.
     * @return the scenario with A transmit context 0 of an enabled scalable endpoint (its CQ is A's CQ).
     */
    public static SendRacingProgress fromTransmitContext(final StressDomain domain)
    {
        final Scalable s = domain.openScalable(1, 1);
        final Peer context = s.tx(0, true);
        s.sep.enable();
        return new SendRacingProgress(context, domain.open(), s);
    }

    /** @return what the send returned. */
    public int send()
    {
        return (int)a.ep.send(Payload.MESSAGE, 0, StressDomain.SEGMENTED_SIZE, 0, b.addr, CONTEXT);
    }

    /** One read of A's CQ. */
    public void readCq()
    {
        final int n = a.cq.read(entries, entries.capacity());
        for (int k = 0; k < n; k++)
        {
            readerSaw += entries.opContext[k] == CONTEXT ? 1 : 0;
        }
    }

    /** One read of A's counter. */
    public void readCounter()
    {
        a.counter.read();
    }

    /**
     * @param r r1 the send's return (left as the actor set it), r2 completions of the send (counter value when
     *          counting), r3 1 when the message arrived whole.
     */
    public void check(final III_Result r)
    {
        final int[] seen = new int[CONTEXT + 1];
        final int taken = a.collect(a.cq, readerSaw == 0 ? 1 : 0, seen);
        final int completions = taken < 0 || seen[0] != 0 ? -1 : readerSaw + seen[CONTEXT] + a.count(a.cq);
        if (a.counter != null)
        {
            long value = a.counter.read();
            for (int i = 0; i < Peer.PATIENCE && value == 0; i++)
            {
                value = a.counter.read();
            }
            r.r2 = completions == 1 ? (int)a.counter.read() : -1;
        }
        else
        {
            r.r2 = completions;
        }
        final ByteBuffer into = ByteBuffer.allocateDirect(StressDomain.SEGMENTED_SIZE);
        r.r3 = b.receive(into) && Payload.holds(into, Payload.MESSAGE_SEED, StressDomain.SEGMENTED_SIZE) ? 1 : 0;
        if (owner != null)
        {
            owner.close();
        }
        else
        {
            a.close();
        }
        b.close();
    }
}
