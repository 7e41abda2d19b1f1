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
package io.jfabric.stress.safe;

import io.jfabric.Threading;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.Payload;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.StressDomain;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.nio.ByteBuffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * FI_THREAD_SAFE: two threads send on one endpoint at once, to one peer, so both write the same lane, which has
 * one producer. Both messages must arrive whole, and each send complete once.
 * <p>
 * Catches {@code guard.send.SAFE}: without the send guard both threads claim the same place in the lane (the
 * one-to-one ring's tail is a plain read and write), so one message overwrites the other or the lane is
 * corrupted. Mutual exclusion, not ordering, is what fails, on any hardware.
 */
@JCStressTest
@Catches("guard.send.SAFE")
@Description("SAFE: two threads sending on one endpoint at once deliver both messages whole.")
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "Both sent, both completed once, both arrived whole.")
@Outcome(expect = FORBIDDEN, desc = "A message lost, torn or mixed, or a completion missing or repeated.")
@State
public class TwoSendersTest
{
    static
    {
        Variants.arm(TwoSendersTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.SAFE);
    private static final int SIZE = StressDomain.INLINE_SIZE;

    private final Peer a = DOMAIN.open();
    private final Peer b = DOMAIN.open();

    /** @param r r1 what the first send returned. */
    @Actor
    public void first(final IIII_Result r)
    {
        r.r1 = (int)a.ep.send(Payload.MESSAGE, 0, SIZE, 0, b.addr, 1);
    }

    /** @param r r2 what the second send returned. */
    @Actor
    public void second(final IIII_Result r)
    {
        r.r2 = (int)a.ep.send(Payload.OTHER_MESSAGE, 0, SIZE, 0, b.addr, 2);
    }

    /** @param r r3 1 when both completed once, r4 1 when both arrived whole. */
    @Arbiter
    public void check(final IIII_Result r)
    {
        final int[] seen = new int[3];
        r.r3 = a.collect(a.cq, 2, seen) == 2 && seen[1] == 1 && seen[2] == 1 && a.count(a.cq) == 0 ? 1 : 0;
        final ByteBuffer x = ByteBuffer.allocateDirect(SIZE);
        final ByteBuffer y = ByteBuffer.allocateDirect(SIZE);
        r.r4 = b.receive(x, y) && (Payload.holds(x, Payload.MESSAGE_SEED, SIZE) &&
            Payload.holds(y, Payload.OTHER_SEED, SIZE) || Payload.holds(y, Payload.MESSAGE_SEED, SIZE) &&
            Payload.holds(x, Payload.OTHER_SEED, SIZE)) ? 1 : 0;
        a.close();
        b.close();
    }
}
