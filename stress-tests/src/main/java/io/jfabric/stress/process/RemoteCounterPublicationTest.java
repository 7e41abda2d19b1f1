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
import io.jfabric.stress.fixture.ShareablePool;
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
 * Publication of an endpoint's remote access counter, between two processes (two mappings of one region,
 * {@link StressDomain}): one process enables an endpoint with a counter bound with FI_REMOTE_WRITE (FI_RMA_EVENT),
 * the other writes one-sidedly (fi_inject_write) into the first's registered shareable memory, addressed to that
 * endpoint, again while refused with -FI_EAGAIN, as an application does. {@code ShmEndpoint.enable} writes the slot's
 * remote counter words ({@code EndpointSlots.publishRemoteCounters}: the counter table index + 1 of the counters
 * bound with FI_REMOTE_READ and FI_REMOTE_WRITE, ordered stores), then releases the slot's state ACTIVE; an initiator
 * ({@code TxContext.rma}) acquires ACTIVE ({@code reachOneSided}), copies, and on success reads the slot's
 * FI_REMOTE_WRITE word and adds one to that counter in the shared counter table ({@code countAtTarget}). A write is
 * refused (-FI_EAGAIN, nothing copied, nothing counted) until the endpoint is ACTIVE; a write that succeeded raised
 * the counter exactly once and its bytes are in the memory. A write that succeeded without raising it read the
 * counter word before the enable wrote it: the target's FI_REMOTE_WRITE count misses an event for good.
 * <p>
 * The writer's endpoint maps the shareable segment before the actors run (a write to itself, in the constructor),
 * as an application that already wrote into the domain's memory has: the actor's first write that finds the target
 * ACTIVE then spends a key-table lookup and a 64-byte copy, not a segment mapping, between its acquire of ACTIVE and
 * its read of the counter word, so the test sees a word published late (the variant below: 35 of 2,364 samples
 * forbidden with the warm-up, 1 of 2,316 without it).
 * <p>
 * Catches {@code cntr.remote-published-after-active}: an enable that writes the remote counter words only after
 * the slot went ACTIVE (at its end, once its CQs and counters are attached) lets an initiator that saw ACTIVE read
 * a 0 word and count nothing. That changes the program's own order, so it fails on x86 too. The words written
 * right after the store of ACTIVE (a window of one store) were run as a variant too: 2 of 2,300 samples forbidden,
 * too rare for the build to rely on. What this cannot catch on x86-64: the words written with plain stores in
 * their place, before the release of ACTIVE (or ACTIVE itself released with a plain store), or the initiator's
 * read of the word made plain: x86-64 (TSO) reorders neither stores with stores nor loads with loads, so only
 * weaker hardware such as AArch64 could show a stale word there.
 * <p>
 * Called by JCStress's actor threads only, one actor each, then the arbiter.
 */
@JCStressTest
@Catches("cntr.remote-published-after-active")
@Description("A one-sided write racing the enable of its target raises the target's FI_REMOTE_WRITE counter once.")
@Outcome(id = "-11, 0, 0, 1", expect = ACCEPTABLE,
    desc = "Every try refused (-FI_EAGAIN): not enabled yet; nothing written or counted; a write after counted.")
@Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE,
    desc = "Written, counted exactly once, bytes in place; a write after the enable counted once more.")
@Outcome(expect = FORBIDDEN, desc = "Written but not counted (a stale counter word), counted twice, counted " +
    "although refused, bytes missing, or a write after the enable not counted.")
@State
public class RemoteCounterPublicationTest
{
    static
    {
        Variants.arm(RemoteCounterPublicationTest.class);
    }

    private static final StressDomain FIRST = StressDomain.of(Threading.DOMAIN);
    private static final StressDomain SECOND = StressDomain.mapping(Threading.DOMAIN);
    private static final int SIZE = StressDomain.INLINE_SIZE;
    /** Where in the slice the arbiter's write after the enable goes. */
    private static final int AFTER = 128;
    /** Where in the slice the writer's warm-up write to itself goes. */
    private static final int WARM_UP = 192;
    /**
     * Writes the second process makes while they are refused with -FI_EAGAIN, as an application retries: enough to
     * outlast most enables, so most tries straddle the store of ACTIVE.
     */
    private static final int TRIES = 1 << 16;

    private final ShareablePool pool = FIRST.remotelyAccessible();
    private final int slice = pool.take();
    private final ByteBuffer memory = pool.buffer(slice);
    private final Peer target = FIRST.openRemoteCounting();
    private final Peer writer = SECOND.open();

    {
        for (int i = 0; i < memory.capacity(); i++)
        {
            memory.put(i, (byte)0);
        }
        if (writer.ep.injectWrite(Payload.OTHER_MESSAGE, 0, 8, writer.addr, pool.offset(slice) + WARM_UP,
            pool.key()) != 0)
        {
            throw new IllegalStateException("the writer's warm-up write to itself was refused");
        }
    }

    /** The first process: enable the endpoint whose FI_REMOTE_WRITE counter is bound. */
    @Actor
    public void enabler()
    {
        target.ep.enable();
    }

    /**
     * The second process: write the message into the first's memory, addressed to its endpoint, again while
     * refused with -FI_EAGAIN (at most {@link #TRIES} times).
     *
     * @param r r1 what the last write returned.
     */
    @Actor
    public void write(final IIII_Result r)
    {
        long rc;
        int tries = 0;
        do
        {
            rc = writer.ep.injectWrite(Payload.MESSAGE, 0, SIZE, target.addr, pool.offset(slice), pool.key());
        }
        while (rc == -Errno.FI_EAGAIN && ++tries < TRIES);
        r.r1 = (int)rc;
    }

    /**
     * @param r r2 the FI_REMOTE_WRITE counter, r3 1 when the message is in the memory whole, 0 when the memory is
     *          untouched, 2 otherwise; r4 1 when a write after the enable raised the counter exactly once more,
     *          landed, and the writer's CQ holds no error.
     */
    @Arbiter
    public void check(final IIII_Result r)
    {
        final long counted = target.counter.read();
        r.r2 = (int)counted;
        r.r3 = Payload.holds(memory, Payload.MESSAGE_SEED, SIZE) ? 1 : untouched(memory) ? 0 : 2;
        final boolean after = writer.ep.injectWrite(Payload.OTHER_MESSAGE, 0, SIZE, target.addr,
            pool.offset(slice) + AFTER, pool.key()) == 0 && target.counter.read() == counted + 1 &&
            Payload.holds(memory.duplicate().position(AFTER).slice(), Payload.OTHER_SEED, SIZE);
        r.r4 = after && writer.count(writer.cq) == 0 && target.counter.readErr() == 0 ? 1 : 0;
        writer.close();
        target.close();
        pool.release(slice);
    }

    private static boolean untouched(final ByteBuffer memory)
    {
        for (int i = 0; i < SIZE; i++)
        {
            if (memory.get(i) != 0)
            {
                return false;
            }
        }
        return true;
    }
}
