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
import org.openjdk.jcstress.infra.results.I_Result;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * An AV entry read while another process removes it and inserts a different address into the same index, with the
 * real {@link AvTable} code: the reader's snapshot must be the old address whole, the new one whole, or nothing,
 * never the length, slot or bytes of one mixed with the other.
 * <p>
 * Called by JCStress's actor threads only, one actor each.
 * <p>
 * The writer and the reader each use their own mapping of one file. Catches {@code av.snapshot-no-recheck}: a
 * snapshot that does not re-read the state word after copying the fields (the sequence check) returns torn
 * entries. That check is the program's own and fails on x86; its acquire fence against none could only fail on
 * weaker hardware.
 */
@JCStressTest
@Catches("av.snapshot-no-recheck")
@Description("A reader never sees a torn AV entry across remove + re-insert.")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "Between remove and re-publish: no valid entry.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The old address, whole.")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "The new address, whole.")
@Outcome(id = "3", expect = FORBIDDEN, desc = "Torn: fields of two publications mixed.")
@State
public class AvEntryTornReadTest
{
    static
    {
        Variants.arm(AvEntryTornReadTest.class);
    }

    private static final byte[] OLD = "fi_shm://h:1/a".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NEW = "fi_shm://h:22/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb?gen=7"
        .getBytes(StandardCharsets.US_ASCII);

    private static final TwoMappings FILES = new TwoMappings("av-torn", (int)AvDescriptor.fileLength(4), 64);

    private final TwoMappings.Slice slice = FILES.take();
    private final AvTable table = AvTable.inMemory(slice.first, 4, "stress");
    private final AvTable reader = new AvTable(slice.second, 4);
    private final AvTable.Entry entry = new AvTable.Entry();

    /** A table of 4 entries with the old address published at index 0. */
    public AvEntryTornReadTest()
    {
        table.publishAddress(table.claim(), OLD, 1, 0, -1, -1, 0);
    }

    /** Another process: remove the old address and insert the new one, which takes the freed lowest index. */
    @Actor
    public void writer()
    {
        table.remove(0, AvDescriptor.generation(table.state(0)));
        final int index = table.claim();
        table.publishAddress(index, NEW, 22, 7, -1, -1, 0);
    }

    /**
     * A process resolving index 0.
     *
     * @param r 0 nothing, 1 old whole, 2 new whole, 3 torn.
     */
    @Actor
    public void reader(final I_Result r)
    {
        if (!reader.snapshot(0, entry))
        {
            r.r1 = 0;
            return;
        }
        final byte[] bytes = Arrays.copyOf(entry.bytes, entry.length);
        if (Arrays.equals(bytes, OLD) && entry.slot == 1 && entry.incarnation == 0)
        {
            r.r1 = 1;
        }
        else if (Arrays.equals(bytes, NEW) && entry.slot == 22 && entry.incarnation == 7)
        {
            r.r1 = 2;
        }
        else
        {
            r.r1 = 3;
        }
    }

    /** Give the file slice back. */
    @Arbiter
    public void release()
    {
        slice.release();
    }
}
