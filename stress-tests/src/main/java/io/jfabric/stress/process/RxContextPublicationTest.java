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
package io.jfabric.stress.process;

import io.jfabric.Errno;
import io.jfabric.Threading;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.Payload;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.Scalable;
import io.jfabric.stress.fixture.StressDomain;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.nio.ByteBuffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Publication of a receive context, between two processes (two mappings of one region, {@link StressDomain}): the
 * scalable endpoint is enabled; one process enables its receive context 1 while the other sends to it
 * ({@code fi_rx_addr(addr, 1, rx_ctx_bits)}), again while refused with -FI_EAGAIN, as an application does.
 * {@code ShmEndpoint.enable} builds the context's receive side (its {@code RxContext}, which clears the owner words
 * of the lanes into the context), then releases the context's slot ACTIVE, and last has the scalable endpoint
 * publish the context's entry. A sender reads the entry and still checks the context's slot (state, incarnation)
 * before it claims a lane. A send is refused (-FI_EAGAIN) until the context is reachable, or it is delivered; a
 * send after the enable always is. A send that succeeded but is never delivered wrote a lane whose owner word the
 * context's construction then wiped: nobody drains it.
 * <p>
 * Catches {@code sep.rx-published-before-built}: a context made reachable (its slot ACTIVE and its entry published)
 * before its receive side is built. That changes the program's own order, so it fails on x86 too.
 * <p>
 * What this does not catch, by design: either half of that alone, because two guards stand in the way. The entry
 * alone published first (ACTIVE still after the build): the sender's check of the context's slot refuses it until
 * ACTIVE. ACTIVE alone released first (the entry still last): no sender finds the context before its entry. Each
 * was run as a variant of this test (about 1,700 and 1,300 samples, both acceptable outcomes seen): nothing lost.
 * Nor a plain store of the entry or of ACTIVE for the release stores: x86-64 (TSO) does not reorder stores; only
 * weaker hardware such as AArch64 could show it.
 * <p>
 * Called by JCStress's actor threads only, one actor each, then the arbiter.
 */
@JCStressTest
@Catches("sep.rx-published-before-built")
@Description("A send racing the enable of the receive context it names is delivered or refused for now.")
@Outcome(id = "-11, 0, 1", expect = ACCEPTABLE,
    desc = "Every try refused (-FI_EAGAIN): context not enabled yet; a send after the enable was delivered.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Sent, delivered whole to context 1; so was a send after it.")
@Outcome(expect = FORBIDDEN, desc = "Sent but never delivered (lost), or the context unreachable after its enable.")
@State
public class RxContextPublicationTest
{
    static
    {
        Variants.arm(RxContextPublicationTest.class);
    }

    private static final StressDomain FIRST = StressDomain.of(Threading.DOMAIN);
    private static final StressDomain SECOND = StressDomain.mapping(Threading.DOMAIN);
    private static final int SIZE = StressDomain.INLINE_SIZE;
    /** Sends the second process makes while they are refused with -FI_EAGAIN, as an application retries. */
    private static final int TRIES = 256;

    private final Scalable target = FIRST.openScalable(1, 2);
    private final Peer context1 = target.rx(1, false);
    private final Peer sender = SECOND.open();

    {
        target.sep.enable();
    }

    /** The first process: enable receive context 1. */
    @Actor
    public void enabler()
    {
        context1.ep.enable();
    }

    /**
     * The second process: send to receive context 1, again while refused with -FI_EAGAIN (at most
     * {@link #TRIES} times).
     *
     * @param r r1 what the last send returned.
     */
    @Actor
    public void send(final III_Result r)
    {
        long rc;
        int tries = 0;
        do
        {
            rc = sender.ep.send(Payload.MESSAGE, 0, SIZE, 0, context1.addr, 1);
        }
        while (rc == -Errno.FI_EAGAIN && ++tries < TRIES);
        r.r1 = (int)rc;
    }

    /**
     * @param r r2 1 when the actor's message reached context 1 whole, r3 1 when a send after the enable did.
     */
    @Arbiter
    public void check(final III_Result r)
    {
        final ByteBuffer into = ByteBuffer.allocateDirect(SIZE);
        r.r2 = r.r1 == 0 && context1.receive(into) && Payload.holds(into, Payload.MESSAGE_SEED, SIZE) ? 1 : 0;
        final ByteBuffer again = ByteBuffer.allocateDirect(SIZE);
        r.r3 = sender.ep.send(Payload.OTHER_MESSAGE, 0, SIZE, 0, context1.addr, 2) == 0 &&
            context1.receive(again) && Payload.holds(again, Payload.OTHER_SEED, SIZE) ? 1 : 0;
        sender.close();
        target.close();
    }
}
