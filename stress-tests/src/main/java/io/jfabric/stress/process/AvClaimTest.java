package io.jfabric.stress.av;

import io.jfabric.shm.av.AvDescriptor;
import io.jfabric.shm.av.AvTable;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two processes inserting into the same AV table at once, with the real {@link AvTable} code: they must get
 * different indices (0 and 1, the two lowest) and each entry must hold its own inserter's address.
 * <p>
 * Called by JCStress's actor threads only, one actor each, then the arbiter.
 */
@JCStressTest
@Description("Two inserters never get the same AV index, and neither entry is lost.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "First took 0, second 1, both entries intact.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "First took 1, second 0, both entries intact.")
@Outcome(expect = FORBIDDEN, desc = "Same index, another index, or an entry lost or overwritten.")
@State
public class AvClaimTest
{
    private static final byte[] A = "fi_shm://h:1/a".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] B = "fi_shm://h:2/bb".getBytes(StandardCharsets.US_ASCII);

    private final AvTable table;

    /** An empty table of 4 entries. */
    public AvClaimTest()
    {
        table = AvTable.inMemory(new UnsafeBuffer(new byte[(int)AvDescriptor.fileLength(4)]), 4, "stress");
    }

    /** @param r receives the index taken in r1. */
    @Actor
    public void first(final III_Result r)
    {
        final int index = table.claim();
        r.r1 = index;
        if (index >= 0)
        {
            table.publishAddress(index, A, 1, 0, -1, -1, 0);
        }
    }

    /** @param r receives the index taken in r2. */
    @Actor
    public void second(final III_Result r)
    {
        final int index = table.claim();
        r.r2 = index;
        if (index >= 0)
        {
            table.publishAddress(index, B, 2, 0, -1, -1, 0);
        }
    }

    /** @param r r3 = 1 when both entries hold their inserter's address. */
    @Arbiter
    public void check(final III_Result r)
    {
        r.r3 = r.r1 != r.r2 && r.r1 >= 0 && r.r2 >= 0 && holds(r.r1, A) && holds(r.r2, B) ? 1 : 0;
    }

    private boolean holds(final int index, final byte[] expected)
    {
        final AvTable.Entry entry = new AvTable.Entry();
        return table.snapshot(index, entry) && Arrays.equals(Arrays.copyOf(entry.bytes, entry.length), expected);
    }
}
