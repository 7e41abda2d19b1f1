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
package io.jfabric.shm.tx;

import io.jfabric.shm.lane.RecordChecksum;
import io.jfabric.shm.lane.SpscLane;

import org.agrona.concurrent.AtomicBuffer;

import static io.jfabric.shm.lane.LaneRecordDescriptor.*;

/**
 * Writes the records of a transmit context's queued sends ({@link PendingSends}) into their peers' lanes, as far as
 * each lane takes them: a whole message (MSG), a larger one in pieces (FIRST, then PIECEs), a rendezvous (RTS), the
 * acknowledgement request of a delivery-complete send (ACK_REQUEST), and the ABORT of a send given up part-way. Each
 * record is sealed with its checksum when records carry one, then committed. What to write next and when is
 * {@link TxProgress}'s.
 * <p>
 * Transmit progress only (the context's progress guard held): the lanes it writes are progress's while a send to
 * their peer is queued ({@link PendingSends} says how the handoff with the sending side is ordered).
 */
final class QueuedSendWriter
{
    private final SpscLane[] lanes;
    private final PendingSends pending;
    private final int inlineLimit;
    private final int pieceLimit;
    /** FLAG_CHECKSUM when records carry a checksum, else 0. */
    private final int checksumFlag;
    /** CHECKSUM_LENGTH when records carry a checksum, else 0. */
    private final int checksumLength;
    private final RecordChecksum checksum = new RecordChecksum();

    /**
     * @param lanes       the transmit context's lanes into every peer, by peer slot.
     * @param pending     its queued sends.
     * @param inlineLimit the largest message one lane record carries ({@link TxContext#inlineLimit}).
     * @param checksum    whether every record carries a CRC32C of its content.
     */
    QueuedSendWriter(
        final SpscLane[] lanes, final PendingSends pending, final int inlineLimit, final boolean checksum)
    {
        this.lanes = lanes;
        this.pending = pending;
        this.inlineLimit = inlineLimit;
        this.pieceLimit = inlineLimit - (FIRST_PAYLOAD_OFFSET - PAYLOAD_OFFSET);
        this.checksumFlag = checksum ? FLAG_CHECKSUM : 0;
        this.checksumLength = checksum ? CHECKSUM_LENGTH : 0;
    }

    /**
     * Write as much of a queued send as its peer's lane takes: its RTS, or its whole message or next pieces, then,
     * for a delivery-complete send whose bytes are all written, its acknowledgement request. A send that now waits
     * for its receiver's acknowledgement is marked so ({@link PendingSends#awaitAck}).
     *
     * @param op   the send.
     * @param peer its peer's slot.
     * @return records written.
     */
    int write(final int op, final int peer)
    {
        if (pending.rendezvous[op])
        {
            return writeRts(op, peer);
        }
        final long total = pending.total[op];
        int written = 0;
        if (total <= inlineLimit && pending.sent[op] == 0)
        {
            if (!writeWhole(op, peer, (int)total))
            {
                return 0;
            }
            written = 1;
        }
        if (pending.sent[op] < total)
        {
            written += writePieces(op, peer, total);
        }
        if (pending.deliveryAck[op] && pending.sent[op] == total)
        {
            written += writeAckRequest(op, peer);
        }
        return written;
    }

    /**
     * Write the ABORT record of an abandoned send ({@link PendingSends#abandon}), now that its peer runs again.
     *
     * @return whether it was written (false: the lane is full).
     */
    boolean writeAbort(final int op, final int peer)
    {
        final SpscLane lane = lanes[peer];
        final int index = lane.tryClaim(ABORT, bodyLength(ABORT_LENGTH + checksumLength));
        if (index < 0)
        {
            return false;
        }
        writeHeader(lane.buffer(), index, op, 0, pending.peerIncarnation[op]);
        commit(lane, index, ABORT_LENGTH, ABORT);
        return true;
    }

    /** The RTS of a rendezvous send: the receiver copies the bytes itself and acknowledges. @return records written. */
    private int writeRts(final int op, final int peer)
    {
        final SpscLane lane = lanes[peer];
        final int index = lane.tryClaim(RTS, bodyLength(RTS_LENGTH + checksumLength));
        if (index < 0)
        {
            return 0;
        }
        final AtomicBuffer b = lane.buffer();
        final long total = pending.total[op];
        writeHeader(b, index, op, 0, pending.peerIncarnation[op]);
        b.putLong(index + TOTAL_LENGTH_OFFSET, total);
        b.putLong(index + RTS_KEY_OFFSET, pending.rtsKey[op]);
        b.putLong(index + RTS_ADDR_OFFSET, pending.rtsAddr[op]);
        b.putLong(index + RTS_COOKIE_OFFSET, pending.cookie(op));
        commit(lane, index, RTS_LENGTH, RTS);
        pending.sent[op] = total;
        pending.awaitAck(op, lane.claimedPosition());
        return 1;
    }

