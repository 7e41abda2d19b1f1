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
import io.jfabric.CqFormat;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.WaitObj;

import static io.jfabric.shm.cq.CqRecordDescriptor.maxRecordLength;

/**
 * Checks the attributes an application gives {@code fi_cq_open} against what the shm provider supports, and
 * resolves them into the attributes the queue actually has: a size in [0, limit] (0 becomes the limit, which is the
 * cq.size setting or what the completion ring holds twice over at the largest entry), a format (UNSPEC becomes
 * CONTEXT), a wait object jfabric has (no wait sets or file descriptors), a known wait condition, and no flag but
 * FI_AFFINITY; each breach throws {@link Errno#FI_EINVAL}, an unknown flag {@link Errno#FI_EBADFLAGS}.
 * <p>
 * Stateless; any thread (control path: {@code fi_cq_open}).
 */
final class CqAttrValidator
{
    private CqAttrValidator()
    {
    }

    /**
     * @param attr         requested attributes, null for defaults.
     * @param maxSize      largest size (the cq.size setting).
     * @param maxErrData   max_err_data.
     * @param ringCapacity bytes of the completion ring.
     * @return a new attribute set: the request with its size and format resolved.
     * @throws FabricException as described above.
     */
    static CqAttr resolve(final CqAttr attr, final int maxSize, final int maxErrData, final int ringCapacity)
    {
        final CqAttr a = attr == null ? new CqAttr() : attr.copy();
        final int limit = Math.min(maxSize, ringCapacity / (2 * maxRecordLength(maxErrData)));
        if (a.size() < 0 || a.size() > limit)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_cq_open: size " + a.size() + " is not in [0, " + limit +
                "] (the cq.size setting and the completion ring of " + ringCapacity + " bytes)");
        }
        if (a.size() == 0)
        {
            a.size(limit);
        }
        if (a.format() == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_cq_open: format is null");
        }
        if (a.format() == CqFormat.UNSPEC)
        {
            a.format(CqFormat.CONTEXT);
        }
        if (a.waitObj() == null || a.waitObj() == WaitObj.SET || a.waitObj() == WaitObj.POLLFD ||
            a.waitObj() == WaitObj.FD)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_cq_open: wait_obj " + a.waitObj() + " is not supported; " +
                "use NONE, UNSPEC, YIELD or MUTEX_COND (jfabric has no wait sets or file descriptors)");
        }
        if (a.waitCond() != CqAttr.FI_CQ_COND_NONE && a.waitCond() != CqAttr.FI_CQ_COND_THRESHOLD)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_cq_open: wait_cond " + a.waitCond() + " is unknown");
        }
        if ((a.flags() & ~Flags.FI_AFFINITY) != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_cq_open: flags 0x" + Long.toHexString(a.flags()) +
                " given; only FI_AFFINITY is defined");
        }
        return a;
    }
}
