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
package io.jfabric;

/**
 * A batch of completion entries, the Java form of the array a C caller passes to {@code fi_cq_read}: entry
 * {@code i} is the i-th element of each array. Which fields a read fills is the queue's {@link CqFormat}:
 * CONTEXT fills {@link #opContext}; MSG adds {@link #flags} and {@link #len}; DATA adds {@link #bufOffset} and
 * {@link #data}; TAGGED adds {@link #tag}. {@code fi_cq_readfrom} also fills {@link #srcAddr}.
 * <p>
 * {@link #bufOffset} is the absolute index in the receive buffer where the data was placed (the C {@code buf}
 * field as an offset; with FI_MULTI_RECV, where this message starts). Allocate once, reuse for every read: reads
 * allocate nothing. Not thread safe: one per reading thread.
 */
public final class CqEntries
{
    /** Operation contexts. */
    public final long[] opContext;
    /** Completion flags (FI_SEND, FI_RECV, FI_MSG, FI_TAGGED, FI_REMOTE_CQ_DATA, FI_MULTI_RECV, ...). */
    public final long[] flags;
    /** Bytes received (receives) or 0 (sends). */
    public final long[] len;
    /** Where the data was placed in the receive buffer. */
    public final long[] bufOffset;
    /** Remote CQ data, valid with FI_REMOTE_CQ_DATA. */
    public final long[] data;
    /** Tag of a tagged message. */
    public final long[] tag;
    /** Source fi_addr (or user id) from readfrom; FI_ADDR_NOTAVAIL when the source is not in the AV. */
    public final long[] srcAddr;

    /**
     * @param capacity most entries one read returns.
     */
    public CqEntries(final int capacity)
    {
        if (capacity < 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "CqEntries: capacity must be at least 1, was " + capacity);
        }
        opContext = new long[capacity];
        flags = new long[capacity];
        len = new long[capacity];
        bufOffset = new long[capacity];
        data = new long[capacity];
        tag = new long[capacity];
        srcAddr = new long[capacity];
    }

    /** @return most entries one read returns. */
    public int capacity()
    {
        return opContext.length;
    }
}
