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
package io.jfabric.shm.eq;

import io.jfabric.EqAttr;
import io.jfabric.EqEntry;
import io.jfabric.EqErrEntry;
import io.jfabric.Errno;
import io.jfabric.EventQueue;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.WaitObj;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.core.FidLifecycle;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The shm provider's event queue (fi_eq(3)): a bounded in-process queue of events and a separate bounded queue
 * of errors, shared by the application ({@link EventQueue} calls) and the provider objects bound to it, which
 * post with {@link #postEvent} and {@link #postError} (domain with FI_REG_MR, address vector with FI_EVENT,
 * memory regions). It lives in the JVM that opened it; nothing of it is in shared memory.
 * <p>
 * <b>Capacity.</b> Events and errors together never exceed {@code attr.size} entries. An application
 * {@link #write} on a full queue returns {@code -FI_EAGAIN} and queues nothing. A provider post on a full queue
 * cannot be refused that way (the operation it reports has already happened), so the queue becomes
 * <em>overrun</em>, as the page's NOTES describe: the post returns {@code -FI_EOVERRUN}, later writes and posts
 * fail with {@code -FI_EOVERRUN}, reads still return every event and error queued before, and once the events
 * are gone read returns {@code -FI_EAVAIL} and readErr an error entry with {@code err} FI_EOVERRUN, fid this
 * queue, {@code data} the number of posts lost, {@code prov_errno} FI_EOVERRUN; it stays there (readErr does not
 * consume it) because an overrun queue is fatal. So no event or error is ever lost without the reader learning.
 * <p>
 * <b>Errors</b> are out of band: while any is queued, read and sread return {@code -FI_EAVAIL}. Error data is the
 * UTF-8 text of the error's detail, kept up to {@link ShmConfig#maxErrData()} bytes; {@code prov_errno} is a
 * libfabric errno. {@link #strerror(int, byte[])} prints both.
 * <p>
 * <b>Waiting.</b> FI_WAIT_UNSPEC, FI_WAIT_MUTEX_COND and FI_WAIT_YIELD all block sread on a {@link Condition}
 * of the queue's lock (the Java form of a mutex and condition variable), so a waiting thread parks rather than
 * spins; FI_WAIT_NONE forbids sread ({@code -FI_ENOSYS}, as libfabric's utility EQ answers).
 * <p>
 * <b>Closing</b> ({@link #close()}, from {@link FidLifecycle}) fails with FI_EBUSY while objects bound to the
 * queue hold a reference ({@link #retain}); otherwise it drops what is queued, wakes every thread blocked in
 * sread, which returns {@code -FI_EBADF}, and releases the fabric. Every later call returns {@code -FI_EBADF}.
 * <p>
 * Thread safe: every method may be called from any thread. One lock guards the queue; reads, writes and posts
 * hold it for a few field copies and, uncontended, allocate nothing (a contended {@link ReentrantLock} queues the
 * waiting thread on a node of its own).
 */
public final class ShmEventQueue extends FidLifecycle implements EventQueue
{
    private static final byte[] OVERRUN_TEXT =
        "event queue overrun: a provider event arrived when the queue was full".getBytes(StandardCharsets.UTF_8);

    private final FidLifecycle fabric;
    private final EqAttr attr;
    private final int capacity;
    private final boolean writable;
    private final boolean waitable;
    private final int maxErrData;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final EventRing events;
    private final ErrorRing errors;
    private boolean overrun;
    private long lostPosts;
    private boolean shut;

    /**
     * {@code fi_eq_open}: open an event queue on a fabric. Validates the attributes (see
     * {@link EqAttrValidator}), then takes a reference on the fabric, which {@link #close()} drops, so the fabric
     * cannot close while the queue is open; the caller must not take one of its own.
     *
     * @param fabric  the fabric the queue is opened from.
     * @param attr    the application's attributes; copied, not kept.
     * @param context the application's context ({@code fid->context}).
     * @param config  the provider's limits: the default and largest depth, the error data kept per error.
     * @throws FabricException {@link Errno#FI_EINVAL} or {@link Errno#FI_ENOSYS} for attributes the provider does
     *                         not accept; {@link Errno#FI_EBADF} when the fabric is closed.
     */
    public ShmEventQueue(final FidLifecycle fabric, final EqAttr attr, final long context, final ShmConfig config)
    {
        super(FidClass.EQ, context);
        Objects.requireNonNull(fabric, "fabric");
        Objects.requireNonNull(config, "config");
        this.attr = EqAttrValidator.resolve(attr, config);
        this.fabric = fabric;
        capacity = (int)this.attr.size();
        writable = (this.attr.flags() & Flags.FI_WRITE) != 0;
        waitable = this.attr.waitObj() != WaitObj.NONE;
        maxErrData = config.maxErrData();
        events = new EventRing(capacity);
        errors = new ErrorRing(capacity, maxErrData);
        fabric.retain("fi_eq_open");
    }

    /**
     * @return the fabric the queue was opened from.
     */
    public FidLifecycle fabric()
    {
        return fabric;
    }

    @Override
    public EqAttr attr()
    {
        return attr.copy();
    }

    /**
     * The argument checks every read shares: an entry to fill and no flag but FI_PEEK.
     *
     * @return 0, or the negated errno to return.
     */
    private static int checkReadArgs(final Object entry, final long flags)
    {
        if (entry == null)
        {
            return -Errno.FI_EINVAL;
        }
        return (flags & ~Flags.FI_PEEK) != 0 ? -Errno.FI_EBADFLAGS : 0;
    }

    @Override
    public int read(final EqEntry entry, final long flags)
    {
        final int invalid = checkReadArgs(entry, flags);
        if (invalid != 0)
        {
            return invalid;
        }
        lock.lock();
        try
        {
            return readLocked(entry, flags);
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public int readErr(final EqErrEntry entry, final long flags)
    {
        final int invalid = checkReadArgs(entry, flags);
        if (invalid != 0)
        {
            return invalid;
        }
        lock.lock();
        try
        {
            if (shut)
            {
                return -Errno.FI_EBADF;
            }
            if (!errors.isEmpty())
            {
                errors.peek(entry);
                if ((flags & Flags.FI_PEEK) == 0)
                {
                    errors.remove();
                }
                return 1;
            }
            if (overrun && events.isEmpty())
            {
                entry.set(this, 0, lostPosts, Errno.FI_EOVERRUN, Errno.FI_EOVERRUN, OVERRUN_TEXT, 0,
                    Math.min(OVERRUN_TEXT.length, maxErrData));
                return 1;
            }
            return -Errno.FI_EAGAIN;
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public int write(final int event, final EqEntry entry, final long flags)
    {
        if (entry == null)
        {
            return -Errno.FI_EINVAL;
        }
        if (flags != 0)
        {
            return -Errno.FI_EBADFLAGS;
        }
        lock.lock();
        try
        {
            if (shut)
            {
                return -Errno.FI_EBADF;
            }
            if (!writable)
            {
                return -Errno.FI_EINVAL;
            }
            if (overrun)
            {
                return -Errno.FI_EOVERRUN;
            }
            if (isFull())
            {
                return -Errno.FI_EAGAIN;
            }
            events.add(event, entry.fid(), entry.context(), entry.data());
            changed.signalAll();
            return 1;
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public int sread(final EqEntry entry, final int timeoutMillis, final long flags)
    {
        final int invalid = checkReadArgs(entry, flags);
        if (invalid != 0)
        {
            return invalid;
        }
        lock.lock();
        try
        {
            if (!waitable && !shut)
            {
                return -Errno.FI_ENOSYS;
            }
            final long deadline = timeoutMillis < 0 ? 0 : System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (true)
            {
                final int result = readLocked(entry, flags);
                if (result != -Errno.FI_EAGAIN)
                {
                    return result;
                }
                try
                {
                    if (timeoutMillis < 0)
                    {
                        changed.await();
                    }
                    else
                    {
                        final long remaining = deadline - System.nanoTime();
                        if (remaining <= 0)
                        {
                            return -Errno.FI_EAGAIN;
                        }
                        changed.awaitNanos(remaining);
                    }
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return readLocked(entry, flags);
                }
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public String strerror(final int provErrno, final byte[] errData)
    {
        int length = 0;
        if (errData != null)
        {
            while (length < errData.length && errData[length] != 0)
            {
                length++;
            }
        }
        if (length == 0)
        {
            return Errno.strerror(provErrno);
        }
        final String detail = new String(errData, 0, length, StandardCharsets.UTF_8);
        return provErrno == 0 ? detail : Errno.strerror(provErrno) + ": " + detail;
    }

    /**
     * Report an event, for the provider objects bound to this queue (FI_MR_COMPLETE, FI_AV_COMPLETE, ...).
     * Any thread; never blocks.
     *
     * @param event   the event type, such as {@link io.jfabric.EqEvent#MR_COMPLETE}'s value.
     * @param fid     the object the event concerns.
     * @param context the operation's context, 0 when it had none.
     * @param data    event-specific data.
     * @return 0 when queued; {@code -FI_EOVERRUN} when the queue was full or already overrun (the event is lost and
     * the reader will be told by the overrun error); {@code -FI_EBADF} when the queue is closed.
     */
    public int postEvent(final int event, final Fid fid, final long context, final long data)
    {
        lock.lock();
        try
        {
            final int refused = refusePost();
            if (refused != 0)
            {
                return refused;
            }
            events.add(event, fid, context, data);
            changed.signalAll();
            return 0;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Report an asynchronous error, for the provider objects bound to this queue. Any thread; never blocks.
     *
     * @param fid       the object the error concerns.
     * @param context   the failed operation's context, 0 when it had none.
     * @param data      operation-specific data.
     * @param err       positive libfabric errno, the general reason.
     * @param provErrno the provider's code; the shm provider uses a libfabric errno here too.
     * @param errData   error data (UTF-8 detail text), or null; at most {@link ShmConfig#maxErrData()} bytes are
     *                  kept.
     * @param offset    where the error data starts.
     * @param length    its length in bytes.
     * @return 0 when queued; {@code -FI_EOVERRUN} when the queue was full or already overrun (the reader will be told
     * by the overrun error); {@code -FI_EBADF} when closed; {@code -FI_EINVAL} when {@code err} is not positive
     * or the data range does not fit {@code errData}.
     */
    public int postError(
        final Fid fid,
        final long context,
        final long data,
        final int err,
        final int provErrno,
        final byte[] errData,
        final int offset,
        final int length)
    {
        if (err <= 0 ||
            (errData != null && (offset < 0 || length < 0 || offset > errData.length - length)) ||
            (errData == null && length != 0))
        {
            return -Errno.FI_EINVAL;
        }
        lock.lock();
        try
        {
            final int refused = refusePost();
            if (refused != 0)
            {
                return refused;
            }
            errors.add(fid, context, data, err, provErrno, errData, offset, length);
            changed.signalAll();
            return 0;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Report an asynchronous error whose detail is a text, as {@link #postError(Fid, long, long, int, int, byte[],
     * int, int)}; the text is encoded as UTF-8 and cut, on a character boundary, to
     * {@link ShmConfig#maxErrData()} bytes. Allocates; for error paths only.
     *
     * @param fid       the object the error concerns.
     * @param context   the failed operation's context.
     * @param data      operation-specific data.
     * @param err       positive libfabric errno.
     * @param provErrno the provider's code.
     * @param detail    what went wrong, with the values involved; null for none.
     * @return as the byte form.
     */
    public int postError(
        final Fid fid, final long context, final long data, final int err, final int provErrno, final String detail)
    {
        final byte[] bytes = detail == null ? null : detail.getBytes(StandardCharsets.UTF_8);
        final int length = bytes == null ? 0 : utf8Prefix(bytes, maxErrData);
        return postError(fid, context, data, err, provErrno, bytes, 0, length);
    }

    /**
     * @return true once a provider post found the queue full; the state is permanent.
     */
    public boolean isOverrun()
    {
        lock.lock();
        try
        {
            return overrun;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * @return the number of events and errors queued now, for diagnostics.
     */
    public int depth()
    {
        lock.lock();
        try
        {
            return events.size() + errors.size();
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    protected String describe()
    {
        return "event queue (context 0x" + Long.toHexString(context()) + ")";
    }

    @Override
    protected void doClose()
    {
        lock.lock();
        try
        {
            shut = true;
            events.clear();
            errors.clear();
            changed.signalAll();
        }
        finally
        {
            lock.unlock();
        }
        fabric.release();
    }

    private int readLocked(final EqEntry entry, final long flags)
    {
        if (shut)
        {
            return -Errno.FI_EBADF;
        }
        if (!errors.isEmpty() || (overrun && events.isEmpty()))
        {
            return -Errno.FI_EAVAIL;
        }
        if (events.isEmpty())
        {
            return -Errno.FI_EAGAIN;
        }
        events.peek(entry);
        if ((flags & Flags.FI_PEEK) == 0)
        {
            events.remove();
        }
        return 1;
    }

    private int refusePost()
    {
        if (shut)
        {
            return -Errno.FI_EBADF;
        }
        if (overrun || isFull())
        {
            overrun = true;
            lostPosts++;
            changed.signalAll();
            return -Errno.FI_EOVERRUN;
        }
        return 0;
    }

    private boolean isFull()
    {
        return events.size() + errors.size() >= capacity;
    }

    private static int utf8Prefix(final byte[] bytes, final int limit)
    {
        if (bytes.length <= limit)
        {
            return bytes.length;
        }
        int end = limit;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80)
        {
            end--;
        }
        return end;
    }
}
