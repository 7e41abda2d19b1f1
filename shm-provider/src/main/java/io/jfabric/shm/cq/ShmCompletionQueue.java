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

import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.FidClass;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.DomainResources;
import io.jfabric.shm.core.FidLifecycle;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.progress.Progressable;
import io.jfabric.shm.progress.ProgressableSet;
import io.jfabric.shm.progress.SpinGuard;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.RingReader;
import io.jfabric.shm.region.RingRecords;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import java.util.concurrent.atomic.AtomicLong;

import static io.jfabric.shm.cq.CqRecordDescriptor.*;

/**
 * The shm provider's completion queue (fi_cq(3)): one completion ring of the domain region (an Agrona
 * {@code ManyToOneRingBuffer}, or a {@code OneToOneRingBuffer} when the threading model serializes every writer;
 * claimed by CAS on its owner word) holding fixed-layout entries
 * ({@link CqRecordDescriptor}); successes and errors share the ring, so an error at the head stops reads with
 * {@code -FI_EAVAIL} until {@link #readErr} takes it.
 * <p>
 * Writers are the endpoints bound to the queue (their sends and their progress, on the application's threads or a
 * progress agent): the ring takes several writers. {@link #size()} entries may be outstanding; {@link #hasRoom()}
 * tells an endpoint whether one more fits, which is how resource management refuses work with {@code -FI_EAGAIN}
 * instead of losing a completion. The ring holds twice that many of the largest entries, so a completion that was
 * admitted always finds ring space.
 * <p>
 * Reads progress the bound endpoints first (manual progress). When the threading model serializes every writer
 * with the reader and the ring is empty, that progress writes its completions straight into the reader's
 * {@link CqEntries} (up to the count asked for; the rest, and every error, go through the ring as usual), which
 * saves a ring write and read per completion on the busy-poll path; the queue keeps a reference to the last such
 * array. Read-side thread safety follows the domain's threading model: a guard is taken only when several threads
 * may read at once.
 */
public final class ShmCompletionQueue extends FidLifecycle implements CompletionQueue, CompletionWait.Polled
{
    private static final boolean BROKEN_EARLY_COMMIT = BrokenVariant.active("cq.commit-before-fields");
    private static final boolean BROKEN_CLOSE = BrokenVariant.active("cq.close-while-read");

    private final FidLifecycle domain;
    private final DomainResources resources;
    private final CqAttr attr;
    private final int maxErrData;
    private final AtomicBuffer region;
    private final RegionFile regionFile;
    private final int ownerOffset;
    private final int ringNumber;
    private final RingBuffer ring;
    private final RingReader ringReader;
    private final CompletionRingFaults faults;
    private final AtomicLong outstanding = new AtomicLong();
    /** With concurrent writers: entries reserved and not yet written, part of {@link #outstanding}. */
    private final AtomicLong reservations = new AtomicLong();
    /** Clears of a damaged ring so far: a write that straddles one is not counted (its entry went with it). */
    private volatile int clears;
    private final boolean concurrentWriters;
    private long produced;
    private long consumed;
    private long reserved;
    private final SpinGuard readGuard;
    private final boolean progressOnRead;
    private final EntryReader reader;
    private final ErrorEntryReader errorReader;
    private final CompletionWait waits;
    private final ProgressableSet endpoints = new ProgressableSet();
    /** The array of the read now progressing (valid while {@link #directLimit} is above 0); see progressInto. */
    private CqEntries direct;
    private boolean directFrom;
    private int directCount;
    private int directLimit;
    private volatile boolean closing;

