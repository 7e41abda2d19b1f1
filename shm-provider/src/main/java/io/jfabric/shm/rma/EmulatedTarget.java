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
import io.jfabric.shm.core.MappedFileWatch;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.lane.TxRecordDescriptor;
import io.jfabric.shm.liveness.PeerLiveness;
import io.jfabric.shm.mr.LocalRegions;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.RingRecords;
import io.jfabric.shm.region.SlotDescriptor;
import io.jfabric.shm.rma.AtomicSupport;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import static io.jfabric.shm.lane.LaneRecordDescriptor.*;

/**
 * The target endpoint's half of the emulated path, run by its receive progress when it drains a lane and meets a
 * request ({@link LaneRecordDescriptor#RMA_WRITE}, {@code RMA_READ}, {@code ATOMIC}): performs it on this process's
 * memory ({@link LocalRegions}) in lane order, so after everything the initiator sent this endpoint before and
 * before everything after, and answers through the initiator's transmit-context ring ({@link
 * TxRecordDescriptor#RESPONSE}), the read bytes or fetched values written straight into the response record.
 * <p>
 * Exactly once: the response record is claimed first, so a full ring leaves the request unread in the lane, nothing
 * applied ({@link #RETRY}: the receive context stops that lane for this pass and tries again on the next progress);
 * then the request's State is swapped from its cookie to {@link LaneRecordDescriptor#STATE_TAKEN}, and a request its
 * initiator cancelled meanwhile is skipped and its claimed response aborted ({@link #SKIPPED}); only then is it
 * applied and answered. A request whose initiator is gone and whose ring is full is skipped too, so a dead
 * initiator never blocks the lane. On success the endpoint's own FI_REMOTE_WRITE or FI_REMOTE_READ counter is raised
 * (FI_RMA_EVENT: writes and base atomics are writes; reads, fetching and compare atomics reads), and a write or
 * modifying atomic raises the region's counter ({@link LocalRegions}). fi_writedata's completion is the receive
 * context's to write.
 * <p>
 * Checks beyond the region's: a request whose fixed part disagrees with itself (region count outside 1 to
 * {@link LaneRecordDescriptor#MAX_REGIONS}, region lengths that do not add up to its total, a payload shorter than
 * its operation needs, a datatype/op pair shm does not support) is answered with FI_EIO; an operation over several
 * regions checks all of them first, so a failing region changes nothing.
 * <p>
 * A bounced RMA ({@link LaneRecordDescriptor#FLAG_BOUNCE}: larger than a ring record) copies between the
 * initiator's bounce, mapped by {@link PeerBounces}, and the regions, and answers without payload; a reference to no
 * bounce of the initiating process (or out of its range) is answered with FI_EIO.
 * <p>
 * Receive progress only: the receive guard held.
 */
public final class EmulatedTarget
{
    /** The response could not be claimed: leave the request in the lane, untouched, and try again later. */
    public static final int RETRY = Integer.MIN_VALUE;
    /** The request was consumed without being applied: cancelled, or its initiator is gone. */
    static final int SKIPPED = Integer.MIN_VALUE + 1;
    private static final AtomicSupport.Kind[] KINDS = AtomicSupport.Kind.values();

    private final LocalRegions local;
    private final RemoteMemory counters;
    private final AtomicBuffer region;
    private final int readCounterOffset;
    private final int writeCounterOffset;
    private final PeerLiveness liveness;
    private final AtomicAccess applier = new AtomicAccess();
    private final PeerBounces bounces;

    /**
     * @param local    this endpoint's server of the process's local-only regions.
     * @param counters the endpoint's view of the domain (its counter table raises remote counters).
     * @param region   the domain region.
     * @param geometry its geometry.
     * @param slot     the endpoint's slot (its remote counter words).
     * @param liveness receive progress's view of its peers' liveness.
     */
    public EmulatedTarget(
        final LocalRegions local,
        final RemoteMemory counters,
        final AtomicBuffer region,
        final RegionGeometry geometry,
        final int slot,
        final PeerLiveness liveness)
    {
        this.local = local;
        this.counters = counters;
        this.region = region;
        this.readCounterOffset = SlotDescriptor.remoteCounterOffset(geometry, slot, false);
        this.writeCounterOffset = SlotDescriptor.remoteCounterOffset(geometry, slot, true);
        this.liveness = liveness;
        this.bounces = new PeerBounces(local, region, geometry);
    }

