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
package io.jfabric.ofi.ep;

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicMsg;
import io.jfabric.Endpoint;
import io.jfabric.EpType;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Ioc;
import io.jfabric.MessageClaim;
import io.jfabric.Msg;
import io.jfabric.RmaIov;
import io.jfabric.Threading;
import io.jfabric.AtomicOp;
import io.jfabric.ofi.core.NativeCalls;
import io.jfabric.ofi.core.OfiFid;
import io.jfabric.ofi.cq.OfiCompletionQueue;
import io.jfabric.ofi.ctx.MpmcSlotPool;
import io.jfabric.ofi.ctx.OpFlags;
import io.jfabric.ofi.ctx.SlotPool;
import io.jfabric.ofi.ctx.SpscSlotPool;
import io.jfabric.ofi.info.NativeInfo;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.Downcalls;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A native RDM endpoint ({@code struct fid_ep}, {@code fi_endpoint}): the control calls here, the data path in
 * {@link MsgOps}, {@link TaggedOps}, {@link RmaOps} and {@link AtomicOps}, over one {@link EpCore}.
 * <p>
 * What jfabric adds to libfabric's rules: every operation that has a completion holds a slot of its direction's
 * {@link SlotPool} until that completion is read, so a buffer handed to libfabric stays reachable while libfabric
 * may touch it; a transmit or receive direction the endpoint's capabilities use therefore needs a CQ
 * ({@code FI_ENOCQ} at enable otherwise: a counter alone cannot say which operation finished). Completions are
 * always asked of libfabric; FI_SELECTIVE_COMPLETION is honoured by not reporting the successes the application
 * did not ask for. {@link #close()} with operations in flight closes the native endpoint first (after which
 * libfabric touches none of its buffers), then completes each of them with an FI_ECANCELED error entry on its CQ;
 * so libfabric never writes into memory the JVM has let go, and no operation stays outstanding for ever.
 * <p>
 * Threads: control calls synchronized; the data path as the domain's threading model, with no lock of its own:
 * FI_THREAD_SAFE uses {@link MpmcSlotPool}, the other models {@link SpscSlotPool}.
 */