    /**
     * Open a queue: validate the attributes and claim a completion ring.
     *
     * @param domain         the domain, retained until close.
     * @param resources      the domain's cq_cnt accounting.
     * @param regionFile     the domain region.
     * @param geometry       its geometry.
     * @param attr           requested attributes, null for defaults.
     * @param maxSize        largest size (the cq.size setting).
     * @param maxErrData     max_err_data.
     * @param readGuard      the guard reads take under the threading model.
     * @param progressOnRead whether reads progress the bound endpoints (manual data progress).
     * @param concurrentWriters whether several threads may write entries at once (the threading model and
     *                       automatic progress decide): then the ring is a {@code ManyToOneRingBuffer} and the count
     *                       of outstanding entries atomic; otherwise a {@code OneToOneRingBuffer} and plain counts.
     * @param context        user context.
     */
    public ShmCompletionQueue(
        final FidLifecycle domain,
        final DomainResources resources,
        final RegionFile regionFile,
        final RegionGeometry geometry,
        final CqAttr attr,
        final int maxSize,
        final int maxErrData,
        final SpinGuard readGuard,
        final boolean progressOnRead,
        final boolean concurrentWriters,
        final long context)
    {
        super(FidClass.CQ, context);
        final int ringCapacity = geometry.cqRingBytes();
        final CqAttr a = CqAttrValidator.resolve(attr, maxSize, maxErrData, ringCapacity);
        this.domain = domain;
        this.resources = resources;
        this.attr = a;
        this.maxErrData = maxErrData;
        this.regionFile = regionFile;
        this.region = regionFile.buffer();
        this.readGuard = readGuard;
        this.progressOnRead = progressOnRead;
        this.concurrentWriters = concurrentWriters;
        this.waits = new CompletionWait(a, regionFile, progressOnRead);

        domain.retain("fi_cq_open");
        boolean ok = false;
        try
        {
            resources.acquire(DomainResources.Kind.CQ, "fi_cq_open");
            try
            {
                ringNumber = CompletionRingClaim.claim(region, geometry);
                ownerOffset = SlotDescriptor.cqOwnerOffset(geometry, ringNumber);
                final int offset = RegionDescriptor.cqRingOffset(geometry, ringNumber);
                final int length = RegionDescriptor.ringLength(ringCapacity);
                region.setMemory(offset, length, (byte)0);
                final UnsafeBuffer ringBuffer = new UnsafeBuffer(region, offset, length);
                ring = concurrentWriters ? new ManyToOneRingBuffer(ringBuffer) : new OneToOneRingBuffer(ringBuffer);
                ringReader = new RingReader(ringBuffer, ring.maxMsgLength());
                faults = new CompletionRingFaults(ringReader, concurrentWriters, this, domain, ringNumber,
                    geometry.slotCount());
                errorReader = new ErrorEntryReader(faults);
                reader = new EntryReader(a.format());
                ok = true;
            }
            finally
            {
                if (!ok)
                {
                    resources.release(DomainResources.Kind.CQ);
                }
            }
        }
        finally
        {
            if (!ok)
            {
                domain.release();
            }
        }
    }

    @Override
    public CqAttr attr()
    {
        return attr.copy();
    }

    /** @return entries that may be outstanding. */
    public long size()
    {
        return attr.size();
    }

    /** @return the queue's entry format. */
    public CqFormat format()
    {
        return attr.format();
    }

    /** @return the domain this queue was opened from. */
    public FidLifecycle domain()
    {
        return domain;
    }

    /** @return the completion ring this queue uses (its slot number in the region). */
    public int ringNumber()
    {
        return ringNumber;
    }

    /** @return whether one more entry fits in {@link #size()}. Data path. */
    public boolean hasRoom()
    {
        return outstanding() < attr.size();
    }

    /**
     * @param entries entries about to be written.
     * @return whether that many more fit in {@link #size()}. Data path.
     */
    public boolean hasRoom(final int entries)
    {
        return outstanding() + entries <= attr.size();
    }

    /** @return entries written and not yet read, plus entries reserved and not yet written. */
    public long outstanding()
    {
        return concurrentWriters ? outstanding.get() : produced - consumed + reserved;
    }

    /**
     * Data path: hold room for an entry that will be written later ({@link #writeReserved},
     * {@link #writeErrorReserved}) or given back ({@link #unreserve}), so that work accepted now (a queued send)
     * always finds room for its completion.
     *
     * @return whether there was room.
     */
    public boolean reserve()
    {
        if (!hasRoom())
        {
            return false;
        }
        if (concurrentWriters)
        {
            outstanding.getAndIncrement();
            reservations.getAndIncrement();
        }
        else
        {
            reserved++;
        }
        return true;
    }

    /** Give back room taken by {@link #reserve} whose entry will not be written. */
    public void unreserve()
    {
        if (concurrentWriters)
        {
            outstanding.getAndDecrement();
            reservations.getAndDecrement();
        }
        else
        {
            reserved--;
        }
    }

