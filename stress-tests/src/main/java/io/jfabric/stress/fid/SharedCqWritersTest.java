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
package io.jfabric.stress.fid;

import io.jfabric.Threading;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.StressDomain;
import io.jfabric.stress.scenario.SharedCqWriters;
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
 * FI_THREAD_FID: two endpoints that share their transmit CQ send on two threads at once (each endpoint is its
 * own object), so both write the CQ at once ({@link SharedCqWriters}). Catches {@code cq.writers.FID}: a CQ
 * built for one writer (a one-to-one ring, plain counts) loses or garbles one of the two entries.
 */
@JCStressTest
@Catches("cq.writers.FID")
@Description("FID: two endpoints writing one CQ at once lose no completion.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both completions once, both messages arrived.")
@Outcome(expect = FORBIDDEN, desc = "A completion lost, duplicated or garbled.")
@State
public class SharedCqWritersTest
{
    static
    {
        Variants.arm(SharedCqWritersTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.FID);

    private final SharedCqWriters scenario = new SharedCqWriters(DOMAIN);

    /** The first endpoint's thread. */
    @Actor
    public void first()
    {
        scenario.sendFirst();
    }

    /** The second endpoint's thread. */
    @Actor
    public void second()
    {
        scenario.sendSecond();
    }

    /** @param r r1 both completions once, r2 both messages arrived. */
    @Arbiter
    public void check(final II_Result r)
    {
        scenario.check(r);
    }
}
