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
 * Publication of a scalable endpoint, between two processes (two mappings of one region, {@link StressDomain}):
 * one process enables a scalable endpoint whose receive context 0 is enabled already, the other sends to the
 * endpoint's address at the same time, again while refused with -FI_EAGAIN, as an application does (so its tries
 * straddle the enable more often than one send would). {@code ShmScalableEndpoint.enable} writes the address slot's
 * receive context count and entries, then releases its state ACTIVE; a sender ({@code TxContext.connect}) acquires
 * ACTIVE, reads the count and, finding it non-zero, writes the lane of the context the entry names. A send is
 * refused while the endpoint is not ACTIVE, or it reaches context 0; a send after the enable always does. A send
 * that succeeded but never reaches context 0 went into the address slot's own lanes, which nobody reads.
 * <p>
 * Catches {@code sep.active-before-count}: an enable that releases ACTIVE first and writes the count last (the two
 * stores swapped) lets a sender see an ACTIVE slot with no receive contexts, take it for a plain endpoint and write
 * into its lane. That changes the program's own order, so it fails on x86 too. The release/acquire pair itself (a
 * plain store of ACTIVE after the count) cannot fail on x86-64 (TSO); only weaker hardware such as AArch64 shows it.
 * <p>
 * Called by JCStress's actor threads only, one actor each, then the arbiter.
 */
@JCStressTest
@Catches("sep.active-before-count")
@Description("A send racing the enable of a scalable endpoint reaches receive context 0 or is refused for now.")
@Outcome(id = "-11, 0, 1", expect = ACCEPTABLE,
    desc = "Every try refused (-FI_EAGAIN): not enabled yet; a send after the enable reached context 0.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Sent, received whole by context 0; so was a send after it.")
@Outcome(expect = FORBIDDEN,
    desc = "Sent but never received by context 0 (lost in the address slot), or unreachable after the enable.")
@State
public class ScalableEndpointPublicationTest
{
    static
    {
        Variants.arm(ScalableEndpointPublicationTest.class);
    }

    private static final StressDomain FIRST = StressDomain.of(Threading.DOMAIN);
    private static final StressDomain SECOND = StressDomain.mapping(Threading.DOMAIN);
    private static final int SIZE = StressDomain.INLINE_SIZE;
    /** Sends the second process makes while they are refused with -FI_EAGAIN, as an application retries. */
    private static final int TRIES = 256;

    private final Scalable target = FIRST.openScalable(1, 1);
    private final Peer context0 = target.rx(0, true);
    private final Peer sender = SECOND.open();

    /** The first process: enable the scalable endpoint. */
    @Actor
    public void enabler()
    {
        target.sep.enable();
    }

    /**
     * The second process: send to the endpoint's address, again while refused with -FI_EAGAIN (at most
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
            rc = sender.ep.send(Payload.MESSAGE, 0, SIZE, 0, target.addr, 1);
        }
        while (rc == -Errno.FI_EAGAIN && ++tries < TRIES);
        r.r1 = (int)rc;
    }

    /**
     * @param r r2 1 when the actor's message reached context 0 whole, r3 1 when a send after the enable did.
     */
    @Arbiter
    public void check(final III_Result r)
    {
        final ByteBuffer into = ByteBuffer.allocateDirect(SIZE);
        r.r2 = r.r1 == 0 && context0.receive(into) && Payload.holds(into, Payload.MESSAGE_SEED, SIZE) ? 1 : 0;
        final ByteBuffer again = ByteBuffer.allocateDirect(SIZE);
        r.r3 = sender.ep.send(Payload.OTHER_MESSAGE, 0, SIZE, 0, target.addr, 2) == 0 && context0.receive(again) &&
            Payload.holds(again, Payload.OTHER_SEED, SIZE) ? 1 : 0;
        sender.close();
        target.close();
    }
}
