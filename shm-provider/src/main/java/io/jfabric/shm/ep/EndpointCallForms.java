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
import io.jfabric.AtomicMsg;
import io.jfabric.AtomicOp;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Ioc;
import io.jfabric.Msg;
import io.jfabric.RmaIoc;
import io.jfabric.RmaIov;
import io.jfabric.shm.core.FidLifecycle;
import io.jfabric.shm.rma.AtomicSupport;

import java.nio.ByteBuffer;

import static io.jfabric.shm.lane.LaneRecordDescriptor.FLAG_CQ_DATA;
import static io.jfabric.shm.lane.LaneRecordDescriptor.FLAG_TAGGED;

/**
 * The call forms of fi_msg(3), fi_tagged(3), fi_rma(3) and fi_atomic(3) (plain, vectored, msg, inject, data, tagged), each
 * mapped onto one of the endpoint's six entry points: a send or post of one buffer or of a {@link Msg}, and an RMA
 * of one buffer or of a {@link Msg} with its target regions. The mapping sets the record flags (tagged, remote CQ
 * data), the operation flags (the endpoint's default op_flags, or the call's own) and whether a completion is
 * written; the entry points ({@link ShmEndpoint}) check arguments and hand over to the transmit and receive
 * contexts. As libfabric's ops tables do, this keeps the dozens of call forms out of the endpoint's own logic.
 * <p>
 * Threads: the data path, as the domain's threading model allows.
 */
abstract class EndpointCallForms extends FidLifecycle implements Endpoint
{
    /** The default operation flags of sends (tx_attr.op_flags). */
    final long txOpFlags;
    /** The default operation flags of receives (rx_attr.op_flags). */
    final long rxOpFlags;

    /**
     * @param fidClass the endpoint's class.
     * @param context  the application's context.
     * @param info     the endpoint's info (its op_flags defaults), may be null (the endpoint refuses it).
     */
    EndpointCallForms(final FidClass fidClass, final long context, final Info info)
    {
        super(fidClass, context);
        txOpFlags = info == null || info.txAttr() == null ? 0 : info.txAttr().opFlags();
        rxOpFlags = info == null || info.rxAttr() == null ? 0 : info.rxAttr().opFlags();
    }

    /** Send one buffer. */
    abstract long sendOne(
        ByteBuffer buf, int offset, int len, long desc, long destAddr, long tag, long data, int recordFlags,
        long opFlags, long context, boolean inject);

    /** Send the buffers of a {@link Msg}. */
    abstract long sendMany(
        Msg msg, long destAddr, long tag, long data, int recordFlags, long opFlags, long context);

    /** Post a receive of one buffer. */
    abstract long postOne(
        boolean tagged, ByteBuffer buf, int offset, int len, long srcAddr, long tag, long ignore, long context,
        long flags);

    /** Post a receive of the buffers of a {@link Msg}. */
    abstract long postMany(
        boolean tagged, Msg msg, long srcAddr, long tag, long ignore, long context, long flags);

    /** Read or write one buffer from or to one target region. */
    abstract long rmaOne(
        boolean write, ByteBuffer buf, int offset, int len, long peer, long addr, long key, boolean withData,
        long data, long context, boolean injectCall);

    /** An atomic operation of one kind on {@code count} elements; {@code compare}/{@code result} null when unused. */
    abstract long atomicOne(
        AtomicSupport.Kind kind, ByteBuffer buf, int offset, int count, ByteBuffer compare, int compareOffset,
        ByteBuffer result, int resultOffset, long peer, long addr, long key, AtomicDatatype type, AtomicOp op,
        long context, boolean injectCall);

    /**
     * An atomic operation of one kind over vectors: operands {@code iov} (null for FI_ATOMIC_READ), compare values
     * and results (null when the kind has none), target regions {@code rma} or, when null, the one at
     * {@code addr}/{@code key}.
     */
    abstract long atomicMany(
        AtomicSupport.Kind kind, Ioc iov, Ioc compare, Ioc result, RmaIoc rma, long peer, long addr, long key,
        AtomicDatatype type, AtomicOp op, long flags, long context);

