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
package io.jfabric.shm.cq;

import io.jfabric.CqErrEntry;
import io.jfabric.Errno;
import io.jfabric.Fid;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.eq.DamageReports;
import io.jfabric.shm.region.RingReader;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What a completion queue does about damage to its completion ring, which any process of the same user can write
 * (see {@link RingReader} for what the reads check). Each finding is reported on the domain's event queue (error
 * events, FI_EIO, the ring number as {@code data}; at most one every {@link DamageReports#INTERVAL_MS}), and the
 * application learns what it lost from the queue itself, through {@code readErr}, never from an entry with err 0:
 * <ul>
 *   <li>a record whose body cannot be an entry (a success entry of another length, an error entry with no errno or
 *   error data past its end, a type that is neither) is handed as an error entry of its own: err FI_EIO, context 0,
 *   the finding as error data;</li>
 *   <li>a ring that cannot be read on (a record frame no record has, producer and consumer positions no ring has, the
 *   head waiting at a record nobody finishes) is cleared, and one error entry (err FI_EIO, {@code data} the number
 *   of completions lost) comes before anything written after; the queue goes on. The number is exact when every
 *   writer is serialized with the reader; with concurrent writers a write racing the clear may be miscounted (the
 *   queue's count of outstanding entries is set anew at each clear, so the error never adds up).</li>
 * </ul>
 * Threads: the queue's reader (read guard held).
 */
final class CompletionRingFaults
{
    /** How long a writer may hold a record at the head before it is taken for damage, with concurrent writers. */
    static final long STUCK_LIMIT_MS = 1_000;

    private final RingReader reader;
    private final boolean concurrentWriters;
    private final Fid cq;
    private final Object domain;
    private final int ringNumber;
    private final DamageReports reports;
    private long lost;
    /** Whether an error entry about lost completions waits for readErr. */
    boolean errorWaits;

    /**
     * @param reader            the queue's ring reader.
     * @param concurrentWriters whether writers may write while the reader reads.
     * @param cq                the queue, as the fid reports name.
     * @param domain            its domain (a {@link DomainContext}, whose event queue gets the reports).
     * @param ringNumber        the ring's number, the reports' {@code data}.
     * @param rings             how many completion rings the region has.
     */
    CompletionRingFaults(
        final RingReader reader, final boolean concurrentWriters, final Fid cq, final Object domain,
        final int ringNumber, final int rings)
    {
        this.reader = reader;
        this.concurrentWriters = concurrentWriters;
        this.cq = cq;
        this.domain = domain;
        this.ringNumber = ringNumber;
        this.reports = new DamageReports("damaged completion ring ", rings);
    }

    /**
     * A writer found the ring's positions impossible ({@link RingReader#producerSound}) and wrote nothing: its
     * completion is lost, and counted in the next error entry; the reader clears the ring at its next empty read.
     *
     * @return {@code RingBuffer.INSUFFICIENT_CAPACITY}, what the writer's claim returns.
     */
    int refused()
    {
        refusedWrites.incrementAndGet();
        return org.agrona.concurrent.ringbuffer.RingBuffer.INSUFFICIENT_CAPACITY;
    }

    private final java.util.concurrent.atomic.AtomicLong refusedWrites = new java.util.concurrent.atomic.AtomicLong();

    /**
     * After a read that returned nothing: act on what the reads found. A ring that cannot be read on is cleared here;
     * the queue then counts what went with it and calls {@link #cleared}.
     *
     * @return whether the ring was cleared.
     */
    boolean check()
    {
        final boolean clear = reader.needsRepair() || reader.headWaiting() &&
            (!concurrentWriters || reader.stuck(System.currentTimeMillis(), STUCK_LIMIT_MS));
        finding = reader.takeFinding();
        if (!clear)
        {
            if (finding != null)
            {
                report(finding);
            }
            return false;
        }
        reader.repair();
        return true;
    }

    private String finding;

    /**
     * The ring was cleared: report it, and hold the error entry that tells the application.
     *
     * @param count the completions that went with it.
     */
    void cleared(final long count)
    {
        lost += Math.max(count, 0) + refusedWrites.getAndSet(0);
        errorWaits = true;
        report((finding != null ? finding : "the head waits at a record nobody finishes") + ": the ring was cleared, " +
            count + " completions lost" + (concurrentWriters ? " (writers were running: the count may be one off)" : ""));
    }

    /**
     * Fill the error entry that tells of lost completions, and consume it.
     *
     * @param e the application's entry.
     */
    void fill(final CqErrEntry e)
    {
        fill(e, lost, "the completion ring was damaged and cleared: " + lost + " completions lost");
        lost = 0;
        errorWaits = false;
    }

    /**
     * Fill an error entry for a record whose body cannot be an entry, and report it.
     *
     * @param e      the application's entry.
     * @param type   the record's type.
     * @param length its body's length.
     */
    void damagedRecord(final CqErrEntry e, final int type, final int length)
    {
        final String text = "a completion record of type " + type + " and length " + length + " cannot be an entry";
        report(text + ": handed to the application as an error entry");
        fill(e, 0, text);
    }

    private static void fill(final CqErrEntry e, final long data, final String text)
    {
        e.opContext = 0;
        e.flags = 0;
        e.len = 0;
        e.bufOffset = 0;
        e.data = data;
        e.tag = 0;
        e.srcAddr = io.jfabric.Addresses.FI_ADDR_NOTAVAIL;
        e.olen = 0;
        e.err = Errno.FI_EIO;
        e.provErrno = Errno.FI_EIO;
        final byte[] bytes = ("jfabric shm: " + text).getBytes(StandardCharsets.UTF_8);
        final int n = Math.min(bytes.length, e.errData.length);
        System.arraycopy(bytes, 0, e.errData, 0, n);
        Arrays.fill(e.errData, n, e.errData.length, (byte)0);
        e.errDataSize = n;
    }

    private void report(final String what)
    {
        reports.report(domain instanceof DomainContext c ? c.eventQueue() : null, cq, cq.context(), ringNumber, what,
            System.currentTimeMillis());
    }
}
