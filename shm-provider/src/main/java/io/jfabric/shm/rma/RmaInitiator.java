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

import io.jfabric.Addresses;
import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Ioc;
import io.jfabric.Msg;
import io.jfabric.RmaIoc;
import io.jfabric.RmaIov;
import io.jfabric.shm.av.ShmAddressVector;
import io.jfabric.shm.cntr.ShmCounter;
import io.jfabric.shm.cq.ShmCompletionQueue;
import io.jfabric.shm.mr.MemoryRegistrar;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.rma.AtomicOps;
import io.jfabric.shm.rma.AtomicSupport;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The initiator's side of RMA (fi_rma(3)) and atomics (fi_atomic(3)) for one endpoint: copies between the caller's
 * buffers and a peer's registered shareable memory straight through the domain's key table ({@link RemoteMemory}: a
 * one-sided copy, no target CPU), local buffers and target regions gathered and scattered in order, then reports the
 * operation on the transmit CQ and the FI_READ / FI_WRITE counters.
 * <p>
 * Memory registered for remote access that no peer can map (heap and direct buffers: their key table entry names no
 * segment) answers {@link RemoteMemory#LOCAL_ONLY} before anything moves, once the access rights held. The
 * operation then goes the emulated path: every call here that may meet such memory describes it in
 * {@link #request()} (regions, with the key table control word and owner checked here) and returns
 * {@code LOCAL_ONLY}; the transmit context sends it to the target endpoint, whose progress performs it
 * ({@link EmulatedOps}). An operation over several regions is classified first ({@link #probeRma},
 * {@link #probeAtomic}): all shareable goes one-sidedly, all local-only goes emulated, a mix completes in error
 * with FI_EINVAL (it could be neither one copy by the initiator nor one request served by one target).
 * <p>
 * Threads: the endpoint's sending side, under its send guard (the view is not thread safe).
 */
public final class RmaInitiator
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
    private final EmulatedRequest request = new EmulatedRequest();
    private final MemoryRegistrar registrar;
    /** Made at the first emulated RMA too large for one ring record. */
    private EmulatedBounce bounce;
    /** The AV, when each destination's key comes from it (FI_AV_AUTH_KEY), else null. */
    private final ShmAddressVector keysFrom;
    /** Per AV entry: the entry state word its key digest was read under (-1: not yet), and that digest. */
    private final long[] keyState;
    private final long[] keyDigest;

    /**
     * What {@link #atomicVector} returns when told that an emulated operation to the target is outstanding and every
     * region of this one is shareable: the call must wait (FI_EAGAIN) rather than overtake it. Not an errno.
     */
    public static final int FENCED = Integer.MIN_VALUE;

    /**
     * @param registrar  the domain's registrar: the view of its registered memory ({@link #close} closes it), and the
     *                   bounce of large emulated operations.
     * @param txCq       the CQ bound with FI_TRANSMIT (may be null).
     * @param readCntr   the counter bound with FI_READ (may be null).
     * @param writeCntr  the counter bound with FI_WRITE (may be null).
     * @param av         the bound AV.
     * @param authDigest the endpoint's authorization key digest (its ep_attr.auth_key, else its domain's), 0 for
     *                   none: what its one-sided accesses present.
     * @param keysFromAv whether each destination's key comes from the AV instead (FI_AV_AUTH_KEY).
     */
    public RmaInitiator(
        final MemoryRegistrar registrar,
        final ShmCompletionQueue txCq,
        final ShmCounter readCntr,
        final ShmCounter writeCntr,
        final ShmAddressVector av,
        final long authDigest,
        final boolean keysFromAv)
    {
        this.registrar = registrar;
        this.remote = registrar.endpointRemoteMemory();
        this.cq = txCq;
        this.readCounter = readCntr;
        this.writeCounter = writeCntr;
        this.keysFrom = keysFromAv ? av : null;
        this.keyState = new long[keysFromAv ? av.entries() : 0];
        this.keyDigest = new long[keyState.length];
        java.util.Arrays.fill(keyState, -1);
        remote.presentKey(keysFromAv ? 0 : authDigest);
    }

    /**
     * The first step of every operation: present the authorization key the endpoint's messages to {@code destAddr}
     * use (fi_domain(3): only endpoints programmed with the same key may access a region), and check the CQ has
     * room for the entry the operation may write. Sending side.
     *
     * @param destAddr the target, an fi_addr of the bound AV that names an address.
     * @return -FI_EAGAIN when the CQ has no room for the entry this operation may write, else 0.
     */
    public int begin(final long destAddr)
    {
        if (keysFrom != null)
        {
            presentKeyOf(destAddr);
        }
        return cq != null && !cq.hasRoom() ? -Errno.FI_EAGAIN : 0;
    }

    /** FI_AV_AUTH_KEY: present the key the AV ties to the destination (0 for none), cached per entry state. */
    private void presentKeyOf(final long destAddr)
    {
        final int index = keysFrom.indexOf(destAddr);
        if (index < 0 || index >= keyState.length)
        {
            remote.presentKey(0);
            return;
        }
        final long state = keysFrom.entryStateAt(index);
        if (state != keyState[index] || state == -1)
        {
            keyDigest[index] = keysFrom.authKeyDigestOf(destAddr); // allocates: once per change of the entry
            keyState[index] = state;
        }
        remote.presentKey(keyDigest[index]);
    }

    /** @return the description of the operation being issued, filled when a call returned LOCAL_ONLY. */
    public EmulatedRequest request()
    {
        return request;
    }

    /**
     * Copy one local buffer to or from one target region.
     *
     * @return 0, or the negated errno of {@link RemoteMemory}, or {@link RemoteMemory#LOCAL_ONLY} (nothing moved;
     * {@link #request()} describes the region).
     */
    public int copy(final boolean write, final ByteBuffer buf, final int offset, final int len, final long addr,
        final long key)
    {
        final int rc = copyChunk(write, buf, offset, len, addr, key);
        if (rc == RemoteMemory.LOCAL_ONLY)
        {
            request.rma(write);
            localRegion(key, addr, len);
        }
        return rc;
    }

    private int copyChunk(final boolean write, final ByteBuffer buf, final int offset, final int len, final long addr,
        final long key)
    {
        if (len == 0)
        {
            return 0;
        }
        local.wrap(buf, offset, len);
        return write ? remote.write(key, addr, local, 0, len) : remote.read(key, addr, local, 0, len);
    }

    /** Add the region {@link #remote} just found local-only to the request. */
    private void localRegion(final long key, final long addr, final long length)
    {
        request.region(key, addr, remote.resolvedControl(), remote.resolvedOwner(),
            (int)Math.min(length, Integer.MAX_VALUE));
    }

    /**
     * Copy the buffers of {@code msg} in order to or from the target regions of {@code rma} (or, when it is null,
     * the one region at {@code addr} under {@code key}), stopping at the first error. With several regions the
     * caller has {@link #probeRma probed} them: all are shareable.
     *
     * @return 0, or the negated errno of the first copy that failed, or {@link RemoteMemory#LOCAL_ONLY} (the one
     * target region is local-only memory; nothing moved; {@link #request()} describes it).
     */
    public int copy(final boolean write, final Msg msg, final RmaIov rma, final long addr, final long key)
    {
        remote.beginOperation(); // a region's counter counts the operation once, not each buffer copied into it
        final int rc = copyMany(write, msg, rma, addr, key);
        remote.endOperation(rc == 0);
        return rc;
    }

    private int copyMany(final boolean write, final Msg msg, final RmaIov rma, final long addr, final long key)
    {
        int target = 0;
        long targetDone = 0;
        long moved = 0;
        for (int i = 0; i < msg.iovCount; i++)
        {
            int done = 0;
            while (done < msg.iovLength[i])
            {
                final long targetAddr = rma == null ? addr + targetDone : rma.addr[target] + targetDone;
                final long targetLeft = rma == null ? Long.MAX_VALUE : rma.length[target] - targetDone;
                final int chunk = (int)Math.min(msg.iovLength[i] - done, targetLeft);
                final int rc = copyChunk(write, msg.iov[i], msg.iovOffset[i] + done, chunk, targetAddr,
                    rma == null ? key : rma.key[target]);
                if (rc == RemoteMemory.LOCAL_ONLY)
                {
                    return localOnlyTarget(write, msg, rma, addr, key, moved);
                }
                if (rc != 0)
                {
                    return rc;
                }
                moved += chunk;
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
     * The target region of a copy turned out local-only: describe it in the request, or, when bytes already moved
     * (the key's registration changed during the call), fail as a registration that changed while copying does.
     */
    private int localOnlyTarget(
        final boolean write, final Msg msg, final RmaIov rma, final long addr, final long key, final long moved)
    {
        if (moved != 0 || rma != null && rma.count > 1)
        {
            return -Errno.FI_EKEYREJECTED;
        }
        request.rma(write);
        localRegion(rma == null ? key : rma.key[0], rma == null ? addr : rma.addr[0], msg.totalLength());
        return RemoteMemory.LOCAL_ONLY;
    }

    /**
     * Classify the target regions of an RMA without moving anything: every region is checked (key, rights, and for
     * shareable memory the range) before the first byte moves.
     *
     * @param total bytes of the operation (the one region's, when {@code rma} is null).
     * @return 0 when every region is shareable and passes; {@link RemoteMemory#LOCAL_ONLY} when every region is
     * local-only memory whose rights hold ({@link #request()} lists them); -FI_EINVAL for a mix; else the negated
     * errno of the first region that fails.
     */
    public int probeRma(final boolean write, final long total, final RmaIov rma, final long addr, final long key)
    {
        final long rights = write ? Flags.FI_REMOTE_WRITE : Flags.FI_REMOTE_READ;
        request.rma(write);
        final int regions = rma == null ? 1 : rma.count;
        int used = 0;
        for (int j = 0; j < regions; j++)
        {
            final long bytes = rma == null ? total : rma.length[j];
            if (bytes == 0)
            {
                continue;
            }
            used++;
            final long k = rma == null ? key : rma.key[j];
            final long a = rma == null ? addr : rma.addr[j];
            final int rc = remote.probe(k, a, (int)Math.min(bytes, Integer.MAX_VALUE), rights);
            if (rc == RemoteMemory.LOCAL_ONLY)
            {
                localRegion(k, a, bytes);
            }
            else if (rc != 0)
            {
                return rc;
            }
        }
        return classified(used);
    }

    /** @return 0 (no region local-only), LOCAL_ONLY (all of the {@code used} ones), or -FI_EINVAL (a mix). */
    private int classified(final int used)
    {
        final int locals = request.regions;
        return locals == 0 ? 0 : locals == used ? RemoteMemory.LOCAL_ONLY : -Errno.FI_EINVAL;
    }

    /**
     * An atomic operation (fi_atomic(3)) on {@code count} elements of the target at {@code addr}, in place in the
     * peer's shareable memory ({@link AtomicOps}: hardware atomics, so atomic with respect to every process that
     * maps it). {@code compare} and {@code result} are null when the kind has none.
     *
     * @return 0, or a negated errno: of the access (key, rights, range), or FI_EINVAL for a misaligned target; or
     * {@link RemoteMemory#LOCAL_ONLY} (nothing changed; {@link #request()} describes the region, its caller the
     * buffers).
     */
    public int atomic(
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
        a.source = local;
        a.sourceIndex = buf == null ? -1 : 0;
        a.compare = compareView;
        a.compareIndex = 0;
        a.result = resultView;
        a.resultIndex = 0;
        a.done = 0;
        final int rc = remote.access(key, addr, length, AtomicAccess.rights(kind, op), a);
        if (rc == RemoteMemory.LOCAL_ONLY)
        {
            request.atomic(kind, type, op);
            localRegion(key, addr, length);
        }
        return rc;
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
     * @param fenced  whether an emulated operation to the target is outstanding: an operation whose regions are all
     *                shareable must not run now ({@link #FENCED}).
     * @return 0, or the negated errno of the first region that failed, or {@link RemoteMemory#LOCAL_ONLY} (nothing
     * changed; {@link #request()} describes the operation, its operands staged), or {@link #FENCED}.
     */
    public int atomicVector(
        final AtomicSupport.Kind kind, final AtomicDatatype type, final AtomicOp op, final Ioc iov, final Ioc compare,
        final Ioc result, final RmaIoc rmaIoc, final int count, final long addr, final long key, final boolean fenced)
    {
        if (stageSource == null)
        {
            stageSource = ByteBuffer.allocateDirect(AtomicSupport.OPERAND_BYTES);
            stageCompare = ByteBuffer.allocateDirect(AtomicSupport.OPERAND_BYTES);
            stageResult = ByteBuffer.allocateDirect(AtomicSupport.OPERAND_BYTES);
        }
        final int size = type.size();
        stage(iov, size, stageSource, true);
        stage(compare, size, stageCompare, true);
        final int regions = rmaIoc == null ? 1 : rmaIoc.count;
        if (regions > 1 || fenced)
        {
            final int checked = probeAtomic(kind, type, op, rmaIoc, count, addr, key);
            if (checked != 0 || fenced)
            {
                return checked == RemoteMemory.LOCAL_ONLY ? stagedRequest(iov, compare, result) :
                    checked != 0 ? checked : FENCED;
            }
        }
        remote.beginOperation();
        final int rc = applyStaged(kind, type, op, iov, compare, result, rmaIoc, count, addr, key);
        remote.endOperation(rc == 0);
        return rc;
    }

    /** The one-sided vectored atomic, operands staged and regions checked: region by region, then the scatter. */
    private int applyStaged(
        final AtomicSupport.Kind kind, final AtomicDatatype type, final AtomicOp op, final Ioc iov, final Ioc compare,
        final Ioc result, final RmaIoc rmaIoc, final int count, final long addr, final long key)
    {
        final int size = type.size();
        final int regions = rmaIoc == null ? 1 : rmaIoc.count;
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
            if (rc == RemoteMemory.LOCAL_ONLY)
            {
                return stagedRequest(iov, compare, result); // the one region (several were probed first)
            }
            if (rc != 0)
            {
                return rc;
            }
            done += n;
        }
        stage(result, size, stageResult, false);
        return 0;
    }

    /** A vectored atomic goes emulated: its operands and compare values are staged, its results scatter. */
    private int stagedRequest(final Ioc iov, final Ioc compare, final Ioc result)
    {
        request.atomicBuffers(iov == null ? null : stageSource, 0, compare == null ? null : stageCompare, 0, null, 0,
            result);
        return RemoteMemory.LOCAL_ONLY;
    }

    /**
     * Check every target region (key, rights, and for shareable memory range and alignment) before the first is
     * changed, so that a call whose later region would fail changes nothing, and classify them as
     * {@link #probeRma} does.
     *
     * @param rmaIoc the regions, or null for the one of {@code count} elements at {@code addr} / {@code key}.
     * @return 0 (all shareable and fit), {@link RemoteMemory#LOCAL_ONLY} (all local-only: {@link #request()} lists
     * them), -FI_EINVAL (a mix), or the negated errno of the first region that would fail.
     */
    public int probeAtomic(final AtomicSupport.Kind kind, final AtomicDatatype type, final AtomicOp op,
        final RmaIoc rmaIoc, final int count, final long addr, final long key)
    {
        final AtomicAccess a = atomic;
        a.checkOnly = true;
        request.atomic(kind, type, op);
        try
        {
            final int regions = rmaIoc == null ? 1 : rmaIoc.count;
            int used = 0;
            for (int j = 0; j < regions; j++)
            {
                final int n = rmaIoc == null ? count : rmaIoc.elements[j];
                if (n == 0)
                {
                    continue;
                }
                used++;
                final long k = rmaIoc == null ? key : rmaIoc.key[j];
                final long at = rmaIoc == null ? addr : rmaIoc.addr[j];
                a.type = type;
                a.count = n;
                final int rc = remote.access(k, at, n * type.size(), AtomicAccess.rights(kind, op), a);
                if (rc == RemoteMemory.LOCAL_ONLY)
                {
                    localRegion(k, at, (long)n * type.size());
                }
                else if (rc != AtomicAccess.CHECKED)
                {
                    return rc < 0 ? rc : -Errno.FI_EIO;
                }
            }
            return classified(used);
        }
        finally
        {
            a.checkOnly = false;
        }
    }

    /**
     * Copy a vector's elements, in order, into the staging buffer ({@code toStage}) or out of it into the vector.
     */
    private void stage(final Ioc ioc, final int size, final ByteBuffer stage, final boolean toStage)
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
            if (toStage)
            {
                staged.putBytes(at, ioc.buf[i], ioc.offset[i], bytes);
            }
            else
            {
                staged.getBytes(at, ioc.buf[i], ioc.offset[i], bytes);
            }
            at += bytes;
        }
    }


    /**
     * Report a finished atomic operation: FI_ATOMIC with FI_WRITE (fi_atomic) or FI_READ (fetching forms), or an
     * error entry; the counter of that direction.
     */
    public void finishAtomic(final boolean fetching, final int rc, final boolean completion, final long context,
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
    public void finish(final boolean write, final int rc, final boolean completion, final long context, final long length)
    {
        report(Flags.FI_RMA | (write ? Flags.FI_WRITE : Flags.FI_READ), write ? writeCounter : readCounter, rc,
            completion, context, length);
    }

    /**
     * Report an operation's end now, by the sending side: a completion (when wanted) or an error entry, and the
     * counter of its direction.
     *
     * @param flags      the completion flags.
     * @param writes     whether it counts on the FI_WRITE counter (else FI_READ).
     * @param rc         0 or a negated errno.
     * @param completion whether a successful completion is wanted.
     * @param context    the operation's context.
     * @param length     its bytes.
     */
    public void report(final long flags, final boolean writes, final int rc, final boolean completion, final long context,
        final long length)
    {
        report(flags, writes ? writeCounter : readCounter, rc, completion, context, length);
    }

    /** @return the counter bound with FI_READ, or null. */
    public ShmCounter readCounter()
    {
        return readCounter;
    }

    /** @return the counter bound with FI_WRITE, or null. */
    public ShmCounter writeCounter()
    {
        return writeCounter;
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
    public void countAtTarget(final int counterPlusOne)
    {
        remote.countEvent(counterPlusOne);
    }

    /** @return the bounce of emulated RMA too large for one ring record, made (not its segment) at first use. */
    public EmulatedBounce bounce()
    {
        if (bounce == null)
        {
            bounce = new EmulatedBounce(registrar);
        }
        return bounce;
    }

    /** Close the view and free the bounce. Control path, both guards held. */
    public void close()
    {
        remote.close();
        if (bounce != null)
        {
            bounce.close();
        }
    }

}
