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

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Ioc;
import io.jfabric.Msg;
import io.jfabric.RmaIoc;
import io.jfabric.RmaIov;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.core.ShmCapabilities;
import io.jfabric.shm.lane.LaneRecordDescriptor;
import io.jfabric.shm.progress.Progressable;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.rma.AtomicSupport;
import io.jfabric.shm.rx.RxContext;
import io.jfabric.shm.tx.TxContext;

import java.nio.ByteBuffer;

/**
 * The data-path entry points of an endpoint (see {@link ShmEndpoint}): each checks the endpoint's state and its
 * arguments, then hands the call to the transmit context ({@link TxContext}: sends, the zero-copy claim, RMA, atomics)
 * or the receive context ({@link RxContext}: posts, cancels), and turns a fault of the region (its file truncated: an
 * {@link InternalError} on access) into -FI_EIO. {@link ShmEndpoint}, the control path (open, bind, enable, names,
 * options, close), extends it: one object in two files, so a call reads the contexts and limits from {@code this}
 * and through no other object. The call forms themselves ({@link EndpointCallForms}) are mapped above.
 * <p>
 * Threads: the application's, as the domain's threading model allows; each context says what it guards.
 * {@link #progress} any thread.
 */
abstract class EndpointDataPath extends EndpointCallForms implements Progressable
{
    static final int OPEN = 0;
    static final int ENABLED = 1;
    static final int CLOSED = 2;

    final RegionFile regionFile;
    final long maxMsgSize;
    final int inlineLimit;
    final int injectSize;
    /** Buffers per operation (tx_attr.iov_limit, 4 when not given). */
    final int iovLimit;
    /** 0, or -FI_ENOSYS when the endpoint may not send (FI_RECV without FI_SEND, a receive context). */
    final int sendRefusal;
    /** 0, or -FI_ENOSYS when the endpoint may not receive (FI_SEND without FI_RECV, a transmit context). */
    final int recvRefusal;
    /** 0, or -FI_ENOSYS when the endpoint may not initiate RMA (opened without FI_RMA, or receive only). */
    final int rmaRefusal;
    /** 0, or -FI_ENOSYS when the endpoint may not initiate atomics (opened without FI_ATOMIC, or receive only). */
    final int atomicRefusal;
    volatile int state = OPEN;
    /** The contexts, made at enable. */
    TxContext tx;
    RxContext rx;

    /**
     * @param fidClass EP, TX_CTX, RX_CTX or SRX_CTX.
     * @param context  user context.
     * @param info     the info the endpoint is opened with (FI_EINVAL when null).
     * @param domain   the domain: its region and settings (inject.size, checksums).
     */
    EndpointDataPath(final FidClass fidClass, final long context, final Info info, final DomainContext domain)
    {
        super(fidClass, context, info);
        if (info == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_endpoint: info is null");
        }
        regionFile = domain.region();
        final ShmConfig config = domain.config();
        inlineLimit = LaneRecordDescriptor.inlineLimit(regionFile.geometry().rxRingBytes(), config.checksum());
        injectSize = Math.min(config.injectSize(), inlineLimit);
        maxMsgSize = info.epAttr() != null && info.epAttr().maxMsgSize() > 0 ? info.epAttr().maxMsgSize() :
            Integer.MAX_VALUE;
        iovLimit = info.txAttr() != null && info.txAttr().iovLimit() > 0 ? (int)info.txAttr().iovLimit() : 4;
        final long caps = info.caps();
        sendRefusal = (caps & Flags.FI_RECV) != 0 && (caps & Flags.FI_SEND) == 0 ? -Errno.FI_ENOSYS : 0;
        recvRefusal = (caps & Flags.FI_SEND) != 0 && (caps & Flags.FI_RECV) == 0 ? -Errno.FI_ENOSYS : 0;
        rmaRefusal = (caps & Flags.FI_RMA) == 0 ? -Errno.FI_ENOSYS : sendRefusal;
        atomicRefusal = (caps & Flags.FI_ATOMIC) == 0 ? -Errno.FI_ENOSYS : sendRefusal;
    }

    // ------------------------------------------------------------------ data path entry points

