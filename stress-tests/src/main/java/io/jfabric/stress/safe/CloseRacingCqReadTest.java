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

import io.jfabric.CqEntries;
import io.jfabric.Errno;
import io.jfabric.Threading;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.Payload;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.StressDomain;
import org.agrona.concurrent.AtomicBuffer;
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
 * FI_THREAD_SAFE: one thread reads a CQ holding two completions, 32 times, while another closes the endpoint and
 * the CQ and then, as the next process to claim that completion ring would, overwrites the ring. Every read must
 * take a completion whole (each at most once), or find none (-FI_EAGAIN), or find the queue closed (-FI_EBADF); no
 * read may look at the ring after the close gave it up.
 * <p>
 * Catches {@code cq.close-while-read}: a close that does not wait for a read inside the queue (nor make a read
 * that waited for the guard see the close) lets the read go on over memory that is no longer the queue's.
 */
@JCStressTest
@Catches("cq.close-while-read")
@Description("SAFE: a CQ read racing the CQ's close never reads the ring after the close gave it up.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The close came first: every read found it closed.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "One completion taken whole before the close.")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "Both completions taken whole before the close.")
@Outcome(expect = FORBIDDEN, desc = "A read saw a ring that was no longer the queue's.")
@State
public class CloseRacingCqReadTest
{
    static
    {
        Variants.arm(CloseRacingCqReadTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.SAFE);
    private static final AtomicBuffer REGION = ((ShmDomain)DOMAIN.domain).region().buffer();
    private static final int READS = 32;

    private final Peer a = DOMAIN.open();
    private final Peer b = DOMAIN.open();
    private final CqEntries entries = new CqEntries(1);
    private final int ringOffset;
    private final int ringLength;

    /** Two completions waiting in A's CQ. */
    public CloseRacingCqReadTest()
    {
        a.ep.send(Payload.MESSAGE, 0, StressDomain.INLINE_SIZE, 0, b.addr, 1);
        a.ep.send(Payload.OTHER_MESSAGE, 0, StressDomain.INLINE_SIZE, 0, b.addr, 2);
        final ShmDomain shm = (ShmDomain)DOMAIN.domain;
        ringOffset = RegionDescriptor.cqRingOffset(shm.region().geometry(), ((ShmCompletionQueue)a.cq).ringNumber());
        ringLength = RegionDescriptor.ringLength(shm.region().geometry().cqRingBytes());
    }

    /** @param r r1 completions taken, r2 1 when each was whole and in order and every other read said why. */
    @Actor
    public void reader(final II_Result r)
    {
        int taken = 0;
        boolean clean = true;
        for (int i = 0; i < READS; i++)
        {
            final int n = a.cq.read(entries, 1);
            if (n == 1)
            {
                clean &= entries.opContext[0] == ++taken;
            }
            else
            {
                clean &= n == -Errno.FI_EAGAIN || n == -Errno.FI_EBADF;
                Thread.onSpinWait(); // spread the reads over the close
            }
        }
        r.r1 = taken;
        r.r2 = clean ? 1 : 0;
    }

    /** Close the endpoint and the CQ, then overwrite the ring as its next owner might. */
    @Actor
    public void closer()
    {
        a.ep.close();
        a.cq.close();
        REGION.setMemory(ringOffset, ringLength, (byte)0x7F);
    }

    /** Drain B and close what is left; a new CQ on this ring clears it when it is opened. */
    @Arbiter
    public void check()
    {
        b.receive(ByteBuffer.allocateDirect(StressDomain.INLINE_SIZE),
            ByteBuffer.allocateDirect(StressDomain.INLINE_SIZE));
        a.close();
        b.close();
    }
}