    /** A message that fits one record, in one MSG record. @return whether the lane took it. */
    private boolean writeWhole(final int op, final int peer, final int len)
    {
        final SpscLane lane = lanes[peer];
        final int index = lane.tryClaim(MSG, bodyLength(HEADER_LENGTH + len + checksumLength));
        if (index < 0)
        {
            return false;
        }
        final AtomicBuffer b = lane.buffer();
        writeHeader(b, index, op, len, pending.peerIncarnation[op]);
        gather(b, index + PAYLOAD_OFFSET, op, 0, len);
        commit(lane, index, PAYLOAD_OFFSET + len, MSG);
        pending.sent[op] = len;
        return true;
    }

    /** The next pieces of a larger message (the first one carries the total length). @return records written. */
    private int writePieces(final int op, final int peer, final long total)
    {
        final SpscLane lane = lanes[peer];
        final AtomicBuffer b = lane.buffer();
        final int inc = pending.peerIncarnation[op];
        int written = 0;
        while (pending.sent[op] < total)
        {
            final long sent = pending.sent[op];
            final boolean first = sent == 0;
            final int room = first ? pieceLimit : inlineLimit;
            final int len = (int)Math.min(room, total - sent);
            final int headerAndPayload = (first ? FIRST_PAYLOAD_OFFSET : PAYLOAD_OFFSET) + len;
            final int index = lane.tryClaim(first ? FIRST : PIECE, bodyLength(headerAndPayload + checksumLength));
            if (index < 0)
            {
                break;
            }
            writeHeader(b, index, op, len, inc);
            if (first)
            {
                b.putLong(index + TOTAL_LENGTH_OFFSET, total);
            }
            gather(b, index + (first ? FIRST_PAYLOAD_OFFSET : PAYLOAD_OFFSET), op, sent, len);
            commit(lane, index, headerAndPayload, first ? FIRST : PIECE);
            pending.sent[op] = sent + len;
            written++;
        }
        return written;
    }

    /** The ACK_REQUEST after a delivery-complete send's last record. @return records written. */
    private int writeAckRequest(final int op, final int peer)
    {
        final SpscLane lane = lanes[peer];
        final int index = lane.tryClaim(ACK_REQUEST, bodyLength(ACK_REQUEST_LENGTH + checksumLength));
        if (index < 0)
        {
            return 0;
        }
        final AtomicBuffer b = lane.buffer();
        writeHeader(b, index, op, 0, pending.peerIncarnation[op]);
        b.putLong(index + ACK_REQUEST_COOKIE_OFFSET, pending.cookie(op));
        commit(lane, index, ACK_REQUEST_LENGTH, ACK_REQUEST);
        pending.awaitAck(op, lane.claimedPosition());
        return 1;
    }

    private void writeHeader(final AtomicBuffer b, final int index, final int op, final int len, final int inc)
    {
        b.putLong(index + TAG_OFFSET, pending.tag[op]);
        b.putLong(index + DATA_OFFSET, pending.data[op]);
        b.putInt(index + LENGTH_OFFSET, len);
        b.putInt(index + FLAGS_OFFSET, flagsWord(pending.recordFlags[op] | checksumFlag, inc));
    }

    /** Seal (when records carry checksums) and commit a record of {@code content} bytes. */
    private void commit(final SpscLane lane, final int index, final int content, final int type)
    {
        if (checksumLength != 0)
        {
            checksum.seal(lane.buffer(), index, content, type);
        }
        lane.commit(index);
    }

    /** Copy {@code len} bytes of the send's buffers, from byte {@code from} of their concatenation, to {@code at}. */
    private void gather(final AtomicBuffer b, final int at, final int op, final long from, final int len)
    {
        final int base = op * pending.maxIov;
        long skip = from;
        int dst = at;
        int left = len;
        for (int i = 0; i < pending.iovCount[op] && left > 0; i++)
        {
            final int l = pending.iovLength[base + i];
            if (skip >= l)
            {
                skip -= l;
                continue;
            }
            final int n = (int)Math.min(l - skip, left);
            b.putBytes(dst, pending.iov[base + i], pending.iovOffset[base + i] + (int)skip, n);
            dst += n;
            left -= n;
            skip = 0;
        }
    }
}