    /**
     * Serve one request.
     *
     * @param type                the record type.
     * @param sender              the initiator's slot.
     * @param senderIncarnation   its incarnation (the lane's owner word).
     * @param lane                the lane.
     * @param index               the record's body.
     * @param len                 its Payload Length field (bytes from the region list on, checked to fit).
     * @param ring                the initiator's transmit-context ring.
     * @return {@link #RETRY}, {@link #SKIPPED}, or the answered status: 0 or a negated errno.
     */
    public int serve(
        final int type, final int sender, final int senderIncarnation, final AtomicBuffer lane, final int index,
        final int len, final RingBuffer ring)
    {
        final boolean bounced = type != ATOMIC && (flags(lane.getInt(index + FLAGS_OFFSET)) & FLAG_BOUNCE) != 0;
        final int answer = bounced ? 0 : answerBytes(type, lane, index, len, ring);
        final int at = ring.tryClaim(TxRecordDescriptor.RESPONSE,
            TxRecordDescriptor.RESPONSE_PAYLOAD_OFFSET + Math.max(answer, 0));
        if (at < 0)
        {
            return liveness.status(sender, senderIncarnation) == PeerLiveness.GONE ? SKIPPED : RETRY;
        }
        final long cookie = lane.getLong(index + REQUEST_COOKIE_OFFSET);
        if (!lane.compareAndSetLong(index + STATE_OFFSET, cookie, STATE_TAKEN))
        {
            RingRecords.abort(ring.buffer(), at); // cancelled by its initiator
            return SKIPPED;
        }
        final AtomicBuffer response = ring.buffer();
        final int status = answer < 0 ? -Errno.FI_EIO : bounced ? applyBounced(type, sender, lane, index, len) :
            apply(type, lane, index, lane.getByte(index + REQUEST_REGIONS_OFFSET),
            lane.getInt(index + REQUEST_TOTAL_OFFSET), len, response, at + TxRecordDescriptor.RESPONSE_PAYLOAD_OFFSET);
        response.putLong(at + TxRecordDescriptor.COOKIE_OFFSET, cookie);
        response.putInt(at + TxRecordDescriptor.STATUS_OFFSET, status);
        response.putInt(at + TxRecordDescriptor.INCARNATION_OFFSET, senderIncarnation);
        RingRecords.commit(response, at); // refused if the initiator cleared it: the lane past it, it ends in FI_EIO
        if (status == 0)
        {
            final boolean write = type == RMA_WRITE ||
                type == ATOMIC && lane.getByte(index + REQUEST_KIND_OFFSET) == AtomicSupport.Kind.WRITE.ordinal();
            counters.countEvent(region.getIntVolatile(write ? writeCounterOffset : readCounterOffset));
        }
        return status;
    }

    /**
     * @return the bytes a successful response to the request carries (a read's or a fetching atomic's total), or -1
     * when the request's fixed part disagrees with itself or asks for more than a response can carry.
     */
    private static int answerBytes(
        final int type, final AtomicBuffer lane, final int index, final int len, final RingBuffer ring)
    {
        final int regions = lane.getByte(index + REQUEST_REGIONS_OFFSET);
        final int total = lane.getInt(index + REQUEST_TOTAL_OFFSET);
        final int kind = lane.getByte(index + REQUEST_KIND_OFFSET);
        final int answer = type == RMA_READ || type == ATOMIC && kind != AtomicSupport.Kind.WRITE.ordinal() ?
            total : 0;
        final boolean sound = regions >= 1 && regions <= MAX_REGIONS && kind >= 0 && kind < KINDS.length &&
            total >= 0 && answer <= ring.maxMsgLength() - TxRecordDescriptor.RESPONSE_PAYLOAD_OFFSET &&
            regions * REGION_LENGTH <= len;
        return sound ? answer : -1;
    }

