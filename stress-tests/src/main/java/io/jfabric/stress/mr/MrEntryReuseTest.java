package io.jfabric.stress.mr;

import io.jfabric.shm.mr.MrTable;
import io.jfabric.shm.mr.MrTableDescriptor;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A published key table entry is closed and its key registered again (free, claim the same entry, describe other
 * fields, publish) while a peer accesses the key as {@code RemoteMemory} does: reads the fields inside the sequence
 * lock, "copies" (reads a 4 KiB buffer), reads the fields again, and re-checks the control word. A re-check that
 * passes must mean the entry did not change: never a pass with fields of two registrations (the ABA a free that
 * does not move the generation on would allow). Checked to fail (outcome 4 seen) with {@code MrTable.free} storing
 * the old generation back.
 */
@JCStressTest
@Description("A key table entry freed and claimed again during a peer's access never passes the peer's re-check.")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "Rejected before the copy: not found, or changing.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The first registration, unchanged across the copy.")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "The second registration, unchanged across the copy.")
@Outcome(id = "3", expect = ACCEPTABLE, desc = "Rejected by the re-check after the copy.")
@Outcome(id = "4", expect = FORBIDDEN, desc = "Re-check passed although the entry changed during the copy.")
@State
public class MrEntryReuseTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(1, 4096, 4096, 4096, 64, 4);
    private static final long KEY = 0xABA;
    private static final int COPY_LENGTH = 4096;

    private final MrTable table = new MrTable(
        new UnsafeBuffer(new byte[(int)RegionDescriptor.regionLength(GEOMETRY)]), GEOMETRY);
    private final UnsafeBuffer source = new UnsafeBuffer(new byte[COPY_LENGTH]);
    private final UnsafeBuffer target = new UnsafeBuffer(new byte[COPY_LENGTH]);
    private final int first;

    /** The first registration, published before the actors start. */
    public MrEntryReuseTest()
    {
        first = table.claim(KEY, "stress");
        table.describe(first, 1, 0, 4096, 0, 0x3000, 1);
        table.publish(first);
    }

    /** The owner closing the region and registering the same key again. */
    @Actor
    public void owner()
    {
        table.free(first);
        final int index = table.claim(KEY, "stress");
        table.describe(index, 2, 4096, 4096, 0, 0x3000, 2);
        table.publish(index);
    }

    /**
     * The peer's access.
     *
     * @param r the outcome.
     */
    @Actor
    public void peer(final I_Result r)
    {
        final int index = table.find(KEY);
        if (index < 0)
        {
            r.r1 = 0;
            return;
        }
        final long control = table.control(index);
        final long segment = table.segmentId(index);
        final int counter = table.counter(index);
        if (MrTableDescriptor.state(control) != MrTableDescriptor.STATE_PUBLISHED || !table.unchanged(index, control))
        {
            r.r1 = 0;
            return;
        }
        target.putBytes(0, source, 0, COPY_LENGTH);
        final long segmentAfter = table.segmentId(index);
        final int counterAfter = table.counter(index);
        if (!table.unchanged(index, control))
        {
            r.r1 = 3;
            return;
        }
        final boolean same = segment == segmentAfter && counter == counterAfter && counter == segment;
        r.r1 = same ? (int)segment : 4;
    }
}
