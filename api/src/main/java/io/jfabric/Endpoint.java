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
package io.jfabric;

import java.nio.ByteBuffer;

/**
 * An endpoint ({@code struct fid_ep}, fi_endpoint(3)) with the message (fi_msg(3)) and tagged message
 * (fi_tagged(3)) operations, plus a zero-copy send (see {@link MessageClaim}).
 * <p>
 * Control path ({@link #bind}, {@link #enable}, {@link #getname}, {@link #setname}, {@link #setOpt},
 * {@link #close()}) throws {@link FabricException}. Data path (send, inject, recv, their variants, cancel, claim)
 * returns 0 on success or a negated errno, never throws, never allocates: {@code -FI_EAGAIN} when a queue that must
 * take the operation has no room (the caller progresses, for instance by reading its CQ, and retries);
 * {@code -FI_EINVAL} for bad arguments; {@code -FI_EMSGSIZE} for a message above max_msg_size, or an inject (the
 * inject calls, or FI_INJECT in a *msg call's flags) above inject_size; {@code -FI_EOPBADSTATE} before
 * {@link #enable}; {@code -FI_EBADF} after close; {@code -FI_ENOSYS} for an operation the endpoint was not opened
 * with the capability for. Buffers are {@link ByteBuffer}s (direct or heap) addressed by an absolute index and a
 * length; their position and limit are ignored. A posted receive's buffer belongs to the provider until its
 * completion.
 * <p>
 * Which threads may call what is the domain's threading model (fi_domain(3)): under {@link Threading#SAFE} any
 * thread may call anything; under the others the application serializes as the model says.
 */
public interface Endpoint extends Fid
{
    /** {@code fi_getopt}/{@code fi_setopt} level {@code FI_OPT_ENDPOINT}. */
    int FI_OPT_ENDPOINT = 0;
    /** Option {@code FI_OPT_MIN_MULTI_RECV} (size_t). */
    int FI_OPT_MIN_MULTI_RECV = 0;
    /** Option {@code FI_OPT_CM_DATA_SIZE} (size_t, read only). */
    int FI_OPT_CM_DATA_SIZE = 1;
    /** Option {@code FI_OPT_BUFFERED_MIN} (size_t). */
    int FI_OPT_BUFFERED_MIN = 2;
    /** Option {@code FI_OPT_BUFFERED_LIMIT} (size_t). */
    int FI_OPT_BUFFERED_LIMIT = 3;
    /** Option {@code FI_OPT_MAX_MSG_SIZE} (size_t). */
    int FI_OPT_MAX_MSG_SIZE = 12;
    /** Option {@code FI_OPT_MAX_TAGGED_SIZE} (size_t). */
    int FI_OPT_MAX_TAGGED_SIZE = 13;
    /** Option {@code FI_OPT_INJECT_MSG_SIZE} (size_t). */
    int FI_OPT_INJECT_MSG_SIZE = 16;
    /** Option {@code FI_OPT_INJECT_TAGGED_SIZE} (size_t). */
    int FI_OPT_INJECT_TAGGED_SIZE = 17;

    /** @return a copy of the info the endpoint was opened with, as adjusted by the provider. */
    Info info();

    /**
     * {@code fi_ep_bind}: bind an address vector (flags 0), a completion queue (FI_TRANSMIT, FI_RECV,
     * FI_SELECTIVE_COMPLETION), a counter (FI_SEND, FI_RECV, FI_READ, FI_WRITE, FI_REMOTE_READ, FI_REMOTE_WRITE) or
     * an event queue (flags 0). Before {@link #enable} only. The bound object's close fails with FI_EBUSY until this
     * endpoint is closed.
     *
     * @param fid   the object.
     * @param flags as above.
     */
    void bind(Fid fid, long flags);

    /** {@code fi_enable}: FI_ENOAV without an AV, FI_ENOCQ without the CQs its capabilities need. */
    void enable();

