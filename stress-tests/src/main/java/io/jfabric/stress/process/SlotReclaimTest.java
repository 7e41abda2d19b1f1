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

import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.ep.EndpointSlots;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.TwoMappings;

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
 * The region's one endpoint slot is held by a process that is gone (an earlier process with this pid: its start
 * time differs), and two live processes (two mappings) claim it at once, with the real {@link EndpointSlots} code:
 * exactly one takes it over, with the next incarnation.
 * <p>
 * Catches {@code slot.claim-plain}: without a CAS from the dead owner's identity both take it over.
 */
@JCStressTest
@Catches("slot.claim-plain")
@Description("A dead owner's endpoint slot is taken over by exactly one of two claimants.")
@Outcome(id = "0, -1, 1", expect = ACCEPTABLE, desc = "The first took it over.")
@Outcome(id = "-1, 0, 1", expect = ACCEPTABLE, desc = "The second took it over.")
@Outcome(expect = FORBIDDEN, desc = "Both or neither took it over, or the incarnation is not the next one.")
@State
public class SlotReclaimTest
{
    static
    {
        Variants.arm(SlotReclaimTest.class);
    }

    private static final long SELF = ProcessIdentity.self();
    private static final long GONE = ProcessIdentity.of(ProcessIdentity.pid(SELF), ProcessIdentity.start(SELF) - 1);
    private static final TwoMappings FILES = new TwoMappings("slot-reclaim",
        (int)RegionDescriptor.regionLength(SlotClaimTest.GEOMETRY), 64);

    private final TwoMappings.Slice slice = FILES.take();
    private final EndpointSlots first = new EndpointSlots(slice.first, SlotClaimTest.GEOMETRY);
    private final EndpointSlots second = new EndpointSlots(slice.second, SlotClaimTest.GEOMETRY);

    /** The slot held by a gone process, at incarnation 5. */
    public SlotReclaimTest()
    {
        slice.first.putLong(SlotDescriptor.ownerOffset(SlotClaimTest.GEOMETRY, 0), GONE);
        slice.first.putInt(SlotDescriptor.incarnationOffset(SlotClaimTest.GEOMETRY, 0), 5);
        slice.first.putInt(SlotDescriptor.stateOffset(SlotClaimTest.GEOMETRY, 0), SlotDescriptor.STATE_ACTIVE);
    }

    /** @param r r1 the slot the first process claimed, -1 for none. */
    @Actor
    public void firstProcess(final III_Result r)
    {
        r.r1 = first.claim(-1);
    }

    /** @param r r2 the slot the second process claimed, -1 for none. */
    @Actor
    public void secondProcess(final III_Result r)
    {
        r.r2 = second.claim(-1);
    }

    /** @param r r3 1 when the slot is owned by this process at incarnation 6. */
    @Arbiter
    public void check(final III_Result r)
    {
        r.r3 = first.owner(0) == SELF && first.incarnation(0) == 6 ? 1 : 0;
        slice.release();
    }
}
