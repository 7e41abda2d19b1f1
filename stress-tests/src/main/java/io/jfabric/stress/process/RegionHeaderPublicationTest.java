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

import io.jfabric.FabricException;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.RegionHeader;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.TwoMappings;
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
 * Publication of a domain region's header, with the real {@link RegionHeader} code that {@code RegionFile} runs:
 * the creator writes every field and the checksum and then releases the ready flag; an opener acquires the ready
 * flag and, when set, verifies the header. Seeing the flag set but a header that does not verify would let an
 * opener trust a half-written region.
 * <p>
 * Called by JCStress's actor threads only, one actor each.
 * <p>
 * On x86-64 this catches a creator that sets ready before the other fields (in every JVM configuration of the
 * quick campaign), but not a plain store of ready or a plain load of it: TSO keeps stores and loads in order and
 * HotSpot does not reorder these raw-memory accesses. Those are only caught on weaker hardware such as AArch64.
 * <p>
 * The creator and the opener each use their own mapping of one file. Catches {@code region.ready-first}: a creator
 * that publishes ready before writing the fields.
 */
@JCStressTest
@Catches("region.ready-first")
@Description("A region header is never seen ready but incomplete.")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "Opener ran first: header not ready yet.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "Header ready and verified, every field as written.")
@Outcome(id = "2", expect = FORBIDDEN, desc = "Header ready but torn: verification failed or a field differs.")
@State
public class RegionHeaderPublicationTest
{
    static
    {
        Variants.arm(RegionHeaderPublicationTest.class);
    }

    private static final RegionGeometry GEOMETRY = new RegionGeometry(8, 1 << 16, 1 << 14, 1 << 14, 256, 64);
    private static final String NAME = "stress-domain";
    private static final long CREATOR_PID = 4242;
    private static final long CREATOR_START_TIME = 1_700_000_000_000L;
    private static final long CREATION_TIME = 1_700_000_012_345L;

    private static final TwoMappings FILES = new TwoMappings("region", RegionDescriptor.HEADER_LENGTH, 64);

    private final TwoMappings.Slice slice = FILES.take();
    private final RegionHeader header = new RegionHeader(slice.first);
    private final RegionHeader opened = new RegionHeader(slice.second);

    /**
     * The creating process: {@code RegionFile}'s sequence before it links the file into place.
     */
    @Actor
    public void creator()
    {
        header.write(GEOMETRY, NAME, CREATOR_PID, CREATOR_START_TIME, CREATION_TIME);
        header.publishReady();
    }

    /**
     * An opening process: {@code RegionFile}'s sequence, acquire ready first, then verify everything.
     *
     * @param r 0 not ready, 1 ready and valid, 2 ready but invalid.
     */
    @Actor
    public void opener(final I_Result r)
    {
        if (!opened.isReady())
        {
            r.r1 = 0;
            return;
        }

        try
        {
            opened.verify("stress header");
            final boolean asWritten = GEOMETRY.equals(opened.geometry()) &&
                NAME.equals(opened.domainName()) &&
                CREATOR_PID == opened.creatorPid() &&
                CREATOR_START_TIME == opened.creatorStartTime() &&
                CREATION_TIME == opened.creationTime();
            r.r1 = asWritten ? 1 : 2;
        }
        catch (final FabricException ex)
        {
            r.r1 = 2;
        }
    }

    /** Give the file slice back. */
    @Arbiter
    public void release()
    {
        slice.release();
    }
}