public final class OfiEndpoint extends OfiFid implements Endpoint
{
    private static final MethodHandle OPEN = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.PTR_ARG);
    private static final MethodHandle CANCEL = Downcalls.blocking(CTypes.SIZE_T, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG);
    private static final MethodHandle GETOPT = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.INT, CTypes.INT, CTypes.PTR_ARG, CTypes.PTR_ARG);
    private static final MethodHandle SETOPT = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.INT, CTypes.INT, CTypes.PTR_ARG, CTypes.SIZE_T);
    private static final MethodHandle GETNAME = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG);
    private static final MethodHandle SETNAME = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.SIZE_T);
    private static final int FI_ENABLE = 6;
    private static final long DIRECTIONS = Flags.FI_SEND | Flags.FI_RECV | Flags.FI_READ | Flags.FI_WRITE |
        Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE;

    private final Info info;
    private final long nativeInfo;
    private final Threading threading;
    private final EpCore core;
    private final MsgOps msg;
    private final TaggedOps tagged;
    private final RmaOps rma;
    private final AtomicOps atomic;
    /** The slots' native blocks: freed by the GC once neither this endpoint nor a CQ (which keeps the pools of closed
     * endpoints, to recognise their late completions) holds the pools, so no new pool reuses their addresses while a
     * CQ may still return one. */
    private final Arena arena = Arena.ofAuto();
    private final List<OfiFid> bound = new ArrayList<>();
    private OfiCompletionQueue txCq;
    private OfiCompletionQueue rxCq;

    private OfiEndpoint(final long fid, final Info info, final long nativeInfo, final long context,
        final OfiFid domain, final Threading threading)
    {
        super(fid, FidClass.EP, context, domain, "endpoint(" + info.fabricAttr().provName() + ")");
        this.info = info;
        this.nativeInfo = nativeInfo;
        this.threading = threading;
        final int maxIov = (int)Math.min(64, Math.max(info.txAttr() == null ? 1 : info.txAttr().iovLimit(),
            info.rxAttr() == null ? 1 : info.rxAttr().iovLimit()));
        final int maxRmaIov = (int)Math.min(64, info.txAttr() == null ? 1 : info.txAttr().rmaIovLimit());
        this.core = new EpCore(fid, maxIov, maxRmaIov, name());
        this.msg = new MsgOps(core);
        this.tagged = new TaggedOps(core, msg);
        this.rma = new RmaOps(core);
        this.atomic = new AtomicOps(core);
    }

    /**
     * {@code fi_endpoint}.
     *
     * @param domain    the domain's object.
     * @param info      an info of the domain; FI_EP_RDM.
     * @param context   the application's context.
     * @param threading the domain's threading model.
     * @param handles   object pointers for the native info.
     * @return the endpoint, not enabled.
     */
    public static OfiEndpoint open(final OfiFid domain, final Info info, final long context,
        final Threading threading, final io.jfabric.ofi.info.InfoCodec.Handles handles)
    {
        if (info == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_endpoint: info must not be null");
        }
        if (info.epAttr() != null && info.epAttr().type() != EpType.RDM)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_endpoint: ep_attr.type " + info.epAttr().type().cName() +
                ": only FI_EP_RDM endpoints are built");
        }
        final Info copy = info.copy();
        final long nativeInfo = NativeInfo.allocate(copy, io.jfabric.ofi.info.ProviderNameMap.toNative(
            copy.fabricAttr() == null ? null : copy.fabricAttr().provName()), handles);
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment out = call.allocate(ADDRESS);
            final MemorySegment fn = Ops.function(domain.pointer(), FidLayouts.OBJ_OPS,
                FidLayouts.fn(FidLayouts.FI_OPS_DOMAIN, "endpoint"));
            NativeCalls.check((int)OPEN.invokeExact(fn, domain.pointer(), nativeInfo, out.address(), context),
                "fi_endpoint(" + (copy.fabricAttr() == null ? "" : copy.fabricAttr().provName()) + ")");
            return new OfiEndpoint(out.get(ADDRESS, 0).address(), copy, nativeInfo, context, domain, threading);
        }
        catch (final RuntimeException | Error ex)
        {
            NativeInfo.free(nativeInfo);
            throw ex;
        }
        catch (final Throwable t)
        {
            NativeInfo.free(nativeInfo);
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public Info info()
    {
        return info.copy();
    }

    @Override
    public synchronized void bind(final Fid fid, final long flags)
    {
        checkOpen();
        if (core.state != EpCore.OPEN)
        {
            throw new FabricException(Errno.FI_EOPBADSTATE, "fi_ep_bind: " + name() + " is already enabled");
        }
        if (!(fid instanceof OfiFid other) || other.isClosed())
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_ep_bind: " + fid + " is not an open object of the ofi " +
                "provider");
        }
        if (fid instanceof OfiCompletionQueue cq)
        {
            if ((flags & (Flags.FI_TRANSMIT | Flags.FI_RECV)) == 0)
            {
                throw new FabricException(Errno.FI_EBADFLAGS, "fi_ep_bind: a CQ binds with FI_TRANSMIT and/or " +
                    "FI_RECV, flags were 0x" + Long.toHexString(flags));
            }
            // Completions are always asked of libfabric (they free the slots); selective completion is applied here.
            nativeBind(cq, flags & ~Flags.FI_SELECTIVE_COMPLETION, "fi_ep_bind");
            final boolean selective = (flags & Flags.FI_SELECTIVE_COMPLETION) != 0;
            if ((flags & Flags.FI_TRANSMIT) != 0)
            {
                txCq = cq;
                core.txSelective = selective;
            }
            if ((flags & Flags.FI_RECV) != 0)
            {
                rxCq = cq;
                core.rxSelective = selective;
            }
        }
        else
        {
            nativeBind(other, flags, "fi_ep_bind");
            if (fid instanceof io.jfabric.ofi.av.OfiAddressVector av)
            {
                core.peers = av.peers();
            }
        }
        other.use();
        bound.add(other);
    }

    @Override
    public synchronized void enable()
    {
        checkOpen();
        if (core.state != EpCore.OPEN)
        {
            return;
        }
        final long caps = info.caps();
        final boolean noDirection = (caps & DIRECTIONS) == 0;
        final boolean transmits = (caps & (Flags.FI_MSG | Flags.FI_TAGGED | Flags.FI_RMA | Flags.FI_ATOMIC)) != 0 &&
            (noDirection || (caps & (Flags.FI_SEND | Flags.FI_READ | Flags.FI_WRITE)) != 0);
        final boolean receives = (caps & (Flags.FI_MSG | Flags.FI_TAGGED)) != 0 &&
            (noDirection || (caps & Flags.FI_RECV) != 0);
        if ((transmits && txCq == null) || (receives && rxCq == null))
        {
            throw new FabricException(Errno.FI_ENOCQ, "fi_enable(" + name() + "): no CQ bound with " +
                (transmits && txCq == null ? "FI_TRANSMIT" : "FI_RECV") + ": the ofi provider keeps each posted " +
                "buffer until its completion is read, so every direction the caps use needs a CQ (a counter " +
                "alone cannot say which operation finished)");
        }
        final boolean safe = threading == Threading.SAFE || threading == Threading.UNSPEC;
        core.tx = pool(info.txAttr() == null ? 0 : info.txAttr().size(), safe);
        core.rx = pool(info.rxAttr() == null ? 0 : info.rxAttr().size(), safe);
        core.txDefaultFlags = core.txSelective && (info.txAttr() == null ||
            (info.txAttr().opFlags() & Flags.FI_COMPLETION) == 0) ? OpFlags.SILENT : 0;
        core.rxDefaultFlags = core.rxSelective && (info.rxAttr() == null ||
            (info.rxAttr().opFlags() & Flags.FI_COMPLETION) == 0) ? OpFlags.SILENT : 0;
        control(FI_ENABLE, 0, "fi_enable");
        if (txCq != null)
        {
            txCq.addPool(core.tx);
        }
        if (rxCq != null)
        {
            rxCq.addPool(core.rx);
        }
        msg.resolve();
        tagged.resolve();
        rma.resolve();
        atomic.resolve();
        core.state = EpCore.ENABLED;
    }

    private SlotPool pool(final long size, final boolean safe)
    {
        final int capacity = Integer.highestOneBit((int)Math.min(1 << 16, Math.max(16, size) * 2 - 1));
        return safe ? new MpmcSlotPool(capacity, core.stride(), core.refsPerSlot(), arena) :
            new SpscSlotPool(capacity, core.stride(), core.refsPerSlot(), arena);
    }

    /** @return operations posted on this endpoint whose completion has not been read, both directions. */
    public int inFlightTotal()
    {
        return core.tx == null ? 0 : core.tx.inFlight() + core.rx.inFlight();
    }

    @Override
    protected void afterClose()
    {
        core.state = EpCore.CLOSED;
        if (txCq != null && core.tx != null)
        {
            cancelInFlight(core.tx, txCq, Flags.FI_SEND);
        }
        if (rxCq != null && core.rx != null)
        {
            cancelInFlight(core.rx, rxCq, Flags.FI_RECV);
        }
        for (final OfiFid fid : bound)
        {
            fid.release();
        }
        bound.clear();
        NativeInfo.free(nativeInfo);
    }

    /**
     * After fi_close returned libfabric touches none of the endpoint's buffers: every operation still in flight
     * (libfabric 1.17's rxm, for one, never completes a rendezvous send to a peer that died) is completed here with
     * an FI_ECANCELED error entry on its CQ, and its slot freed.
     */
    private static void cancelInFlight(final SlotPool pool, final OfiCompletionQueue cq, final long flags)
    {
        cq.removePool(pool);
        pool.forEachPosted((slot, context) ->
        {
            cq.cancelled(context, flags);
            pool.complete(slot);
        });
    }

    @Override
    public int getname(final byte[] addr)
    {
        checkOpen();
        if (addr == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_getname: addr is null");
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment buf = call.allocate(Math.max(1, addr.length));
            final MemorySegment len = call.allocate(JAVA_LONG);
            len.set(JAVA_LONG, 0, addr.length);
            final MemorySegment fn = Ops.function(fid, FidLayouts.EP_CM, FidLayouts.fn(FidLayouts.FI_OPS_CM, "getname"));
            final int rc = (int)GETNAME.invokeExact(fn, fid, buf.address(), len.address());
            final long needed = len.get(JAVA_LONG, 0);
            if (rc == -Errno.FI_ETOOSMALL)
            {
                throw new FabricException(Errno.FI_ETOOSMALL, "fi_getname: the address needs " + needed +
                    " bytes, the array has " + addr.length);
            }
            NativeCalls.check(rc, "fi_getname(" + name() + ")");
            MemorySegment.copy(buf, JAVA_BYTE, 0, addr, 0, (int)Math.min(needed, addr.length));
            return (int)needed;
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public byte[] getname()
    {
        final byte[] probe = new byte[256];
        final int length = getname(probe);
        return java.util.Arrays.copyOf(probe, length);
    }

    @Override
    public synchronized void setname(final byte[] addr)
    {
        checkOpen();
        if (addr == null || addr.length == 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_setname: no address");
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment buf = call.allocate(addr.length);
            MemorySegment.copy(addr, 0, buf, JAVA_BYTE, 0, addr.length);
            final MemorySegment fn = Ops.function(fid, FidLayouts.EP_CM, FidLayouts.fn(FidLayouts.FI_OPS_CM, "setname"));
            if (fn.address() == 0)
            {
                throw new FabricException(Errno.FI_ENOSYS, "fi_setname: " + name() + " has no setname");
            }
            NativeCalls.check((int)SETNAME.invokeExact(fn, fid, buf.address(), (long)addr.length),
                "fi_setname(" + name() + ")");
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public long getOpt(final int optName)
    {
        checkOpen();
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment value = call.allocate(JAVA_LONG);
            final MemorySegment len = call.allocate(JAVA_LONG);
            len.set(JAVA_LONG, 0, 8);
            final MemorySegment fn = Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_EP, "getopt"));
            if (fn.address() == 0)
            {
                throw new FabricException(Errno.FI_ENOSYS, "fi_getopt: " + name() + " has no getopt");
            }
            NativeCalls.check((int)GETOPT.invokeExact(fn, fid, FI_OPT_ENDPOINT, optName, value.address(),
                len.address()), "fi_getopt(FI_OPT_ENDPOINT, " + optName + ")");
            return len.get(JAVA_LONG, 0) == 4 ? value.get(java.lang.foreign.ValueLayout.JAVA_INT, 0) :
                value.get(JAVA_LONG, 0);
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public void setOpt(final int optName, final long value)
    {
        checkOpen();
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment v = call.allocate(JAVA_LONG);
            v.set(JAVA_LONG, 0, value);
            final MemorySegment fn = Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_EP, "setopt"));
            if (fn.address() == 0)
            {
                throw new FabricException(Errno.FI_ENOSYS, "fi_setopt: " + name() + " has no setopt");
            }
            NativeCalls.check((int)SETOPT.invokeExact(fn, fid, FI_OPT_ENDPOINT, optName, v.address(), 8L),
                "fi_setopt(FI_OPT_ENDPOINT, " + optName + ", " + value + ")");
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public long cancel(final long context)
    {
        if (core.state != EpCore.ENABLED)
        {
            return core.badState();
        }
        final long[] found = {0};
        core.rx.forEachPosted((slot, ctx) ->
        {
            if (found[0] == 0 && ctx == context)
            {
                found[0] = core.rx.address(slot);
            }
        });
        if (found[0] == 0)
        {
            core.tx.forEachPosted((slot, ctx) ->
            {
                if (found[0] == 0 && ctx == context)
                {
                    found[0] = core.tx.address(slot);
                }
            });
        }
        if (found[0] == 0)
        {
            return -Errno.FI_ENOENT;
        }
        final MemorySegment fn = Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_EP, "cancel"));
        if (fn.address() == 0)
        {
            return -Errno.FI_ENOSYS;
        }
        try
        {
            return (long)CANCEL.invokeExact(fn, fid, found[0]);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    // ---- fi_msg(3) ----

    @Override
    public long send(final ByteBuffer buf, final int offset, final int len, final long desc, final long destAddr,
        final long context)
    {
        return msg.send(buf, offset, len, desc, destAddr, context);
    }

    @Override
    public long sendv(final Msg m, final long destAddr, final long context)
    {
        return msg.sendv(m, destAddr, context);
    }

    @Override
    public long sendmsg(final Msg m, final long flags)
    {
        return msg.sendmsg(m, flags);
    }

    @Override
    public long inject(final ByteBuffer buf, final int offset, final int len, final long destAddr)
    {
        return msg.inject(buf, offset, len, destAddr);
    }

    @Override
    public long senddata(final ByteBuffer buf, final int offset, final int len, final long desc, final long data,
        final long destAddr, final long context)
    {
        return msg.senddata(buf, offset, len, desc, data, destAddr, context);
    }

    @Override
    public long injectdata(final ByteBuffer buf, final int offset, final int len, final long data,
        final long destAddr)
    {
        return msg.injectdata(buf, offset, len, data, destAddr);
    }

    @Override
    public long recv(final ByteBuffer buf, final int offset, final int len, final long desc, final long srcAddr,
        final long context)
    {
        return msg.recv(buf, offset, len, desc, srcAddr, context);
    }

    @Override
    public long recvv(final Msg m, final long srcAddr, final long context)
    {
        return msg.recvv(m, srcAddr, context);
    }

    @Override
    public long recvmsg(final Msg m, final long flags)
    {
        return msg.recvmsg(m, flags);
    }

    // ---- fi_tagged(3) ----

    @Override
    public long tsend(final ByteBuffer buf, final int offset, final int len, final long desc, final long destAddr,
        final long tag, final long context)
    {
        return tagged.tsend(buf, offset, len, desc, destAddr, tag, context);
    }

    @Override
    public long tsendv(final Msg m, final long destAddr, final long tag, final long context)
    {
        return tagged.tsendv(m, destAddr, tag, context);
    }

    @Override
    public long tsendmsg(final Msg m, final long flags)
    {
        return tagged.tsendmsg(m, flags);
    }

    @Override
    public long tinject(final ByteBuffer buf, final int offset, final int len, final long destAddr, final long tag)
    {
        return tagged.tinject(buf, offset, len, destAddr, tag);
    }

    @Override
    public long tsenddata(final ByteBuffer buf, final int offset, final int len, final long desc, final long data,
        final long destAddr, final long tag, final long context)
    {
        return tagged.tsenddata(buf, offset, len, desc, data, destAddr, tag, context);
    }

    @Override
    public long tinjectdata(final ByteBuffer buf, final int offset, final int len, final long data,
        final long destAddr, final long tag)
    {
        return tagged.tinjectdata(buf, offset, len, data, destAddr, tag);
    }

    @Override
    public long trecv(final ByteBuffer buf, final int offset, final int len, final long desc, final long srcAddr,
        final long tag, final long ignore, final long context)
    {
        return tagged.trecv(buf, offset, len, desc, srcAddr, tag, ignore, context);
    }

    @Override
    public long trecvv(final Msg m, final long srcAddr, final long tag, final long ignore, final long context)
    {
        return tagged.trecvv(m, srcAddr, tag, ignore, context);
    }

    @Override
    public long trecvmsg(final Msg m, final long flags)
    {
        return tagged.trecvmsg(m, flags);
    }

    // ---- fi_rma(3) ----

    @Override
    public long read(final ByteBuffer buf, final int offset, final int len, final long desc, final long srcAddr,
        final long addr, final long key, final long context)
    {
        return rma.read(buf, offset, len, desc, srcAddr, addr, key, context);
    }

    @Override
    public long readv(final Msg m, final long srcAddr, final long addr, final long key, final long context)
    {
        return rma.readv(m, srcAddr, addr, key, context);
    }

    @Override
    public long readmsg(final Msg m, final RmaIov rmaIov, final long flags)
    {
        return rma.readmsg(m, rmaIov, flags);
    }

    @Override
    public long write(final ByteBuffer buf, final int offset, final int len, final long desc, final long destAddr,
        final long addr, final long key, final long context)
    {
        return rma.write(buf, offset, len, desc, destAddr, addr, key, context);
    }

    @Override
    public long writev(final Msg m, final long destAddr, final long addr, final long key, final long context)
    {
        return rma.writev(m, destAddr, addr, key, context);
    }

    @Override
    public long writemsg(final Msg m, final RmaIov rmaIov, final long flags)
    {
        return rma.writemsg(m, rmaIov, flags);
    }

    @Override
    public long injectWrite(final ByteBuffer buf, final int offset, final int len, final long destAddr,
        final long addr, final long key)
    {
        return rma.injectWrite(buf, offset, len, destAddr, addr, key);
    }

    @Override
    public long writedata(final ByteBuffer buf, final int offset, final int len, final long desc, final long data,
        final long destAddr, final long addr, final long key, final long context)
    {
        return rma.writedata(buf, offset, len, desc, data, destAddr, addr, key, context);
    }

    @Override
    public long injectWritedata(final ByteBuffer buf, final int offset, final int len, final long data,
        final long destAddr, final long addr, final long key)
    {
        return rma.injectWritedata(buf, offset, len, data, destAddr, addr, key);
    }

    // ---- fi_atomic(3) ----

    @Override
    public long atomic(final ByteBuffer buf, final int offset, final int count, final long desc, final long destAddr,
        final long addr, final long key, final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomic.atomic(buf, offset, count, desc, destAddr, addr, key, datatype, op, context);
    }

    @Override
    public long injectAtomic(final ByteBuffer buf, final int offset, final int count, final long destAddr,
        final long addr, final long key, final AtomicDatatype datatype, final AtomicOp op)
    {
        return atomic.injectAtomic(buf, offset, count, destAddr, addr, key, datatype, op);
    }

    @Override
    public long fetchAtomic(final ByteBuffer buf, final int offset, final int count, final long desc,
        final ByteBuffer result, final int resultOffset, final long resultDesc, final long destAddr, final long addr,
        final long key, final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomic.fetchAtomic(buf, offset, count, desc, result, resultOffset, resultDesc, destAddr, addr, key,
            datatype, op, context);
    }

    @Override
    public long compareAtomic(final ByteBuffer buf, final int offset, final int count, final long desc,
        final ByteBuffer compare, final int compareOffset, final long compareDesc, final ByteBuffer result,
        final int resultOffset, final long resultDesc, final long destAddr, final long addr, final long key,
        final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomic.compareAtomic(buf, offset, count, desc, compare, compareOffset, compareDesc, result,
            resultOffset, resultDesc, destAddr, addr, key, datatype, op, context);
    }

    @Override
    public long atomicv(final Ioc iov, final long destAddr, final long addr, final long key,
        final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomic.atomicv(iov, destAddr, addr, key, datatype, op, context);
    }

    @Override
    public long atomicmsg(final AtomicMsg m, final long flags)
    {
        return atomic.atomicmsg(m, flags);
    }

    @Override
    public long fetchAtomicv(final Ioc iov, final Ioc result, final long destAddr, final long addr, final long key,
        final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomic.fetchAtomicv(iov, result, destAddr, addr, key, datatype, op, context);
    }

    @Override
    public long fetchAtomicmsg(final AtomicMsg m, final Ioc result, final long flags)
    {
        return atomic.fetchAtomicmsg(m, result, flags);
    }

    @Override
    public long compareAtomicv(final Ioc iov, final Ioc compare, final Ioc result, final long destAddr,
        final long addr, final long key, final AtomicDatatype datatype, final AtomicOp op, final long context)
    {
        return atomic.compareAtomicv(iov, compare, result, destAddr, addr, key, datatype, op, context);
    }

    @Override
    public long compareAtomicmsg(final AtomicMsg m, final Ioc compare, final Ioc result, final long flags)
    {
        return atomic.compareAtomicmsg(m, compare, result, flags);
    }

    @Override
    public int atomicValid(final AtomicDatatype datatype, final AtomicOp op)
    {
        return atomic.valid(AtomicOps.WRITEVALID, datatype, op);
    }

    @Override
    public int fetchAtomicValid(final AtomicDatatype datatype, final AtomicOp op)
    {
        return atomic.valid(AtomicOps.READWRITEVALID, datatype, op);
    }

    @Override
    public int compareAtomicValid(final AtomicDatatype datatype, final AtomicOp op)
    {
        return atomic.valid(AtomicOps.COMPWRITEVALID, datatype, op);
    }

    // ---- zero copy: no libfabric counterpart ----

    @Override
    public MessageClaim messageClaim()
    {
        return NoClaim.INSTANCE;
    }

    /** @return -FI_ENOSYS: a claim writes into a peer's ring, which native providers do not expose. */
    @Override
    public long claim(final long destAddr, final int length, final long tag, final long data, final long flags)
    {
        return -Errno.FI_ENOSYS;
    }
}