    /** Read or write the buffers of a {@link Msg} from or to target regions. */
    abstract long rmaMany(
        boolean write, Msg msg, RmaIov rma, long peer, long addr, long key, long flags, long context);

    // ------------------------------------------------------------------ fi_msg(3), fi_tagged(3): sending

    @Override
    public long send(final ByteBuffer buf, final int offset, final int len, final long desc, final long destAddr,
        final long context)
    {
        return sendOne(buf, offset, len, desc, destAddr, 0, 0, 0, txOpFlags, context, false);
    }

    @Override
    public long sendv(final Msg msg, final long destAddr, final long context)
    {
        return sendMany(msg, destAddr, 0, 0, 0, txOpFlags, context);
    }

    @Override
    public long sendmsg(final Msg msg, final long flags)
    {
        if (msg == null)
        {
            return -Errno.FI_EINVAL;
        }
        final int recordFlags = (flags & Flags.FI_REMOTE_CQ_DATA) != 0 ? FLAG_CQ_DATA : 0;
        return sendMany(msg, msg.addr, msg.tag, msg.data, recordFlags, flags, msg.context);
    }

    @Override
    public long inject(final ByteBuffer buf, final int offset, final int len, final long destAddr)
    {
        return sendOne(buf, offset, len, 0, destAddr, 0, 0, 0, Flags.FI_INJECT, 0, true);
    }

    @Override
    public long senddata(final ByteBuffer buf, final int offset, final int len, final long desc, final long data,
        final long destAddr, final long context)
    {
        return sendOne(buf, offset, len, desc, destAddr, 0, data, FLAG_CQ_DATA, txOpFlags, context, false);
    }

    @Override
    public long injectdata(final ByteBuffer buf, final int offset, final int len, final long data,
        final long destAddr)
    {
        return sendOne(buf, offset, len, 0, destAddr, 0, data, FLAG_CQ_DATA, Flags.FI_INJECT, 0, true);
    }

    @Override
    public long tsend(final ByteBuffer buf, final int offset, final int len, final long desc, final long destAddr,
        final long tag, final long context)
    {
        return sendOne(buf, offset, len, desc, destAddr, tag, 0, FLAG_TAGGED, txOpFlags, context, false);
    }

    @Override
    public long tsendv(final Msg msg, final long destAddr, final long tag, final long context)
    {
        return sendMany(msg, destAddr, tag, 0, FLAG_TAGGED, txOpFlags, context);
    }

    @Override
    public long tsendmsg(final Msg msg, final long flags)
    {
        if (msg == null)
        {
            return -Errno.FI_EINVAL;
        }
        final int recordFlags = FLAG_TAGGED | ((flags & Flags.FI_REMOTE_CQ_DATA) != 0 ? FLAG_CQ_DATA : 0);
        return sendMany(msg, msg.addr, msg.tag, msg.data, recordFlags, flags, msg.context);
    }

    @Override
    public long tinject(final ByteBuffer buf, final int offset, final int len, final long destAddr, final long tag)
    {
        return sendOne(buf, offset, len, 0, destAddr, tag, 0, FLAG_TAGGED, Flags.FI_INJECT, 0, true);
    }

    @Override
    public long tsenddata(final ByteBuffer buf, final int offset, final int len, final long desc, final long data,
        final long destAddr, final long tag, final long context)
    {
        return sendOne(buf, offset, len, desc, destAddr, tag, data, FLAG_TAGGED | FLAG_CQ_DATA, txOpFlags, context,
            false);
    }

    @Override
    public long tinjectdata(final ByteBuffer buf, final int offset, final int len, final long data,
        final long destAddr, final long tag)
    {
        return sendOne(buf, offset, len, 0, destAddr, tag, data, FLAG_TAGGED | FLAG_CQ_DATA, Flags.FI_INJECT, 0,
            true);
    }

    // ------------------------------------------------------------------ fi_msg(3), fi_tagged(3): receiving

