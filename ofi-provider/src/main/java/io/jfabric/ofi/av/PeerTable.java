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
 * tests: SIGSEGV in libfabric.so). A value is counted once per insert that returned it, since providers give the
 * same fi_addr for the same address inserted twice and keep it until it is removed as often (rxm does): small values
 * (the table indices FI_AV_TABLE gives) in a count array, others (FI_AV_MAP handles) in a sorted array that holds a
 * value once per insert. Both are replaced whole on every insert or remove, so a reader sees one state or the other.
 * {@link #contains} is one or two array reads for table indices.
 * <p>
 * Threads: {@link #contains} any thread, lock-free; add and remove under this object's lock.
 */
public final class PeerTable
{
    private static final int TABLE_LIMIT = 1 << 22;
    private static final int[] NO_COUNTS = new int[0];
    private static final long[] NONE = new long[0];

    private volatile int[] counts = NO_COUNTS;
    private volatile long[] others = NONE;

    /**
     * @param fiAddr an fi_addr.
     * @return whether an insert returned it and as many removes have not taken it back.
     */
    public boolean contains(final long fiAddr)
    {
        if (fiAddr >= 0 && fiAddr < TABLE_LIMIT)
        {
            final int[] c = counts;
            return fiAddr < c.length && c[(int)fiAddr] > 0;
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
        int[] c = counts.clone();
        long[] o = others;
        for (int i = 0; i < count; i++)
        {
            final long a = fiAddr[i];
            if (a == -1L)
            {
                continue;
            }
            if (a >= 0 && a < TABLE_LIMIT)
            {
                if (a >= c.length)
                {
                    c = Arrays.copyOf(c, (int)Math.max(a + 1, c.length * 2L));
                }
                c[(int)a]++;
            }
            else
            {
                o = Arrays.copyOf(o, o.length + 1);
                o[o.length - 1] = a;
                Arrays.sort(o);
            }
        }
        counts = c;
        others = o;
    }

    /**
     * @param fiAddr values to take back, once each.
     * @param count  how many.
     */
    public synchronized void remove(final long[] fiAddr, final int count)
    {
        final int[] c = counts.clone();
        long[] o = others;
        for (int i = 0; i < count; i++)
        {
            final long a = fiAddr[i];
            if (a >= 0 && a < TABLE_LIMIT)
            {
                if (a < c.length && c[(int)a] > 0)
                {
                    c[(int)a]--;
                }
            }
            else
            {
                final int at = Arrays.binarySearch(o, a);
                if (at >= 0)
                {
                    final long[] fewer = new long[o.length - 1];
                    System.arraycopy(o, 0, fewer, 0, at);
                    System.arraycopy(o, at + 1, fewer, at, o.length - at - 1);
                    o = fewer;
                }
            }
        }
        counts = c;
        others = o;
    }
}
