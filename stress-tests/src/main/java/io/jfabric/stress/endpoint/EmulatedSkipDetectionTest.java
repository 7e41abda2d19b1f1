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
package io.jfabric.stress.endpoint;

import io.jfabric.shm.rma.SkipDetectionFixture;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The emulated path's skip detection ({@code EmulatedCompletions.skipped}, which {@code sweep} runs): an emulated
 * operation completes with FI_EIO as "skipped" once its initiator has seen the target's lane consumer position past
 * the request and then read its own transmit ring up to the ring's producer position noted at that moment, with no
 * answer found. That is sound only because of an ordering of the two sides: the target commits its answer into the
 * initiator's ring before it release-stores its lane consumer position past the request, and the initiator
 * acquire-reads that position before it reads the ring's producer position. Then a noted position always covers the
 * answer, and an answered operation is never taken for skipped.
 * <p>
 * Over the provider's own classes ({@code io.jfabric.shm.rma.SkipDetectionFixture}): the target thread takes the
 * request out of a real {@code SpscLane} and answers it with the real {@code EmulatedTarget.serve} into a real
 * Agrona many-to-one ring, as receive progress does; the initiator thread runs the real decision as transmit
 * progress does, looking until it notes the producer position, then deciding. The ring is not read in between, so a
 * noted position that covers the answer can never be reached: the decision must be "not skipped".
 * <p>
 * Catches {@code lane.spsc-head-before-read}: a lane that publishes its consumer position before it hands the record
 * to its reader, i.e. a target that moves on before it answers; the initiator then notes a position below the
 * answer and completes an answered operation in error (an order in the program: fails on x86). The same orders kept
 * in the program but made plain (no release on the target's store, no acquire on the initiator's load) are
 * reorderings x86 does not make, so they have no variant here.
 */
@JCStressTest
@Catches("lane.spsc-head-before-read")
@Description("An emulated operation the target answered is never completed as skipped by its initiator.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "The initiator saw the target move on, after its answer.")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "The initiator gave up looking before the target moved on.")
@Outcome(expect = FORBIDDEN, desc = "An answered operation was decided skipped.")
@State
public class EmulatedSkipDetectionTest
{
    static
    {
        Variants.arm(EmulatedSkipDetectionTest.class);
    }

    private static final int PATIENCE = 2_000;

    private final SkipDetectionFixture fixture = new SkipDetectionFixture();

    /** The target's receive progress: it takes the request and answers it. */
    @Actor
    public void target()
    {
        fixture.serve();
    }

    /**
     * The initiator's transmit progress: its look, until it notes the producer position, then its decision.
     *
     * @param r r1 1 when it noted the position (2: a look decided "skipped" at once), r2 1 when it decided the
     *          operation skipped.
     */
    @Actor
    public void initiator(final III_Result r)
    {
        r.r1 = fixture.awaitMark(PATIENCE);
        r.r2 = r.r1 == 2 || fixture.skipped() ? 1 : 0;
    }

    /** @param r r3 1 when the answer is in the ring. */
    @Arbiter
    public void check(final III_Result r)
    {
        r.r3 = fixture.answered() ? 1 : 0;
    }
}
