package io.jfabric.stress.mr;

import io.jfabric.shm.mr.MrTable;
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
 * The owner registers (claim, describe, publish) a key table entry while a peer resolves the key and reads the
 * entry under the sequence lock, as {@code RemoteMemory} does: the peer either does not find the key or sees every
 * field as written, never a published entry with missing fields. Checked to fail (outcome 2 seen) with a broken
 * owner that publishes before describing.
 */
@JCStressTest
@Description("A memory region key table entry is never seen published but incomplete.")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "Peer ran first: key not published yet.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "Entry published and every field as written.")
@Outcome(id = "2", expect = FORBIDDEN, desc = "Entry published but a field is missing.")
@State
public class MrEntryPublicationTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(1, 4096, 4096, 4096, 64, 1);
    private static final long KEY = 0xC0DE;
    private static final long SEGMENT = 77;
    private static final long OFFSET = 4096;
    private static final long LENGTH = 65536;
    private static final long BASE = 0x7F00_0000_1000L;
    private static final int ACCESS = 0x3000;

    private final MrTable table = new MrTable(
        new UnsafeBuffer(new byte[(int)RegionDescriptor.regionLength(GEOMETRY)]), GEOMETRY);

    /** The owner registering the region. */
    @Actor
    public void owner()
    {
        final int index = table.claim(KEY, "stress");
        table.describe(index, SEGMENT, OFFSET, LENGTH, BASE, ACCESS, 0);
        table.publish(index);
    }

    /**
     * The peer resolving the key.
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
        final boolean asWritten = table.key(index) == KEY && table.segmentId(index) == SEGMENT &&
            table.segmentOffset(index) == OFFSET && table.length(index) == LENGTH &&
            table.baseAddress(index) == BASE && table.access(index) == ACCESS;
        if (!table.unchanged(index, control))
        {
            r.r1 = 0;
            return;
        }
        r.r1 = asWritten ? 1 : 2;
    }
}
