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
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Ioc;
import io.jfabric.Msg;
import io.jfabric.shm.core.MappedFileWatch;
import io.jfabric.shm.lane.PayloadGather;
import io.jfabric.shm.lane.TxRecordDescriptor;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.rma.AtomicSupport;

import org.agrona.concurrent.AtomicBuffer;

import java.nio.ByteBuffer;

import static io.jfabric.shm.lane.LaneRecordDescriptor.*;

/**
 * One emulated one-sided operation as the sending side is issuing it: the target regions found to be local-only
 * memory (key, address, the key table control word and owner the initiator checked, bytes), where the request's
 * payload comes from (the bytes of a write, an atomic's operands and compare values) and where the response's bytes
 * go (a read's buffers, a fetching atomic's results). {@link RmaInitiator} fills it while it resolves the keys;
 * the transmit context ({@code TxContext}) checks it against the limits and the target, writes it as a lane request record
 * ({@link #write}) and gives the destinations to the pending operation ({@link #destinations}).
 * <p>
 * The sending side's own scratch, refilled for every operation; it keeps references only until the next one.
 */
public final class EmulatedRequest
{
    /**
     * The most bytes an emulated operation moves in its records (larger RMA: {@link EmulatedBounce}): an eighth of a
     * lane less a request's largest header (four regions) and checksum, or an eighth of the transmit ring less a
     * response's header, whichever is less, rounded down to 8. 8016 with the default 64 KiB lanes.
     *
     * @param geometry a region geometry.
     * @return the limit: an RMA's bytes, an atomic's operands plus compare values, and its results, each at most this.
     */
    public static int limit(final RegionGeometry geometry)
    {
        final int request = geometry.rxRingBytes() / 8 - requestPayloadOffset(MAX_REGIONS) - CHECKSUM_LENGTH;
        final int response = geometry.txRingBytes() / 8 - TxRecordDescriptor.RESPONSE_PAYLOAD_OFFSET;
        return Math.min(request, response) & ~7;
    }

    public int type;
    int regions;
    final long[] key = new long[MAX_REGIONS];
    final long[] addr = new long[MAX_REGIONS];
    final long[] control = new long[MAX_REGIONS];
    final long[] owner = new long[MAX_REGIONS];
    final int[] length = new int[MAX_REGIONS];
    /** Bytes of target memory over all regions. */
    public int total;

    // ---- RMA: the write's source and the read's destination: msg's buffers, or buf from offset
    private Msg msg;
    private ByteBuffer buf;
    private int offset;
    private boolean withData;
    private long data;

    // ---- atomics
    private AtomicDatatype datatype;
    private AtomicOp op;
    private AtomicSupport.Kind kind;
    private ByteBuffer operands;
    private int operandOffset;
    private ByteBuffer compares;
    private int compareOffset;
    private ByteBuffer result;
    private int resultOffset;
    private Ioc results;

    // ---- an RMA too large for one ring record: its bytes go through the bounce, which it holds from staging
    private EmulatedBounce bounce;

    /** Start describing an RMA read or write. */
    void rma(final boolean write)
    {
        type = write ? RMA_WRITE : RMA_READ;
        regions = 0;
        total = 0;
        withData = false;
    }

    /** Start describing an atomic. */
    void atomic(final AtomicSupport.Kind kind, final AtomicDatatype datatype, final AtomicOp op)
    {
        type = ATOMIC;
        regions = 0;
        total = 0;
        withData = false;
        this.kind = kind;
        this.datatype = datatype;
        this.op = op;
    }

    /** Add a target region (in order). */
    void region(final long key, final long addr, final long control, final long owner, final int length)
    {
        final int r = regions++;
        this.key[r] = key;
        this.addr[r] = addr;
        this.control[r] = control;
        this.owner[r] = owner;
        this.length[r] = length;
        total += length;
    }

    /** An RMA's local side: {@code msg}'s buffers, or, when null, {@code buf} from {@code offset}. */
    public void rmaBuffers(final Msg msg, final ByteBuffer buf, final int offset)
    {
        this.msg = msg;
        this.buf = buf;
        this.offset = offset;
    }

