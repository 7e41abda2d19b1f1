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
package io.jfabric.shm.av;

import java.util.Arrays;

/**
 * The authorization keys an endpoint is enabled against in a domain opened with FI_AV_AUTH_KEY: every key its AV
 * holds at fi_enable. Each is held by a reference on its key entry, taken with the same CAS under the validated
 * generation as an address inserted with FI_AUTH_KEY takes one ({@link AvTable#addReference}), so fi_av_remove of
 * the key fails with FI_EBUSY until the endpoint closes and {@link #release} gives the references back (fi_av(3):
 * a key "will only be removed if all endpoints, which have been enabled against the corresponding authorization
 * key, have been closed"). The references are in the table's shared state words, so endpoints of every process
 * that opened a named AV count. A process killed while its endpoint is enabled leaves its references counted, as a
 * killed inserter does (see {@link ShmAddressVector}): the key can then not be removed from that AV.
 * <p>
 * Threads: the endpoint's control path (enable, close).
 */
public final class AvKeyHolds
{
    private final ShmAddressVector av;
    private final int[] indices;
    private final long[] generations;
    private final long[] digests;
    private boolean released;

    private AvKeyHolds(final ShmAddressVector av, final int[] indices, final long[] generations,
        final long[] digests)
    {
        this.av = av;
        this.indices = indices;
        this.generations = generations;
        this.digests = digests;
    }

    /**
     * Hold every key the AV holds now. A key removed while this runs is simply not held.
     *
     * @param av the endpoint's AV.
     * @return the holds.
     */
    public static AvKeyHolds take(final ShmAddressVector av)
    {
        final AvTable table = av.table();
        final AvTable.Entry entry = new AvTable.Entry();
        final int entries = table.entryCount();
        final int[] indices = new int[entries];
        final long[] generations = new long[entries];
        final long[] digests = new long[entries];
        int n = 0;
        for (int i = 0; i < entries; i++)
        {
            if (table.snapshot(i, entry) && entry.kind == AvDescriptor.KIND_AUTH_KEY &&
                table.addReference(i, entry.generation))
            {
                indices[n] = i;
                generations[n] = entry.generation;
                digests[n] = AuthKeyDigest.of(entry.bytes, entry.length);
                n++;
            }
        }
        return new AvKeyHolds(av, Arrays.copyOf(indices, n), Arrays.copyOf(generations, n),
            Arrays.copyOf(digests, n));
    }

    /** @return the digests of the keys held, in table order; empty when the AV held none. */
    public long[] digests()
    {
        return digests.clone();
    }

    /** Give the references back; later calls do nothing. */
    public void release()
    {
        if (released)
        {
            return;
        }
        released = true;
        final AvTable table = av.table();
        for (int i = 0; i < indices.length; i++)
        {
            table.dropReference(indices[i], generations[i]);
        }
    }
}
