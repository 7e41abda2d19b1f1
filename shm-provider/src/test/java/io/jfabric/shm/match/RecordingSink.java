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
package io.jfabric.shm.match;

/**
 * A {@link RecvCompletionSink} that records every completion in preallocated arrays (wrapping after
 * {@link #CAPACITY} entries), so tests can read them back and the allocation check sees no allocation of its own.
 */
final class RecordingSink implements RecvCompletionSink
{
    static final int CAPACITY = 1 << 14;

    final boolean[] error = new boolean[CAPACITY];
    final long[] senderId = new long[CAPACITY];
    final long[] context = new long[CAPACITY];
    final long[] opFlags = new long[CAPACITY];
    final long[] cqFlags = new long[CAPACITY];
    final long[] len = new long[CAPACITY];
    final long[] bufOffset = new long[CAPACITY];
    final long[] data = new long[CAPACITY];
    final long[] tag = new long[CAPACITY];
    final long[] olen = new long[CAPACITY];
    final int[] errno = new int[CAPACITY];
    final long[] srcAddr = new long[CAPACITY];
    int count;

    @Override
    public void complete(
        final long senderId, final long context, final long opFlags, final long cqFlags, final long len,
        final long bufOffset, final long data, final long tag, final long srcAddr)
    {
        record(false, senderId, context, opFlags, cqFlags, len, bufOffset, data, tag, 0, 0, srcAddr);
    }

    @Override
    public void error(
        final long senderId, final long context, final long cqFlags, final long len, final long bufOffset,
        final long data, final long tag, final long olen, final int errno, final long srcAddr)
    {
        record(true, senderId, context, -1, cqFlags, len, bufOffset, data, tag, olen, errno, srcAddr);
    }

    private void record(
        final boolean isError, final long senderId, final long context, final long opFlags, final long cqFlags,
        final long len, final long bufOffset, final long data, final long tag, final long olen, final int errno,
        final long srcAddr)
    {
        final int i = count++ & (CAPACITY - 1);
        this.error[i] = isError;
        this.senderId[i] = senderId;
        this.context[i] = context;
        this.opFlags[i] = opFlags;
        this.cqFlags[i] = cqFlags;
        this.len[i] = len;
        this.bufOffset[i] = bufOffset;
        this.data[i] = data;
        this.tag[i] = tag;
        this.olen[i] = olen;
        this.errno[i] = errno;
        this.srcAddr[i] = srcAddr;
    }

    /** @return index of the last completion recorded. */
    int last()
    {
        return (count - 1) & (CAPACITY - 1);
    }

    void clear()
    {
        count = 0;
    }
}
