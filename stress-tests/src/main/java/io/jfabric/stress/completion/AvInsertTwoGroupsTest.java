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
package io.jfabric.stress.completion;

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.Threading;
import io.jfabric.shm.av.ShmAddress;
import io.jfabric.shm.core.LocalHost;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.StressDomain;

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
 * FI_THREAD_COMPLETION serializes objects that share a completion structure; an AV shares none, so two completion
 * groups on two threads may insert into one AV at once. Each insert must get its own fi_addr, which resolves to
 * its own address.
 * <p>
 * Catches {@code av.claim-plain}: an entry claimed by checking it is free and then writing the claim, without a
 * CAS, is taken by both inserts, and one address is lost.
 */
@JCStressTest
@Catches("av.claim-plain")
@Description("COMPLETION: two groups inserting into one AV at once get two entries, each its own address.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "Two fi_addrs, each resolving to its own address.")
@Outcome(expect = FORBIDDEN, desc = "The same fi_addr twice, or an address lost.")
@State
public class AvInsertTwoGroupsTest
{
    static
    {
        Variants.arm(AvInsertTwoGroupsTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.COMPLETION);
    private static final String FIRST = ShmAddress.format(LocalHost.name(), 1, DOMAIN.name, 0);
    private static final String SECOND = ShmAddress.format(LocalHost.name(), 2, DOMAIN.name, 0);

    private final AddressVector av = DOMAIN.domain.avOpen(new AvAttr().count(4), 0);
    private final long[] first = new long[1];
    private final long[] second = new long[1];

    /** One group's thread. */
    @Actor
    public void one()
    {
        av.insert(new String[] { FIRST }, 1, first, 0, 0);
    }

    /** The other group's thread. */
    @Actor
    public void two()
    {
        av.insert(new String[] { SECOND }, 1, second, 0, 0);
    }

    /** @param r r1 1 when the fi_addrs differ and each resolves to its own address. */
    @Arbiter
    public void check(final I_Result r)
    {
        r.r1 = first[0] != second[0] && FIRST.equals(av.lookup(first[0])) && SECOND.equals(av.lookup(second[0])) ?
            1 : 0;
        av.close();
    }
}
