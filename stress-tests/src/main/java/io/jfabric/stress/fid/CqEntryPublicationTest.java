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

import io.jfabric.CqEntries;
import io.jfabric.Flags;
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
import org.openjdk.jcstress.infra.results.III_Result;

import java.nio.ByteBuffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * FI_THREAD_FID: a thread sends four messages, each of which writes its completion into the CQ, while another
 * thread reads that CQ again and again. Every entry a read counts must have every field (context, flags) as
 * written: the writer fills the entry, then commits it.
 * <p>
 * Catches {@code cq.commit-before-fields}: an entry committed before its fields are written is read with a zero
 * context and zero flags. That is an order of the writer's own program, so it fails on x86 too (the window is a
 * few stores wide, so each state gives the reader four entries to race and many reads); the release store of the
 * commit against a plain one is not tested here and could only fail on weaker hardware.
 */
@JCStressTest
@Catches("cq.commit-before-fields")
@Description("FID: a CQ read never counts an entry whose fields it cannot see.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "The reads found nothing yet; all four read later, whole.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The reads took one entry, whole; the rest later.")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE, desc = "The reads took two entries, whole; the rest later.")
@Outcome(id = "3, 1, 1", expect = ACCEPTABLE, desc = "The reads took three entries, whole; the rest later.")
@Outcome(id = "4, 1, 1", expect = ACCEPTABLE, desc = "The reads took all four, whole.")
@Outcome(expect = FORBIDDEN, desc = "An entry read with fields missing, or a completion lost or repeated.")
@State
public class CqEntryPublicationTest
{
    static
    {
        Variants.arm(CqEntryPublicationTest.class);
    }

    private static final StressDomain DOMAIN = StressDomain.of(Threading.FID);
    private static final long SENT = Flags.FI_SEND | Flags.FI_MSG;
    private static final int SENDS = 4;

    private final Peer a = DOMAIN.open();
    private final Peer b = DOMAIN.open();
    private final CqEntries entries = new CqEntries(1);
    private final int[] seen = new int[SENDS + 1];

    /** The sending thread: four sends, contexts 1 to 4. */
    @Actor
    public void sender()
    {
        for (int i = 1; i <= SENDS; i++)
        {
            a.ep.send(Payload.MESSAGE, 0, StressDomain.INLINE_SIZE, 0, b.addr, i);
        }
    }

    /** @param r r1 entries the reads took, r2 1 when each was whole. */
    @Actor
    public void reader(final III_Result r)
    {
        int took = 0;
        boolean whole = true;
        for (int i = 0; i < 64 && took < SENDS; i++)
        {
            if (a.cq.read(entries, 1) == 1)
            {
                final long context = entries.opContext[0];
                whole &= context >= 1 && context <= SENDS && entries.flags[0] == SENT;
                seen[context >= 1 && context <= SENDS ? (int)context : 0]++;
                took++;
            }
        }
        r.r1 = took;
        r.r2 = whole ? 1 : 0;
    }

    /** @param r r3 1 when each send completed exactly once over the reads and what is left. */
    @Arbiter
    public void check(final III_Result r)
    {
        a.collect(a.cq, SENDS - r.r1, seen);
        final int extra = a.count(a.cq);
        boolean once = seen[0] == 0 && extra == 0;
        for (int i = 1; i <= SENDS; i++)
        {
            once &= seen[i] == 1;
        }
        r.r3 = once ? 1 : 0;
        final ByteBuffer[] into = new ByteBuffer[SENDS];
        for (int i = 0; i < SENDS; i++)
        {
            into[i] = ByteBuffer.allocateDirect(StressDomain.INLINE_SIZE);
        }
        b.receive(into);
        a.close();
        b.close();
    }
}
