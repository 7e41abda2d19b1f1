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

import io.jfabric.shm.core.OpHandoff;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The handoff of an operation from a transmit context's sending side to its transmit progress ({@link OpHandoff},
 * which {@code PendingSends} and {@code EmulatedOps} use): under FI_THREAD_ENDPOINT the thread that sends and the
 * thread whose CQ read runs progress are different threads. The sending side fills an operation's field and submits
 * the operation's index; progress, if it sees the submission, must see that index and the field whole.
 * <p>
 * The operation submitted is the pool's second one (index 1, taken in the state's constructor), so a stale read of
 * the submit ring (whose slots start at 0) shows as index 0. The operation's field is a plain array of the test's,
 * as the pools' request fields are plain arrays; the ordering under test is {@code OpHandoff}'s.
 * <p>
 * Catches {@code handoff.count-before-index}: a submit that publishes the count before it stores the index lets
 * progress read the ring slot before it is written (fails on x86: an order in the program). The reverse mistake,
 * the count stored without release or read without acquire, is a reordering x86 does not make, so it has no variant.
 */
@JCStressTest
@Catches("handoff.count-before-index")
@Description("OpHandoff: progress that sees a submitted operation sees its index and its fields.")
@Outcome(id = "-1, 0", expect = ACCEPTABLE, desc = "Progress ran before the submission: nothing accepted.")
@Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "Accepted: the right operation with its field.")
@Outcome(expect = FORBIDDEN, desc = "Accepted a stale index, or the operation without its field.")
@State
public class OpHandoffPublicationTest
{
    static
    {
        Variants.arm(OpHandoffPublicationTest.class);
    }

    private final OpHandoff handoff = new OpHandoff(4);
    private final long[] field = new long[4];
    private final int op;

    /** Sending side, before the actors: take two operations, keep the second. */
    public OpHandoffPublicationTest()
    {
        handoff.take();
        op = handoff.take();
    }

    /** The sending side's thread. */
    @Actor
    public void sendingSide()
    {
        field[op] = 42;
        handoff.submit(op);
    }

    /** The transmit progress thread. @param r r1 the index accepted (-1: none), r2 its field. */
    @Actor
    public void progress(final II_Result r)
    {
        if (handoff.beginAccept() == 0)
        {
            r.r1 = -1;
            return;
        }
        final int accepted = handoff.nextAccepted();
        r.r1 = accepted;
        r.r2 = (int)field[accepted];
    }
}
