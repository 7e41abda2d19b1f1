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
package io.jfabric.shm.rma;

import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.Flags;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.shm.rma.AtomicOps;
import io.jfabric.shm.rma.AtomicSupport;

import org.agrona.concurrent.AtomicBuffer;

/**
 * An atomic operation as the memory access of one target region: {@link AtomicOps} run on the memory the region
 * resolves to, the operands, compare values and results at indices into the buffers set here. One per user, refilled
 * for every operation: the initiator of a one-sided atomic ({@link RmaInitiator}, its own buffers) and the target
 * serving an emulated one ({@link EmulatedTarget}, the request and response records). Used by that one thread.
 */
final class AtomicAccess implements RemoteMemory.SegmentAccess
{
    /** What a check-only access returns when the target is fit. */
    static final int CHECKED = 1;

    /** Only check that the target fits the datatype (alignment, size): {@link #CHECKED} or a negated errno. */
    boolean checkOnly;
    AtomicSupport.Kind kind;
    AtomicDatatype type;
    AtomicOp op;
    /** Elements in this region. */
    int count;
    /** Bytes of the operation done in earlier regions: the offset into operands, compare values and results. */
    int done;
    /** The operands (with {@link #sourceIndex} -1: none, FI_ATOMIC_READ). */
    AtomicBuffer source;
    int sourceIndex;
    AtomicBuffer compare;
    int compareIndex;
    AtomicBuffer result;
    int resultIndex;

    /**
     * @param kind the operation's kind.
     * @param op   its operation.
     * @return the access rights it needs of the target region (fi_mr(3)): FI_REMOTE_WRITE, FI_REMOTE_READ (an atomic
     * read), or both.
     */
    static long rights(final AtomicSupport.Kind kind, final AtomicOp op)
    {
        return kind == AtomicSupport.Kind.WRITE ? Flags.FI_REMOTE_WRITE :
            op == AtomicOp.ATOMIC_READ ? Flags.FI_REMOTE_READ : Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE;
    }

    @Override
    public int access(final AtomicBuffer memory, final int index, final int length)
    {
        if (checkOnly)
        {
            final int rc = AtomicOps.checkTarget(type, memory, index, count);
            return rc != 0 ? rc : CHECKED;
        }
        switch (kind)
        {
            case WRITE:
                return AtomicOps.apply(type, op, memory, index, source, sourceIndex + done, count);
            case FETCH:
                return AtomicOps.fetch(type, op, memory, index, sourceIndex < 0 ? null : source,
                    sourceIndex + done, result, resultIndex + done, count);
            default:
                return AtomicOps.compare(type, op, memory, index, source, sourceIndex + done, compare,
                    compareIndex + done, result, resultIndex + done, count);
        }
    }
}