    /** Perform a sound request; results go to {@code out} in the response. @return 0 or a negated errno. */
    private int apply(
        final int type, final AtomicBuffer lane, final int index, final int regions, final int total, final int len,
        final AtomicBuffer out, final int outIndex)
    {
        long sum = 0;
        for (int r = 0; r < regions; r++)
        {
            sum += lane.getInt(index + regionOffset(r) + REGION_BYTES_OFFSET) & 0xFFFF_FFFFL;
        }
        final int payload = index + requestPayloadOffset(regions);
        final long payloadBytes = len - (long)regions * REGION_LENGTH;
        if (sum != total || type == RMA_WRITE && payloadBytes < total)
        {
            return -Errno.FI_EIO;
        }
        if (type == RMA_WRITE)
        {
            return write(lane, index, regions, lane, payload);
        }
        if (type == RMA_READ)
        {
            return read(lane, index, regions, out, outIndex);
        }
        return atomic(lane, index, regions, total, payload, payloadBytes, out, outIndex);
    }

    /**
     * Perform a bounced RMA ({@link LaneRecordDescriptor#FLAG_BOUNCE}): its bytes are in the initiator's bounce,
     * which {@link PeerBounces} maps. @return 0 or a negated errno: FI_EIO for a reference to no bounce of the
     * initiator, or a request that disagrees with itself.
     */
    private int applyBounced(final int type, final int sender, final AtomicBuffer lane, final int index, final int len)
    {
        final int regions = lane.getByte(index + REQUEST_REGIONS_OFFSET);
        final int total = lane.getInt(index + REQUEST_TOTAL_OFFSET);
        if (regions < 1 || regions > MAX_REGIONS || total < 0)
        {
            return -Errno.FI_EIO;
        }
        long sum = 0;
        for (int r = 0; r < regions; r++)
        {
            sum += lane.getInt(index + regionOffset(r) + REGION_BYTES_OFFSET) & 0xFFFF_FFFFL;
        }
        final int payload = index + requestPayloadOffset(regions);
        final UnsafeBuffer bounce = sum != total || len - (long)regions * REGION_LENGTH < BOUNCE_LENGTH ? null :
            bounces.resolve(sender, lane, payload, total);
        if (bounce == null)
        {
            return -Errno.FI_EIO;
        }
        try
        {
            return type == RMA_WRITE ? write(lane, index, regions, bounce, bounces.index()) :
                read(lane, index, regions, bounce, bounces.index());
        }
        catch (final InternalError ex)
        {
            MappedFileWatch.check(); // whichever file was truncated fails
            bounces.drop(sender); // and this bounce is mapped anew (a short file refuses) if it comes again
            return -Errno.FI_EIO;
        }
    }

    private int write(
        final AtomicBuffer lane, final int index, final int regions, final AtomicBuffer src, final int from)
    {
        final int checked = regions == 1 ? 0 : checkAll(lane, index, regions, Flags.FI_REMOTE_WRITE);
        int at = from;
        for (int r = 0; checked == 0 && r < regions; r++)
        {
            final int region = index + regionOffset(r);
            final int bytes = lane.getInt(region + REGION_BYTES_OFFSET);
            final int rc = local.write(lane.getLong(region + REGION_KEY_OFFSET),
                lane.getLong(region + REGION_ADDR_OFFSET), lane.getLong(region + REGION_CONTROL_OFFSET), src, at,
                bytes);
            if (rc != 0)
            {
                return rc;
            }
            at += bytes;
        }
        return checked;
    }

