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
package io.jfabric.shm.mr;

import io.jfabric.Errno;
import io.jfabric.FidClass;
import io.jfabric.ShareableMemory;
import io.jfabric.shm.core.FidLifecycle;

import java.nio.ByteBuffer;

/**
 * Shareable memory of the shm provider: one {@link SegmentFile} this process created and maps. Memory regions
 * registered over it hold a reference, so {@link #close()} fails with {@link Errno#FI_EBUSY} until they are closed;
 * closing then deletes its file (peers that mapped it keep their own mapping) and unmaps it, unless a view of it was
 * handed out by {@link #buffer()}: then the mapping goes when the garbage collector finds no view left, so a view
 * used after close touches the (deleted) file's memory and never crashes the JVM.
 * <p>
 * Thread safe.
 */
public final class ShmShareableMemory extends FidLifecycle implements ShareableMemory
{
    private final FidLifecycle domain;
    private final SegmentFile segment;
    private volatile boolean viewsHandedOut;

    ShmShareableMemory(final FidLifecycle domain, final SegmentFile segment)
    {
        super(FidClass.UNSPEC, 0);
        this.domain = domain;
        this.segment = segment;
    }

    /** @return the segment. */
    public SegmentFile segment()
    {
        return segment;
    }

    /** @return the domain that allocated it. */
    public FidLifecycle domain()
    {
        return domain;
    }

    @Override
    public long length()
    {
        return segment.dataLength();
    }

    @Override
    public ByteBuffer buffer()
    {
        ensureOpen("allocShareable buffer");
        viewsHandedOut = true;
        return segment.mapped().duplicate()
            .position(SegmentDescriptor.DATA_OFFSET)
            .limit(SegmentDescriptor.DATA_OFFSET + (int)segment.dataLength())
            .slice();
    }

    @Override
    public long address()
    {
        return segment.dataAddress();
    }

    @Override
    protected String describe()
    {
        return "shareable memory " + segment.path().getFileName();
    }

    @Override
    protected void doClose()
    {
        segment.close(true, !viewsHandedOut);
        domain.release();
    }
}
