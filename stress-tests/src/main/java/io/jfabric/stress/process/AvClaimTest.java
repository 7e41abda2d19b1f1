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

import io.jfabric.shm.av.AvDescriptor;
import io.jfabric.shm.av.AvTable;
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

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two processes inserting into the same AV table at once, with the real {@link AvTable} code: they must get
 * different indices (0 and 1, the two lowest) and each entry must hold its own inserter's address.
 * <p>
 * Called by JCStress's actor threads only, one actor each, then the arbiter.
 * <p>
 * Two processes: each actor works through its own mapping of one file (two addresses, one memory). Catches
 * {@code av.claim-plain}: a claim that checks FREE and then writes itself without a CAS gives both the same index.
 */
@JCStressTest
@Catches("av.claim-plain")
@Description("Two inserters never get the same AV index, and neither entry is lost.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "First took 0, second 1, both entries intact.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "First took 1, second 0, both entries intact.")
@Outcome(expect = FORBIDDEN, desc = "Same index, another index, or an entry lost or overwritten.")
@State
public class AvClaimTest
{
    static
    {
        Variants.arm(AvClaimTest.class);
    }

    private static final byte[] A = "fi_shm://h:1/a".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] B = "fi_shm://h:2/bb".getBytes(StandardCharsets.US_ASCII);

    private static final TwoMappings FILES = new TwoMappings("av-claim", (int)AvDescriptor.fileLength(4), 64);

    private final TwoMappings.Slice slice = FILES.take();
    private final AvTable table = AvTable.inMemory(slice.first, 4, "stress");
    private final AvTable other = new AvTable(slice.second, 4);

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
        final int index = other.claim();
        r.r2 = index;
        if (index >= 0)
        {
            other.publishAddress(index, B, 2, 0, -1, -1, 0);
        }
    }

    /** @param r r3 = 1 when both entries hold their inserter's address. */
    @Arbiter
    public void check(final III_Result r)
    {
        r.r3 = r.r1 != r.r2 && r.r1 >= 0 && r.r2 >= 0 && holds(r.r1, A) && holds(r.r2, B) ? 1 : 0;
        slice.release();
    }

    private boolean holds(final int index, final byte[] expected)
    {
        final AvTable.Entry entry = new AvTable.Entry();
        return table.snapshot(index, entry) && Arrays.equals(Arrays.copyOf(entry.bytes, entry.length), expected);
    }
}