    /**
     * {@code fi_getname}.
     *
     * @param addr receives the address bytes, may be shorter than needed.
     * @return the address length; throws FI_ETOOSMALL (the message carries the needed length) when {@code addr} is
     *         too short.
     */
    int getname(byte[] addr);

    /** @return {@code fi_getname} into a new array of the right length. */
    byte[] getname();

    /**
     * {@code fi_setname}: before {@link #enable} only (FI_EOPBADSTATE after).
     *
     * @param addr an address this provider printed or accepts (fi_av_straddr form).
     */
    void setname(byte[] addr);

    /**
     * {@code fi_getopt} at level {@link #FI_OPT_ENDPOINT}.
     *
     * @param optName option.
     * @return its value; FI_ENOPROTOOPT for an option this endpoint does not have.
     */
    long getOpt(int optName);

    /**
     * {@code fi_setopt} at level {@link #FI_OPT_ENDPOINT}.
     *
     * @param optName option.
     * @param value   value.
     */
    void setOpt(int optName, long value);

    // ---- fi_rma(3) ----

    /**
     * {@code fi_read}: copy {@code len} bytes of the target region ({@code key}, at {@code addr}) of the peer
     * {@code srcAddr} into {@code buf}. Completes with FI_RMA | FI_READ on the transmit CQ, or an error entry (the
     * errno: FI_EKEYREJECTED unknown key, FI_EACCES no remote read access or another authorization key, FI_EINVAL a
     * range outside the region).
     *
     * @return 0, or a negated errno for what is refused before anything moves (FI_EAGAIN, FI_EINVAL, ...).
     */
    long read(ByteBuffer buf, int offset, int len, long desc, long srcAddr, long addr, long key, long context);

    /** {@code fi_readv}: {@link #read} into the buffers of {@code msg} (its iov, count and desc only). */
    long readv(Msg msg, long srcAddr, long addr, long key, long context);

    /**
     * {@code fi_readmsg}: {@code msg} gives the local buffers, {@code msg.addr} the peer, {@code msg.context};
     * {@code rma} the target regions; flags FI_COMPLETION, FI_MORE.
     */
    long readmsg(Msg msg, RmaIov rma, long flags);

    /**
     * {@code fi_write}: copy {@code len} bytes of {@code buf} into the target region. Completes with FI_RMA |
     * FI_WRITE on the transmit CQ, or an error entry as for {@link #read} (FI_EACCES: no remote write access).
     */
    long write(ByteBuffer buf, int offset, int len, long desc, long destAddr, long addr, long key, long context);

    /** {@code fi_writev}: {@link #write} from the buffers of {@code msg}. */
    long writev(Msg msg, long destAddr, long addr, long key, long context);

    /**
     * {@code fi_writemsg}: as {@link #readmsg}; flags FI_COMPLETION, FI_REMOTE_CQ_DATA (with {@code msg.data}),
     * FI_INJECT, FI_INJECT_COMPLETE, FI_TRANSMIT_COMPLETE, FI_DELIVERY_COMPLETE, FI_MORE.
     */
    long writemsg(Msg msg, RmaIov rma, long flags);

    /** {@code fi_inject_write}: {@link #write} with no completion; at most inject_size bytes. */
    long injectWrite(ByteBuffer buf, int offset, int len, long destAddr, long addr, long key);

    /**
     * {@code fi_writedata}: {@link #write}, then the target endpoint gets a completion with FI_RMA |
     * FI_REMOTE_WRITE | FI_REMOTE_CQ_DATA, the length written and {@code data} (no receive is consumed).
     */
    long writedata(ByteBuffer buf, int offset, int len, long desc, long data, long destAddr, long addr, long key,
        long context);

    /** {@code fi_inject_writedata}: {@link #writedata} with no local completion; at most inject_size bytes. */
    long injectWritedata(ByteBuffer buf, int offset, int len, long data, long destAddr, long addr, long key);

    // ---- fi_atomic(3) ----

