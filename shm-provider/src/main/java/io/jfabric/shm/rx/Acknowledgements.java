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
package io.jfabric.shm.rx;

import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.lane.TxRecordDescriptor;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.RingRecords;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * A receiver's acknowledgements of rendezvous and delivery-complete sends, written into each sender's
 * transmit-context ring ({@link TxRecordDescriptor#ACK}; many receivers write one sender's ring, an Agrona
 * {@code ManyToOneRingBuffer}). An acknowledgement is claimed before the work it acknowledges, so a ring with no room
 * leaves the record that needs it in the lane, to be taken again, instead of dropping the acknowledgement; and it is
 * committed with one compare-and-set of its header ({@link RingRecords#commit}), so a sender that cleared the record
 * meanwhile (it took this receiver for stopped, {@code RingReader#unblock}, or found its ring damaged) refuses it and
 * the acknowledgement is written again, never lost without the receiver knowing.
 * <p>
 * Threads: the receive context's (receive guard held); one object per receive context.
 */
public final class Acknowledgements
{
    private static final boolean BROKEN_ONE_PRODUCER = BrokenVariant.active("txring.one-producer");
    private static final int CLAIM_ATTEMPTS = 16;
    private static final int WRITE_ATTEMPTS = 3;

    private final AtomicBuffer region;
    private final RegionGeometry geometry;
    private final RingBuffer[] rings;

    /**
     * @param region   the domain region.
     * @param geometry its geometry.
     */
    public Acknowledgements(final AtomicBuffer region, final RegionGeometry geometry)
    {
        this.region = region;
        this.geometry = geometry;
        this.rings = new RingBuffer[geometry.slotCount()];
    }

    /**
     * @param sender a sending slot.
     * @return its transmit-context ring, made on first use.
     */
    public RingBuffer ring(final int sender)
    {
        RingBuffer ring = rings[sender];
        if (ring == null)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(region, RegionDescriptor.txRingOffset(geometry, sender),
                RegionDescriptor.ringLength(geometry.txRingBytes()));
            ring = BROKEN_ONE_PRODUCER ? new OneToOneRingBuffer(buffer) : new ManyToOneRingBuffer(buffer);
            rings[sender] = ring;
        }
        return ring;
    }

    /**
     * Claim an acknowledgement record in a sender's ring, trying a few times.
     *
     * @param sender the sending slot.
     * @return its index, or -1 when the ring has no room now.
     */
    public int claim(final int sender)
    {
        final RingBuffer ring = ring(sender);
        for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++)
        {
            final int index = ring.tryClaim(TxRecordDescriptor.ACK, TxRecordDescriptor.ACK_LENGTH);
            if (index > 0)
            {
                return index; // one claimed off alignment (a damaged producer position) is refused at its commit
            }
            Thread.onSpinWait();
        }
        return -1;
    }

    /**
     * Fill and commit a claimed acknowledgement.
     *
     * @param sender      the sending slot.
     * @param index       what {@link #claim} returned.
     * @param cookie      the send's cookie.
     * @param status      0 or a negated errno.
     * @param incarnation the sender's incarnation.
     * @return whether it was committed: false when the sender cleared the record meanwhile.
     */
    public boolean commit(final int sender, final int index, final long cookie, final int status, final int incarnation)
    {
        final AtomicBuffer b = ring(sender).buffer();
        b.putLong(index + TxRecordDescriptor.COOKIE_OFFSET, cookie);
        b.putInt(index + TxRecordDescriptor.STATUS_OFFSET, status);
        b.putInt(index + TxRecordDescriptor.INCARNATION_OFFSET, incarnation);
        return RingRecords.commit(b, index);
    }

    /**
     * Give up a claimed acknowledgement (the work it was for cannot be done now).
     *
     * @param sender the sending slot.
     * @param index  what {@link #claim} returned.
     */
    public void abort(final int sender, final int index)
    {
        RingRecords.abort(ring(sender).buffer(), index);
    }

    /**
     * Claim, fill and commit an acknowledgement, again if the sender cleared it meanwhile.
     *
     * @param sender      the sending slot.
     * @param cookie      the send's cookie.
     * @param status      0 or a negated errno.
     * @param incarnation the sender's incarnation.
     * @return whether it was committed: false when the ring had no room (take the record that needs it again later).
     */
    public boolean acknowledge(final int sender, final long cookie, final int status, final int incarnation)
    {
        for (int attempt = 0; attempt < WRITE_ATTEMPTS; attempt++)
        {
            final int index = claim(sender);
            if (index < 0)
            {
                return false;
            }
            if (commit(sender, index, cookie, status, incarnation))
            {
                return true;
            }
        }
        return false;
    }
}
