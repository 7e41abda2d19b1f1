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
package io.jfabric.stress.safe;

import io.jfabric.CqEntries;
import io.jfabric.Threading;
import io.jfabric.stress.Catches;
import io.jfabric.stress.Variants;
import io.jfabric.stress.fixture.Payload;
import io.jfabric.stress.fixture.Peer;
import io.jfabric.stress.fixture.StressDomain;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.nio.ByteBuffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * FI_THREAD_SAFE: two threads read one CQ at once while it holds two completions: each completion must be taken
 * by exactly one read (none twice, none lost).
 * <p>
 * Catches {@code guard.cqread.SAFE}: without the read guard both reads consume from the ring's head at once and
 * the same entry is returned twice (or the head moves past one unread).
 */
@JCStressTest
@Catches("guard.cqread.SAFE")
@Description("SAFE: two threads reading one CQ at once take each completion exactly once.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Each completion taken exactly once.")
@Outcome(expect = FORBIDDEN, desc = "A completion taken twice or never.")
@State
public class TwoCqReadersTest
{
    static
    {
        Variants.arm(TwoCqReadersTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.SAFE);

    private final Peer a = DOMAIN.open();
    private final Peer b = DOMAIN.open();
    private final CqEntries first = new CqEntries(2);
    private final CqEntries second = new CqEntries(2);
    private int firstTook;
    private int secondTook;

    /** Two sends whose completions wait in A's CQ. */
    public TwoCqReadersTest()
    {
        a.ep.send(Payload.MESSAGE, 0, StressDomain.INLINE_SIZE, 0, b.addr, 1);
        a.ep.send(Payload.OTHER_MESSAGE, 0, StressDomain.INLINE_SIZE, 0, b.addr, 2);
    }

    /** One reader: one read of up to one entry. */
    @Actor
    public void reader1()
    {
        firstTook = Math.max(0, a.cq.read(first, 1));
    }

    /** The other reader. */
    @Actor
    public void reader2()
    {
        secondTook = Math.max(0, a.cq.read(second, 1));
    }

    /** @param r how many times contexts 1 and 2 were taken, over both reads and what is left. */
    @Arbiter
    public void check(final II_Result r)
    {
        final int[] seen = new int[3];
        for (int i = 0; i < firstTook; i++)
        {
            seen[(int)Math.min(2, Math.max(0, first.opContext[i]))]++;
        }
        for (int i = 0; i < secondTook; i++)
        {
            seen[(int)Math.min(2, Math.max(0, second.opContext[i]))]++;
        }
        a.collect(a.cq, 2 - firstTook - secondTook, seen);
        final int extra = a.count(a.cq);
        r.r1 = seen[0] == 0 ? seen[1] : -1;
        r.r2 = seen[2] + extra;
        b.receive(ByteBuffer.allocateDirect(StressDomain.INLINE_SIZE),
            ByteBuffer.allocateDirect(StressDomain.INLINE_SIZE));
        a.close();
        b.close();
    }
}
