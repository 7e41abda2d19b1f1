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
package io.jfabric.shm.match;

import io.jfabric.Addresses;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.shm.core.ShmCapabilities;

import org.agrona.DirectBuffer;

import java.nio.ByteBuffer;

/**
 * The receive side of an shm endpoint: matches arriving messages with posted receives (fi_msg(3), fi_tagged(3)),
 * keeps messages no receive wants yet in a bounded unexpected store, places payloads and reports every finished
 * receive-side operation to a {@link RecvCompletionSink}.
 * <p>
 * <b>Matching.</b> Untagged messages match only untagged receives (fi_recv family), tagged messages only tagged
 * receives (fi_trecv family) whose {@code (tag & ~ignore)} equals the message's {@code (tag & ~ignore)}. Posted
 * receives are matched in post order, unexpected messages in arrival order, each kind separately. A receive with a
 * source address (only when the endpoint has FI_DIRECTED_RECV, else the address is ignored) matches a message only
 * if {@link AddressResolver#fiAddrOf} of its sender equals that address at the moment of matching, or, posted with
 * FI_AUTH_KEY, if the AV holds its sender within the key that address names ({@link SourceFilter}); completions
 * carry the sender's address evaluated when they are written, so a sender inserted into the AV after its message
 * arrived is reported with its address.
 * <p>
 * <b>Deliveries.</b> A message arrives as {@link #begin}, {@link #write} pieces in order, {@link #end}; several
 * deliveries (one per sender) may be in progress at once. A delivery goes straight into the matching posted receive,
 * or into the unexpected store; a receive posted while a matching unexpected message is still arriving takes the
 * bytes stored so far and the rest directly, and completes when the message ends. Every completion about a message
 * names its sender to the sink (the {@code senderId} it arrived with); one about no message (a cancel, a peek that
 * found nothing) names {@link RecvCompletionSink#NO_SENDER}.
 * <p>
 * <b>Truncation.</b> A message longer than its receive places what fits and completes in error with FI_ETRUNC,
 * {@code len} the bytes placed and {@code olen} the bytes dropped. A delivery that ends before its announced length
 * arrived is reported the same way (the missing bytes count as dropped).
 * <p>
 * <b>Multi-receive</b> (FI_MULTI_RECV, untagged, exactly one buffer, else -FI_EINVAL): messages are packed back to back from the start of the
 * buffer, without alignment padding; each completes with the index where it starts. The buffer is released as soon
 * as the space left after a message is below the FI_OPT_MIN_MULTI_RECV value captured when the receive was posted
 * (fi_endpoint(3): a change applies to later posts), or is zero; the completion of the last message placed in it
 * then carries FI_MULTI_RECV (libfabric lets a provider flag the last message rather than write a separate entry).
 * A message larger than the space left but not larger than the whole buffer skips the buffer and goes to the next
 * matching receive (or to the unexpected store): it would fit a fresh buffer. A message larger than the whole
 * buffer can never fit, so it takes the space left, truncated (FI_ETRUNC), which releases the buffer.
 * A cancelled multi-receive buffer reports FI_ECANCELED, with FI_MULTI_RECV unless messages are still arriving in
 * it, in which case the last of them carries FI_MULTI_RECV.
 * <p>
 * <b>Peek, claim, discard</b> (tagged only, fi_tagged(3)), over the unexpected store only: FI_PEEK reports the first
 * unclaimed match without taking it (no data copied, {@code bufOffset} {@link RecvCompletionSink#NO_BUFFER}; FI_ENOMSG when there is
 * none), FI_PEEK|FI_CLAIM keeps it for a later receive with FI_CLAIM and the same context, FI_DISCARD drops it
 * ({@code PeekClaimDiscard} has the details). A receive with FI_CLAIM for a context that claimed nothing returns
 * -FI_EINVAL.
 * <p>
 * <b>Limits.</b> At most {@code postedCapacity} receives are posted ({@link #post} returns -FI_EAGAIN beyond). The
 * unexpected store holds at most {@code unexpectedCapacity} messages whose lengths sum to at most
 * {@code unexpectedBytes} (see {@link UnexpectedMessages}). When a message matches no receive and the store cannot
 * take it whole, {@link #begin} returns {@link #DELIVERY_NONE} and nothing changes: the endpoint leaves the record
 * in the sender's ring and retries after a receive is posted, so the sender sees FI_EAGAIN when its ring fills and
 * nothing is lost. At most {@code maxDeliveries} deliveries may be in progress ({@link #DELIVERY_NONE} beyond).
 * <p>
 * <b>Completion flags.</b> FI_RECV | FI_MSG or FI_TAGGED | FI_REMOTE_CQ_DATA when the message carries data |
 * FI_MULTI_RECV when a multi-receive buffer is released | FI_PEEK / FI_CLAIM as above. The receive's own flags are
 * passed as {@code opFlags} so the endpoint can apply selective completion.
 * <p>
 * <b>The front receive.</b> The common case (a receive posted ahead of each message, one buffer, no
 * multi-receive, no source filter, nothing unexpected waiting) takes a straight path: such a receive, posted when no
 * receive of its kind is pending, is held in this object's own fields instead of the pool, and a whole message of
 * its kind that it takes is placed and completed from there. It is the oldest pending receive of its kind, so
 * matching it first keeps post order. Every other path first moves it into the pool, onto its list, which is empty
 * while the front receive is held ({@link #spillFront}), so the general code sees one pool. The pool always keeps an
 * entry free for it, so {@code postedCapacity} stays the limit.
 * <p>
 * The parts that are not on the common path live beside it: a receive posted while matching messages wait in the
 * unexpected store takes them through {@link UnexpectedTakes}, and a pool receive completes through
 * {@link ReceiveCompletions}.
 * <p>
 * Not thread safe: the endpoint serializes all calls (its receive guard, or the threading model). Nothing
 * allocates after construction, on any path.
 */
