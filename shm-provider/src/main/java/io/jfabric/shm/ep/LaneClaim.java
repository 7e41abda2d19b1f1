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
package io.jfabric.shm.ep;

import io.jfabric.Errno;
import io.jfabric.MessageClaim;
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
 * The sending side's: the thread that claimed commits or aborts (under FI_THREAD_SAFE, the context's send guard
 * serializes them).
 */
final class LaneClaim implements MessageClaim
{
    private static final ByteBuffer NONE = ByteBuffer.allocateDirect(0);

    private final RegionFile regionFile;
    private TxContext context;
    private boolean regionKept;
    ByteBuffer view = NONE;
    SpscLane lane;
    int index;
    int offset;
    int length;

    /**
     * @param regionFile the domain region, kept mapped once a claim's buffer is handed out.
     */
    LaneClaim(final RegionFile regionFile)
    {
        this.regionFile = regionFile;
    }

    /** Control path: the context that serves this claim from now on. */
    void serve(final TxContext context)
    {
        this.context = context;
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
        final TxContext c = context;
        if (c == null)
        {
            return -Errno.FI_EINVAL;
        }
        try
        {
            return c.finishClaim(commit);
        }
        catch (final InternalError ex)
        {
            return regionFile.faulted(ex);
        }
    }
}