    /** fi_writedata: the target's completion carries {@code data}. */
    public void remoteData(final long data)
    {
        withData = true;
        this.data = data;
    }

    /**
     * An atomic's local side: operands (null for FI_ATOMIC_READ), compare values (null unless the compare kind), and
     * the results in one buffer or, when {@code result} is null, scattered over {@code results} (null when none).
     */
    public void atomicBuffers(
        final ByteBuffer operands, final int operandOffset, final ByteBuffer compares, final int compareOffset,
        final ByteBuffer result, final int resultOffset, final Ioc results)
    {
        this.operands = operands;
        this.operandOffset = operandOffset;
        this.compares = compares;
        this.compareOffset = compareOffset;
        this.result = result;
        this.resultOffset = resultOffset;
        this.results = results;
    }

    /**
     * Where the bytes travel: in the request and its answer when each fits a ring record of at most {@code limit}
     * bytes, else through the transmit context's bounce, reserved here (an atomic always fits).
     *
     * @param limit  the most bytes of payload a request or an answer carries ({@link #limit}).
     * @param spare  the context's bounce.
     * @return 0 (a write's bytes are in the bounce), or -FI_EAGAIN while the bounce serves another operation, or the
     * negated errno of a bounce that could not be made, or -FI_EIO when the bounce's file faulted.
     */
    public int stage(final int limit, final EmulatedBounce spare)
    {
        if (type == ATOMIC || requestPayload() <= limit && responsePayload() <= limit)
        {
            return 0;
        }
        final int rc = spare.reserve(total);
        if (rc != 0)
        {
            return rc;
        }
        if (type == RMA_WRITE)
        {
            try
            {
                PayloadGather.gather(spare.buffer(), spare.dataIndex(), msg, buf, offset, total);
            }
            catch (final InternalError ex)
            {
                MappedFileWatch.check(); // whichever file was truncated fails
                spare.retire(); // and this bounce is not used again: the next operation makes a new one
                return -Errno.FI_EIO;
            }
        }
        bounce = spare;
        return 0;
    }

    /** @return bytes of payload the request record carries. */
    int requestPayload()
    {
        if (bounce != null)
        {
            return BOUNCE_LENGTH;
        }
        if (type == RMA_WRITE)
        {
            return total;
        }
        if (type == RMA_READ)
        {
            return 0;
        }
        return (operands != null ? total : 0) + (kind == AtomicSupport.Kind.COMPARE ? total : 0);
    }

    /** @return bytes of payload a successful response carries. */
    public int responsePayload()
    {
        return bounce == null && (type == RMA_READ || type == ATOMIC && kind != AtomicSupport.Kind.WRITE) ? total : 0;
    }

    /** @return the request record's content: fixed part, region list, payload. */
    public int contentLength()
    {
        return requestPayloadOffset(regions) + requestPayload();
    }

    /** @return the lane record flags: FLAG_CQ_DATA for fi_writedata. */
    public int recordFlags()
    {
        return (withData ? FLAG_CQ_DATA : 0) | (bounce != null ? FLAG_BOUNCE : 0);
    }

    /** @return the initiator's completion flags for this operation. */
    public long completionFlags()
    {
        if (type == ATOMIC)
        {
            return Flags.FI_ATOMIC | (kind == AtomicSupport.Kind.WRITE ? Flags.FI_WRITE : Flags.FI_READ);
        }
        return Flags.FI_RMA | (type == RMA_WRITE ? Flags.FI_WRITE : Flags.FI_READ);
    }

    /** @return whether the operation counts on the FI_WRITE counter (else FI_READ). */
    public boolean writes()
    {
        return type == RMA_WRITE || type == ATOMIC && kind == AtomicSupport.Kind.WRITE;
    }

