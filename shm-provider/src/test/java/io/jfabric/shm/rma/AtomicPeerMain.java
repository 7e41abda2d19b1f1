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
package io.jfabric.shm.rma;

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One of the processes of {@link AtomicMultiProcessTest}: maps the shared file and runs the phases of
 * {@link AtomicMultiProcessTest} in step with its peers, then prints
 * {@code result fetchAddMs=.. cswapMs=.. cswapRetries=.. ownHalfMs=.. sharedHalfMs=..}. Exits 1, saying why, when a
 * value it fetched shows that another process disturbed an element only it writes, or when anything else fails; it
 * then raises the file's abort word, and its peers, waiting at a barrier for it, exit 2 at once instead of waiting
 * out the parent's timeout. A barrier not passed within {@link #BARRIER_TIMEOUT_NS} exits 3.
 * <p>
 * Arguments: file, process number (0 to processes - 1), processes, rounds.
 */
public final class AtomicPeerMain
{
    private static final long BARRIER_TIMEOUT_NS = 60_000_000_000L;

    private AtomicPeerMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Path file = Path.of(args[0]);
        final int me = Integer.parseInt(args[1]);
        final int processes = Integer.parseInt(args[2]);
        final int rounds = Integer.parseInt(args[3]);
        final MappedByteBuffer mapped;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, AtomicMultiProcessTest.FILE_BYTES);
        }
        final UnsafeBuffer shared = new UnsafeBuffer(mapped);
        try
        {
            run(shared, me, processes, rounds);
        }
        catch (final Throwable ex)
        {
            shared.putLongVolatile(AtomicMultiProcessTest.ABORT, 1);
            ex.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void run(final UnsafeBuffer shared, final int me, final int processes, final int rounds)
    {
        barrier(shared, 1, processes);
        long start = System.nanoTime();
        for (int i = 0; i < rounds; i++)
        {
            AtomicOps.fetch(AtomicDatatype.INT64, AtomicOp.SUM, shared, AtomicMultiProcessTest.FETCH_ADD, 1);
        }
        final long fetchAddNs = System.nanoTime() - start;

        barrier(shared, 2, processes);
        start = System.nanoTime();
        long retries = 0;
        long expected = AtomicOps.fetch(AtomicDatatype.INT64, AtomicOp.ATOMIC_READ, shared,
            AtomicMultiProcessTest.COMPARE_SWAP, 0);
        for (int i = 0; i < rounds; i++)
        {
            while (true)
            {
                final long old = AtomicOps.compare(AtomicDatatype.INT64, AtomicOp.CSWAP, shared,
                    AtomicMultiProcessTest.COMPARE_SWAP, expected + 1, expected);
                if (old == expected)
                {
                    expected++;
                    break;
                }
                expected = old;
                retries++;
            }
        }
        final long cswapNs = System.nanoTime() - start;

        barrier(shared, 3, processes);
        start = System.nanoTime();
        final int own = AtomicMultiProcessTest.OWN_HALVES + 2 * me;
        for (int i = 0; i < rounds; i++)
        {
            final long old = AtomicOps.fetch(AtomicDatatype.UINT16, AtomicOp.SUM, shared, own, 1);
            if (old != (i & 0xFFFF))
            {
                throw new IllegalStateException("process " + me + ": its 16-bit element held " + old +
                    " before add " + i + ", expected " + (i & 0xFFFF) + ": another process disturbed it");
            }
        }
        final long ownHalfNs = System.nanoTime() - start;

        barrier(shared, 4, processes);
        start = System.nanoTime();
        for (int i = 0; i < rounds; i++)
        {
            AtomicOps.fetch(AtomicDatatype.UINT16, AtomicOp.SUM, shared, AtomicMultiProcessTest.SHARED_HALF, 1);
        }
        final long sharedHalfNs = System.nanoTime() - start;

        System.out.println("result fetchAddMs=" + fetchAddNs / 1_000_000 + " cswapMs=" + cswapNs / 1_000_000 +
            " cswapRetries=" + retries + " ownHalfMs=" + ownHalfNs / 1_000_000 +
            " sharedHalfMs=" + sharedHalfNs / 1_000_000);
    }

    /**
     * Arrive at the phase's barrier and wait for every process: the shared arrival count reaches
     * {@code phase * processes}. Yields while waiting (four processes share two cores); exits 2 when a peer
     * aborted, 3 after {@link #BARRIER_TIMEOUT_NS}.
     */
    private static void barrier(final UnsafeBuffer shared, final int phase, final int processes)
    {
        shared.getAndAddLong(AtomicMultiProcessTest.BARRIER, 1);
        final long deadline = System.nanoTime() + BARRIER_TIMEOUT_NS;
        while (shared.getLongVolatile(AtomicMultiProcessTest.BARRIER) < (long)phase * processes)
        {
            if (shared.getLongVolatile(AtomicMultiProcessTest.ABORT) != 0)
            {
                System.out.println("a peer aborted before barrier " + phase);
                System.exit(2);
            }
            if (System.nanoTime() - deadline > 0)
            {
                System.out.println("barrier " + phase + " not passed in 60 s");
                System.exit(3);
            }
            Thread.yield();
        }
    }
}
