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
package io.jfabric.shm.cntr;

import io.jfabric.CntrAttr;
import io.jfabric.Counter;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.FidClass;
import io.jfabric.WaitObj;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.DomainResources;
import io.jfabric.shm.core.FidLifecycle;
import io.jfabric.shm.progress.Progressable;
import io.jfabric.shm.progress.ProgressableSet;

import org.agrona.concurrent.AtomicBuffer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A shm counter: an entry of the domain region's counter table, so peers' remote write events count here.
 * <p>
 * Data-path calls (read, add, set, wait) are allocation free, lock free and never throw; any thread. {@link #await}
 * polls: a short spin, then yields, then parks for growing intervals up to 1 ms, until the count reaches the
 * threshold, the error count changes ({@code -FI_EAVAIL}) or the timeout passes ({@code -FI_ETIMEDOUT}). Counts are
 * uint64, as in fi_cntr(3): the threshold is compared unsigned, so a count at or above 2^63 (a negative long) is
 * above every smaller threshold.
 * <p>
 * After close: {@link #read()} and {@link #readErr()} keep returning the counts as they were when the counter was
 * closed (a count can be any uint64, so no value could signal an error); the other calls return
 * {@code -FI_EBADF}. Its table entry is free for other counters from then on; a read that races the close returns
 * either the live count or the count at close.
 * <p>
 * Closing fails with {@link Errno#FI_EBUSY} while a memory region (or, later, an endpoint) is bound to it.
 */
public final class ShmCounter extends FidLifecycle implements Counter
{
    private static final boolean BROKEN_ADD = BrokenVariant.active("cntr.add-plain");

    private static final int SPINS = 100;
    private static final int YIELDS = 100;
    private static final long MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final FidLifecycle domain;
    private final ProgressableSet progressed = new ProgressableSet();
    private final DomainResources resources;
    private final CounterTable table;
    private final CntrAttr attr;
    private final int index;
    private final AtomicBuffer buffer;
    private final int valueOffset;
    private final int errorOffset;
    private volatile boolean released;
    private long valueAtClose;
    private long errorAtClose;

    /**
     * Open a counter: validates the attributes, takes a cntr_cnt unit and a domain reference, claims an entry.
     *
     * @param domain    the domain (retained until close).
     * @param resources the domain's limits.
     * @param table     the region's counter table.
     * @param attr      attributes, or null for the defaults.
     * @param context   the application's context.
     */
    public ShmCounter(
        final FidLifecycle domain,
        final DomainResources resources,
        final CounterTable table,
        final CntrAttr attr,
        final long context)
    {
        super(FidClass.CNTR, context);
        final CntrAttr a = attr == null ? new CntrAttr() : attr.copy();
        if (a.events() != CntrAttr.FI_CNTR_EVENTS_COMP)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_cntr_open: events " + a.events() +
                " is not supported; only FI_CNTR_EVENTS_COMP (0) is defined");
        }
        if (a.flags() != 0)
        {
            throw new FabricException(Errno.FI_EINVAL,
                "fi_cntr_open: flags 0x" + Long.toHexString(a.flags()) + " given; they are reserved and must be 0");
        }
        if (a.waitObj() == null || a.waitObj() == WaitObj.SET || a.waitObj() == WaitObj.POLLFD)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_cntr_open: wait_obj " + a.waitObj() + " is not " +
                "supported; jfabric has no wait sets: use NONE, UNSPEC, YIELD, MUTEX_COND or FD");
        }
        this.domain = domain;
        this.resources = resources;
        this.table = table;
        this.attr = a;
        domain.retain("fi_cntr_open");
        int claimed = -1;
        try
        {
            resources.acquire(DomainResources.Kind.COUNTER, "fi_cntr_open");
            try
            {
                claimed = table.claim("fi_cntr_open");
            }
            finally
            {
                if (claimed < 0)
                {
                    resources.release(DomainResources.Kind.COUNTER);
                }
            }
        }
        finally
        {
            if (claimed < 0)
            {
                domain.release();
            }
        }
        this.index = claimed;
        this.buffer = table.buffer();
        this.valueOffset = table.valueOffset(claimed);
        this.errorOffset = table.errorOffset(claimed);
    }

    /** @return the counter table entry, for key table entries that name it. */
    public int index()
    {
        return index;
    }

    /** @return the domain it was opened from. */
    public FidLifecycle domain()
    {
        return domain;
    }

    /**
     * Make reads and waits of this counter progress an endpoint (manual data progress, fi_domain(3)); called when
     * an endpoint bound to it is enabled.
     *
     * @param p the endpoint.
     */
    public void attach(final Progressable p)
    {
        progressed.add(p);
    }

    /**
     * @param p an endpoint that closes.
     */
    public void detach(final Progressable p)
    {
        progressed.remove(p);
    }

    private void progress()
    {
        progressed.progressAll();
    }

    @Override
    public long read()
    {
        progress();
        final long value = buffer.getLongVolatile(valueOffset);
        return released ? valueAtClose : value;
    }

    @Override
    public long readErr()
    {
        progress();
        final long value = buffer.getLongVolatile(errorOffset);
        return released ? errorAtClose : value;
    }

    @Override
    public int add(final long value)
    {
        return update(valueOffset, value, true);
    }

    @Override
    public int addErr(final long value)
    {
        return update(errorOffset, value, true);
    }

    @Override
    public int set(final long value)
    {
        return update(valueOffset, value, false);
    }

    @Override
    public int setErr(final long value)
    {
        return update(errorOffset, value, false);
    }

    private int update(final int offset, final long value, final boolean add)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (add && BROKEN_ADD)
        {
            buffer.putLongVolatile(offset, buffer.getLongVolatile(offset) + value);
        }
        else if (add)
        {
            buffer.getAndAddLong(offset, value);
        }
        else
        {
            buffer.putLongVolatile(offset, value);
        }
        return 0;
    }

    @Override
    public int await(final long threshold, final int timeoutMs)
    {
        if (isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (attr.waitObj() == WaitObj.NONE)
        {
            return -Errno.FI_EINVAL;
        }
        final long start = System.nanoTime();
        final long timeoutNs = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final long errors = buffer.getLongVolatile(errorOffset);
        long parkNs = 1000;
        for (int i = 0; ; i++)
        {
            if (isClosed())
            {
                return -Errno.FI_EBADF;
            }
            progress();
            if (Long.compareUnsigned(buffer.getLongVolatile(valueOffset), threshold) >= 0)
            {
                return 0;
            }
            if (buffer.getLongVolatile(errorOffset) != errors)
            {
                return -Errno.FI_EAVAIL;
            }
            if (timeoutMs >= 0 && System.nanoTime() - start >= timeoutNs)
            {
                return -Errno.FI_ETIMEDOUT;
            }
            if (i < SPINS)
            {
                Thread.onSpinWait();
            }
            else if (i < SPINS + YIELDS)
            {
                Thread.yield();
            }
            else
            {
                LockSupport.parkNanos(parkNs);
                parkNs = Math.min(parkNs * 2, MAX_PARK_NS);
            }
        }
    }

    @Override
    public CntrAttr attr()
    {
        return attr.copy();
    }

    @Override
    protected String describe()
    {
        return "counter " + index;
    }

    @Override
    protected void doClose()
    {
        valueAtClose = buffer.getLongVolatile(valueOffset);
        errorAtClose = buffer.getLongVolatile(errorOffset);
        released = true; // Publishes the counts at close before the entry can be claimed by another counter.
        table.free(index);
        resources.release(DomainResources.Kind.COUNTER);
        domain.release();
    }
}