    /**
     * {@code fi_atomic}: apply {@code op} to {@code count} elements of the target ({@code key}, at {@code addr})
     * with the operands in {@code buf} (native byte order). Completes with FI_ATOMIC | FI_WRITE, or an error entry
     * (FI_EKEYREJECTED, FI_EACCES, FI_EINVAL for a range outside the region or a target not aligned to the
     * element). Atomic with respect to every process that maps the target.
     *
     * @return 0, or a negated errno before anything changed: FI_EOPNOTSUPP for a pair
     * {@link #atomicValid} refuses, FI_EMSGSIZE above its count, FI_EINVAL, FI_EAGAIN, ...
     */
    long atomic(ByteBuffer buf, int offset, int count, long desc, long destAddr, long addr, long key,
        AtomicDatatype datatype, AtomicOp op, long context);

    /** {@code fi_inject_atomic}: {@link #atomic} with no completion (errors still write an error entry). */
    long injectAtomic(ByteBuffer buf, int offset, int count, long destAddr, long addr, long key,
        AtomicDatatype datatype, AtomicOp op);

    /**
     * {@code fi_fetch_atomic}: as {@link #atomic}, the target's values before the operation written to
     * {@code result}; FI_ATOMIC_READ ignores {@code buf} (may be null). Completes with FI_ATOMIC | FI_READ.
     */
    long fetchAtomic(ByteBuffer buf, int offset, int count, long desc, ByteBuffer result, int resultOffset,
        long resultDesc, long destAddr, long addr, long key, AtomicDatatype datatype, AtomicOp op, long context);

    /**
     * {@code fi_compare_atomic}: FI_CSWAP and its variants and FI_MSWAP: each target element compared with the one
     * in {@code compare} and, where the comparison holds, replaced by the one in {@code buf} (FI_MSWAP: the bits
     * {@code compare} masks); the values before go to {@code result}. Completes with FI_ATOMIC | FI_READ.
     */
    long compareAtomic(ByteBuffer buf, int offset, int count, long desc, ByteBuffer compare, int compareOffset,
        long compareDesc, ByteBuffer result, int resultOffset, long resultDesc, long destAddr, long addr, long key,
        AtomicDatatype datatype, AtomicOp op, long context);

    /**
     * {@code fi_atomicv}: as {@link #atomic}, the operands gathered in order from {@code iov}'s entries onto the
     * elements of the one target region at {@code addr}. Completes once, with FI_ATOMIC | FI_WRITE.
     *
     * @param iov      local operands; their elements, all told, are the call's count.
     * @param destAddr target endpoint.
     * @param addr     target address.
     * @param key      target key.
     * @param datatype element type.
     * @param op       operation.
     * @param context  returned in the completion.
     * @return 0 or a negated errno.
     */
    long atomicv(Ioc iov, long destAddr, long addr, long key, AtomicDatatype datatype, AtomicOp op, long context);

    /**
     * {@code fi_atomicmsg}: the operands of {@code msg.msgIov} laid in order over the target regions of
     * {@code msg.rmaIov} (up to rma_iov_limit), which must hold as many elements.
     *
     * @param msg   the operation.
     * @param flags FI_COMPLETION, FI_INJECT (the operands copied before the call returns; at most inject_size
     *              bytes), FI_INJECT_COMPLETE, FI_TRANSMIT_COMPLETE, FI_DELIVERY_COMPLETE, FI_MORE, FI_FENCE.
     * @return 0 or a negated errno.
     */
    long atomicmsg(AtomicMsg msg, long flags);

    /**
     * {@code fi_fetch_atomicv}: as {@link #fetchAtomic} over vectors; the target's values before the operation are
     * scattered in order over {@code result}'s entries, which hold as many elements as {@code iov}.
     *
     * @param iov      local operands (may be null for FI_ATOMIC_READ: the count is then {@code result}'s).
     * @param result   where the values before go.
     * @param destAddr target endpoint.
     * @param addr     target address.
     * @param key      target key.
     * @param datatype element type.
     * @param op       operation.
     * @param context  returned in the completion.
     * @return 0 or a negated errno.
     */
    long fetchAtomicv(Ioc iov, Ioc result, long destAddr, long addr, long key, AtomicDatatype datatype, AtomicOp op,
        long context);

