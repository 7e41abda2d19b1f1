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
package io.jfabric.ofi.av;

import java.util.Arrays;

/**
 * The fi_addr values an address vector has handed out and not removed, for the data path to check every destination
 * and source before libfabric sees it: libfabric 1.17's rxm indexes its AV table with the fi_addr it is given
 * without a bounds check, so a send to a value no insert returned crashes the process (found by this provider's
 * tests: SIGSEGV in libfabric.so). Small values (the table indices FI_AV_TABLE gives) are a bitmap, others (FI_AV_MAP
 * handles) a sorted array; both are replaced whole on every insert or remove, so a reader sees one state or the
 * other. {@link #contains} is one or two array reads for table indices.
 * <p>
 * Threads: {@link #contains} any thread, lock-free; add and remove under the AV's lock.
 */
public final class PeerTable
{
    private static final int BITMAP_LIMIT = 1 << 22;
    private static final long[] NONE = new long[0];

    private volatile long[] bits = NONE;
    private volatile long[] others = NONE;

    /**
     * @param fiAddr an fi_addr.
     * @return whether an insert returned it and no remove took it back.
     */
    public boolean contains(final long fiAddr)
    {
        if (fiAddr >= 0 && fiAddr < BITMAP_LIMIT)
        {
            final long[] b = bits;
            final int word = (int)(fiAddr >>> 6);
            return word < b.length && (b[word] & (1L << fiAddr)) != 0;
        }
        final long[] o = others;
        return o.length > 0 && Arrays.binarySearch(o, fiAddr) >= 0;
    }

    /**
     * @param fiAddr values an insert returned (FI_ADDR_NOTAVAIL entries are skipped).
     * @param count  how many.
     */
    public synchronized void add(final long[] fiAddr, final int count)
    {
        long[] b = bits;
        long[] o = others;
        for (int i = 0; i < count; i++)
        {
            final long a = fiAddr[i];
            if (a == -1L)
            {
                continue;
            }
            if (a >= 0 && a < BITMAP_LIMIT)
            {
                final int word = (int)(a >>> 6);
                if (word >= b.length)
                {
                    b = Arrays.copyOf(b, Math.max(word + 1, b.length * 2));
                }
                else if (b == bits)
                {
                    b = b.clone();
                }
                b[word] |= 1L << a;
            }
            else if (Arrays.binarySearch(o, a) < 0)
            {
                o = Arrays.copyOf(o, o.length + 1);
                o[o.length - 1] = a;
                Arrays.sort(o);
            }
        }
        bits = b;
        others = o;
    }

    /**
     * @param fiAddr values to take back.
     * @param count  how many.
     */
    public synchronized void remove(final long[] fiAddr, final int count)
    {
        final long[] b = bits.clone();
        long[] o = others;
        for (int i = 0; i < count; i++)
        {
            final long a = fiAddr[i];
            if (a >= 0 && a < BITMAP_LIMIT)
            {
                final int word = (int)(a >>> 6);
                if (word < b.length)
                {
                    b[word] &= ~(1L << a);
                }
            }
            else
            {
                o = Arrays.stream(o).filter(v -> v != a).toArray();
            }
        }
        bits = b;
        others = o;
    }
}
