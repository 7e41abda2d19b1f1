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
import io.jfabric.shm.region.RegionGeometry;
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
 * Two processes (two mappings of one region file) open an endpoint at once in a region that has one free
 * endpoint slot, with the real {@link EndpointSlots} code: exactly one gets it, the other finds none, and the slot
 * ends owned by this process with one incarnation step.
 * <p>
 * Catches {@code slot.claim-plain}: a claim that checks the owner word and then writes it without a CAS gives the
 * slot to both. Called by JCStress's actor threads only, then the arbiter.
 */
@JCStressTest
@Catches("slot.claim-plain")
@Description("The one free endpoint slot goes to exactly one of two processes claiming it at once.")
@Outcome(id = "0, -1, 1", expect = ACCEPTABLE, desc = "The first got it, the second found none.")
@Outcome(id = "-1, 0, 1", expect = ACCEPTABLE, desc = "The second got it, the first found none.")
@Outcome(expect = FORBIDDEN, desc = "Both or neither got it, or its incarnation moved by other than one.")
@State
public class SlotClaimTest
{
    static
    {
        Variants.arm(SlotClaimTest.class);
    }

    /** One endpoint slot and the smallest rings. */
    static final RegionGeometry GEOMETRY = new RegionGeometry(1, 4096, 4096, 4096, 1, 1);
    private static final TwoMappings FILES = new TwoMappings("slots", (int)RegionDescriptor.regionLength(GEOMETRY),
        64);

    private final TwoMappings.Slice slice = FILES.take();
    private final EndpointSlots first = new EndpointSlots(slice.first, GEOMETRY);
    private final EndpointSlots second = new EndpointSlots(slice.second, GEOMETRY);

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

    /** @param r r3 1 when the slot is owned by this process, at incarnation 1. */
    @Arbiter
    public void check(final III_Result r)
    {
        r.r3 = first.owner(0) == ProcessIdentity.self() && first.incarnation(0) == 1 &&
            slice.first.getInt(SlotDescriptor.stateOffset(GEOMETRY, 0)) == SlotDescriptor.STATE_CLAIMED ? 1 : 0;
        slice.release();
    }
}
