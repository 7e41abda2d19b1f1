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
import org.openjdk.jcstress.infra.results.II_Result;

import java.nio.ByteBuffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * FI_THREAD_COMPLETION: A sent one rendezvous message to B1 and one to B2; B1 and B2, two completion groups on two
 * threads, copy their message and acknowledge into A's transmit ring at the same time. A (read afterwards) must
 * complete both sends, once each, and each receiver must hold its message.
 * <p>
 * Catches {@code txring.one-producer}: a transmit ring written as a one-producer ring by several receivers loses or
 * overwrites an acknowledgement, and its send never completes.
 */
@JCStressTest
@Catches("txring.one-producer")
@Description("COMPLETION: acknowledgements of two receivers written at once both reach the sender.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both sends completed once, both messages whole.")
@Outcome(expect = FORBIDDEN, desc = "A send not completed (its acknowledgement lost) or a message not whole.")
@State
public class AcksFromTwoReceiversTest
{
    static
    {
        Variants.arm(AcksFromTwoReceiversTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.COMPLETION);
    private static final int SIZE = 4096;

    private final Peer a = DOMAIN.open();
    private final Peer b1 = DOMAIN.open();
    private final Peer b2 = DOMAIN.open();
    private final ShareablePool pool = DOMAIN.shareable();
    private final int slice1 = pool.take();
    private final int slice2 = pool.take();
    private final ByteBuffer into1 = ByteBuffer.allocateDirect(SIZE);
    private final ByteBuffer into2 = ByteBuffer.allocateDirect(SIZE);
    private boolean received1;
    private boolean received2;

    /** Both receives posted and both sends made: their RTS records wait in B1's and B2's lanes. */
    public AcksFromTwoReceiversTest()
    {
        final ByteBuffer s1 = pool.buffer(slice1);
        final ByteBuffer s2 = pool.buffer(slice2);
        s1.put(0, Payload.MESSAGE, 0, SIZE);
        s2.put(0, Payload.OTHER_MESSAGE, 0, SIZE);
        b1.ep.recv(into1, 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, 1);
        b2.ep.recv(into2, 0, SIZE, 0, Addresses.FI_ADDR_UNSPEC, 1);
        a.ep.send(s1, 0, SIZE, pool.desc(), b1.addr, 1);
        a.ep.send(s2, 0, SIZE, pool.desc(), b2.addr, 2);
    }

    /** B1's thread: read its CQ until its receive completes (or a while passes: the arbiter waits for the rest). */
    @Actor
    public void receiver1()
    {
        received1 = drive(b1);
    }

    /** B2's thread. */
    @Actor
    public void receiver2()
    {
        received2 = drive(b2);
    }

    private static boolean drive(final Peer b)
    {
        for (int i = 0; i < Peer.PATIENCE; i++)
        {
            if (b.count(b.cq) > 0)
            {
                return true;
            }
        }
        return false;
    }

    /** @param r r1 1 when both sends completed exactly once, r2 1 when both messages are whole. */
    @Arbiter
    public void check(final II_Result r)
    {
        final boolean done = (received1 || b1.awaitReceives(1)) & (received2 || b2.awaitReceives(1));
        final int[] seen = new int[3];
        r.r1 = !done ? 0 : a.collect(a.cq, 2, seen) == 2 && seen[1] == 1 && seen[2] == 1 && a.count(a.cq) == 0 ? 1 : 0;
        r.r2 = Payload.holds(into1, Payload.MESSAGE_SEED, SIZE) && Payload.holds(into2, Payload.OTHER_SEED, SIZE) ?
            1 : 0;
        pool.release(slice1);
        pool.release(slice2);
        a.close();
        b1.close();
        b2.close();
    }
}