    /**
     * {@code fi_fetch_atomicmsg}: as {@link #atomicmsg}, the values before scattered over {@code result}.
     *
     * @param msg    the operation.
     * @param result where the values before go.
     * @param flags  as {@link #atomicmsg}, without FI_INJECT.
     * @return 0 or a negated errno.
     */
    long fetchAtomicmsg(AtomicMsg msg, Ioc result, long flags);

    /**
     * {@code fi_compare_atomicv}: as {@link #compareAtomic} over vectors; {@code compare} and {@code result} hold as
     * many elements as {@code iov}.
     *
     * @param iov      local operands.
     * @param compare  compare values (FI_MSWAP: masks).
     * @param result   where the values before go.
     * @param destAddr target endpoint.
     * @param addr     target address.
     * @param key      target key.
     * @param datatype element type.
     * @param op       operation.
     * @param context  returned in the completion.
     * @return 0 or a negated errno.
     */
    long compareAtomicv(Ioc iov, Ioc compare, Ioc result, long destAddr, long addr, long key,
        AtomicDatatype datatype, AtomicOp op, long context);

    /**
     * {@code fi_compare_atomicmsg}: as {@link #atomicmsg} with compare values and results.
     *
     * @param msg     the operation.
     * @param compare compare values.
     * @param result  where the values before go.
     * @param flags   as {@link #fetchAtomicmsg}.
     * @return 0 or a negated errno.
     */
    long compareAtomicmsg(AtomicMsg msg, Ioc compare, Ioc result, long flags);

    /**
     * {@code fi_atomicvalid}.
     *
     * @return the most elements one {@link #atomic} call may carry for the pair, or -FI_EOPNOTSUPP.
     */
    int atomicValid(AtomicDatatype datatype, AtomicOp op);

    /** @return {@code fi_fetch_atomicvalid}: as {@link #atomicValid} for {@link #fetchAtomic}. */
    int fetchAtomicValid(AtomicDatatype datatype, AtomicOp op);

    /** @return {@code fi_compare_atomicvalid}: as {@link #atomicValid} for {@link #compareAtomic}. */
    int compareAtomicValid(AtomicDatatype datatype, AtomicOp op);

    /** @return the one zero-copy claim of this endpoint. */
    MessageClaim messageClaim();

    // ---- fi_msg(3) ----

    /**
     * {@code fi_send}.
     *
     * @param buf      data.
     * @param offset   absolute index of the first byte.
     * @param len      bytes.
     * @param desc     local descriptor or 0.
     * @param destAddr destination fi_addr.
     * @param context  returned in the completion.
     * @return 0 or a negated errno.
     */
    long send(ByteBuffer buf, int offset, int len, long desc, long destAddr, long context);

    /**
     * {@code fi_sendv}: the buffers of {@code msg} (its addr, data, tag and context are ignored).
     *
     * @param msg      buffers.
     * @param destAddr destination.
     * @param context  returned in the completion.
     * @return 0 or a negated errno.
     */
    long sendv(Msg msg, long destAddr, long context);

    /**
     * {@code fi_sendmsg}.
     *
     * @param msg   message.
     * @param flags FI_COMPLETION, FI_INJECT, FI_INJECT_COMPLETE, FI_TRANSMIT_COMPLETE, FI_DELIVERY_COMPLETE,
     *              FI_REMOTE_CQ_DATA, FI_MORE.
     * @return 0 or a negated errno.
     */
    long sendmsg(Msg msg, long flags);

    /**
     * {@code fi_inject}: the buffer may be reused at return; no completion.
     *
     * @return 0 or a negated errno ({@code -FI_EMSGSIZE} above inject_size).
     */
    long inject(ByteBuffer buf, int offset, int len, long destAddr);