    /**
     * Data path: {@link #write} an entry whose room was {@link #reserve}d.
     *
     * @param context   the operation's context.
     * @param flags     the completion flags.
     * @param len       the length.
     * @param bufOffset where the data was placed (FI_MULTI_RECV), else 0.
     * @param data      the remote CQ data.
     * @param tag       the tag.
     * @param srcAddr   the source fi_addr (FI_SOURCE), else FI_ADDR_NOTAVAIL.
     * @return whether it was written.
     */
    public boolean writeReserved(
        final long context, final long flags, final long len, final long bufOffset, final long data, final long tag,
        final long srcAddr)
    {
        unreserve();
        return write(context, flags, len, bufOffset, data, tag, srcAddr);
    }

    /**
     * Data path: {@link #writeError} an entry whose room was {@link #reserve}d.
     *
     * @param context   the operation's context.
     * @param flags     the completion flags.
     * @param len       the length.
     * @param bufOffset where the data was placed (FI_MULTI_RECV), else 0.
     * @param data      the remote CQ data.
     * @param tag       the tag.
     * @param olen      the bytes that did not fit (truncation), else 0.
     * @param err       the error number.
     * @param srcAddr   the source fi_addr (FI_SOURCE), else FI_ADDR_NOTAVAIL.
     * @return whether it was written.
     */
    public boolean writeErrorReserved(
        final long context, final long flags, final long len, final long bufOffset, final long data, final long tag,
        final long olen, final int err, final long srcAddr)
    {
        unreserve();
        return writeError(context, flags, len, bufOffset, data, tag, olen, err, srcAddr);
    }

    /**
     * Make this queue progress an endpoint on read (manual progress); called at bind.
     *
     * @param endpoint the endpoint.
     */
    public void attach(final Progressable endpoint)
    {
        endpoints.add(endpoint);
    }

    /**
     * Stop progressing an endpoint; called when it closes.
     *
     * @param endpoint the endpoint.
     */
    public void detach(final Progressable endpoint)
    {
        endpoints.remove(endpoint);
    }

    /**
     * Data path: append a success entry.
     *
     * @param context   the operation's context.
     * @param flags     the completion flags.
     * @param len       the length.
     * @param bufOffset where the data was placed (FI_MULTI_RECV), else 0.
     * @param data      the remote CQ data.
     * @param tag       the tag.
     * @param srcAddr   the source fi_addr (FI_SOURCE), else FI_ADDR_NOTAVAIL.
     * @return whether it was written (false only when closed or the ring is out of space, which admission control
     * prevents).
     */
    public boolean write(
        final long context, final long flags, final long len, final long bufOffset, final long data, final long tag,
        final long srcAddr)
    {
        if (directCount < directLimit && produced == consumed)
        {
            EntryReader.fill(attr.format(), direct, directCount++, directFrom, context, flags, len, bufOffset, data, tag,
                srcAddr);
            return true;
        }
        final int cleared = clears;
        final int index = ringReader.producerSound() ? ring.tryClaim(ENTRY, ENTRY_LENGTH) : faults.refused();
        if (index <= 0)
        {
            return false;
        }
        final AtomicBuffer b = ring.buffer();
        if (BROKEN_EARLY_COMMIT)
        {
            countWritten();
            ring.commit(index);
            putEntry(b, index, context, flags, len, bufOffset, data, tag, srcAddr);
            return true;
        }
        putEntry(b, index, context, flags, len, bufOffset, data, tag, srcAddr);
        return commit(b, index, cleared);
    }

    /**
     * Publish a written entry and count it, unless the ring was cleared under the writer (found damaged): its entry
     * went with the ring, which the clear counted.
     */
    private boolean commit(final AtomicBuffer b, final int index, final int cleared)
    {
        if (!RingRecords.commitPlain(b, index) || clears != cleared)
        {
            return false;
        }
        countWritten();
        waits.wake();
        return true;
    }

    /**
     * Data path: append an error entry; its error data is the errno's name.
     *
     * @param context   the operation's context.
     * @param flags     the completion flags.
     * @param len       the length.
     * @param bufOffset where the data was placed (FI_MULTI_RECV), else 0.
     * @param data      the remote CQ data.
     * @param tag       the tag.
     * @param olen      the bytes that did not fit (truncation), else 0.
     * @param err       the error number.
     * @param srcAddr   the source fi_addr (FI_SOURCE), else FI_ADDR_NOTAVAIL.
     * @return whether it was written.
     */
    public boolean writeError(
        final long context, final long flags, final long len, final long bufOffset, final long data, final long tag,
        final long olen, final int err, final long srcAddr)
    {
        final byte[] text = ErrorTexts.of(err);
        return writeError(context, flags, len, bufOffset, data, tag, olen, err, srcAddr, text, text.length);
    }