public final class ReceiveMatcher
{
    /** {@link #begin}: the message can be neither matched nor stored now; leave it in its ring and retry later. */
    public static final long DELIVERY_NONE = -1;

    /**
     * Default FI_OPT_MIN_MULTI_RECV: 16 KiB, the largest message shm sends inline in one ring record, so a
     * buffer stays posted while it can still take any eagerly sent message whole.
     */
    public static final long DEFAULT_MIN_MULTI_RECV = 16 * 1024;

    /** Default for the number of deliveries in progress at once (one per sending endpoint at most). */
    public static final int DEFAULT_MAX_DELIVERIES = 1024;

    /** Flags that keep a receive out of the front (it needs the pool's general handling). */
    private static final long FRONT_EXCLUDED_FLAGS = Flags.FI_MULTI_RECV | Flags.FI_PEEK | Flags.FI_CLAIM |
        Flags.FI_DISCARD;

    private final boolean directedRecv;
    private final AddressResolver resolver;
    private final SourceFilter sources;
    private final RecvCompletionSink sink;
    private final PostedReceives posted;
    private final UnexpectedMessages unexpected;
    private final PeekClaimDiscard peeks;
    private final Deliveries deliveries;
    private final ReceiveCompletions completions;
    private final UnexpectedTakes takes;
    private long minMultiRecv = DEFAULT_MIN_MULTI_RECV;

    // the front receive (see the class comment): valid while frontSet
    private boolean frontSet;
    private boolean frontTagged;
    private ByteBuffer frontBuf;
    private int frontOffset;
    private int frontLength;
    private long frontTag;
    private long frontIgnore;
    private long frontContext;
    private long frontOpFlags;

    /**
     * A matcher with {@link ShmCapabilities#IOV_LIMIT} iov entries per receive and {@link #DEFAULT_MAX_DELIVERIES}.
     *
     * @param postedCapacity     receives that may be posted at once.
     * @param unexpectedCapacity unexpected messages that may be stored at once.
     * @param unexpectedBytes    payload bytes the unexpected messages may hold together.
     * @param directedRecv       whether receives' source addresses filter (FI_DIRECTED_RECV).
     * @param resolver           sender id to fi_addr.
     * @param sink               where completions go.
     */
    public ReceiveMatcher(
        final int postedCapacity, final int unexpectedCapacity, final int unexpectedBytes, final boolean directedRecv,
        final AddressResolver resolver, final RecvCompletionSink sink)
    {
        this(postedCapacity, unexpectedCapacity, unexpectedBytes, false, directedRecv, resolver, sink,
            ShmCapabilities.IOV_LIMIT, DEFAULT_MAX_DELIVERIES);
    }

