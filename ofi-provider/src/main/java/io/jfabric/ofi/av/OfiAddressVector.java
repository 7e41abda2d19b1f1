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
package io.jfabric.ofi.av;

import io.jfabric.Addresses;
import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.ofi.core.NativeCalls;
import io.jfabric.ofi.core.OfiFid;
import io.jfabric.ofi.lib.CStrings;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.Downcalls;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

import static io.jfabric.ofi.lib.DataLayouts.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A native address vector ({@code struct fid_av}, {@code fi_av_open}). Addresses are the provider's binary ones
 * ({@code struct sockaddr_in} for tcp): {@link #insert(byte[][], int, long[], long, long, int[])} takes them as
 * {@code getname} returns them; the String forms take them as libfabric prints them ({@link SockAddrText}).
 * {@code insertsvc}/{@code insertsym} resolve node and service in libfabric, as in C. Control path: every call
 * throws {@link FabricException} with libfabric's errno. Thread safe as the native AV is.
 */
public final class OfiAddressVector extends OfiFid implements AddressVector
{
    private static final MethodHandle OPEN = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.PTR_ARG);
    private static final MethodHandle INSERT = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.SIZE_T, CTypes.PTR_ARG, CTypes.U64, CTypes.PTR_ARG);
    private static final MethodHandle INSERTSVC = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.U64, CTypes.PTR_ARG);
    private static final MethodHandle INSERTSYM = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.SIZE_T, CTypes.PTR_ARG, CTypes.SIZE_T, CTypes.PTR_ARG, CTypes.U64, CTypes.PTR_ARG);
    private static final MethodHandle REMOVE = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.SIZE_T, CTypes.U64);
    private static final MethodHandle LOOKUP = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.U64, CTypes.PTR_ARG, CTypes.PTR_ARG);
    private static final MethodHandle STRADDR = Downcalls.blocking(CTypes.PTR, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.PTR_ARG);

    private final AvAttr attr;
    private final PeerTable peers = new PeerTable();

    private OfiAddressVector(final long fid, final AvAttr attr, final long context, final OfiFid domain)
    {
        super(fid, FidClass.AV, context, domain, "av(" + attr.type().cName() + ")");
        this.attr = attr;
    }

    /**
     * {@code fi_av_open}.
     *
     * @param domain  the domain's object.
     * @param attr    the attributes.
     * @param context the application's context.
     * @return the AV.
     */
    public static OfiAddressVector open(final OfiFid domain, final AvAttr attr, final long context)
    {
        if (attr == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_open: attr must not be null");
        }
        final AvAttr inForce = attr.copy();
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment nativeAttr = call.allocate(FI_AV_ATTR);
            nativeAttr.set(JAVA_INT, AVA_TYPE, inForce.type() == null ? 0 : inForce.type().value());
            nativeAttr.set(JAVA_INT, AVA_RX_CTX_BITS, inForce.rxCtxBits());
            nativeAttr.set(JAVA_LONG, AVA_COUNT, inForce.count());
            nativeAttr.set(JAVA_LONG, AVA_EP_PER_NODE, inForce.epPerNode());
            nativeAttr.set(ADDRESS, AVA_NAME, inForce.name() == null ? MemorySegment.NULL :
                call.allocateFrom(inForce.name()));
            nativeAttr.set(JAVA_LONG, AVA_MAP_ADDR, inForce.mapAddr());
            nativeAttr.set(JAVA_LONG, AVA_FLAGS, inForce.flags());
            final MemorySegment out = call.allocate(ADDRESS);
            final MemorySegment fn = Ops.function(domain.pointer(), FidLayouts.OBJ_OPS,
                FidLayouts.fn(FidLayouts.FI_OPS_DOMAIN, "av_open"));
            NativeCalls.check((int)OPEN.invokeExact(fn, domain.pointer(), nativeAttr.address(), out.address(),
                context), "fi_av_open(type=" + (inForce.type() == null ? "null" : inForce.type().cName()) +
                ", count=" + inForce.count() + ")");
            final AvType type = AvType.of(nativeAttr.get(JAVA_INT, AVA_TYPE));
            inForce.type(type == null ? AvType.UNSPEC : type);
            inForce.count(nativeAttr.get(JAVA_LONG, AVA_COUNT));
            inForce.mapAddr(nativeAttr.get(JAVA_LONG, AVA_MAP_ADDR));
            return new OfiAddressVector(out.get(ADDRESS, 0).address(), inForce, context, domain);
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
    public AvAttr attr()
    {
        return attr.copy();
    }

    /** @return the fi_addr values inserted and not removed, which endpoints check before every call. */
    public PeerTable peers()
    {
        return peers;
    }

    @Override
    public void bind(final Fid eq, final long flags)
    {
        if (!(eq instanceof OfiFid other) || eq.fidClass() != FidClass.EQ)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_bind: " + eq + " is not an event queue of the ofi " +
                "provider");
        }
        nativeBind(other, flags, "fi_av_bind");
    }

    @Override
    public int insert(final byte[][] addr, final int count, final long[] fiAddr, final long flags,
        final long context, final int[] status)
    {
        checkOpen();
        if (addr == null || count < 0 || count > addr.length || (fiAddr != null && fiAddr.length < count))
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insert: " + count + " addresses asked of " +
                (addr == null ? "null" : addr.length) + (fiAddr == null ? "" : ", fi_addr array of " + fiAddr.length));
        }
        if (count == 0)
        {
            return 0;
        }
        final int length = addr[0] == null ? 0 : addr[0].length;
        for (int i = 0; i < count; i++)
        {
            if (addr[i] == null || addr[i].length != length || length == 0)
            {
                throw new FabricException(Errno.FI_EINVAL, "fi_av_insert: address " + i + " is " +
                    (addr[i] == null ? "null" : addr[i].length + " bytes") + "; every address of one call has the " +
                    "provider's length (" + length + ")");
            }
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment packed = call.allocate((long)length * count);
            for (int i = 0; i < count; i++)
            {
                MemorySegment.copy(addr[i], 0, packed, JAVA_BYTE, (long)i * length, length);
            }
            return insertNative(call, count, fiAddr, flags, context, status, "fi_av_insert",
                (fn, out, ctx) -> (int)INSERT.invokeExact(fn, fid, packed.address(), (long)count, out, flags, ctx));
        }
    }

    @Override
    public int insert(final String[] addr, final int count, final long[] fiAddr, final long flags,
        final long context, final int[] status)
    {
        if (addr == null || count < 0 || count > addr.length)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insert: " + count + " addresses asked of " +
                (addr == null ? "null" : addr.length));
        }
        final byte[][] binary = new byte[count][];
        for (int i = 0; i < count; i++)
        {
            binary[i] = SockAddrText.parse(addr[i]);
        }
        return insert(binary, count, fiAddr, flags, context, status);
    }

    @Override
    public int insertsvc(final String node, final String service, final long[] fiAddr, final long flags,
        final long context, final int[] status)
    {
        checkOpen();
        if (node == null || service == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insertsvc: node and service are both needed, were " +
                node + " and " + service);
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment n = call.allocateFrom(node);
            final MemorySegment s = call.allocateFrom(service);
            return insertNative(call, 1, fiAddr, flags, context, status,
                "fi_av_insertsvc(" + node + ", " + service + ")",
                (fn, out, ctx) -> (int)INSERTSVC.invokeExact(fn, fid, n.address(), s.address(), out, flags, ctx));
        }
    }

    @Override
    public int insertsym(final String node, final int nodecnt, final String service, final int svccnt,
        final long[] fiAddr, final long flags, final long context, final int[] status)
    {
        checkOpen();
        if (node == null || service == null || nodecnt < 1 || svccnt < 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insertsym: node " + node + " x " + nodecnt +
                ", service " + service + " x " + svccnt);
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment n = call.allocateFrom(node);
            final MemorySegment s = call.allocateFrom(service);
            return insertNative(call, nodecnt * svccnt, fiAddr, flags, context, status,
                "fi_av_insertsym(" + node + ", " + nodecnt + ", " + service + ", " + svccnt + ")",
                (fn, out, ctx) -> (int)INSERTSYM.invokeExact(fn, fid, n.address(), (long)nodecnt, s.address(),
                    (long)svccnt, out, flags, ctx));
        }
    }

    @FunctionalInterface
    private interface InsertCall
    {
        int call(MemorySegment fn, long fiAddrOut, long context) throws Throwable;
    }

    private int insertNative(final Arena call, final int count, final long[] fiAddr, final long flags,
        final long context, final int[] status, final String what, final InsertCall insert)
    {
        if (fiAddr != null && fiAddr.length < count)
        {
            throw new FabricException(Errno.FI_EINVAL, what + ": fi_addr array of " + fiAddr.length + " for " +
                count + " addresses");
        }
        final boolean syncErr = (flags & Flags.FI_SYNC_ERR) != 0;
        final MemorySegment out = call.allocate(JAVA_LONG, count);
        final MemorySegment errors = call.allocate(JAVA_INT, count);
        final String name = what.startsWith("fi_av_insertsvc") ? "insertsvc" :
            what.startsWith("fi_av_insertsym") ? "insertsym" : "insert";
        final MemorySegment fn = Ops.function(fid, FidLayouts.OBJ_OPS, FidLayouts.fn(FidLayouts.FI_OPS_AV, name));
        out.fill((byte)-1);
        final int rc;
        try
        {
            rc = insert.call(fn, out.address(), syncErr ? errors.address() : context);
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
        NativeCalls.check(rc, what + " into " + name());
        final long[] inserted = new long[count];
        MemorySegment.copy(out, JAVA_LONG, 0, inserted, 0, count);
        peers.add(inserted, count);
        if (fiAddr != null)
        {
            System.arraycopy(inserted, 0, fiAddr, 0, count);
        }
        if (syncErr && status != null)
        {
            MemorySegment.copy(errors, JAVA_INT, 0, status, 0, Math.min(count, status.length));
        }
        return rc;
    }

    @Override
    public void remove(final long[] fiAddr, final int count, final long flags)
    {
        checkOpen();
        if (fiAddr == null || count < 0 || count > fiAddr.length)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_remove: " + count + " of " +
                (fiAddr == null ? "null" : fiAddr.length));
        }
        peers.remove(fiAddr, count);
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment addrs = call.allocate(JAVA_LONG, Math.max(1, count));
            MemorySegment.copy(fiAddr, 0, addrs, JAVA_LONG, 0, count);
            final MemorySegment fn = Ops.function(fid, FidLayouts.OBJ_OPS,
                FidLayouts.fn(FidLayouts.FI_OPS_AV, "remove"));
            NativeCalls.check((int)REMOVE.invokeExact(fn, fid, addrs.address(), (long)count, flags),
                "fi_av_remove(" + count + " addresses)");
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
    public int lookup(final long fiAddr, final byte[] addr)
    {
        checkOpen();
        if (addr == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_lookup: addr is null");
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment buf = call.allocate(Math.max(1, addr.length));
            final MemorySegment len = call.allocate(JAVA_LONG);
            len.set(JAVA_LONG, 0, addr.length);
            final MemorySegment fn = Ops.function(fid, FidLayouts.OBJ_OPS,
                FidLayouts.fn(FidLayouts.FI_OPS_AV, "lookup"));
            NativeCalls.check((int)LOOKUP.invokeExact(fn, fid, fiAddr, buf.address(), len.address()),
                "fi_av_lookup(" + Long.toUnsignedString(fiAddr) + ")");
            final long needed = len.get(JAVA_LONG, 0);
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
    public String lookup(final long fiAddr)
    {
        return straddr(lookupBytes(fiAddr));
    }

    @Override
    public String straddr(final byte[] addr)
    {
        checkOpen();
        if (addr == null || addr.length == 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_straddr: no address");
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment a = call.allocate(addr.length);
            MemorySegment.copy(addr, 0, a, JAVA_BYTE, 0, addr.length);
            final MemorySegment buf = call.allocate(256);
            final MemorySegment len = call.allocate(JAVA_LONG);
            len.set(JAVA_LONG, 0, 256);
            final MemorySegment fn = Ops.function(fid, FidLayouts.OBJ_OPS,
                FidLayouts.fn(FidLayouts.FI_OPS_AV, "straddr"));
            final MemorySegment text = (MemorySegment)STRADDR.invokeExact(fn, fid, a.address(), buf.address(),
                len.address());
            return CStrings.read(text);
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
    public String straddr(final String addr)
    {
        return straddr(SockAddrText.parse(addr));
    }

    @Override
    public int straddr(final String addr, final byte[] buf)
    {
        final byte[] text = (straddr(addr) + "\0").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(text, 0, buf, 0, Math.min(text.length, buf.length));
        return text.length;
    }

    @Override
    public long insertAuthKey(final byte[] authKey, final long flags)
    {
        throw notIn117("fi_av_insert_auth_key");
    }

    @Override
    public int lookupAuthKey(final long fiAddr, final byte[] authKey)
    {
        throw notIn117("fi_av_lookup_auth_key");
    }

    @Override
    public void setUserId(final long fiAddr, final long userId, final long flags)
    {
        throw notIn117("fi_av_set_user_id");
    }

    @Override
    public long userId(final long fiAddr)
    {
        return Addresses.FI_ADDR_NOTAVAIL;
    }

    private static FabricException notIn117(final String call)
    {
        return new FabricException(Errno.FI_ENOSYS, call + ": not in libfabric 1.17's API, which this provider " +
            "is written to");
    }
}
