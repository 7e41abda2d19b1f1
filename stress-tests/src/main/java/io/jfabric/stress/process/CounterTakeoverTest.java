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
import io.jfabric.shm.cntr.CounterTable;
import io.jfabric.shm.cntr.CounterTableDescriptor;
import io.jfabric.shm.core.ProcessIdentity;
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
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two claimers race for the only counter entry, which is owned by a gone process (an earlier process with this pid),
 * with the real {@link CounterTable} code: exactly one takes it over, the other finds the table full, and the entry
 * ends owned by this process.
 * <p>
 * Called by JCStress's actor threads only, one actor each, then the arbiter.
 * <p>
 * Each claimer uses its own mapping of one file. Catches {@code cntr.claim-plain}: both take the entry over.
 */
@JCStressTest
@Catches("cntr.claim-plain")
@Description("A counter entry of a gone owner is taken over by exactly one claimer.")
@Outcome(id = "0, -1, 1", expect = ACCEPTABLE, desc = "First took it over, second found the table full.")
@Outcome(id = "-1, 0, 1", expect = ACCEPTABLE, desc = "Second took it over, first found the table full.")
@Outcome(expect = FORBIDDEN, desc = "Both or neither took it, or the owner word is not this process.")
@State
public class CounterTakeoverTest
{
    static
    {
        Variants.arm(CounterTakeoverTest.class);
    }

    private static final RegionGeometry GEOMETRY = new RegionGeometry(1, 4096, 4096, 4096, 1, 1);
    private static final long SELF = ProcessIdentity.self();
    private static final long GONE = ProcessIdentity.of(ProcessIdentity.pid(SELF), ProcessIdentity.start(SELF) - 1);

    private static final TwoMappings FILES =
        new TwoMappings("counter", (int)RegionDescriptor.regionLength(GEOMETRY), 64);

    private final TwoMappings.Slice slice = FILES.take();
    private final UnsafeBuffer region = slice.first;
    private final CounterTable table = new CounterTable(slice.first, GEOMETRY);
    private final CounterTable other = new CounterTable(slice.second, GEOMETRY);

    /** The one entry, in use by a process that is gone. */
    public CounterTakeoverTest()
    {
        final int entry = CounterTableDescriptor.entryOffset(GEOMETRY, 0);
        region.putLong(entry + CounterTableDescriptor.OWNER_OFFSET, GONE);
        region.putInt(entry + CounterTableDescriptor.STATE_OFFSET, CounterTableDescriptor.STATE_IN_USE);
    }

    /** @param r receives the index taken in r1, -1 for none. */
    @Actor
    public void first(final III_Result r)
    {
        r.r1 = claim(table);
    }

    /** @param r receives the index taken in r2, -1 for none. */
    @Actor
    public void second(final III_Result r)
    {
        r.r2 = claim(other);
    }

    /** @param r r3 = 1 when the entry is owned by this process. */
    @Arbiter
    public void check(final III_Result r)
    {
        r.r3 = table.owner(0) == SELF ? 1 : 0;
        slice.release();
    }

    private static int claim(final CounterTable table)
    {
        try
        {
            return table.claim("stress");
        }
        catch (final FabricException ex)
        {
            return -1;
        }
    }
}
