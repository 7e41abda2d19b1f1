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
package io.jfabric.shm.ep;

import io.jfabric.Addresses;
import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Ioc;
import io.jfabric.Msg;
import io.jfabric.RmaIoc;
import io.jfabric.RmaIov;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.rma.AtomicOps;
import io.jfabric.shm.rma.AtomicSupport;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The initiator's side of RMA (fi_rma(3)) for one endpoint: copies between the caller's buffers and a peer's
 * registered memory straight through the domain's key table ({@link RemoteMemory}: a one-sided copy, no target
 * CPU), local buffers and target regions gathered and scattered in order, then reports the operation on the
 * transmit CQ and the FI_READ / FI_WRITE counters. Memory registered for remote access is always shareable in shm
 * (registration refuses remote access to heap and direct buffers), so every RMA takes this path.
 * <p>
 * Threads: the endpoint's sending side, under its send guard (the view is not thread safe).
 */
final class RmaInitiator
{
    private final RemoteMemory remote;
    private final ShmCompletionQueue cq;
    private final ShmCounter readCounter;
    private final ShmCounter writeCounter;
    private final UnsafeBuffer local = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer compareView = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer resultView = new UnsafeBuffer(0, 0);
    private final AtomicAccess atomic = new AtomicAccess();
    private final UnsafeBuffer staged = new UnsafeBuffer(0, 0);
    private ByteBuffer stageSource;
    private ByteBuffer stageCompare;
    private ByteBuffer stageResult;

    /**
     * @param remote       a view of the domain's registered memory, closed by {@link #close}.
     * @param cq           the CQ bound with FI_TRANSMIT, or null.
     * @param readCounter  the counter bound with FI_READ, or null.
     * @param writeCounter the counter bound with FI_WRITE, or null.
     */
    RmaInitiator(
        final RemoteMemory remote,
        final ShmCompletionQueue cq,
        final ShmCounter readCounter,
        final ShmCounter writeCounter)
    {
        this.remote = remote;
        this.cq = cq;
        this.readCounter = readCounter;
        this.writeCounter = writeCounter;
    }

    /**
     * Copy one local buffer to or from one target region.
     *
     * @return 0, or the negated errno of {@link RemoteMemory}.
     */
    int copy(final boolean write, final ByteBuffer buf, final int offset, final int len, final long addr,
        final long key)
    {
        if (len == 0)
        {
            return 0;
        }
        local.wrap(buf, offset, len);
        return write ? remote.write(key, addr, local, 0, len) : remote.read(key, addr, local, 0, len);
    }

    /**
     * Copy the buffers of {@code msg} in order to or from the target regions of {@code rma} (or, when it is null,
     * the one region at {@code addr} under {@code key}), stopping at the first error.
     *
     * @return 0, or the negated errno of the first copy that failed.
     */
    int copy(final boolean write, final Msg msg, final RmaIov rma, final long addr, final long key)
    {
        int target = 0;
        long targetDone = 0;
        for (int i = 0; i < msg.iovCount; i++)
        {
            int done = 0;
            while (done < msg.iovLength[i])
            {
                final long targetAddr = rma == null ? addr + targetDone : rma.addr[target] + targetDone;
                final long targetLeft = rma == null ? Long.MAX_VALUE : rma.length[target] - targetDone;
                final int chunk = (int)Math.min(msg.iovLength[i] - done, targetLeft);
                final int rc = copy(write, msg.iov[i], msg.iovOffset[i] + done, chunk, targetAddr,
                    rma == null ? key : rma.key[target]);
                if (rc != 0)
                {
                    return rc;
                }
                done += chunk;
                targetDone += chunk;
                if (rma != null && targetDone == rma.length[target])
                {
                    target++;
                    targetDone = 0;
                }
            }
        }
        return 0;
    }

