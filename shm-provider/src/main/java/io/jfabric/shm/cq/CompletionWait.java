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
package io.jfabric.shm.cq;

import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.Errno;
import io.jfabric.WaitObj;
import io.jfabric.shm.region.RegionFile;

import java.util.concurrent.locks.LockSupport;

/**
 * The blocking side of a completion queue (fi_cq_sread, fi_cq_signal): a wait polls its queue (progressing the bound
 * endpoints under manual progress) until the wait condition's threshold of entries is there, a signal comes, the
 * queue closes or the timeout passes; between polls it spins, then yields, then parks, and a writer that commits an
 * entry to the ring, a signal or a close unparks it ({@link #wake}).
 * <p>
 * Threads: {@link #sread} on the threads that wait on the queue; {@link #signal} and {@link #wake} on any thread.
 */
final class CompletionWait
{
    private static final int SPINS = 200;
    private static final int YIELDS = 100;

    /** What a wait polls: the queue it belongs to. */
    interface Polled
    {
        /** @return whether the queue is closed. */
        boolean isClosed();

        /** Progress every endpoint bound to the queue. */
        void progressEndpoints();

        /** @return entries written and not yet read, plus entries reserved and not yet written. */
        long outstanding();

        /**
         * fi_cq_read.
         *
         * @param entries where to.
         * @param count   at most.
         * @return as fi_cq_read.
         */
        int read(CqEntries entries, int count);

        /**
         * fi_cq_readfrom.
         *
         * @param entries where to.
         * @param count   at most.
         * @return as fi_cq_readfrom.
         */
        int readFrom(CqEntries entries, int count);
    }

    private final CqAttr attr;
    private final RegionFile regionFile;
    private final boolean progressOnRead;
    private volatile boolean signalled;
    private volatile Thread waiter;

    /**
     * @param attr           the queue's attributes (wait object and condition).
     * @param regionFile     the domain region (a wait ends with -FI_EIO when its file was truncated).
     * @param progressOnRead whether the queue's reads progress its endpoints (manual progress).
     */
    CompletionWait(final CqAttr attr, final RegionFile regionFile, final boolean progressOnRead)
    {
        this.attr = attr;
        this.regionFile = regionFile;
        this.progressOnRead = progressOnRead;
    }

    /**
     * fi_cq_sread / fi_cq_sreadfrom.
     *
     * @param queue     the queue waited on.
     * @param entries   where to.
     * @param count     at most.
     * @param timeoutMs the timeout, negative for none.
     * @param from      whether to read as readFrom.
     * @return as the read, -FI_EAGAIN on timeout or signal, -FI_ENOSYS with FI_WAIT_NONE.
     */
    int sread(
        final Polled queue, final CqEntries entries, final int count, final int timeoutMs, final boolean from)
    {
        if (queue.isClosed())
        {
            return -Errno.FI_EBADF;
        }
        if (attr.waitObj() == WaitObj.NONE)
        {
            return -Errno.FI_ENOSYS;
        }
        final long threshold = attr.waitCond() == CqAttr.FI_CQ_COND_THRESHOLD ?
            Math.max(1, Math.min(attr.condThreshold(), count)) : 1;
        final long deadline = timeoutMs < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutMs * 1_000_000L;
        int idle = 0;
        while (true)
        {
            if (signalled)
            {
                signalled = false;
                return -Errno.FI_EAGAIN;
            }
            if (regionFile.fault() != null)
            {
                return -Errno.FI_EIO;
            }
            if (progressOnRead)
            {
                queue.progressEndpoints();
            }
            if (queue.outstanding() >= threshold)
            {
                final int n = from ? queue.readFrom(entries, count) : queue.read(entries, count);
                if (n != -Errno.FI_EAGAIN)
                {
                    return n;
                }
            }
            if (queue.isClosed())
            {
                return -Errno.FI_EBADF;
            }
            final long now = System.nanoTime();
            if (now - deadline >= 0)
            {
                return -Errno.FI_EAGAIN;
            }
            if (++idle <= SPINS)
            {
                Thread.onSpinWait();
            }
            else if (idle <= SPINS + YIELDS)
            {
                Thread.yield();
            }
            else
            {
                waiter = Thread.currentThread();
                LockSupport.parkNanos(this, Math.min(deadline - now, progressOnRead ? 50_000L : 1_000_000L));
                waiter = null;
            }
        }
    }

    /** fi_cq_signal: the wait now in progress, or the next one, returns -FI_EAGAIN. */
    void signal()
    {
        signalled = true;
        wake();
    }

    /** Unpark the waiting thread, if one is parked. */
    void wake()
    {
        final Thread t = waiter;
        if (t != null)
        {
            LockSupport.unpark(t);
        }
    }
}
