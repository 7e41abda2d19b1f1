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
package io.jfabric.shm.core;

import io.jfabric.shm.core.BrokenVariant;
import org.agrona.BitUtil;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The indices of a fixed pool of operations passed between their two owners, with no lock: the <em>sending side</em>
 * takes a free index ({@link #take}), fills the operation's fields (kept by the pool's owner, {@code PendingSends} or
 * {@code EmulatedOps}) and hands it over ({@link #submit}); <em>progress</em> takes what was handed over
 * ({@link #beginAccept}, {@link #nextAccepted}) and gives each index back once the operation is done
 * ({@link #release}), which the sending side takes into its free pool again ({@link #hasFree}).
 * <p>
 * Two single-producer, single-consumer index rings carry the indices across, each count published with a release
 * store and read with an acquire load, so what one side wrote into an operation before handing it over is seen whole
 * by the other. Each side is one thread at a time (the threading model or the context's guards make it so).
 * Nothing allocates after construction. Public for the JCStress tests ({@code endpoint.OpHandoffPublicationTest});
 * the package is not exported.
 */
public final class OpHandoff
{
    private static final boolean BROKEN_COUNT_FIRST = BrokenVariant.active("handoff.count-before-index");

    private static final VarHandle SUBMITTED;
    private static final VarHandle ELEMENT = MethodHandles.arrayElementVarHandle(long[].class);

    static
    {
        try
        {
            SUBMITTED = MethodHandles.lookup().findVarHandle(OpHandoff.class, "submittedCount", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final int mask;
    private final int[] submitted;
    private long submittedCount;
    private final int[] released;
    /** [0]: indices released by progress. */
    private final long[] releasedCount = new long[1];

    // ---- the sending side's own
    private final int[] free;
    private int freeCount;
    private long reclaimed;

    // ---- progress's own
    private long accepted;

    /**
     * @param capacity operations in the pool, all free: indices 0 to capacity - 1.
     */
    public OpHandoff(final int capacity)
    {
        free = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            free[i] = capacity - 1 - i;
        }
        freeCount = capacity;
        final int ring = BitUtil.findNextPositivePowerOfTwo(Math.max(1, capacity));
        mask = ring - 1;
        submitted = new int[ring];
        released = new int[ring];
    }

    /** Sending side: @return whether an index is free (taking back those progress released). */
    public boolean hasFree()
    {
        return freeCount > 0 || reclaim() > 0;
    }

    /** Sending side: @return a free index (check {@link #hasFree} first). */
    public int take()
    {
        return free[--freeCount];
    }

    /** Sending side: hand a filled operation to progress. */
    public void submit(final int op)
    {
        final long n = submittedCount;
        if (BROKEN_COUNT_FIRST)
        {
            SUBMITTED.setRelease(this, n + 1);
            submitted[(int)n & mask] = op;
            return;
        }
        submitted[(int)n & mask] = op;
        SUBMITTED.setRelease(this, n + 1);
    }

    private int reclaim()
    {
        final long end = (long)ELEMENT.getAcquire(releasedCount, 0);
        int n = 0;
        for (long i = reclaimed; i < end; i++)
        {
            free[freeCount++] = released[(int)i & mask];
            n++;
        }
        reclaimed = end;
        return n;
    }

    /**
     * Progress, and a look before taking the progress guard (a stale answer only delays the work to the next call).
     *
     * @return whether everything submitted has been accepted.
     */
    public boolean allAccepted()
    {
        return (long)SUBMITTED.getAcquire(this) == accepted;
    }

    /**
     * Progress: take what the sending side submitted by now, in submission order; {@link #nextAccepted} gives each.
     *
     * @return how many.
     */
    public int beginAccept()
    {
        return (int)((long)SUBMITTED.getAcquire(this) - accepted);
    }

    /** Progress: @return the next index {@link #beginAccept} counted. */
    public int nextAccepted()
    {
        return submitted[(int)accepted++ & mask];
    }

    /** Progress: give a done operation's index back to the sending side. */
    public void release(final int op)
    {
        final long n = releasedCount[0];
        released[(int)n & mask] = op;
        ELEMENT.setRelease(releasedCount, 0, n + 1);
    }
}