    private int read(
        final AtomicBuffer lane, final int index, final int regions, final AtomicBuffer out, final int outIndex)
    {
        int at = outIndex;
        for (int r = 0; r < regions; r++)
        {
            final int region = index + regionOffset(r);
            final int bytes = lane.getInt(region + REGION_BYTES_OFFSET);
            final int rc = local.read(lane.getLong(region + REGION_KEY_OFFSET),
                lane.getLong(region + REGION_ADDR_OFFSET), lane.getLong(region + REGION_CONTROL_OFFSET), out, at,
                bytes);
            if (rc != 0)
            {
                return rc;
            }
            at += bytes;
        }
        return 0;
    }

    /** Check every region for an RMA before the first is changed. @return 0 or the first region's errno. */
    private int checkAll(final AtomicBuffer lane, final int index, final int regions, final long rights)
    {
        for (int r = 0; r < regions; r++)
        {
            final int region = index + regionOffset(r);
            final int rc = local.check(lane.getLong(region + REGION_KEY_OFFSET),
                lane.getLong(region + REGION_ADDR_OFFSET), lane.getLong(region + REGION_CONTROL_OFFSET),
                lane.getInt(region + REGION_BYTES_OFFSET), rights);
            if (rc != 0)
            {
                return rc;
            }
        }
        return 0;
    }

    private int atomic(
        final AtomicBuffer lane, final int index, final int regions, final int total, final int payload,
        final long payloadBytes, final AtomicBuffer out, final int outIndex)
    {
        final AtomicAccess a = applier;
        if (!decode(lane, index, total))
        {
            return -Errno.FI_EIO;
        }
        final boolean operands = a.kind != AtomicSupport.Kind.FETCH || a.op != AtomicOp.ATOMIC_READ;
        final boolean compares = a.kind == AtomicSupport.Kind.COMPARE;
        if (payloadBytes < (operands ? total : 0) + (compares ? total : 0))
        {
            return -Errno.FI_EIO;
        }
        a.source = lane;
        a.sourceIndex = operands ? payload : -1;
        a.compare = lane;
        a.compareIndex = payload + (operands ? total : 0);
        a.result = out;
        a.resultIndex = outIndex;
        final long rights = AtomicAccess.rights(a.kind, a.op);
        if (regions > 1)
        {
            final int checked = atomicRegions(lane, index, regions, rights, true);
            if (checked != 0)
            {
                return checked;
            }
        }
        return atomicRegions(lane, index, regions, rights, false);
    }

    /** @return whether the request names a supported (kind, datatype, op) and a whole number of elements. */
    private boolean decode(final AtomicBuffer lane, final int index, final int total)
    {
        final AtomicAccess a = applier;
        a.kind = KINDS[lane.getByte(index + REQUEST_KIND_OFFSET)];
        a.type = AtomicDatatype.of(lane.getByte(index + REQUEST_DATATYPE_OFFSET) & 0xFF);
        a.op = AtomicOp.of(lane.getByte(index + REQUEST_OP_OFFSET) & 0xFF);
        return a.type != null && a.op != null && total % a.type.size() == 0 &&
            AtomicSupport.check(a.kind, a.type, a.op, total / a.type.size()) == 0;
    }

    /** Check ({@code checkOnly}) or apply an atomic region by region. @return 0 or the first region's errno. */
    private int atomicRegions(
        final AtomicBuffer lane, final int index, final int regions, final long rights, final boolean checkOnly)
    {
        final AtomicAccess a = applier;
        a.checkOnly = checkOnly;
        a.done = 0;
        for (int r = 0; r < regions; r++)
        {
            final int region = index + regionOffset(r);
            final int bytes = lane.getInt(region + REGION_BYTES_OFFSET);
            a.count = bytes / a.type.size();
            final int rc = local.access(lane.getLong(region + REGION_KEY_OFFSET),
                lane.getLong(region + REGION_ADDR_OFFSET), lane.getLong(region + REGION_CONTROL_OFFSET), bytes,
                rights, a);
            if (rc != (checkOnly ? AtomicAccess.CHECKED : 0))
            {
                return rc < 0 ? rc : -Errno.FI_EIO;
            }
            a.done += bytes;
        }
        return 0;
    }
}