    /**
     * @param identity the owner ({@code ProcessIdentity}) of the slot the request goes to.
     * @return whether that process owns every region: only its progress can reach them.
     */
    public boolean ownedBy(final long identity)
    {
        for (int r = 0; r < regions; r++)
        {
            if (owner[r] != identity)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Write the request record's content (all but the flags word, which the caller writes with the receiver's
     * incarnation, and the checksum) into a claimed lane record.
     *
     * @param b      the lane.
     * @param index  the record's body.
     * @param cookie the operation's cookie: its name in the response, and the State while pending.
     */
    public void write(final AtomicBuffer b, final int index, final long cookie)
    {
        writeFixed(b, index, cookie);
        for (int r = 0; r < regions; r++)
        {
            final int at = index + regionOffset(r);
            b.putLong(at + REGION_KEY_OFFSET, key[r]);
            b.putLong(at + REGION_ADDR_OFFSET, addr[r]);
            b.putLong(at + REGION_CONTROL_OFFSET, control[r]);
            b.putInt(at + REGION_BYTES_OFFSET, length[r]);
            b.putInt(at + REGION_BYTES_OFFSET + 4, 0);
        }
        final int payload = index + requestPayloadOffset(regions);
        if (bounce != null)
        {
            writeBounce(b, payload);
        }
        else if (type == RMA_WRITE)
        {
            PayloadGather.gather(b, payload, msg, buf, offset, total);
        }
        else if (type == ATOMIC)
        {
            int at = payload;
            if (operands != null)
            {
                b.putBytes(at, operands, operandOffset, total);
                at += total;
            }
            if (kind == AtomicSupport.Kind.COMPARE)
            {
                b.putBytes(at, compares, compareOffset, total);
            }
        }
    }

    /** A bounced request's payload: the reference to the bounce (a write's bytes are in it since {@link #stage}). */
    private void writeBounce(final AtomicBuffer b, final int payload)
    {
        b.putLong(payload + BOUNCE_OWNER_OFFSET, bounce.owner());
        b.putLong(payload + BOUNCE_SEGMENT_OFFSET, bounce.segmentId());
        b.putLong(payload + BOUNCE_NONCE_OFFSET, bounce.nonce());
        b.putLong(payload + BOUNCE_DATA_OFFSET, 0);
    }

    /** The header words and the fixed part. */
    private void writeFixed(final AtomicBuffer b, final int index, final long cookie)
    {
        b.putLong(index + STATE_OFFSET, cookie);
        b.putLong(index + DATA_OFFSET, withData ? data : 0);
        b.putInt(index + LENGTH_OFFSET, contentLength() - REGION_LIST_OFFSET);
        b.putLong(index + REQUEST_COOKIE_OFFSET, cookie);
        b.putByte(index + REQUEST_REGIONS_OFFSET, (byte)regions);
        final boolean atomic = type == ATOMIC;
        b.putByte(index + REQUEST_DATATYPE_OFFSET, atomic ? (byte)datatype.value() : 0);
        b.putByte(index + REQUEST_OP_OFFSET, atomic ? (byte)op.value() : 0);
        b.putByte(index + REQUEST_KIND_OFFSET, atomic ? (byte)kind.ordinal() : 0);
        b.putInt(index + REQUEST_TOTAL_OFFSET, total);
    }

    /** Give the pending operation the local buffers its response's bytes go to, then let go of every reference. */
    public void destinations(final EmulatedOps ops, final int pending)
    {
        ops.bounce[pending] = bounce;
        bounce = null; // the operation holds it now
        if (type == RMA_READ)
        {
            if (msg == null)
            {
                ops.dest(pending, buf, offset, total);
            }
            else
            {
                for (int i = 0; i < msg.iovCount; i++)
                {
                    ops.dest(pending, msg.iov[i], msg.iovOffset[i], msg.iovLength[i]);
                }
            }
        }
        else if (type == ATOMIC && kind != AtomicSupport.Kind.WRITE)
        {
            if (result != null)
            {
                ops.dest(pending, result, resultOffset, total);
            }
            else if (results != null)
            {
                final int size = datatype.size();
                for (int i = 0; i < results.count; i++)
                {
                    ops.dest(pending, results.buf[i], results.offset[i], results.elements[i] * size);
                }
            }
        }
        forget();
    }

    /** Let go of every reference to the application's buffers, and of a bounce no operation took. */
    public void forget()
    {
        if (bounce != null)
        {
            bounce.unreserve();
            bounce = null;
        }
        msg = null;
        buf = null;
        operands = null;
        compares = null;
        result = null;
        results = null;
    }
}