    /**
     * Data path: {@link #writeError} with the caller's error data (FI_SOURCE_ERR: the sender's address), at most
     * max_err_data bytes of it.
     *
     * @param errData       the error data.
     * @param errDataLength its length.
     * @return whether it was written.
     */
    public boolean writeError(
        final long context, final long flags, final long len, final long bufOffset, final long data, final long tag,
        final long olen, final int err, final long srcAddr, final byte[] errData, final int errDataLength)
    {
        final byte[] text = errData;
        final int dataLength = Math.min(errDataLength, maxErrData);
        final int cleared = clears;
        final int index = ringReader.producerSound() ? ring.tryClaim(ERROR, ERR_DATA_OFFSET + dataLength) :
            faults.refused();
        if (index <= 0)
        {
            return false;
        }
        final AtomicBuffer b = ring.buffer();
        putEntry(b, index, context, flags, len, bufOffset, data, tag, srcAddr);
        b.putLong(index + OLEN_OFFSET, olen);
        b.putInt(index + ERR_OFFSET, err);
        b.putInt(index + PROV_ERRNO_OFFSET, err);
        b.putInt(index + ERR_DATA_LENGTH_OFFSET, dataLength);
        b.putBytes(index + ERR_DATA_OFFSET, text, 0, dataLength);
        return commit(b, index, cleared);
    }

    /**
     * Data path: whether the next success entry needs its source address. It does not only while a
     * {@link #read} (not {@link #readFrom}) is progressing the bound endpoints and the entry goes straight to that
     * read's array, so a sink can skip resolving the sender.
     *
     * @return whether to pass a resolved source address to {@link #write}.
     */
    public boolean needsSource()
    {
        return directFrom || directCount >= directLimit || produced != consumed;
    }

    private void countWritten()
    {
        if (concurrentWriters)
        {
            outstanding.getAndIncrement();
        }
        else
        {
            produced++;
        }
    }

    private void countRead(final int n)
    {
        if (concurrentWriters)
        {
            outstanding.getAndAdd(-n);
        }
        else
        {
            consumed += n;
        }
    }

    private static void putEntry(
        final AtomicBuffer b, final int index, final long context, final long flags, final long len,
        final long bufOffset, final long data, final long tag, final long srcAddr)
    {
        b.putLong(index + CONTEXT_OFFSET, context);
        b.putLong(index + FLAGS_OFFSET, flags);
        b.putLong(index + LEN_OFFSET, len);
        b.putLong(index + BUF_OFFSET_OFFSET, bufOffset);
        b.putLong(index + DATA_OFFSET, data);
        b.putLong(index + TAG_OFFSET, tag);
        b.putLong(index + SRC_ADDR_OFFSET, srcAddr);
    }

    @Override
    public int read(final CqEntries entries, final int count)
    {
        return read(entries, count, false);
    }

    @Override
    public int readFrom(final CqEntries entries, final int count)
    {
        return read(entries, count, true);
    }

    /**
     * The whole read is inside the catch: Java 17 raises a fault of a mapped access asynchronously, at a later
     * safepoint poll of the thread, which is then still within this call more often than not.
     */
    private int read(final CqEntries entries, final int count, final boolean from)
    {
        try
        {
            return readChecked(entries, count, from);
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
    }

    private int readChecked(final CqEntries entries, final int count, final boolean from)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (entries == null || count <= 0 || count > entries.capacity())
        {
            return -Errno.FI_EINVAL;
        }
        if (regionFile.fault() != null)
        {
            return -Errno.FI_EIO; // the ring is in a region whose file was truncated: see RegionWatch
        }
        if (!readGuard.tryLock())
        {
            readGuard.lock();
        }
        try
        {
            if (closing)
            {
                return -Errno.FI_EBADF; // closed while this read waited for the guard: the ring may be another's
            }
            if (faults.errorWaits)
            {
                return -Errno.FI_EAVAIL; // what the ring lost comes before anything written after
            }
            if (progressOnRead)
            {
                if (!concurrentWriters && produced == consumed)
                {
                    final int n = progressInto(entries, count, from);
                    if (n > 0)
                    {
                        return n;
                    }
                    if (produced == consumed)
                    {
                        return -Errno.FI_EAGAIN;
                    }
                }
                else
                {
                    progressEndpoints();
                }
            }
            final EntryReader r = reader;
            r.start(entries, from);
            ringReader.controlledRead(r, count);
            final int n = r.count;
            r.entries = null;
            if (n > 0)
            {
                countRead(n);
                return n;
            }
            return r.errorAtHead || checkRing() ? -Errno.FI_EAVAIL : -Errno.FI_EAGAIN;
        }
        finally
        {
            readGuard.unlock();
        }
    }

