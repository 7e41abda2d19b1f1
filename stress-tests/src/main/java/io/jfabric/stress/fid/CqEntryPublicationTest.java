package io.jfabric.stress.fid;

import io.jfabric.CqEntries;
import io.jfabric.Flags;
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
import org.openjdk.jcstress.infra.results.II_Result;

import java.nio.ByteBuffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * FI_THREAD_FID: a send writes its completion into the CQ while another thread reads that CQ. A read that counts
 * the entry must see every field of it (context, flags) as written: the writer fills the entry, then commits it.
 * <p>
 * Catches {@code cq.commit-before-fields}: an entry committed before its fields are written is read with a zero
 * context and zero flags. That is an order of the writer's own program, so it fails on x86 too; the release store of
 * the commit (against a plain one) is not tested here and could only fail on weaker hardware.
 */
@JCStressTest
@Catches("cq.commit-before-fields")
@Description("FID: a CQ read never counts an entry whose fields it cannot see.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The read came first; the completion was read later, whole.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The read took the completion, whole.")
@Outcome(expect = FORBIDDEN, desc = "An entry read with fields missing, or the completion lost or repeated.")
@State
public class CqEntryPublicationTest
{
    static
    {
        Variants.arm(CqEntryPublicationTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.FID);
    private static final long SENT = Flags.FI_SEND | Flags.FI_MSG;

    private final Peer a = DOMAIN.open();
    private final Peer b = DOMAIN.open();
    private final CqEntries entries = new CqEntries(1);

    /** The sending thread. */
    @Actor
    public void sender()
    {
        a.ep.send(Payload.MESSAGE, 0, StressDomain.INLINE_SIZE, 0, b.addr, 42);
    }

    /** @param r r1 0 nothing read, 1 the entry whole, 2 an entry with fields missing. */
    @Actor
    public void reader(final II_Result r)
    {
        if (a.cq.read(entries, 1) == 1)
        {
            r.r1 = entries.opContext[0] == 42 && entries.flags[0] == SENT ? 1 : 2;
        }
    }

    /** @param r r2 completions of the send over the read and what is left. */
    @Arbiter
    public void check(final II_Result r)
    {
        final int[] seen = new int[43];
        final int left = r.r1 == 0 ? a.collect(a.cq, 1, seen) : 0;
        r.r2 = (r.r1 == 0 ? seen[42] : left + 1) + Math.max(0, a.count(a.cq));
        b.receive(ByteBuffer.allocateDirect(StressDomain.INLINE_SIZE));
        a.close();
        b.close();
    }
}
