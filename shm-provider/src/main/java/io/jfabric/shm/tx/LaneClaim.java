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
package io.jfabric.shm.tx;

import io.jfabric.Errno;
import io.jfabric.MessageClaim;
import io.jfabric.shm.lane.SpscLane;
import io.jfabric.shm.region.RegionFile;

import java.nio.ByteBuffer;

/**
 * An endpoint's one zero-copy claim ({@code Endpoint.claim}, then {@link #commit} or {@link #abort}): a
 * whole-message record of a peer's lane that the application fills in place, through {@link #buffer()} at
 * {@link #offset()} for {@link #length()} bytes. The same object for the endpoint's life; its transmit context
 * serves it once the endpoint is enabled.
 * <p>
 * The buffer is a view of that one lane (made once per peer when the endpoint is enabled, so a claim allocates
 * nothing) whose limit is the claim's end while the claim is open and 0 once it is committed or aborted: a write
 * past the claim, or through the view after the commit, throws {@link IndexOutOfBoundsException} instead of landing
 * in the next record or another endpoint's memory. (Below the claim the view still reaches the same lane's earlier,
 * unread records of this endpoint: a view cannot be re-based without allocating.) Once a claim's buffer has been
 * handed out, the domain region stays mapped after the domain closes (left to the garbage collector), so a late
 * write through it never touches unmapped memory.
 * <p>
 * A claim still open when the endpoint closes is discarded with the endpoint's other outstanding operations
 * (fi_endpoint(3): "discarded operations will silently be dropped"): its record becomes padding, so the lane flows
 * on, and the next {@link #commit} or {@link #abort} answers -FI_ECANCELED, the errno libfabric gives an operation
 * that was cancelled, which tells the application that the message was not sent and why; later calls answer
 * -FI_EBADF, as every call after close does. Nothing of a closed endpoint's claim touches the lane again, whoever
 * holds the slot now and whether or not the domain is still open.
 * <p>
 * The sending side's: the thread that claimed commits or aborts (under FI_THREAD_SAFE, the context's send guard
 * serializes them).
 */
public final class LaneClaim implements MessageClaim
{
    /**
     * What finishes the claim: its transmit context's commit or abort, under the context's send guard.
     */
    @FunctionalInterface
    interface Finisher
    {
        /**
         * @param commit true to commit the claimed record, false to abort it.
         * @return 0, or a negated errno.
         */
        long finish(boolean commit);
    }

    private static final ByteBuffer NONE = ByteBuffer.allocateDirect(0);

    private final RegionFile regionFile;
    private Finisher context;
    private boolean regionKept;
    private boolean discarded;
    ByteBuffer view = NONE;
    SpscLane lane;
    int index;
    int offset;
    int length;

    /**
     * @param regionFile the domain region, kept mapped once a claim's buffer is handed out.
     */
    public LaneClaim(final RegionFile regionFile)
    {
        this.regionFile = regionFile;
    }

    /** Control path: the context that serves this claim from now on (its commit or abort). */
    void serve(final Finisher context)
    {
        this.context = context;
    }

    /**
     * The endpoint closes (send guard held): give up the open claim, if any. Its record turns into padding unless
     * the region must not be touched (it faulted).
     *
     * @param abort whether to abort the record in the lane.
     */
    void discard(final boolean abort)
    {
        final SpscLane l = lane;
        if (l == null)
        {
            return;
        }
        lane = null;
        view.limit(0);
        discarded = true;
        l.release();
        if (abort)
        {
            l.abort(index);
        }
    }

    /**
     * A commit or abort after the endpoint closed (send guard held).
     *
     * @return -FI_ECANCELED the first time after a claim was discarded by the close, else -FI_EBADF.
     */
    long closedAnswer()
    {
        if (discarded)
        {
            discarded = false;
            return -Errno.FI_ECANCELED;
        }
        return -Errno.FI_EBADF;
    }

    @Override
    public ByteBuffer buffer()
    {
        if (!regionKept)
        {
            regionKept = true;
            regionFile.keepMappedAfterClose();
        }
        return view;
    }

    @Override
    public int offset()
    {
        return offset;
    }

    @Override
    public int length()
    {
        return length;
    }

    @Override
    public long commit()
    {
        return finish(true);
    }

    @Override
    public long abort()
    {
        return finish(false);
    }

    private long finish(final boolean commit)
    {
        final Finisher c = context;
        if (c == null)
        {
            return -Errno.FI_EINVAL;
        }
        try
        {
            return c.finish(commit);
        }
        catch (final InternalError ex)
        {
            return regionFile.faulted(ex);
        }
    }
}