    /**
     * @param postedCapacity     receives that may be posted at once.
     * @param unexpectedCapacity unexpected messages that may be stored at once.
     * @param unexpectedBytes    payload bytes the unexpected messages may hold together.
     * @param preallocate        whether to allocate the unexpected messages' whole arena now, not as first needed.
     * @param directedRecv       whether receives' source addresses filter (FI_DIRECTED_RECV).
     * @param resolver           sender id to fi_addr.
     * @param sink               where completions go.
     * @param maxIov             iov entries a receive may have.
     * @param maxDeliveries      deliveries that may be in progress at once.
     */
    public ReceiveMatcher(
        final int postedCapacity,
        final int unexpectedCapacity,
        final int unexpectedBytes,
        final boolean preallocate,
        final boolean directedRecv,
        final AddressResolver resolver,
        final RecvCompletionSink sink,
        final int maxIov,
        final int maxDeliveries)
    {
        if (postedCapacity < 1 || unexpectedCapacity < 0 || unexpectedBytes < 0 || maxIov < 1 || maxDeliveries < 1 ||
            UnexpectedMessages.arenaBytes(unexpectedCapacity, unexpectedBytes) > Integer.MAX_VALUE - 64)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_enable: receive matcher limits out of range: posted=" +
                postedCapacity + " unexpected=" + unexpectedCapacity + " unexpectedBytes=" + unexpectedBytes +
                " maxIov=" + maxIov + " maxDeliveries=" + maxDeliveries);
        }
        if (resolver == null || sink == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_enable: receive matcher needs a resolver and a sink");
        }
        this.directedRecv = directedRecv;
        this.resolver = resolver;
        this.sources = new SourceFilter(resolver);
        this.sink = sink;
        posted = new PostedReceives(postedCapacity, maxIov);
        unexpected = new UnexpectedMessages(unexpectedCapacity, unexpectedBytes, preallocate);
        peeks = new PeekClaimDiscard(unexpected, resolver, sources, sink, directedRecv);
        deliveries = new Deliveries(maxDeliveries);
        completions = new ReceiveCompletions(posted, resolver, sink);
        takes = new UnexpectedTakes(posted, unexpected, deliveries, peeks, sources, sink, completions);
    }

    /**
     * FI_OPT_MIN_MULTI_RECV: the free space below which a multi-receive buffer is released; applies to receives
     * posted afterwards. Negative values are ignored (the endpoint rejects them).
     *
     * @param bytes the minimum.
     */
    public void minMultiRecv(final long bytes)
    {
        if (bytes >= 0)
        {
            minMultiRecv = bytes;
        }
    }

    /** @return FI_OPT_MIN_MULTI_RECV, {@link #DEFAULT_MIN_MULTI_RECV} unless set. */
    public long minMultiRecv()
    {
        return minMultiRecv;
    }

    /**
     * Drop the references this matcher keeps to receive buffers whose receives have ended (it keeps them so a
     * repost of the same buffer stores no reference); called when the endpoint closes. Control path.
     */
    public void releaseBuffers()
    {
        posted.clear();
        frontBuf = null;
    }

    /** @return receives posted and not yet matched or released (claiming receives waiting for a message included). */
    public int postedCount()
    {
        return posted.allocatedCount() + (frontSet ? 1 : 0);
    }

    /** @return messages in the unexpected store (claimed ones included). */
    public int unexpectedCount()
    {
        return unexpected.count();
    }

    /** @return payload bytes reserved by the messages in the unexpected store. */
    public long unexpectedBytesInUse()
    {
        return unexpected.bytesInUse();
    }

    /** @return payload bytes the unexpected store's arena has allocated so far (it grows as first needed). */
    long unexpectedArenaBytes()
    {
        return unexpected.arenaAllocatedBytes();
    }

    /**
     * Post a receive into one buffer.
     *
     * @param tagged  false: fi_recv family (matches untagged messages, tag and ignore unused); true: fi_trecv family.
     * @param buf     destination, written at absolute indices; may be null when {@code length} is 0.
     * @param offset  index of the first byte.
     * @param length  bytes available.
     * @param srcAddr FI_ADDR_UNSPEC, or the only sender accepted (with FI_DIRECTED_RECV).
     * @param tag     tag to match (tagged).
     * @param ignore  tag bits to ignore (tagged).
     * @param context the operation context reported in its completions.
     * @param flags   FI_COMPLETION, FI_MULTI_RECV (untagged), FI_PEEK, FI_CLAIM, FI_DISCARD (tagged).
     * @return 0, -FI_EAGAIN when the posted pool is full or the receive would complete at once (a stored message,
     * a peek, a claim, a discard) and its completion does not fit ({@link RecvCompletionSink#hasRoom}), -FI_EINVAL
     * for a bad buffer or flag combination or a claim of a context that claimed nothing.
     */
    public long post(
        final boolean tagged,
        final ByteBuffer buf,
        final int offset,
        final int length,
        final long srcAddr,
        final long tag,
        final long ignore,
        final long context,
        final long flags)
    {
        if (!RecvArguments.validFlags(tagged, 1, flags) ||
            (flags & Flags.FI_DISCARD) == 0 && !RecvArguments.validBuffer(buf, offset, length))
        {
            return -Errno.FI_EINVAL;
        }
        if (!frontSet && (flags & FRONT_EXCLUDED_FLAGS) == 0 &&
            (!directedRecv || srcAddr == Addresses.FI_ADDR_UNSPEC) && unexpected.count() == 0 &&
            posted.head(PostedReceives.listOf(tagged)) == PostedReceives.NONE && !posted.isFull())
        {
            setFront(tagged, buf, offset, length, tag, ignore, context, flags);
            return 0;
        }
        return postValid(tagged, buf, offset, length, null, null, null, 0, srcAddr, tag, ignore, context, flags);
    }

    /**
     * Post a receive scattered over several buffers; the arrays' entries are copied, the arrays are not kept.
     *
     * @param tagged    as for the one-buffer post.
     * @param iov       destinations, written at absolute indices.
     * @param iovOffset index of the first byte of each.
     * @param iovLength bytes available in each.
     * @param iovCount  entries used, 0 to the iov limit (1 with FI_MULTI_RECV).
     * @param srcAddr   as for the one-buffer post.
     * @param tag       as for the one-buffer post.
     * @param ignore    as for the one-buffer post.
     * @param context   as for the one-buffer post.
     * @param flags     as for the one-buffer post.
     * @return as for the one-buffer post.
     */
    public long post(
        final boolean tagged,
        final ByteBuffer[] iov,
        final int[] iovOffset,
        final int[] iovLength,
        final int iovCount,
        final long srcAddr,
        final long tag,
        final long ignore,
        final long context,
        final long flags)
    {
        if (iovCount < 0 || iovCount > posted.maxIov || !RecvArguments.validFlags(tagged, iovCount, flags) ||
            (flags & Flags.FI_DISCARD) == 0 && !RecvArguments.validIov(iov, iovOffset, iovLength, iovCount))
        {
            return -Errno.FI_EINVAL;
        }
        return postValid(tagged, null, 0, 0, iov, iovOffset, iovLength, iovCount, srcAddr, tag, ignore, context, flags);
    }

    /**
     * fi_cancel: the first posted receive (in post order) with this context that is still waiting for a message (or,
     * for a multi-receive buffer, not yet released) completes with an FI_ECANCELED error.
     *
     * @param context the receive's context.
     * @return 0, -FI_ENOENT when no such receive is pending, or -FI_EAGAIN when its completion would not fit in
     * the completion queue now (the receive stays posted).
     */
    public long cancel(final long context)
    {
        spillFront();
        final int e = posted.firstListedWith(context);
        if (e == PostedReceives.NONE)
        {
            return -Errno.FI_ENOENT;
        }
        if (!sink.hasRoom(1))
        {
            return -Errno.FI_EAGAIN;
        }
        final boolean tagged = posted.tagged[e];
        posted.unlink(e);
        long cqFlags = Flags.FI_RECV | (tagged ? Flags.FI_TAGGED : Flags.FI_MSG);
        final long bufOffset = posted.firstOffset(e);
        final long tag = posted.tag[e];
        if (posted.inFlight[e] == 0)
        {
            cqFlags |= posted.opFlags[e] & Flags.FI_MULTI_RECV;
            posted.free(e);
        }
        sink.error(RecvCompletionSink.NO_SENDER, context, cqFlags, 0, bufOffset, 0, tag, 0, Errno.FI_ECANCELED,
            Addresses.FI_ADDR_NOTAVAIL);
        return 0;
    }

    /**
     * A message starts arriving.
     *
     * @param senderId    {@code (slot << 32) | incarnation} of the sending endpoint.
     * @param tagged      whether it is a tagged message.
     * @param tag         its tag.
     * @param data        remote CQ data (valid with FI_REMOTE_CQ_DATA in {@code msgFlags}).
     * @param msgFlags    FI_REMOTE_CQ_DATA or 0.
     * @param totalLength bytes that the {@link #write} calls will bring.
     * @return the delivery handle for {@link #write} and {@link #end}, or {@link #DELIVERY_NONE} when no receive
     * matches and the unexpected store cannot take the message (nothing changed: retry later).
     */
    public long begin(
        final long senderId,
        final boolean tagged,
        final long tag,
        final long data,
        final long msgFlags,
        final long totalLength)
    {
        spillFront();
        final Deliveries ds = deliveries;
        if (ds.isFull() || totalLength < 0)
        {
            return DELIVERY_NONE;
        }
        final int e = firstMatch(senderId, tagged, tag, totalLength);
        if (e == PostedReceives.NONE && !unexpected.hasRoom(totalLength))
        {
            return DELIVERY_NONE;
        }

        final int d = ds.allocate(senderId, tag, data, msgFlags, totalLength);
        if (e != PostedReceives.NONE)
        {
            ds.toPosted(d, posted, e, totalLength);
        }
        else
        {
            ds.kind[d] = Deliveries.TO_UNEXPECTED;
            ds.target[d] = unexpected.add(senderId, tagged, tag, data, msgFlags, totalLength, d);
            ds.start[d] = 0;
            ds.limit[d] = 0;
        }
        return d;
    }

    /**
     * A whole message in one piece: {@link #begin}, {@link #write} and {@link #end} in one call, and without taking
     * a delivery when a posted receive takes the message (the common case of a pre-posted receive).
     *
     * @param senderId  as {@link #begin}.
     * @param tagged    as {@link #begin}.
     * @param tag       as {@link #begin}.
     * @param data      as {@link #begin}.
     * @param msgFlags  as {@link #begin}.
     * @param src       the message's bytes.
     * @param srcOffset index of the first byte.
     * @param length    the message's length.
     * @return whether the message was taken; false, as {@link #DELIVERY_NONE} from begin, when it can be neither
     * matched nor stored now (nothing changed).
     */
    public boolean deliver(
        final long senderId,
        final boolean tagged,
        final long tag,
        final long data,
        final long msgFlags,
        final DirectBuffer src,
        final int srcOffset,
        final int length)
    {
        if (frontSet && frontTagged == tagged && length >= 0 && length <= frontLength &&
            (!tagged || ((tag ^ frontTag) & ~frontIgnore) == 0))
        {
            deliverToFront(senderId, tagged, tag, data, msgFlags, src, srcOffset, length);
            return true;
        }
        spillFront();
        if (length >= 0)
        {
            final int e = firstMatch(senderId, tagged, tag, length);
            if (e != PostedReceives.NONE && !posted.isMulti(e))
            {
                final long start = posted.reserveSpace(e, length);
                final long placed = posted.placeable(e, start, length);
                if (placed > 0)
                {
                    posted.place(e, start, src, srcOffset, (int)placed);
                }
                completions.complete(e, start, placed, length, senderId, tag, data, msgFlags, 0);
                return true;
            }
        }
        final long d = begin(senderId, tagged, tag, data, msgFlags, length);
        if (d == DELIVERY_NONE)
        {
            return false;
        }
        write(d, src, srcOffset, length);
        end(d);
        return true;
    }

    /** Place a whole message in the front receive, which takes all of it, and complete the receive. */
    private void deliverToFront(
        final long senderId,
        final boolean tagged,
        final long tag,
        final long data,
        final long msgFlags,
        final DirectBuffer src,
        final int srcOffset,
        final int length)
    {
        frontSet = false;
        final int bufOffset = frontOffset;
        if (length > 0)
        {
            src.getBytes(srcOffset, frontBuf, bufOffset, length);
        }
        final long cqFlags = ReceiveCompletions.recvCqFlags(tagged, msgFlags);
        final long from = sink.wantsSource() ? resolver.fiAddrOf(senderId) : Addresses.FI_ADDR_NOTAVAIL;
        sink.complete(senderId, frontContext, frontOpFlags, cqFlags, length, bufOffset, data, tag, from);
    }

    private void setFront(
        final boolean tagged,
        final ByteBuffer buf,
        final int offset,
        final int length,
        final long tag,
        final long ignore,
        final long context,
        final long flags)
    {
        frontTagged = tagged;
        if (frontBuf != buf)
        {
            frontBuf = buf; // only when it changes: a reference store runs G1's card-marking barrier
        }
        frontOffset = offset;
        frontLength = length;
        frontTag = tagged ? tag : 0;
        frontIgnore = tagged ? ignore : 0;
        frontContext = context;
        frontOpFlags = flags;
        frontSet = true;
    }

    /**
     * Move the front receive, if there is one, into the pool, onto its list. Nothing was posted since it was set (a
     * post either sets the front receive, which needs it unset, or spills it first), so its list is empty, it is the
     * receive the general code finds first, and the post-order number it takes now is still in post order. The pool
     * has a free entry for it for the same reason: a front receive is set only when one is free.
     */
    private void spillFront()
    {
        if (!frontSet)
        {
            return;
        }
        final int e = posted.allocate();
        if (e == PostedReceives.NONE)
        {
            throw new IllegalStateException("no pool entry for the front receive (a path allocated without spilling)");
        }
        frontSet = false;
        posted.addIov(e, frontBuf, frontOffset, frontLength);
        posted.describe(e, frontTagged, frontTag, frontIgnore, Addresses.FI_ADDR_UNSPEC, frontContext, frontOpFlags,
            minMultiRecv);
        posted.append(e);
    }

    /** @return the first posted receive that takes this message, or {@link PostedReceives#NONE}. */
    private int firstMatch(final long senderId, final boolean tagged, final long tag, final long totalLength)
    {
        final int list = PostedReceives.listOf(tagged);
        final SourceFilter source = sources.of(senderId);
        int e = posted.head(list);
        for (; e != PostedReceives.NONE; e = posted.next(e))
        {
            if (tagged && ((tag ^ posted.tag[e]) & ~posted.ignore[e]) != 0)
            {
                continue;
            }
            if (!source.accepts(posted.srcAddr[e], posted.opFlags[e]))
            {
                continue;
            }
            if (posted.isMulti(e) && !posted.accepts(e, totalLength))
            {
                continue;
            }
            break;
        }
        return e;
    }

    /**
     * Bring the next bytes of a delivery: into the matched receive's buffer (what fits; the rest is counted as
     * truncated) or the unexpected store. A handle that is not in progress, or bytes past the message's length, are
     * ignored. Receive side.
     *
     * @param delivery  the handle from {@link #begin}.
     * @param src       where the bytes are.
     * @param srcOffset the first of them.
     * @param length    how many.
     */
    public void write(final long delivery, final DirectBuffer src, final int srcOffset, final int length)
    {
        final Deliveries ds = deliveries;
        if (!ds.inProgress(delivery) || length <= 0)
        {
            return;
        }
        final int d = (int)delivery;
        final long written = ds.written[d];
        final int n = (int)Math.min(length, ds.total[d] - written);
        if (n <= 0)
        {
            return;
        }
        if (ds.kind[d] == Deliveries.TO_POSTED)
        {
            final long fits = Math.min(n, ds.limit[d] - written);
            if (fits > 0)
            {
                posted.place(ds.target[d], ds.start[d] + written, src, srcOffset, (int)fits);
            }
        }
        else
        {
            final int m = ds.target[d];
            if (!unexpected.discarded[m])
            {
                unexpected.append(m, src, srcOffset, n);
            }
        }
        ds.written[d] = written + n;
    }

    /**
     * The delivery is over: its receive completes (FI_ETRUNC if it did not take every announced byte), or the
     * unexpected message becomes complete in the store.
     *
     * @param delivery the handle from {@link #begin}.
     */
    public void end(final long delivery)
    {
        finish(delivery, 0);
    }

    /**
     * The delivery will never end: its sender is gone (its process died or its endpoint closed) part-way through
     * the message. A receive it was filling completes in error with {@code errno}, the bytes placed so far as its
     * length and the bytes that never came as olen; a message it was storing as unexpected is dropped (a receive
     * that claimed it with FI_CLAIM then finds nothing to claim).
     *
     * @param delivery the handle from {@link #begin}.
     * @param errno    positive errno for the receive's error completion (the endpoint uses FI_EIO).
     */
    public void abort(final long delivery, final int errno)
    {
        finish(delivery, errno);
    }

    private void finish(final long delivery, final int errno)
    {
        final Deliveries ds = deliveries;
        if (!ds.inProgress(delivery))
        {
            return;
        }
        final int d = (int)delivery;
        final int target = ds.target[d];
        final int kind = ds.kind[d];
        ds.free(d);
        if (kind == Deliveries.TO_POSTED)
        {
            completions.complete(target, ds.start[d], Math.min(ds.written[d], ds.limit[d]), ds.total[d],
                ds.sender[d], ds.tag[d], ds.data[d], ds.msgFlags[d], errno);
        }
        else
        {
            unexpected.delivery[target] = UnexpectedMessages.NONE;
            if (errno != 0 || unexpected.discarded[target])
            {
                unexpected.remove(target);
            }
        }
    }

    // ------------------------------------------------------------------ posting

    /** A checked post: one buffer when {@code iov} is null, else {@code iovCount} entries of the arrays. */
    private long postValid(
        final boolean tagged, final ByteBuffer buf, final int offset, final int length, final ByteBuffer[] iov,
        final int[] iovOffset, final int[] iovLength, final int iovCount,
        final long srcAddr, final long tag, final long ignore, final long context, final long flags)
    {
        spillFront();
        if ((flags & Flags.FI_AUTH_KEY) != 0 && directedRecv && srcAddr != Addresses.FI_ADDR_UNSPEC &&
            !resolver.isAuthKey(srcAddr))
        {
            return -Errno.FI_EINVAL;
        }
        if ((flags & (Flags.FI_PEEK | Flags.FI_DISCARD)) != 0)
        {
            return peeks.post(srcAddr, tag, ignore, context, flags);
        }
        final int e = posted.allocate();
        if (e == PostedReceives.NONE)
        {
            return -Errno.FI_EAGAIN;
        }
        if (iov == null)
        {
            posted.addIov(e, buf, offset, length);
        }
        for (int i = 0; i < iovCount; i++)
        {
            posted.addIov(e, iov[i], iovOffset[i], iovLength[i]);
        }
        posted.describe(e, tagged, tag, ignore, directedRecv ? srcAddr : Addresses.FI_ADDR_UNSPEC, context, flags,
            minMultiRecv);
        return takes.post(e, tagged, context, flags);
    }
}
