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

import io.jfabric.Msg;
import io.jfabric.shm.mr.MemoryRegistrar;
import io.jfabric.shm.mr.ShmMemoryRegion;

import java.nio.ByteBuffer;

/**
 * Where the receiver of a rendezvous send finds its bytes: the provider key of the registered shareable region that
 * holds them and their address in it, as peers map it (what {@code RemoteMemory.readTo} takes). {@link #find} looks a
 * send up and returns this flyweight filled, or null when the send cannot go by rendezvous; a transmit context keeps
 * one and reuses it for every send, so the result is valid until its next lookup.
 * <p>
 * Threads: the sending side of one transmit context.
 */
final class RendezvousSource
{
    private long key;
    private long addr;

    /**
     * Look up a send's data, {@code msg}'s one buffer or else {@code buf}: can its receiver copy it straight from
     * registered shareable memory?
     *
     * @param registrar the domain's registrations.
     * @param msg       the send's message, or null for a send of {@code buf}.
     * @param buf       the send's buffer when {@code msg} is null.
     * @param offset    its first byte.
     * @param desc      its descriptor ({@code fi_mr_desc}), 0 for none.
     * @param total     bytes sent.
     * @return this, holding the source's key and address; or null when the data is not (wholly) in one registered
     * shareable region.
     */
    RendezvousSource find(
        final MemoryRegistrar registrar, final Msg msg, final ByteBuffer buf, final int offset, final long desc,
        final long total)
    {
        if (msg == null)
        {
            return find(registrar, desc, buf, offset, total);
        }
        return msg.iovCount == 1 ? find(registrar, msg.desc[0], msg.iov[0], msg.iovOffset[0], total) : null;
    }

    private RendezvousSource find(
        final MemoryRegistrar registrar, final long desc, final ByteBuffer buf, final int offset, final long len)
    {
        if (desc == 0)
        {
            return null;
        }
        final ShmMemoryRegion mr = registrar.regionOf(desc);
        final long at = mr == null ? -1 : mr.peerAddress(buf, offset, len);
        if (at < 0)
        {
            return null;
        }
        key = mr.providerKey();
        addr = at;
        return this;
    }

    /** @return the source region's provider key. */
    long key()
    {
        return key;
    }

    /** @return the address of the send's first byte in the source region, as peers map it. */
    long addr()
    {
        return addr;
    }
}