    @Override
    long sendOne(
        final ByteBuffer buf, final int offset, final int len, final long desc, final long destAddr, final long tag,
        final long data, final int recordFlags, final long opFlags, final long context, final boolean inject)
    {
        try
        {
            final boolean copyNow = inject || (opFlags & Flags.FI_INJECT) != 0;
            final int refused = oneRefused(sendRefusal, buf, offset, len, false, copyNow);
            return refused != 0 ? refused : tx.send(null, buf, offset, desc, len, destAddr, tag, data, recordFlags,
                opFlags, context, copyNow, inject);
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
    }

    @Override
    long sendMany(
        final Msg msg, final long destAddr, final long tag, final long data, final int recordFlags,
        final long opFlags, final long context)
    {
        try
        {
            final long total = manyTotal(sendRefusal, msg);
            final boolean inject = (opFlags & Flags.FI_INJECT) != 0;
            final long refused = total < 0 ? total : sizeRefused(inject, total);
            return refused != 0 ? refused :
                tx.send(msg, null, 0, 0, total, destAddr, tag, data, recordFlags, opFlags, context, inject, false);
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
    }

    /**
     * @param refusal 0, or the errno the call's direction returns on this endpoint (FI_ENOSYS without its cap).
     * @return 0 when the data path may be used, else the negated errno a call returns: FI_EIO once the region
     * faulted (its file was truncated: see {@code RegionWatch}).
     */
    private int unusable(final int refusal)
    {
        final int s = state;
        if (s == ENABLED)
        {
            return regionFile.fault() == null ? refusal : -Errno.FI_EIO;
        }
        return s == CLOSED ? -Errno.FI_EBADF : -Errno.FI_EOPBADSTATE;
    }

    /**
     * The checks of a call on one buffer, in the order every such call makes them: the endpoint's state and the
     * call's direction ({@link #unusable}), the buffer's range (and, for an RMA read, that it is writable), the size.
     *
     * @param refusal  the direction's refusal, as for {@link #unusable}.
     * @param writable whether the buffer receives bytes (an RMA read): a read-only one is -FI_EINVAL.
     * @param copyNow  whether the bytes are copied out before the call returns: at most inject_size.
     * @return 0 when the call may go on, else its negated errno.
     */
    private int oneRefused(
        final int refusal, final ByteBuffer buf, final int offset, final int len, final boolean writable,
        final boolean copyNow)
    {
        final int refused = bufferRefused(refusal, buf, offset, len, writable);
        return refused != 0 ? refused : (int)sizeRefused(copyNow, len);
    }

    /**
     * {@link #oneRefused} without the size: a receive's buffer may be any size.
     *
     * @return 0 when the call may go on, else its negated errno.
     */
    private int bufferRefused(
        final int refusal, final ByteBuffer buf, final int offset, final int len, final boolean writable)
    {
        final int unusable = unusable(refusal);
        return unusable != 0 ? unusable :
            invalidBuffer(buf, offset, len) || writable && DestinationBuffers.readOnly(buf) ? -Errno.FI_EINVAL : 0;
    }

    /**
     * @param copyNow whether the bytes are copied out before the call returns (inject).
     * @param total   the message's bytes.
     * @return 0, or -FI_EMSGSIZE when it is above max_msg_size, or above inject_size and copied now.
     */
    private long sizeRefused(final boolean copyNow, final long total)
    {
        return copyNow && total > injectSize || total > maxMsgSize ? -Errno.FI_EMSGSIZE : 0;
    }

    /**
     * @param refusal the direction's refusal, as for {@link #unusable}.
     * @return the bytes of {@code msg}'s buffers (see {@link #msgTotal}), or the negated errno of
     * {@link #unusable}.
     */
    private long manyTotal(final int refusal, final Msg msg)
    {
        final int unusable = unusable(refusal);
        return unusable != 0 ? unusable : msgTotal(msg);
    }

    /**
     * @return the bytes of {@code msg}'s buffers, or -FI_EINVAL when it is null, its count is outside its arrays or
     * above iov_limit, or a buffer's range is not inside it.
     */
    private long msgTotal(final Msg msg)
    {
        if (msg == null || msg.iovCount < 0 || msg.iovCount > msg.iov.length || msg.iovCount > iovLimit)
        {
            return -Errno.FI_EINVAL;
        }
        long total = 0;
        for (int i = 0; i < msg.iovCount; i++)
        {
            if (invalidBuffer(msg.iov[i], msg.iovOffset[i], msg.iovLength[i]))
            {
                return -Errno.FI_EINVAL;
            }
            total += msg.iovLength[i];
        }
        return total;
    }

    private static boolean invalidBuffer(final ByteBuffer buf, final int offset, final int len)
    {
        return len < 0 || (buf == null ? len != 0 : offset < 0 || offset > buf.capacity() - len);
    }

    // ------------------------------------------------------------------ zero copy

    @Override
    public final long claim(final long destAddr, final int length, final long tag, final long data, final long flags)
    {
        try
        {
            final int unusable = unusable(sendRefusal);
            if (unusable != 0)
            {
                return unusable;
            }
            if (length < 0 || length > injectSize || (flags & ~(Flags.FI_TAGGED | Flags.FI_REMOTE_CQ_DATA)) != 0)
            {
                return -Errno.FI_EINVAL;
            }
            return tx.claim(destAddr, length, tag, data, flags);
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
    }

    @Override
    long postOne(
        final boolean tagged, final ByteBuffer buf, final int offset, final int len, final long srcAddr,
        final long tag, final long ignore, final long context, final long flags)
    {
        try
        {
            final int refused = bufferRefused(recvRefusal, buf, offset, len, false);
            return refused != 0 ? refused : rx.post(tagged, buf, offset, len, srcAddr, tag, ignore, context, flags);
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
    }

    @Override
    long postMany(
        final boolean tagged, final Msg msg, final long srcAddr, final long tag, final long ignore,
        final long context, final long flags)
    {
        try
        {
            final int unusable = unusable(recvRefusal);
            if (unusable != 0)
            {
                return unusable;
            }
            if (msg == null || msg.iovCount < 0 || msg.iovCount > msg.iov.length)
            {
                return -Errno.FI_EINVAL;
            }
            return rx.post(tagged, msg, srcAddr, tag, ignore, context, flags);
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
    }

    @Override
    public final long cancel(final long context)
    {
        try
        {
            final int unusable = unusable(0);
            return unusable != 0 ? unusable : rx.cancel(context);
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
    }

    @Override
    long rmaOne(
        final boolean write, final ByteBuffer buf, final int offset, final int len, final long peer,
        final long addr, final long key, final boolean withData, final long data, final long context,
        final boolean injectCall)
    {
        try
        {
            final int refused = oneRefused(rmaRefusal, buf, offset, len, !write, injectCall);
            return refused != 0 ? refused : tx.rma(write, null, buf, offset, len, null, peer, addr, key, withData,
                data, txOpFlags, context, injectCall);
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
    }

    @Override
    long atomicOne(
        final AtomicSupport.Kind kind, final ByteBuffer buf, final int offset, final int count,
        final ByteBuffer compare, final int compareOffset, final ByteBuffer result, final int resultOffset,
        final long peer, final long addr, final long key, final AtomicDatatype type, final AtomicOp op,
        final long context, final boolean injectCall)
    {
        try
        {
            final int refused = atomicRefused(type, op);
            final int checked = refused != 0 ? refused : AtomicSupport.check(kind, type, op, count);
            if (checked != 0)
            {
                return checked;
            }
            final int length = count * type.size();
            if (!(buf == null && op == AtomicOp.ATOMIC_READ) && invalidBuffer(buf, offset, length) ||
                compare != null && invalidBuffer(compare, compareOffset, length) ||
                result != null && (invalidBuffer(result, resultOffset, length) || result.isReadOnly()) ||
                kind != AtomicSupport.Kind.WRITE && result == null ||
                kind == AtomicSupport.Kind.COMPARE && compare == null)
            {
                return -Errno.FI_EINVAL;
            }
            if (injectCall && length > injectSize)
            {
                return -Errno.FI_EMSGSIZE;
            }
            return tx.atomic(kind, type, op, buf, offset, count, compare, compareOffset, result, resultOffset, peer,
                addr, key, txOpFlags, context, injectCall);
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
    }

    /** @return 0 when an atomic of this pair may be tried now, else the negated errno of the refusal. */
    private int atomicRefused(final AtomicDatatype type, final AtomicOp op)
    {
        final int unusable = unusable(atomicRefusal);
        return unusable != 0 ? unusable : type == null || op == null ? -Errno.FI_EINVAL : 0;
    }

    @Override
    long atomicMany(
        final AtomicSupport.Kind kind, final Ioc iov, final Ioc compare, final Ioc result, final RmaIoc rma,
        final long peer, final long addr, final long key, final AtomicDatatype type, final AtomicOp op,
        final long flags, final long context)
    {
        try
        {
            final int refused = atomicRefused(type, op);
            if (refused != 0)
            {
                return refused;
            }
            final boolean readOnly = iov == null || iov.count == 0;
            final long count = readOnly && op == AtomicOp.ATOMIC_READ ?
                (result != null ? iocElements(result, type) : rma != null ? rma.totalElements() : -1) :
                iocElements(iov, type);
            final int checked = count < 0 || count > Integer.MAX_VALUE ? -Errno.FI_EINVAL :
                AtomicSupport.check(kind, type, op, (int)count);
            if (checked != 0)
            {
                return checked;
            }
            if (kind != AtomicSupport.Kind.WRITE && (iocElements(result, type) != count ||
                DestinationBuffers.anyReadOnly(result)) ||
                kind == AtomicSupport.Kind.COMPARE && iocElements(compare, type) != count ||
                rma != null && (rma.count > ShmCapabilities.RMA_IOV_LIMIT || rma.totalElements() != count))
            {
                return -Errno.FI_EINVAL;
            }
            if ((flags & Flags.FI_REMOTE_CQ_DATA) != 0)
            {
                return -Errno.FI_EBADFLAGS; // shm gives atomics no remote completion (API-MAP, "Atomics")
            }
            if ((flags & Flags.FI_INJECT) != 0 && (readOnly ? 0 : count * type.size()) > injectSize) // operands
            {
                return -Errno.FI_EMSGSIZE;
            }
            return tx.atomicVector(kind, type, op, readOnly ? null : iov, compare, result, rma, (int)count, peer,
                addr, key, flags, context);
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
    }

    /**
     * @return the elements of a vector whose entries are all valid buffers within the iov limit, else -1.
     */
    private long iocElements(final Ioc ioc, final AtomicDatatype type)
    {
        final long total = ioc == null || ioc.count > iovLimit ? -1 : ioc.totalElements();
        for (int i = 0; total > 0 && i < ioc.count; i++)
        {
            if (invalidBuffer(ioc.buf[i], ioc.offset[i], ioc.elements[i] * type.size()))
            {
                return -1;
            }
        }
        return total;
    }

    @Override
    long rmaMany(
        final boolean write, final Msg msg, final RmaIov rma, final long peer, final long addr, final long key,
        final long flags, final long context)
    {
        try
        {
            final long total = manyTotal(rmaRefusal, msg);
            if (total < 0)
            {
                return total;
            }
            if (!write && DestinationBuffers.anyReadOnly(msg) ||
                rma != null && (rma.count < 1 || rma.count > rma.addr.length ||
                rma.count > ShmCapabilities.RMA_IOV_LIMIT || rma.totalLength() != total))
            {
                return -Errno.FI_EINVAL;
            }
            final long tooLarge = sizeRefused((flags & Flags.FI_INJECT) != 0, total);
            if (tooLarge != 0)
            {
                return tooLarge;
            }
            return tx.rma(write, msg, null, 0, 0, rma, peer, addr, key,
                write && (flags & Flags.FI_REMOTE_CQ_DATA) != 0, msg.data, flags, context, false);
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            return regionFile.faulted(ex);
        }
    }

    // ------------------------------------------------------------------ progress

    /**
     * Progress both contexts once. Any thread: each context skips its part while another thread is progressing it
     * (and is a no-op once closed).
     *
     * @return work done.
     */
    @Override
    public final int progress()
    {
        try
        {
            if (state != ENABLED || regionFile.fault() != null)
            {
                return 0;
            }
            return tx.progress() + rx.progress();
        }
        catch (final InternalError | IndexOutOfBoundsException ex)
        {
            regionFile.faulted(ex);
            return 0;
        }
    }
}
