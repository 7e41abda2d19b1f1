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

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * One process inserting an address with an authorization key (take a reference on the key, claim, publish) while
 * another removes that key, with the real {@link AvTable} code: exactly one of them succeeds, and the key's count
 * is the addresses on it. The protocol before layout 2 (reference in a separate word, removal deciding from a
 * snapshot of it) let both succeed: a live address on a freed key.
 * <p>
 * Called by JCStress's actor threads only, one actor each, then the arbiter.
 * <p>
 * Each actor uses its own mapping of one file. Catches {@code av.addref-plain}: a reference added by a plain write
 * after checking the key is valid overwrites the removal, so both succeed.
 */
@JCStressTest
@Catches("av.addref-plain")
@Description("Adding a key reference and removing the key never both succeed.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "The insert took its reference first; the removal got IN_USE.")
@Outcome(id = "0, 1, -1", expect = ACCEPTABLE, desc = "The key was removed first; the insert found it gone.")
@Outcome(expect = FORBIDDEN, desc = "Both succeeded (an address on a removed key), or the count is wrong.")
@State
public class AvKeyReferenceTest
{
    static
    {
        Variants.arm(AvKeyReferenceTest.class);
    }

    private static final byte[] ADDRESS = "fi_shm://h:1/a".getBytes(StandardCharsets.US_ASCII);
    private static final int KEY = 0;

    private static final TwoMappings FILES = new TwoMappings("av-key", (int)AvDescriptor.fileLength(4), 64);

    private final TwoMappings.Slice slice = FILES.take();
    private final AvTable table = AvTable.inMemory(slice.first, 4, "stress");
    private final AvTable other = new AvTable(slice.second, 4);
    private final long keyGeneration;

    /** A table of 4 entries holding one key, at index 0. */
    public AvKeyReferenceTest()
    {
        table.claim();
        table.publishKey(KEY, new byte[]{ 7 });
        keyGeneration = AvDescriptor.generation(table.state(KEY));
    }

    /** @param r r1 = 1 when the address was inserted with the key. */
    @Actor
    public void inserter(final III_Result r)
    {
        if (table.addReference(KEY, keyGeneration))
        {
            final int index = table.claim();
            table.publishAddress(index, ADDRESS, 1, 0, -1, KEY, keyGeneration);
            r.r1 = 1;
        }
    }

    /** @param r r2 = 1 when the key was removed. */
    @Actor
    public void remover(final III_Result r)
    {
        r.r2 = other.remove(KEY, keyGeneration) == AvTable.REMOVED ? 1 : 0;
    }

    /** @param r r3 = the key's references, or -1 when it is no longer there. */
    @Arbiter
    public void check(final III_Result r)
    {
        final AvTable.Entry entry = new AvTable.Entry();
        r.r3 = table.snapshot(KEY, entry) && entry.kind == AvDescriptor.KIND_AUTH_KEY ? (int)entry.references : -1;
        slice.release();
    }
}