    /**
     * An atomic operation (fi_atomic(3)) on {@code count} elements of the target at {@code addr}, in place in the
     * peer's shareable memory ({@link AtomicOps}: hardware atomics, so atomic with respect to every process that
     * maps it). {@code compare} and {@code result} are null when the kind has none.
     *
     * @return 0, or a negated errno: of the access (key, rights, range), or FI_EINVAL for a misaligned target.
     */
    int atomic(
        final AtomicSupport.Kind kind, final AtomicDatatype type, final AtomicOp op, final ByteBuffer buf,
        final int offset, final int count, final ByteBuffer compare, final int compareOffset, final ByteBuffer result,
        final int resultOffset, final long addr, final long key)
    {
        final int length = count * type.size();
        if (buf != null)
        {
            local.wrap(buf, offset, length);
        }
        if (compare != null)
        {
            compareView.wrap(compare, compareOffset, length);
        }
        if (result != null)
        {
            resultView.wrap(result, resultOffset, length);
        }
        final AtomicAccess a = atomic;
        a.kind = kind;
        a.type = type;
        a.op = op;
        a.count = count;
        a.source = buf == null ? null : local;
        return remote.access(key, addr, length, rights(kind, op), a);
    }

    /**
     * A vectored atomic operation: the operands (and compare values) gathered in order into staging buffers, the
     * operation applied to the target regions one after the other ({@link #atomic} per region, stopping at the
     * first error), and on success the values before scattered in order over {@code result}. Elements of one region
     * are atomic one by one, as in {@link #atomic}; the call as a whole is not.
     *
     * @param iov     operands, or null (FI_ATOMIC_READ).
     * @param compare compare values, or null.
     * @param result  where the values before go, or null.
     * @param rmaIoc  target regions, or null for the one at {@code addr} / {@code key}.
     * @param count   elements, all told (checked against every vector and the operand limit by the caller).
     * @return 0, or the negated errno of the first region that failed.
     */
    int atomicVector(
        final AtomicSupport.Kind kind, final AtomicDatatype type, final AtomicOp op, final Ioc iov, final Ioc compare,
        final Ioc result, final RmaIoc rmaIoc, final int count, final long addr, final long key)
    {
        if (stageSource == null)
        {
            stageSource = ByteBuffer.allocateDirect(AtomicSupport.OPERAND_BYTES);
            stageCompare = ByteBuffer.allocateDirect(AtomicSupport.OPERAND_BYTES);
            stageResult = ByteBuffer.allocateDirect(AtomicSupport.OPERAND_BYTES);
        }
        final int size = type.size();
        gather(iov, size, stageSource);
        gather(compare, size, stageCompare);
        final int regions = rmaIoc == null ? 1 : rmaIoc.count;
        if (regions > 1)
        {
            final int checked = checkRegions(kind, type, op, rmaIoc);
            if (checked != 0)
            {
                return checked;
            }
        }
        int done = 0;
        for (int j = 0; j < regions; j++)
        {
            final int n = rmaIoc == null ? count : rmaIoc.elements[j];
            if (n == 0)
            {
                continue;
            }
            final int rc = atomic(kind, type, op, iov == null ? null : stageSource, done * size, n,
                compare == null ? null : stageCompare, done * size, result == null ? null : stageResult, done * size,
                rmaIoc == null ? addr : rmaIoc.addr[j], rmaIoc == null ? key : rmaIoc.key[j]);
            if (rc != 0)
            {
                return rc;
            }
            done += n;
        }
        scatter(result, size, stageResult);
        return 0;
    }

    /**
     * Check every target region (key, rights, range, alignment) before the first is changed, so that a call whose
     * later region would fail changes nothing.
     *
     * @return 0, or the negated errno of the first region that would fail.
     */
    private int checkRegions(final AtomicSupport.Kind kind, final AtomicDatatype type, final AtomicOp op,
        final RmaIoc rmaIoc)
    {
        final AtomicAccess a = atomic;
        a.checkOnly = true;
        try
        {
            for (int j = 0; j < rmaIoc.count; j++)
            {
                a.type = type;
                a.count = rmaIoc.elements[j];
                final int rc = remote.access(rmaIoc.key[j], rmaIoc.addr[j], rmaIoc.elements[j] * type.size(),
                    rights(kind, op), a);
                if (rc != AtomicAccess.CHECKED)
                {
                    return rc < 0 ? rc : -Errno.FI_EIO;
                }
            }
            return 0;
        }
        finally
        {
            a.checkOnly = false;
        }
    }

    private static long rights(final AtomicSupport.Kind kind, final AtomicOp op)
    {
        return kind == AtomicSupport.Kind.WRITE ? Flags.FI_REMOTE_WRITE :
            op == AtomicOp.ATOMIC_READ ? Flags.FI_REMOTE_READ : Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE;
    }

