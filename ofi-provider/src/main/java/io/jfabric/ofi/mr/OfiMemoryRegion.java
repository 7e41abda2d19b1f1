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
package io.jfabric.ofi.mr;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.MemoryRegion;
import io.jfabric.MrAttr;
import io.jfabric.MrIov;
import io.jfabric.MrMode;
import io.jfabric.MrRawAttr;
import io.jfabric.ShareableMemory;
import io.jfabric.ofi.OfiMemory;
import io.jfabric.ofi.core.NativeCalls;
import io.jfabric.ofi.core.OfiFid;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.DataLayouts;
import io.jfabric.ofi.lib.Downcalls;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;

import static io.jfabric.ofi.lib.DataLayouts.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A native memory registration ({@code struct fid_mr}, {@code fi_mr_regattr}): over direct buffers and native
 * memory ({@link OfiMemory}), which it keeps reachable until it closes, so a peer's RMA never reaches memory the JVM
 * let go. Heap memory ({@code byte[]}, heap buffers) moves and is refused with FI_EINVAL. Key and descriptor are
 * libfabric's ({@code fi_mr_key}, {@code fi_mr_desc}); with FI_MR_VIRT_ADDR peers address the region by
 * {@link #baseAddress()} plus an offset, else by offset. Control path; thread safe.
 */
public final class OfiMemoryRegion extends OfiFid implements MemoryRegion
{
    private static final MethodHandle REGATTR = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG,
        CTypes.PTR_ARG, CTypes.U64, CTypes.PTR_ARG);
    private static final int FI_ENABLE = 6;
    private static final int FI_GET_RAW_MR = 8;
    private static final int FI_REFRESH = 14;

    private final Object[] memory;
    private final long base;
    private final long length;
    private final long access;
    private final boolean virtAddr;

    private OfiMemoryRegion(final long fid, final long context, final OfiFid domain, final Object[] memory,
        final long base, final long length, final long access, final boolean virtAddr)
    {
        super(fid, FidClass.MR, context, domain, "mr(" + length + " bytes)");
        this.memory = memory;
        this.base = base;
        this.length = length;
        this.access = access;
        this.virtAddr = virtAddr;
    }

    /**
     * {@code fi_mr_regattr}.
     *
     * @param domain the domain's object.
     * @param attr   the attributes.
     * @param flags  registration flags.
     * @param mrMode the domain's mr_mode.
     * @return the region.
     */
    public static OfiMemoryRegion register(final OfiFid domain, final MrAttr attr, final long flags,
        final int mrMode)
    {
        final MrIov[] iov = attr == null ? null : attr.iov();
        if (iov == null || iov.length == 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_regattr: no memory to register");
        }
        final Object[] memory = new Object[iov.length];
        final long[] addresses = new long[iov.length];
        long total = 0;
        for (int i = 0; i < iov.length; i++)
        {
            addresses[i] = address(iov[i], i);
            memory[i] = iov[i].buffer() != null ? iov[i].buffer() : iov[i].shareable();
            total += iov[i].length();
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment iovecs = call.allocate(IOVEC.byteSize() * iov.length);
            for (int i = 0; i < iov.length; i++)
            {
                iovecs.set(JAVA_LONG, i * IOVEC.byteSize() + IOV_BASE, addresses[i]);
                iovecs.set(JAVA_LONG, i * IOVEC.byteSize() + IOV_LEN, iov[i].length());
            }
            final MemorySegment a = call.allocate(FI_MR_ATTR);
            a.set(JAVA_LONG, MRA_MR_IOV, iovecs.address());
            a.set(JAVA_LONG, MRA_IOV_COUNT, iov.length);
            a.set(JAVA_LONG, MRA_ACCESS, attr.access());
            a.set(JAVA_LONG, MRA_OFFSET, attr.offset());
            a.set(JAVA_LONG, MRA_REQUESTED_KEY, attr.requestedKey());
            a.set(JAVA_LONG, MRA_CONTEXT, attr.context());
            final byte[] authKey = attr.authKey();
            if (authKey != null && authKey.length > 0)
            {
                final MemorySegment key = call.allocate(authKey.length);
                MemorySegment.copy(authKey, 0, key, JAVA_BYTE, 0, authKey.length);
                a.set(JAVA_LONG, MRA_AUTH_KEY_SIZE, authKey.length);
                a.set(JAVA_LONG, MRA_AUTH_KEY, key.address());
            }
            a.set(JAVA_INT, MRA_IFACE, attr.iface());
            final MemorySegment out = call.allocate(ADDRESS);
            final MemorySegment fn = Ops.function(domain.pointer(), FidLayouts.DOMAIN_MR,
                FidLayouts.fn(FidLayouts.FI_OPS_MR, "regattr"));
            if (fn.address() == 0)
            {
                throw new FabricException(Errno.FI_ENOSYS, "fi_mr_regattr: the domain has no registration");
            }
            NativeCalls.check((int)REGATTR.invokeExact(fn, domain.pointer(), a.address(), flags, out.address()),
                "fi_mr_regattr(" + total + " bytes in " + iov.length + " piece(s), access 0x" +
                Long.toHexString(attr.access()) + ", key " + attr.requestedKey() + ")");
            for (final Object m : memory)
            {
                if (m instanceof OfiMemory native_)
                {
                    native_.registered();
                }
            }
            return new OfiMemoryRegion(out.get(ADDRESS, 0).address(), attr.context(), domain, memory, addresses[0],
                total, attr.access(), (mrMode & MrMode.FI_MR_VIRT_ADDR) != 0);
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

    private static long address(final MrIov iov, final int i)
    {
        final ByteBuffer buffer = iov.buffer();
        final ShareableMemory shareable = iov.shareable();
        if (buffer != null && buffer.isDirect())
        {
            return MemorySegment.ofBuffer(buffer).address();
        }
        if (shareable instanceof OfiMemory m)
        {
            if (iov.offset() < 0 || iov.length() < 0 || iov.offset() > m.length() - iov.length())
            {
                throw new FabricException(Errno.FI_EINVAL, "fi_mr_reg: iov " + i + " " + iov + " is outside the " +
                    m.length() + " bytes of its memory");
            }
            return m.address() + iov.offset();
        }
        throw new FabricException(Errno.FI_EINVAL, "fi_mr_reg: iov " + i + " " + iov + " is not native memory: " +
            "native libfabric reads and writes registered memory until the region closes, and heap memory moves. " +
            "Register a direct ByteBuffer or domain.allocShareable(n) (or OfiMemory.wrap(segment))");
    }

    @Override
    public long key()
    {
        checkOpen();
        return CTypes.ALL.get(JAVA_LONG, fid + FidLayouts.MR_KEY);
    }

    @Override
    public long desc()
    {
        checkOpen();
        return CTypes.ALL.get(JAVA_LONG, fid + FidLayouts.MR_MEM_DESC);
    }

    @Override
    public long baseAddress()
    {
        return virtAddr ? base : 0;
    }

    @Override
    public long length()
    {
        return length;
    }

    @Override
    public long access()
    {
        return access;
    }

    @Override
    public synchronized void bind(final Fid fid, final long flags)
    {
        if (!(fid instanceof OfiFid other))
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_mr_bind: " + fid + " is not an object of the ofi provider");
        }
        nativeBind(other, flags, "fi_mr_bind");
    }

    @Override
    public void enable()
    {
        control(FI_ENABLE, 0, "fi_mr_enable");
    }

    @Override
    public void refresh(final MrIov[] iov, final long flags)
    {
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment modify = call.allocate(FI_MR_MODIFY);
            modify.set(JAVA_LONG, MRMOD_FLAGS, flags);
            if (iov != null && iov.length > 0)
            {
                final MemorySegment iovecs = call.allocate(IOVEC.byteSize() * iov.length);
                for (int i = 0; i < iov.length; i++)
                {
                    iovecs.set(JAVA_LONG, i * IOVEC.byteSize() + IOV_BASE, address(iov[i], i));
                    iovecs.set(JAVA_LONG, i * IOVEC.byteSize() + IOV_LEN, iov[i].length());
                }
                modify.set(JAVA_LONG, MRMOD_ATTR + MRA_MR_IOV, iovecs.address());
                modify.set(JAVA_LONG, MRMOD_ATTR + MRA_IOV_COUNT, iov.length);
            }
            control(FI_REFRESH, modify.address(), "fi_mr_refresh");
        }
    }

    @Override
    public void rawAttr(final MrRawAttr attr, final long flags)
    {
        try (Arena call = Arena.ofConfined())
        {
            final byte[] key = attr.rawKey() == null ? new byte[0] : attr.rawKey();
            final MemorySegment raw = call.allocate(DataLayouts.FI_MR_RAW_ATTR);
            final MemorySegment baseAddr = call.allocate(JAVA_LONG);
            final MemorySegment keyBytes = call.allocate(Math.max(1, key.length));
            final MemorySegment keySize = call.allocate(JAVA_LONG);
            keySize.set(JAVA_LONG, 0, Math.min(attr.keySize(), key.length));
            raw.set(JAVA_LONG, MRRAW_FLAGS, flags);
            raw.set(JAVA_LONG, MRRAW_BASE_ADDR, baseAddr.address());
            raw.set(JAVA_LONG, MRRAW_RAW_KEY, keyBytes.address());
            raw.set(JAVA_LONG, MRRAW_KEY_SIZE, keySize.address());
            try
            {
                control(FI_GET_RAW_MR, raw.address(), "fi_mr_raw_attr");
            }
            finally
            {
                attr.keySize((int)keySize.get(JAVA_LONG, 0));
            }
            attr.baseAddr(baseAddr.get(JAVA_LONG, 0));
            MemorySegment.copy(keyBytes, JAVA_BYTE, 0, key, 0, (int)Math.min(key.length, attr.keySize()));
        }
    }

    @Override
    protected void afterClose()
    {
        for (final Object m : memory)
        {
            if (m instanceof OfiMemory native_)
            {
                native_.deregistered();
            }
        }
    }
}
