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

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.core.BrokenVariant;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;

/**
 * Claims one of the domain region's completion rings for a new queue: the first ring whose owner word
 * ({@link SlotDescriptor#cqOwnerOffset}) is 0 or names a process that is gone, taken by CAS of that word to this
 * process's identity, so two processes (or threads) opening a queue at once never get the same ring.
 * <p>
 * Stateless; any thread (control path: {@code fi_cq_open}).
 */
final class CompletionRingClaim
{
    private static final boolean BROKEN_RING_CLAIM = BrokenVariant.active("cq.claim-plain");

    private CompletionRingClaim()
    {
    }

    /**
     * @param region   the domain region.
     * @param geometry its geometry.
     * @return the number of the ring claimed.
     * @throws FabricException {@link Errno#FI_ENOSPC} when every ring is in use.
     */
    static int claim(final AtomicBuffer region, final RegionGeometry geometry)
    {
        final long self = ProcessIdentity.self();
        for (int i = 0; i < geometry.slotCount(); i++)
        {
            final int offset = SlotDescriptor.cqOwnerOffset(geometry, i);
            final long owner = region.getLongVolatile(offset);
            if ((owner == 0 || ProcessIdentity.isGone(owner)) && claimOwner(region, offset, owner, self))
            {
                return i;
            }
        }
        throw new FabricException(Errno.FI_ENOSPC, "fi_cq_open: all " + geometry.slotCount() +
            " completion rings of the domain region are in use (one per endpoint slot: raise jfabric.shm.ep.count)");
    }

    private static boolean claimOwner(final AtomicBuffer region, final int offset, final long owner, final long self)
    {
        if (BROKEN_RING_CLAIM)
        {
            region.putLongVolatile(offset, self);
            return true;
        }
        return region.compareAndSetLong(offset, owner, self);
    }
}