    private void gather(final Ioc ioc, final int size, final ByteBuffer stage)
    {
        if (ioc == null)
        {
            return;
        }
        staged.wrap(stage);
        int at = 0;
        for (int i = 0; i < ioc.count; i++)
        {
            final int bytes = ioc.elements[i] * size;
            staged.putBytes(at, ioc.buf[i], ioc.offset[i], bytes);
            at += bytes;
        }
    }

    private void scatter(final Ioc ioc, final int size, final ByteBuffer stage)
    {
        if (ioc == null)
        {
            return;
        }
        staged.wrap(stage);
        int at = 0;
        for (int i = 0; i < ioc.count; i++)
        {
            final int bytes = ioc.elements[i] * size;
            staged.getBytes(at, ioc.buf[i], ioc.offset[i], bytes);
            at += bytes;
        }
    }

    /** The operation {@link #atomic} runs in the peer's memory; one per initiator, refilled for every call. */
    private final class AtomicAccess implements RemoteMemory.SegmentAccess
    {
        /** What a check-only access returns when the target is fit. */
        static final int CHECKED = 1;
        boolean checkOnly;
        AtomicSupport.Kind kind;
        AtomicDatatype type;
        AtomicOp op;
        int count;
        UnsafeBuffer source;

        @Override
        public int access(final AtomicBuffer memory, final int index, final int length)
        {
            if (checkOnly)
            {
                final int rc = AtomicOps.checkTarget(type, memory, index, count);
                return rc != 0 ? rc : CHECKED;
            }
            switch (kind)
            {
                case WRITE:
                    return AtomicOps.apply(type, op, memory, index, source, 0, count);
                case FETCH:
                    return AtomicOps.fetch(type, op, memory, index, source, 0, resultView, 0, count);
                default:
                    return AtomicOps.compare(type, op, memory, index, source, 0, compareView, 0, resultView, 0, count);
            }
        }
    }

    /**
     * Report a finished atomic operation: FI_ATOMIC with FI_WRITE (fi_atomic) or FI_READ (fetching forms), or an
     * error entry; the counter of that direction.
     */
    void finishAtomic(final boolean fetching, final int rc, final boolean completion, final long context,
        final long length)
    {
        report(Flags.FI_ATOMIC | (fetching ? Flags.FI_READ : Flags.FI_WRITE), fetching ? readCounter : writeCounter,
            rc, completion, context, length);
    }

    /**
     * Report a finished operation: a completion (FI_RMA | FI_READ or FI_WRITE) when one is wanted, or an error
     * entry, always; the counter of its direction.
     *
     * @param write      whether it was a write.
     * @param rc         0 or the negated errno of the copy.
     * @param completion whether a successful completion is wanted (not inject, selective rules).
     * @param context    the operation's context.
     * @param length     the bytes it moved.
     */
    void finish(final boolean write, final int rc, final boolean completion, final long context, final long length)
    {
        report(Flags.FI_RMA | (write ? Flags.FI_WRITE : Flags.FI_READ), write ? writeCounter : readCounter, rc,
            completion, context, length);
    }

    private void report(
        final long flags, final ShmCounter c, final int rc, final boolean completion, final long context,
        final long length)
    {
        if (rc == 0)
        {
            if (completion && cq != null)
            {
                cq.write(context, flags, 0, 0, 0, 0, Addresses.FI_ADDR_NOTAVAIL);
            }
            if (c != null)
            {
                c.add(1);
            }
            return;
        }
        if (cq != null)
        {
            cq.writeError(context, flags, 0, 0, 0, 0, length, -rc, Addresses.FI_ADDR_NOTAVAIL);
        }
        if (c != null)
        {
            c.addErr(1);
        }
    }

    /**
     * Count a successful operation at its target endpoint (FI_REMOTE_READ / FI_REMOTE_WRITE counters).
     *
     * @param counterPlusOne the counter word of the target's slot.
     */
    void countAtTarget(final int counterPlusOne)
    {
        remote.countEvent(counterPlusOne);
    }

    /** Close the view. Control path, send guard held. */
    void close()
    {
        remote.close();
    }

    /** @return -FI_EAGAIN when the CQ has no room for the entry this operation may write, else 0. */
    int roomCheck()
    {
        return cq != null && !cq.hasRoom() ? -Errno.FI_EAGAIN : 0;
    }
}
