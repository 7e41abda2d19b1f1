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

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.shm.rma.AtomicOps;
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
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two processes (two mappings of one file) fetch-add on the same FI_INT16 element at once, the upper half of an
 * aligned 32-bit word whose lower half holds another value, with the real {@link AtomicOps} code through
 * fi_fetch_atomic's element-level call: the two fetched values are distinct, one is the other's result, the final
 * value is the sum of both (wrapping in two's complement, 32766 + 1 + 2 = -32767), and the lower half is kept.
 * <p>
 * Catches {@code atomic.subword-plain-write}: a read-modify-write of the containing word that stores instead of
 * swapping lets both read 32766 and one sum overwrite the other. Called by JCStress's actor threads only, one actor
 * each, then the arbiter.
 */
@JCStressTest
@Catches("atomic.subword-plain-write")
@Description("Fetch-adds on one FI_INT16 element from two processes are both counted, each seeing a distinct value.")
@Outcome(id = "32766, 32767, -32767, 1", expect = ACCEPTABLE, desc = "The first added 1, then the second added 2.")
@Outcome(id = "-32768, 32766, -32767, 1", expect = ACCEPTABLE, desc = "The second added 2, then the first added 1.")
@Outcome(id = "32766, 32766, .*", expect = FORBIDDEN, desc = "Both fetched the same value: an update was lost.")
@Outcome(expect = FORBIDDEN, desc = "A wrong sum, or the neighbouring half of the word changed.")
@State
public class SubWordAtomicFetchAddTest
{
    static
    {
        Variants.arm(SubWordAtomicFetchAddTest.class);
    }

    private static final int NEIGHBOUR = 0;
    private static final short NEIGHBOUR_BITS = 0x1234;
    private static final int ELEMENT = 2;
    private static final short INITIAL = 32766;

    private static final TwoMappings FILES = new TwoMappings("subword-fetch-add", 4096, 64);

    private final TwoMappings.Slice slice = FILES.take();

    /** The word, as the first process writes it before either updates it. */
    public SubWordAtomicFetchAddTest()
    {
        if (AtomicOps.checkTarget(AtomicDatatype.INT16, slice.first, ELEMENT, 1) != 0 ||
            AtomicOps.checkTarget(AtomicDatatype.INT16, slice.second, ELEMENT, 1) != 0)
        {
            throw new IllegalStateException("the element is not a target AtomicOps can update atomically");
        }
        slice.first.putShort(NEIGHBOUR, NEIGHBOUR_BITS);
        slice.first.putShortVolatile(ELEMENT, INITIAL);
    }

    /** @param r r1 the value the first process fetched as it added 1. */
    @Actor
    public void firstProcess(final IIII_Result r)
    {
        r.r1 = (int)AtomicOps.fetch(AtomicDatatype.INT16, AtomicOp.SUM, slice.first, ELEMENT, 1);
    }

    /** @param r r2 the value the second process fetched as it added 2. */
    @Actor
    public void secondProcess(final IIII_Result r)
    {
        r.r2 = (int)AtomicOps.fetch(AtomicDatatype.INT16, AtomicOp.SUM, slice.second, ELEMENT, 2);
    }

    /** @param r r3 the element's final value, r4 1 when the lower half and the next word are as they were. */
    @Arbiter
    public void check(final IIII_Result r)
    {
        final UnsafeBuffer memory = slice.first;
        r.r3 = memory.getShortVolatile(ELEMENT);
        r.r4 = memory.getShortVolatile(NEIGHBOUR) == NEIGHBOUR_BITS && memory.getIntVolatile(4) == 0 ? 1 : 0;
        slice.release();
    }
}
