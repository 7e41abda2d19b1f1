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
package io.jfabric.ofi.core;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.ofi.lib.CTypes;
import io.jfabric.ofi.lib.Downcalls;
import io.jfabric.ofi.lib.FidLayouts;
import io.jfabric.ofi.lib.Ops;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * What every object of the ofi provider is: the Java owner of one native {@code struct fid}, closed exactly once.
 * <p>
 * The lifetime rules jfabric promises are kept here, in Java, before libfabric is asked: an object that has objects
 * opened from it or bound to it ({@link #use()}/{@link #release()} count them) refuses to close with FI_EBUSY, so a
 * native object is never freed while another still points at it; a subclass may refuse for its own reasons
 * ({@link #checkClose()}: an endpoint with operations in flight). Only then is {@code fi_close} called, and the object
 * is marked closed ({@link #isClosed()}, a volatile read every data-path call makes first), so no call after close
 * reaches a freed native object. Closing while another thread is inside a call on the same object is the one misuse
 * this cannot see without a cost on every call (libfabric's own rule: an object is not in use when it is closed).
 * <p>
 * Control calls are synchronized on the object. Any thread.
 */
public abstract class OfiFid implements Fid
{
    private static final MethodHandle CLOSE = Downcalls.blocking(CTypes.INT, CTypes.PTR, CTypes.PTR_ARG);
    private static final MethodHandle CONTROL = Downcalls.blocking(
        CTypes.INT, CTypes.PTR, CTypes.PTR_ARG, CTypes.INT, CTypes.PTR_ARG);
    private static final MethodHandle BIND = Downcalls.blocking(
        CTypes.INT, CTypes.PTR, CTypes.PTR_ARG, CTypes.PTR_ARG, CTypes.U64);
    private static final long CLOSE_FN = FidLayouts.fn(FidLayouts.FI_OPS, "close");
    private static final long CONTROL_FN = FidLayouts.fn(FidLayouts.FI_OPS, "control");
    private static final long BIND_FN = FidLayouts.fn(FidLayouts.FI_OPS, "bind");

    /** The native object. */
    protected final long fid;
    private final FidClass fidClass;
    private final long context;
    private final OfiFid parent;
    private final String name;
    private int users;
    private volatile boolean closed;

    /**
     * Registers the object; the parent counts it as a user until it closes.
     *
     * @param fid      the native object's address, never 0.
     * @param fidClass its class.
     * @param context  the application's context.
     * @param parent   the object it was opened from (its fabric or domain), or null for a fabric.
     * @param name     what the object is, for messages ({@code "endpoint(tcp;ofi_rxm)"}).
     */
    protected OfiFid(final long fid, final FidClass fidClass, final long context, final OfiFid parent,
        final String name)
    {
        this.fid = fid;
        this.fidClass = fidClass;
        this.context = context;
        this.parent = parent;
        this.name = name;
        if (parent != null)
        {
            parent.use();
        }
        FidRegistry.INSTANCE.add(this);
    }

    /** @return the native object's address. */
    public final long pointer()
    {
        return fid;
    }

    @Override
    public final FidClass fidClass()
    {
        return fidClass;
    }

    @Override
    public final long context()
    {
        return context;
    }

    /** @return whether the object is closed: one volatile read. */
    public final boolean isClosed()
    {
        return closed;
    }

    /** @return the object's name for messages. */
    public final String name()
    {
        return name;
    }

    /**
     * Count one more object opened from or bound to this one.
     *
     * @throws FabricException FI_EBADF once closed.
     */
    public final synchronized void use()
    {
        if (closed)
        {
            throw new FabricException(Errno.FI_EBADF, name + " is closed");
        }
        users++;
    }

    /** One object opened from or bound to this one is gone. */
    public final synchronized void release()
    {
        users--;
    }

    /**
     * @throws FabricException FI_EBADF once closed.
     */
    protected final void checkOpen()
    {
        if (closed)
        {
            throw new FabricException(Errno.FI_EBADF, name + " is closed");
        }
    }

    @Override
    public final void close()
    {
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            if (users > 0)
            {
                throw new FabricException(Errno.FI_EBUSY, "fi_close(" + name + "): " + users +
                    " object(s) opened from or bound to it are still open; close them first");
            }
            checkClose();
            final long rc;
            try
            {
                rc = (int)CLOSE.invokeExact(Ops.function(fid, FidLayouts.FID_OPS, CLOSE_FN), fid);
            }
            catch (final Throwable t)
            {
                throw NativeCalls.rethrow(t);
            }
            NativeCalls.check(rc, "fi_close(" + name + ")");
            closed = true;
            FidRegistry.INSTANCE.remove(this);
            afterClose();
        }
        if (parent != null)
        {
            parent.release();
        }
    }

    /**
     * Before {@code fi_close}, under the object's lock: throw to refuse the close. Nothing by default.
     */
    protected void checkClose()
    {
    }

    /**
     * After {@code fi_close} succeeded, under the object's lock: release what the object held (native memory, the
     * users it counted on other objects). Nothing by default.
     */
    protected void afterClose()
    {
    }

    /**
     * {@code fi_control(fid, command, arg)}.
     *
     * @param command the command.
     * @param arg     the argument's address, or 0.
     * @param call    the call's name, for the exception.
     * @return the native result, not negative.
     */
    protected final int control(final int command, final long arg, final String call)
    {
        checkOpen();
        final MemorySegment fn = Ops.function(fid, FidLayouts.FID_OPS, CONTROL_FN);
        if (fn.equals(MemorySegment.NULL))
        {
            throw new FabricException(Errno.FI_ENOSYS, call + ": " + name + " has no control operation");
        }
        try
        {
            return (int)NativeCalls.check((int)CONTROL.invokeExact(fn, fid, command, arg), call + " on " + name);
        }
        catch (final FabricException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    /**
     * {@code fi_bind(fid, other, flags)} through this object's {@code fi_ops}.
     *
     * @param other the object to bind.
     * @param flags bind flags.
     * @param call  the call's name.
     */
    protected final void nativeBind(final OfiFid other, final long flags, final String call)
    {
        checkOpen();
        final MemorySegment fn = Ops.function(fid, FidLayouts.FID_OPS, BIND_FN);
        if (fn.equals(MemorySegment.NULL))
        {
            throw new FabricException(Errno.FI_ENOSYS, call + ": " + name + " has no bind operation");
        }
        try
        {
            NativeCalls.check((int)BIND.invokeExact(fn, fid, other.pointer(), flags),
                call + "(" + name + ", " + other.name() + ", 0x" + Long.toHexString(flags) + ")");
        }
        catch (final FabricException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw NativeCalls.rethrow(t);
        }
    }

    @Override
    public String toString()
    {
        return name + (closed ? " (closed)" : "");
    }
}
