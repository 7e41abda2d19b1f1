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
package io.jfabric.shm.core;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;

/**
 * The close rules every shm object shares: it carries its class and the application's context; objects opened
 * from it or bound to it hold a reference ({@link #retain}/{@link #release}); {@link #close()} is idempotent and
 * fails with {@link Errno#FI_EBUSY} while references remain, leaving the object open.
 * <p>
 * Control path only. Thread safe: retain and close are serialised on the object, so a close can never race an
 * open or bind into a dangling reference.
 */
public abstract class FidLifecycle implements Fid
{
    private final FidClass fidClass;
    private final long context;
    private int references;
    private volatile boolean closed;

    /**
     * @param fidClass the object's class.
     * @param context  the application's context.
     */
    protected FidLifecycle(final FidClass fidClass, final long context)
    {
        this.fidClass = fidClass;
        this.context = context;
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

    /**
     * @return true once closed.
     */
    public final boolean isClosed()
    {
        return closed;
    }

    /**
     * Record that another object now depends on this one (was opened from it or bound to it).
     *
     * @param operation the call taking the reference, for the error message.
     * @throws FabricException {@link Errno#FI_EBADF} when this object is already closed.
     */
    public final synchronized void retain(final String operation)
    {
        ensureOpen(operation);
        references++;
    }

    /**
     * Drop a reference taken with {@link #retain(String)}.
     */
    public final synchronized void release()
    {
        if (references > 0)
        {
            references--;
        }
    }

    /**
     * @return how many objects depend on this one now.
     */
    public final synchronized int references()
    {
        return references;
    }

    /**
     * @param operation the call being attempted, for the error message.
     * @throws FabricException {@link Errno#FI_EBADF} when this object is closed.
     */
    public final void ensureOpen(final String operation)
    {
        if (closed)
        {
            throw new FabricException(Errno.FI_EBADF, operation + ": the " + describe() + " is closed");
        }
    }

    @Override
    public final synchronized void close()
    {
        if (closed)
        {
            return;
        }
        if (references > 0)
        {
            throw new FabricException(Errno.FI_EBUSY, "fi_close: the " + describe() + " still has " + references +
                " object(s) opened from or bound to it; close those first");
        }
        doClose();
        closed = true;
    }

    /**
     * @return a short description for messages, such as {@code "domain 'orders'"}; any thread.
     */
    public final String description()
    {
        return describe();
    }

    /**
     * @return a short description for messages, such as {@code "domain 'orders'"}.
     */
    protected String describe()
    {
        return fidClass.name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Release this object's resources; called once, with no references left. It should not fail: a failure
     * here leaves the object open.
     */
    protected abstract void doClose();
}