    @Override
    public long recv(final ByteBuffer buf, final int offset, final int len, final long desc, final long srcAddr,
        final long context)
    {
        return postOne(false, buf, offset, len, srcAddr, 0, 0, context, rxOpFlags);
    }

    @Override
    public long recvv(final Msg msg, final long srcAddr, final long context)
    {
        return postMany(false, msg, srcAddr, 0, 0, context, rxOpFlags);
    }

    @Override
    public long recvmsg(final Msg msg, final long flags)
    {
        if (msg == null)
        {
            return -Errno.FI_EINVAL;
        }
        return postMany(false, msg, msg.addr, 0, 0, msg.context, flags);
    }

    @Override
    public long trecv(final ByteBuffer buf, final int offset, final int len, final long desc, final long srcAddr,
        final long tag, final long ignore, final long context)
    {
        return postOne(true, buf, offset, len, srcAddr, tag, ignore, context, rxOpFlags & ~Flags.FI_MULTI_RECV);
    }

    @Override
    public long trecvv(final Msg msg, final long srcAddr, final long tag, final long ignore, final long context)
    {
        return postMany(true, msg, srcAddr, tag, ignore, context, rxOpFlags & ~Flags.FI_MULTI_RECV);
    }

    @Override
    public long trecvmsg(final Msg msg, final long flags)
    {
        if (msg == null)
        {
            return -Errno.FI_EINVAL;
        }
        return postMany(true, msg, msg.addr, msg.tag, msg.ignore, msg.context, flags);
    }

    // ------------------------------------------------------------------ fi_rma(3)

    @Override
    public long read(final ByteBuffer buf, final int offset, final int len, final long desc, final long srcAddr,
        final long addr, final long key, final long context)
    {
        return rmaOne(false, buf, offset, len, srcAddr, addr, key, false, 0, context, false);
    }

    @Override
    public long readv(final Msg msg, final long srcAddr, final long addr, final long key, final long context)
    {
        return rmaMany(false, msg, null, srcAddr, addr, key, txOpFlags, context);
    }

    @Override
    public long readmsg(final Msg msg, final RmaIov rma, final long flags)
    {
        return msg == null ? -Errno.FI_EINVAL : rmaMany(false, msg, rma, msg.addr, 0, 0, flags, msg.context);
    }

    @Override
    public long write(final ByteBuffer buf, final int offset, final int len, final long desc, final long destAddr,
        final long addr, final long key, final long context)
    {
        return rmaOne(true, buf, offset, len, destAddr, addr, key, false, 0, context, false);
    }

    @Override
    public long writev(final Msg msg, final long destAddr, final long addr, final long key, final long context)
    {
        return rmaMany(true, msg, null, destAddr, addr, key, txOpFlags, context);
    }

    @Override
    public long writemsg(final Msg msg, final RmaIov rma, final long flags)
    {
        return msg == null ? -Errno.FI_EINVAL : rmaMany(true, msg, rma, msg.addr, 0, 0, flags, msg.context);
    }

    @Override
    public long injectWrite(final ByteBuffer buf, final int offset, final int len, final long destAddr,
        final long addr, final long key)
    {
        return rmaOne(true, buf, offset, len, destAddr, addr, key, false, 0, 0, true);
    }

    @Override
    public long writedata(final ByteBuffer buf, final int offset, final int len, final long desc, final long data,
        final long destAddr, final long addr, final long key, final long context)
    {
        return rmaOne(true, buf, offset, len, destAddr, addr, key, true, data, context, false);
    }

    @Override
    public long injectWritedata(final ByteBuffer buf, final int offset, final int len, final long data,
        final long destAddr, final long addr, final long key)
    {
        return rmaOne(true, buf, offset, len, destAddr, addr, key, true, data, 0, true);
    }

    // ------------------------------------------------------------------ fi_atomic(3)

    @Override
    public long atomic(final ByteBuffer buf, final int offset, final int count, final long desc, final long destAddr,
        final long addr, final long key, final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomicOne(AtomicSupport.Kind.WRITE, buf, offset, count, null, 0, null, 0, destAddr, addr, key,
            datatype, op, context, false);
    }

