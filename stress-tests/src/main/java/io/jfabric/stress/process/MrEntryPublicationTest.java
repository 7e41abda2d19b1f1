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

import io.jfabric.shm.mr.MrTable;
import io.jfabric.shm.mr.MrTableDescriptor;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.TwoMappings;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A key is registered (published before the actors start), then closed and registered again by its owner (free,
 * claim, which takes the same entry, describe other fields, publish) while a peer accesses the key as
 * {@code RemoteMemory} does: reads every field inside the sequence lock, "copies" (64 KiB, a window wide enough
 * for the owner's free and claim to fall inside), reads the fields again
 * and re-checks the control word. The peer must see either registration whole and unchanged across its copy, or be
 * rejected: never a published entry with fields missing (publication) and never a passed re-check over a changed
 * entry (the ABA of a free that does not move the generation on).
 * <p>
 * Checked to fail in the quick campaign mode: outcome 4 with {@code MrTable.free} storing the old generation back
 * (205 hits, all 8 forks failed); outcomes 4 and 5 (10 hits) with an owner that publishes before describing.
 * <p>
 * The owner and the peer each use their own mapping of one file. Catches {@code mr.free-keeps-generation}
 * (outcome 4): a free that does not move the generation on lets the peer's re-check pass over an entry that was
 * freed and claimed again during its copy.
 */
@JCStressTest
@Catches("mr.free-keeps-generation")
@Description("A key table entry is never seen incomplete, nor passes a re-check after being freed and claimed again.")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "Rejected before the copy: not found, or changing.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The first registration, whole and unchanged across the copy.")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "The second registration, whole and unchanged across the copy.")
@Outcome(id = "3", expect = ACCEPTABLE, desc = "Rejected by the re-check after the copy.")
@Outcome(id = "4", expect = FORBIDDEN, desc = "Re-check passed although the entry changed during the copy.")
@Outcome(id = "5", expect = FORBIDDEN, desc = "Entry passed its checks but is not one registration's fields.")
@State
public class MrEntryPublicationTest
{
    static
    {
        Variants.arm(MrEntryPublicationTest.class);
    }

    private static final RegionGeometry GEOMETRY = new RegionGeometry(1, 4096, 4096, 4096, 64, 4);
    private static final long KEY = 0xC0DE;
    private static final long BASE = 0x7F00_0000_1000L;
    private static final long NONCE = 0x5EED_0000_0000_0000L;
    private static final int ACCESS = 0x3000;
    private static final int COPY_LENGTH = 64 * 1024;

    private static final TwoMappings FILES = new TwoMappings("mr", (int)RegionDescriptor.regionLength(GEOMETRY), 64);

    private final TwoMappings.Slice slice = FILES.take();
    private final MrTable table = new MrTable(slice.first, GEOMETRY);
    private final MrTable peerTable = new MrTable(slice.second, GEOMETRY);
    /** What the peer "copies": one pair for all states (only the peer actor uses them, one state at a time). */
    private static final UnsafeBuffer SOURCE = new UnsafeBuffer(new byte[COPY_LENGTH]);
    private static final UnsafeBuffer TARGET = new UnsafeBuffer(new byte[COPY_LENGTH]);
    private final int first;

    /** The first registration, published before the actors start. */
    public MrEntryPublicationTest()
    {
        first = register(1);
    }

    private int register(final int n)
    {
        final int index = table.claim(KEY, "stress");
        table.describe(index, n, NONCE + n, n * 4096, n * 65536, BASE + n, ACCESS, n, NONCE * n);
        table.publish(index);
        return index;
    }

    /** The owner closing the region and registering the key again. */
    @Actor
    public void owner()
    {
        table.free(first);
        register(2);
    }

    /**
     * The peer's access.
     *
     * @param r the outcome.
     */
    @Actor
    public void peer(final I_Result r)
    {
        final int index = peerTable.find(KEY);
        if (index < 0)
        {
            r.r1 = 0;
            return;
        }
        final long control = peerTable.laControl(index);
        final long segment = peerTable.lpSegmentId(index);
        final boolean whole = peerTable.lpKey(index) == KEY && peerTable.lpSegmentOffset(index) == segment * 4096L &&
            peerTable.lpLength(index) == segment * 65536L && peerTable.lpSegmentNonce(index) == NONCE + segment &&
            peerTable.lpBaseAddress(index) == BASE + segment &&
            peerTable.lpAccess(index) == ACCESS && peerTable.lvCounter(index) == segment &&
            peerTable.lpAuthDigest(index) == NONCE * segment;
        if (MrTableDescriptor.state(control) != MrTableDescriptor.STATE_PUBLISHED ||
            !peerTable.lvControlUnchanged(index, control))
        {
            r.r1 = 0;
            return;
        }
        TARGET.putBytes(0, SOURCE, 0, COPY_LENGTH);
        final long segmentAfter = peerTable.lpSegmentId(index);
        final int counterAfter = peerTable.lvCounter(index);
        if (!peerTable.lvControlUnchanged(index, control))
        {
            r.r1 = 3;
            return;
        }
        if (segmentAfter != segment || counterAfter != segment)
        {
            r.r1 = 4;
            return;
        }
        r.r1 = whole && (segment == 1 || segment == 2) ? (int)segment : 5;
    }

    /** Give the file slice back. */
    @Arbiter
    public void release()
    {
        slice.release();
    }
}
