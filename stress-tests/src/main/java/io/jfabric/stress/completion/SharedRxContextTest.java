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
import io.jfabric.CqEntries;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
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
import org.openjdk.jcstress.infra.results.III_Result;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * FI_THREAD_COMPLETION: endpoints E1 and E2, each with a CQ of its own (two completion groups), receive through one
 * shared receive context (fi_srx_context). The state posts two receives on the shared context, and E2 injects one
 * message to E1 and E1 one to E2 (fi_inject: no send completion, and no third endpoint to open, so a state is
 * cheap enough for the build's samples); then one thread reads E1's CQ and another E2's at the same time. Each read
 * progresses its endpoint: it drains that endpoint's lane into the one matcher of the shared context, which takes a
 * posted receive for the message and completes it to the CQ of the endpoint the message was sent to. Under this
 * model each endpoint's own guards are no-ops, so only the shared context's receive guard, a real lock under every
 * model, keeps the two progress threads out of the matcher together. The arbiter reads what is left: each message
 * must have been received once, into a buffer of its own, whole, completed to its endpoint's CQ and nowhere else.
 * <p>
 * Catches {@code srx.no-lock}: a shared receive context given the domain's own guards (no lock under COMPLETION)
 * lets both threads match at once, so both take the same posted receive (one buffer, one context completed twice,
 * the other receive left posted) or corrupt the matcher's lists. Mutual exclusion, not ordering, is what fails, on
 * any hardware. The window is one match, so it is caught in few samples: in the build's variant runs on the team's
 * 2-core host (load 5-10) the configuration with biased locking off failed each time (38 of 934 samples forbidden;
 * an ArrayIndexOutOfBoundsException in the matcher's posted list), the one with it on in one run of three (3 of 486
 * with an earlier version of this state, 0 of 566 and 0 of 518 with this one); the test fails when either does.
 */
@JCStressTest
@Catches("srx.no-lock")
@Description("COMPLETION: two endpoints progressing one shared receive context at once receive each message once.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE,
    desc = "Each message received once, whole, into its own buffer, completed to its endpoint's CQ only.")
@Outcome(expect = FORBIDDEN,
    desc = "A message lost, received twice, into a receive another took, torn, or completed to the wrong CQ.")
@State
public class SharedRxContextTest
{
    static
    {
        Variants.arm(SharedRxContextTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.COMPLETION);
    private static final int SIZE = StressDomain.INLINE_SIZE;
    private static final AtomicInteger SEEDS = new AtomicInteger();

    private final Endpoint srx = DOMAIN.srx();
    private final Peer e1 = DOMAIN.openOn(srx);
    private final Peer e2 = DOMAIN.openOn(srx);
    /** The message to E1 is Payload seed {@code seed}, the one to E2 {@code seed + 1}. */
    private final int seed = SEEDS.getAndAdd(2);
    private final ByteBuffer out = ByteBuffer.allocateDirect(2 * SIZE);
    private final ByteBuffer into = ByteBuffer.allocateDirect(2 * SIZE);
    private final long injected;
    private final CqEntries got1 = new CqEntries(4);
    private final CqEntries got2 = new CqEntries(4);
    private int read1;
    private int read2;

    /** Receives with contexts 1 and 2 posted on the shared context; a message in E1's lane and one in E2's. */
    public SharedRxContextTest()
    {
        for (int m = 0; m < 2; m++)
        {
            for (int i = 0; i < SIZE; i++)
            {
                out.put(m * SIZE + i, (byte)((seed + m) * 31 + i));
            }
        }
        long refused = 0;
        for (int k = 0; k < 2; k++)
        {
            refused |= srx.recv(into, k * SIZE, SIZE, 0, Addresses.FI_ADDR_UNSPEC, k + 1);
        }
        refused |= e2.ep.inject(out, 0, SIZE, e1.addr);
        refused |= e1.ep.inject(out, SIZE, SIZE, e2.addr);
        injected = refused;
    }

    /** E1's group: one read of its CQ. */
    @Actor
    public void reader1()
    {
        read1 = e1.cq.read(got1, got1.capacity());
    }

    /** E2's group: one read of its CQ. */
    @Actor
    public void reader2()
    {
        read2 = e2.cq.read(got2, got2.capacity());
    }

    /**
     * @param r r1 (r2) 1 when E1's (E2's) CQ held exactly one completion, of the full length, for a posted receive
     *          whose buffer holds E1's (E2's) message whole; r3 1 when the two completions name different receives
     *          and both posts and both injects were accepted.
     */
    @Arbiter
    public void check(final III_Result r)
    {
        final long c1 = completion(e1, got1, read1);
        final long c2 = completion(e2, got2, read2);
        r.r1 = holds(c1, seed);
        r.r2 = holds(c2, seed + 1);
        r.r3 = c1 > 0 && c2 > 0 && c1 != c2 && injected == 0 ? 1 : 0;
        e1.close();
        e2.close();
        srx.close();
    }

    /**
     * @return the context of the one completion the endpoint's CQ held (taken by its actor or read now), or -1 when
     * there was none, more than one, an error entry, or one of another length.
     */
    private static long completion(final Peer e, final CqEntries got, final int read)
    {
        if (read == -Errno.FI_EAVAIL || read > 1)
        {
            return -1;
        }
        long context = -1;
        int found = 0;
        if (read == 1)
        {
            if (got.len[0] != SIZE)
            {
                return -1;
            }
            context = got.opContext[0];
            found = 1;
        }
        for (int i = 0; i < Peer.PATIENCE && found == 0; i++)
        {
            final int n = e.cq.read(got, got.capacity());
            if (n == -Errno.FI_EAVAIL || n > 1 || n == 1 && got.len[0] != SIZE)
            {
                return -1;
            }
            if (n == 1)
            {
                context = got.opContext[0];
                found = 1;
            }
        }
        return found == 1 && e.count(e.cq) == 0 ? context : -1;
    }

    /** @return 1 when {@code context} names a posted receive whose buffer holds message {@code message} whole. */
    private int holds(final long context, final int message)
    {
        return (context == 1 || context == 2) &&
            Payload.holds(into.slice((int)(context - 1) * SIZE, SIZE), message, SIZE) ? 1 : 0;
    }
}
