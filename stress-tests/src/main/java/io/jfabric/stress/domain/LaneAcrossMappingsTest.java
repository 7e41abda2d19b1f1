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
package io.jfabric.stress.domain;

import io.jfabric.Threading;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.StressDomain;
import io.jfabric.stress.scenario.LaneTransfer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * FI_THREAD_DOMAIN: everything in a domain is serialized, so what runs at once is two domains: here two instances
 * of one region, two mappings of its file at two addresses, as two processes have them. A sends from one to B in
 * the other while B reads its CQ ({@link LaneTransfer}). Catches {@code lane.commit-before-payload}, as
 * {@code completion.LaneAcrossGroupsTest} does within one mapping.
 */
@JCStressTest
@Catches("lane.commit-before-payload")
@Description("DOMAIN: a message crossing a lane between two mappings of the region arrives whole.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Received once, whole.")
@Outcome(expect = FORBIDDEN, desc = "Lost, or received with bytes that were not sent.")
@State
public class LaneAcrossMappingsTest
{
    static
    {
        Variants.arm(LaneAcrossMappingsTest.class);
    }

    private static final StressDomain FIRST = StressDomain.of(Threading.DOMAIN);
    private static final StressDomain SECOND = StressDomain.mapping(Threading.DOMAIN);

    private final LaneTransfer scenario = new LaneTransfer(FIRST, SECOND);

    /** The first process's thread. */
    @Actor
    public void sender()
    {
        scenario.send();
    }

    /** The second process's thread: a few CQ reads. */
    @Actor
    public void receiver()
    {
        scenario.receive();
    }

    /** @param r r1 received once, r2 whole. */
    @Arbiter
    public void check(final II_Result r)
    {
        scenario.check(r);
    }
}
