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
package io.jfabric.stress.scenario;

import io.jfabric.CntrAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.Counter;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.StressDomain;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * One JCStress state of "two processes open an object at once": two instances of one domain region (two mappings
 * of its file) each open an endpoint, a CQ or a counter, each of which claims an entry of a table in the region by
 * CAS (an endpoint slot, a completion ring, a counter entry). They must get different entries.
 * Actors: {@link #openFirst} and {@link #openSecond}; {@link #check} as the arbiter.
 */
public final class ClaimRace
{
    /** What is opened. */
    public enum Kind
    {
        /** An endpoint (with its CQ): an endpoint slot. */
        ENDPOINT,
        /** A CQ: a completion ring. */
        CQ,
        /** A counter: a counter entry. */
        COUNTER
    }

    private final Kind kind;
    private final StressDomain first;
    private final StressDomain second;
    private Object one;
    private Object two;

    /**
     * @param kind   what to open.
     * @param first  one instance.
     * @param second another instance of the same region.
     */
    public ClaimRace(final Kind kind, final StressDomain first, final StressDomain second)
    {
        this.kind = kind;
        this.first = first;
        this.second = second;
    }

    /** The first process's thread. */
    public void openFirst()
    {
        one = open(first);
    }

    /** The second process's thread. */
    public void openSecond()
    {
        two = open(second);
    }

    private Object open(final StressDomain domain)
    {
        switch (kind)
        {
            case ENDPOINT:
                return domain.open();
            case CQ:
                return domain.cq();
            default:
                return domain.domain.cntrOpen(new CntrAttr(), 0);
        }
    }

    /** @param r r1 1 when the two got different entries. */
    public void check(final I_Result r)
    {
        r.r1 = entry(one) != entry(two) ? 1 : 0;
        close(one);
        close(two);
    }

    private static long entry(final Object o)
    {
        if (o instanceof Peer)
        {
            return ((Peer)o).addr;
        }
        if (o instanceof ShmCompletionQueue)
        {
            return ((ShmCompletionQueue)o).ringNumber();
        }
        return ((ShmCounter)o).index();
    }

    private static void close(final Object o)
    {
        if (o instanceof Peer)
        {
            ((Peer)o).close();
        }
        else if (o instanceof CompletionQueue)
        {
            ((CompletionQueue)o).close();
        }
        else
        {
            ((Counter)o).close();
        }
    }
}
