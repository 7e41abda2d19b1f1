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

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.mr.MemoryRegistrar;
import io.jfabric.shm.mr.SegmentDescriptor;
import io.jfabric.shm.mr.SegmentFile;

import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A transmit context's bounce for emulated RMA larger than one ring record: a shareable segment of this process
 * ({@link MemoryRegistrar#createSegment}) that holds a write's bytes, or takes a read's, for the one operation using
 * it; the request names it ({@link io.jfabric.shm.lane.LaneRecordDescriptor#FLAG_BOUNCE}) and the target copies between it and its own
 * memory, so any length up to max_msg_size moves as one request (one copy more than the one-sided path, on each
 * side). Made at the first such operation, and made anew, its size rounded up to a power of two, when
 * a larger one comes; freed when the context closes.
 * <p>
 * One operation at a time: the <em>sending side</em> {@link #reserve}s it (-FI_EAGAIN while another operation has
 * it) and hands it with the operation to <em>transmit progress</em>, which {@link #release}s it once the target
 * answered (the target touched it only before it committed the answer), or {@link #retire}s it when the operation
 * ends without an answer (the target stopped or went away, or the request was skipped): the target may still copy
 * into it, so the next reservation leaves it (the file is deleted; the target's own mapping keeps its pages) for a
 * new one. The state word goes from progress to the sending side with release and acquire.
 */
final class EmulatedBounce
{
    private static final int FREE = 0;
    private static final int BUSY = 1;
    private static final int RETIRED = 2;
    private static final VarHandle STATE;

    static
    {
        try
        {
            STATE = MethodHandles.lookup().findVarHandle(EmulatedBounce.class, "state", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final MemoryRegistrar registrar;
    private final long owner = ProcessIdentity.self();
    private SegmentFile segment;
    @SuppressWarnings("unused")
    private int state;

    /**
     * @param registrar the domain's registrar, which makes the segments.
     */
    EmulatedBounce(final MemoryRegistrar registrar)
    {
        this.registrar = registrar;
    }

    /**
     * Sending side: take the bounce for an operation of {@code length} bytes, making a (larger) segment first when
     * needed.
     *
     * @return 0 (the bytes go at {@link #dataIndex()}), -FI_EAGAIN while another operation holds it, or the negated
     * errno of a segment that could not be made (FI_ENOSPC when tmpfs is full).
     */
    int reserve(final long length)
    {
        final int s = (int)STATE.getAcquire(this);
        if (s == BUSY)
        {
            return -Errno.FI_EAGAIN;
        }
        if (s == RETIRED || segment == null || segment.dataLength() < length)
        {
            free();
            try
            {
                segment = registrar.createSegment(
                    Math.min(BitUtil.findNextPositivePowerOfTwo(length), SegmentDescriptor.MAX_DATA_LENGTH));
            }
            catch (final FabricException ex)
            {
                return -ex.errno();
            }
        }
        STATE.set(this, BUSY); // handed to progress with the operation, which publishes it
        return 0;
    }

    /** Sending side: give back a reservation whose operation was not issued after all. */
    void unreserve()
    {
        STATE.set(this, FREE);
    }

    /** Progress: the target answered the operation; the bounce is free again. */
    void release()
    {
        STATE.setRelease(this, FREE);
    }

    /** Progress: the operation ended unanswered; the target may still touch the bounce, so it is not used again. */
    void retire()
    {
        STATE.setRelease(this, RETIRED);
    }

    /** @return the segment, whole (its data starts at {@link #dataIndex()}); valid while reserved. */
    UnsafeBuffer buffer()
    {
        return segment.buffer();
    }

    /** @return the index in {@link #buffer()} where an operation's bytes go. */
    int dataIndex()
    {
        return SegmentDescriptor.DATA_OFFSET;
    }

    /** @return this process's identity: the segment's owner. */
    long owner()
    {
        return owner;
    }

    /** @return the segment's number. */
    long segmentId()
    {
        return segment.segmentId();
    }

    /** @return the segment's nonce. */
    long nonce()
    {
        return segment.nonce();
    }

    /** Close: free the segment. The context's guards held: no operation uses it now in this process. */
    void close()
    {
        free();
        STATE.set(this, FREE);
    }

    private void free()
    {
        if (segment != null)
        {
            segment.close(true);
            segment = null;
        }
    }
}