    @Override
    public long injectAtomic(final ByteBuffer buf, final int offset, final int count, final long destAddr,
        final long addr, final long key, final AtomicDatatype datatype, final AtomicOp op)
    {
        return atomicOne(AtomicSupport.Kind.WRITE, buf, offset, count, null, 0, null, 0, destAddr, addr, key,
            datatype, op, 0, true);
    }

    @Override
    public long fetchAtomic(final ByteBuffer buf, final int offset, final int count, final long desc,
        final ByteBuffer result, final int resultOffset, final long resultDesc, final long destAddr, final long addr,
        final long key, final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomicOne(AtomicSupport.Kind.FETCH, buf, offset, count, null, 0, result, resultOffset, destAddr, addr,
            key, datatype, op, context, false);
    }

    @Override
    public long compareAtomic(final ByteBuffer buf, final int offset, final int count, final long desc,
        final ByteBuffer compare, final int compareOffset, final long compareDesc, final ByteBuffer result,
        final int resultOffset, final long resultDesc, final long destAddr, final long addr, final long key,
        final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomicOne(AtomicSupport.Kind.COMPARE, buf, offset, count, compare, compareOffset, result,
            resultOffset, destAddr, addr, key, datatype, op, context, false);
    }

    @Override
    public long atomicv(final Ioc iov, final long destAddr, final long addr, final long key,
        final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomicMany(AtomicSupport.Kind.WRITE, iov, null, null, null, destAddr, addr, key, datatype, op,
            txOpFlags, context);
    }

    @Override
    public long atomicmsg(final AtomicMsg msg, final long flags)
    {
        return msg == null ? -Errno.FI_EINVAL : atomicMany(AtomicSupport.Kind.WRITE, msg.msgIov, null, null,
            msg.rmaIov, msg.addr, 0, 0, msg.datatype, msg.op, flags, msg.context);
    }

    @Override
    public long fetchAtomicv(final Ioc iov, final Ioc result, final long destAddr, final long addr, final long key,
        final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomicMany(AtomicSupport.Kind.FETCH, iov, null, result, null, destAddr, addr, key, datatype, op,
            txOpFlags, context);
    }

    @Override
    public long fetchAtomicmsg(final AtomicMsg msg, final Ioc result, final long flags)
    {
        return msg == null ? -Errno.FI_EINVAL : atomicMany(AtomicSupport.Kind.FETCH, msg.msgIov, null, result,
            msg.rmaIov, msg.addr, 0, 0, msg.datatype, msg.op, flags, msg.context);
    }

    @Override
    public long compareAtomicv(final Ioc iov, final Ioc compare, final Ioc result, final long destAddr,
        final long addr, final long key, final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomicMany(AtomicSupport.Kind.COMPARE, iov, compare, result, null, destAddr, addr, key, datatype, op,
            txOpFlags, context);
    }

    @Override
    public long compareAtomicmsg(final AtomicMsg msg, final Ioc compare, final Ioc result, final long flags)
    {
        return msg == null ? -Errno.FI_EINVAL : atomicMany(AtomicSupport.Kind.COMPARE, msg.msgIov, compare, result,
            msg.rmaIov, msg.addr, 0, 0, msg.datatype, msg.op, flags, msg.context);
    }

    @Override
    public int atomicValid(final AtomicDatatype datatype, final AtomicOp op)
    {
        return valid(AtomicSupport.Kind.WRITE, datatype, op);
    }

    @Override
    public int fetchAtomicValid(final AtomicDatatype datatype, final AtomicOp op)
    {
        return valid(AtomicSupport.Kind.FETCH, datatype, op);
    }

    @Override
    public int compareAtomicValid(final AtomicDatatype datatype, final AtomicOp op)
    {
        return valid(AtomicSupport.Kind.COMPARE, datatype, op);
    }

    private static int valid(final AtomicSupport.Kind kind, final AtomicDatatype datatype, final AtomicOp op)
    {
        return datatype == null || op == null ? -Errno.FI_EINVAL : AtomicSupport.count(kind, datatype, op);
    }
}