    /** @return {@code fi_senddata}: {@link #send} with remote CQ data. */
    long senddata(ByteBuffer buf, int offset, int len, long desc, long data, long destAddr, long context);

    /** @return {@code fi_injectdata}: {@link #inject} with remote CQ data. */
    long injectdata(ByteBuffer buf, int offset, int len, long data, long destAddr);

    /**
     * {@code fi_recv}.
     *
     * @param buf     where the message lands.
     * @param offset  absolute index.
     * @param len     bytes available.
     * @param desc    local descriptor or 0.
     * @param srcAddr source to accept, or FI_ADDR_UNSPEC (honoured with FI_DIRECTED_RECV only).
     * @param context returned in the completion.
     * @return 0 or a negated errno.
     */
    long recv(ByteBuffer buf, int offset, int len, long desc, long srcAddr, long context);

    /** @return {@code fi_recvv}: the buffers of {@code msg}. */
    long recvv(Msg msg, long srcAddr, long context);

    /**
     * {@code fi_recvmsg}.
     *
     * @param flags FI_COMPLETION, FI_MULTI_RECV, FI_MORE.
     * @return 0 or a negated errno.
     */
    long recvmsg(Msg msg, long flags);

    // ---- fi_tagged(3) ----

    /** @return {@code fi_tsend}. */
    long tsend(ByteBuffer buf, int offset, int len, long desc, long destAddr, long tag, long context);

    /** @return {@code fi_tsendv}. */
    long tsendv(Msg msg, long destAddr, long tag, long context);

    /** @return {@code fi_tsendmsg}: the tag is {@link Msg#tag}. */
    long tsendmsg(Msg msg, long flags);

    /** @return {@code fi_tinject}. */
    long tinject(ByteBuffer buf, int offset, int len, long destAddr, long tag);

    /** @return {@code fi_tsenddata}. */
    long tsenddata(ByteBuffer buf, int offset, int len, long desc, long data, long destAddr, long tag, long context);

    /** @return {@code fi_tinjectdata}. */
    long tinjectdata(ByteBuffer buf, int offset, int len, long data, long destAddr, long tag);

    /** @return {@code fi_trecv}: matches a message whose tag equals {@code tag} in the bits {@code ignore} leaves. */
    long trecv(ByteBuffer buf, int offset, int len, long desc, long srcAddr, long tag, long ignore, long context);

    /** @return {@code fi_trecvv}. */
    long trecvv(Msg msg, long srcAddr, long tag, long ignore, long context);

    /**
     * {@code fi_trecvmsg}: tag and ignore are {@link Msg#tag} and {@link Msg#ignore}.
     *
     * @param flags FI_COMPLETION, FI_PEEK, FI_CLAIM, FI_DISCARD, FI_MORE, FI_MULTI_RECV.
     * @return 0 or a negated errno. A peek that finds nothing completes in error with FI_ENOMSG.
     */
    long trecvmsg(Msg msg, long flags);

    /**
     * {@code fi_cancel}: the receive posted with this context completes in error with FI_ECANCELED.
     *
     * @param context the operation's context.
     * @return 0 when an operation was cancelled, {@code -FI_ENOENT} when none is pending with that context.
     */
    long cancel(long context);

    // ---- zero copy ----

    /**
     * Claim room for a message of {@code length} bytes in the peer's receive ring; fill it through
     * {@link #messageClaim()}, then commit. Completes like an inject (no local completion).
     *
     * @param destAddr destination.
     * @param length   message bytes, at most inject_size ({@code -FI_EINVAL} above it, unlike an inject).
     * @param tag      tag, when {@code flags} has FI_TAGGED.
     * @param data     remote CQ data, when {@code flags} has FI_REMOTE_CQ_DATA.
     * @param flags    0, FI_TAGGED, FI_REMOTE_CQ_DATA.
     * @return 0 or a negated errno ({@code -FI_EAGAIN} when the ring has no room).
     */
    long claim(long destAddr, int length, long tag, long data, long flags);
}
