package io.jfabric.stress.safe;

import io.jfabric.CqEntries;
import io.jfabric.Threading;
import io.jfabric.shm.ShmDomain;
import io.jfabric.shm.cq.ShmCompletionQueue;
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
 * FI_THREAD_SAFE: one thread reads a CQ holding two completions while another closes the endpoint and the CQ and
 * then, as the next process to claim that completion ring would, overwrites the ring. The read must either take
 * both completions whole (it ran before the close gave the ring up) or return -FI_EBADF; it must never read the
 * ring after it was given up.
 * <p>
 * Catches {@code cq.close-while-read}: a close that does not wait for a read inside the queue (nor make a read
 * that waited for the guard see the close) lets the read go on over memory that is no longer the queue's.
 */
@JCStressTest
@Catches("cq.close-while-read")
@Description("SAFE: a CQ read racing the CQ's close never reads the ring after the close gave it up.")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "The read ran first and took both completions whole.")
@Outcome(id = "-9, 1", expect = ACCEPTABLE, desc = "The close ran first: -FI_EBADF (9).")
@Outcome(expect = FORBIDDEN, desc = "The read saw a ring that was no longer the queue's.")
@State
public class CloseRacingCqReadTest
{
    static
    {
        Variants.arm(CloseRacingCqReadTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.SAFE);
    private static final AtomicBuffer REGION = ((ShmDomain)DOMAIN.domain).region().buffer();

    private final Peer a = DOMAIN.open();
    private final Peer b = DOMAIN.open();
    private final CqEntries entries = new CqEntries(4);
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

    /** @param r r1 what the read returned, r2 1 when every entry it took is one of the two completions. */
    @Actor
    public void reader(final II_Result r)
    {
        final int n = a.cq.read(entries, entries.capacity());
        r.r1 = n;
        boolean whole = true;
        for (int i = 0; i < n; i++)
        {
            whole &= entries.opContext[i] == i + 1;
        }
        r.r2 = whole ? 1 : 0;
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