    /**
     * Progress the bound endpoints with the caller's array as the queue's head: while the ring is empty and the
     * array has room, completions go straight into it instead of through the ring and back (the ring keeps
     * everything after the first entry that does not fit, and every error, so the order is the ring's order).
     * Only when writers are serialized with this read (no concurrent writers), so nothing else writes meanwhile.
     */
    private int progressInto(final CqEntries entries, final int count, final boolean from)
    {
        if (direct != entries)
        {
            direct = entries; // only when it changes: a reference store runs G1's card-marking barrier and its fence
        }
        directFrom = from;
        directCount = 0;
        directLimit = count;
        try
        {
            progressEndpoints();
            return directCount;
        }
        finally
        {
            directLimit = 0;
        }
    }

    /**
     * An empty read: act on what the ring reader found ({@link CompletionRingFaults}); completions lost to a cleared
     * ring are counted as read (writers are serialized with this read then).
     *
     * @return whether an error entry waits for readErr.
     */
    private boolean checkRing()
    {
        if (faults.check())
        {
            clears++;
            final long lost;
            if (concurrentWriters)
            {
                final long reservedNow = reservations.get();
                lost = outstanding.getAndSet(reservedNow) - reservedNow;
            }
            else
            {
                lost = produced - consumed;
                consumed = produced;
            }
            faults.cleared(lost);
        }
        return faults.errorWaits;
    }

    /** Progress every endpoint bound to this queue (manual progress; also used by waits). */
    public void progressEndpoints()
    {
        endpoints.progressAll();
    }

    @Override
    public int readErr(final CqErrEntry entry, final long flags)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (entry == null || flags != 0)
        {
            return -Errno.FI_EINVAL;
        }
        if (regionFile.fault() != null)
        {
            return -Errno.FI_EIO;
        }
        readGuard.lock();
        try
        {
            if (closing)
            {
                return -Errno.FI_EBADF;
            }
            if (faults.errorWaits)
            {
                faults.fill(entry);
                return 1;
            }
            final ErrorEntryReader r = errorReader;
            r.entry = entry;
            r.found = false;
            ringReader.controlledRead(r, 1);
            r.entry = null;
            if (r.found)
            {
                countRead(1);
                return 1;
            }
            return -Errno.FI_EAGAIN;
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
        finally
        {
            readGuard.unlock();
        }
    }

    @Override
    public int sread(final CqEntries entries, final int count, final int timeoutMs)
    {
        return waits.sread(this, entries, count, timeoutMs, false);
    }

    @Override
    public int sreadFrom(final CqEntries entries, final int count, final int timeoutMs)
    {
        return waits.sread(this, entries, count, timeoutMs, true);
    }

    @Override
    public int signal()
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        waits.signal();
        return 0;
    }

    @Override
    public String strerror(final int provErrno, final byte[] errData)
    {
        return Errno.strerror(provErrno);
    }

    @Override
    protected String describe()
    {
        return "completion queue (ring " + ringNumber + ")";
    }

    @Override
    protected void doClose()
    {
        if (!BROKEN_CLOSE)
        {
            // under FI_THREAD_SAFE a read may be inside, or waiting for the guard: let it leave (a waiting one then
            // sees closing and returns -FI_EBADF) before the ring is given up and another CQ may claim and clear it
            closing = true;
            readGuard.lock();
            readGuard.unlock();
        }
        region.compareAndSetLong(ownerOffset, ProcessIdentity.self(), 0);
        resources.release(DomainResources.Kind.CQ);
        domain.release();
        waits.wake();
    }
}
